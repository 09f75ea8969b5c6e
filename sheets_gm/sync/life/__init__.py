"""A match's life between polls: create it, grow its tables, change it between two resolutions (GM events and
undo), repair it (old layouts too: ``legacy``), export it and its replay, and check its public Log."""
