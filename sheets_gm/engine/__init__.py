"""The rules engine: pure functions from (state, orders, dice) to (new state, event log)."""
