"""Balance simulation: thousands of bot-versus-bot matches, summed up as figures a GM can read.

``sheets-gm simulate RULESET`` plays many seeded matches of any registered ruleset between
its bots, with the default settings and, when house rules are given, with them too, in
parallel processes, and reports per bot how often it wins (with a 95% interval), how long
matches last, how they end, and the figures the ruleset counts (``rulesets.parts.figures``: what each game
counts, such as the coins a team earns and spends and how often its players fall).

One module per job:

- ``plan``: what to play: the bots, the variants (default, house rule), the seed of every
  match and the chunks the workers take;
- ``worker``: plays a chunk of matches in one process and returns small plain records;
- ``runner``: hands the chunks to the worker processes and collects the records in order;
- ``stats``: the figures (Wilson intervals, means and spreads) from the records;
- ``report``: the terminal tables, the JSON and the CSV files;
- ``chart``: the PNG chart (Pillow, an optional extra), drawn with ``drawing``.
"""
