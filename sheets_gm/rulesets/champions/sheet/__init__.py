"""Champions' sheets: the adapter (what each tab shows and how typed cells become orders)."""
