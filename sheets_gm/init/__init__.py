"""Starting a configured match (``sheets-gm init``): what every init shares, the files it checks before it touches
any, the spreadsheets ``init --create`` makes in Drive, and an init cut short settled by the next command."""
