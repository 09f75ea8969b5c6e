"""The sync: read the sheets, answer the players, resolve when due, write back in one batch each."""
