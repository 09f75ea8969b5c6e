"""The GvG spreadsheet: its layout, how order rows are read and how the board is drawn."""
