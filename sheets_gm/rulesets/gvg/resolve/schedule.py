"""Scheduled events: halftime and the boss's arrival, at the turns the settings name."""

from __future__ import annotations

from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.enums import EventKind
from sheets_gm.rulesets.gvg.resolve.work import Turn
from sheets_gm.rulesets.gvg.state import Boss


def scheduled_events(work: Turn) -> None:
    """What the settings schedule for this turn: halftime (every player back to base) and the boss's arrival."""
    st = work.state
    if work.s.halftime_turn and work.turn == work.s.halftime_turn:
        st.jungle = set(work.board.coin_tiles)
        work.log(EventKind.HALFTIME, f"Halftime: the jungle's {counted(len(st.jungle), 'coin')} respawn.",
                 coins=len(st.jungle))
    if work.turn in work.s.boss_spawn_turns and st.boss is None and work.board.boss_tiles:
        tiles = work.board.boss_tiles
        roll = None
        if len(tiles) == 1:
            tile = tiles[0]
        else:
            roll = work.dice.d6("spawn/boss")
            tile = tiles[0] if roll <= 3 else tiles[-1]
        st.boss = Boss(tile, work.s.boss_hp)
        how = "" if roll is None else f" (rolled {roll} [{work.dice.message('spawn/boss')}])"
        work.log(EventKind.BOSS_SPAWNED, f"A boss with {work.s.boss_hp} HP appears on {tile.label}{how}.",
                 at=tile.label, hp=work.s.boss_hp, roll=roll)
