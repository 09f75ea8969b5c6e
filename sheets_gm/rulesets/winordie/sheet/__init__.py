"""Win or Die's sheets: the adapter, what players type (read) and what the tabs show (draw)."""
