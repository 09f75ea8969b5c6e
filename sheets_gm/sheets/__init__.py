"""Spreadsheet I/O: one interface, a Google Sheets backend and a local workbook backend."""
