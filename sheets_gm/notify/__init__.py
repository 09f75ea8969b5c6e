"""Notices by e-mail and chat: the [notify] settings, the outbox, the channels and what a poll sends."""
