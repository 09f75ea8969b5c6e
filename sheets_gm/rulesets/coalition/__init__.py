"""The Coalition–Phyrexia war game: a judge's assistant that adjudicates movement (issue 12)."""
