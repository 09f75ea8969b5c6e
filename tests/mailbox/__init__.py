"""The judge's mailbox: its config, its reading of mail from a real IMAP server, its ledger."""
