"""The judge's mailbox: mail to the judge (IMAP) read at every poll, each mail once, as a second door beside the
sheet (``../docs/coalition-judge.md``, "Mail to the judge").

- ``message``: a mail as the door reads it (``Mail``): its sender, when the server received it, its subject and its
  new text, and why any part of it was not read;
"""
