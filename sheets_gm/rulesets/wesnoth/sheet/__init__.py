"""Wesnoth's sheets: the adapter, what players type (read), the board and the tables (draw)."""
