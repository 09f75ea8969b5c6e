"""The Google Sheets backend and Drive, one module per job."""
