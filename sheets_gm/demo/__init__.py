"""The demo of a ruleset: a whole bot match on local workbooks."""
