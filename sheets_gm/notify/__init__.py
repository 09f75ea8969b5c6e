"""Notices by e-mail and chat: the outbox, the channels and what a poll sends (the [notify] settings are the config's:
``match.notify_settings``)."""
