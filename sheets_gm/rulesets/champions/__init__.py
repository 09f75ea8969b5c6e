"""Champions: a loot battle royale for up to sixteen players (rulebook + rulings/champions.md)."""
