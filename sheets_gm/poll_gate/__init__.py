"""The poll gate: whether a poll of a match reads at all, and what it keeps for the next one (``run``); cron's poll and
``serve``'s look both ask it, above the sync whose poll it runs."""
