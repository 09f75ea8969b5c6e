"""Win or Die: a two-player skirmish on a hex board with hidden units, command tokens and reactions."""
