"""The door of the judge's mailbox (DESIGN, "Ways in beside the sheet"): what becomes of each mail in the match.

- ``record``: the GM-private record of every mail read (what it was filed as, where its lines went, the sealed
  strategies), which the judge's tools read;
- ``typing``: a mail's lines typed into its side's post table, under a heading, below what is there, never over a
  typed cell, the same cells again when a cut poll files it again;
- ``receipts``: the receipt to the sender alone, quoting each line's answer as the table gives it;
- ``window_ends``: when each window ended (its players' deadline, the moment it closed), so that a mail read late is
  filed for the window open at its arrival;
- ``aside``: the letter to the sender alone of each mail whose lines an ``undo`` set aside, to mail them again;
- ``door``: one poll's mail, filed before the poll reads the sheets and answered after it.
"""
