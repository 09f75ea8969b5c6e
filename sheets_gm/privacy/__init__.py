"""Who can read what of a configured match: the secret each file or spreadsheet would hold and who opens it, and
which of its files on this computer are the GM's alone."""
