"""Mail to the judge as the Coalition reads it (rulings, "Mail to the judge" and "Strategies by mail"): who sent it
(``senders``), which announced battle a strategy's title names (``titles``), and what becomes of one mail
(``filing``): its movement lines for the sender's side's Forum tab, or a strategy for the judge's record, or why
nothing is read. Pure functions of the state, the roster and the mail's words; the door that reads the mailbox,
types the lines and sends the receipts is the core's (``running.mail_door``).
"""
