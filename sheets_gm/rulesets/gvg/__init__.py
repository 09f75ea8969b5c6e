"""The WWM GvG guild board game: 5v5, capture the enemy tree and carry it home."""
