"""The GM's files kept in order around ``repair`` and ``export``: the copies kept before a repair, workbooks swapped
put back, the engine moved out of a file players open, an export folder's contents checked."""
