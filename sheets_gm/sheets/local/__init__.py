"""The local workbook backend: one .xlsx file read and written with openpyxl, one module per job.

``backend`` (the :class:`~sheets_gm.sheets.local.backend.LocalWorkbookBackend` and ``create_workbook``), ``cells``
(values in and out of a cell), ``boxes`` (A1 ranges as boxes), ``layout`` and ``protection`` (a
:class:`~sheets_gm.sheets.layout.WorkbookLayout` mapped onto the workbook), ``disk`` (stamps, atomic saves, the
sidecar lock) and ``office_locks`` (LibreOffice's and Excel's lock files).
"""

# openpyxl first, without numpy (see that module): every module of this package imports openpyxl's parts.
import sheets_gm.sheets.xlsx  # noqa: F401
