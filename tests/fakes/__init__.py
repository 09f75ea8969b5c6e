"""Fakes for tests: the Google APIs on `responses`, a clock that never sleeps."""
