"""The local workbook backend: one .xlsx file read and written with openpyxl, one module per job."""
