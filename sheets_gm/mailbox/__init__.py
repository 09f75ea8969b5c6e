"""The judge's mailbox: mail to the judge (IMAP) read at every poll, each mail once, as a second door beside the
sheet (``../docs/coalition-judge.md``, "Mail to the judge").

- ``message``: a mail as the door reads it (``Mail``, made by ``read_mail``): its sender, when the server received
  it, its subject and its new text (``body``), and why any part of it was not read, whether it is believed and
  whether it may be answered (``trust``);
- ``client``: the IMAP session (``imapclient``): the login, the folder's STATUS, the new mail by UID in bounded
  batches, the flags of mail handled;
- ``ledger``: the handled-once record (a GM-private file): a mail begun before its filing writes anything,
  finished after;
- ``reader``: a poll's one call, ``new_mail`` (an idle poll: one STATUS), and ``mark_handled``.
"""
