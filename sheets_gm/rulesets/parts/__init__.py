"""The protocols of a game's optional parts, under the ``Game`` record that names them (``rulesets/game_record.py``).

- ``scenario``: the scenario codec, and the ``Scenario`` (entries, plays) it reads a file into;
- ``fields``: the checked readers of a scenario file's fields, each error naming the file and line;
- ``figures``: what a game's simulation counts (its tally, its figures, how a match can end);
- ``legacy``: how a game reads what an earlier version of it wrote.

They import only the engine core, so a game package and its record look only down; the machinery that uses a
part (``scenario``, ``simulate``, ``sync``) imports its protocol from here. The sheet adapter's protocol is the
sheets layer's (``sheets/adapter.py``).
"""
