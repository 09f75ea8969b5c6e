"""The command phase: each captain's command skills, paid and put in force for the turn."""

from __future__ import annotations

from sheets_gm.engine.words import counted
from sheets_gm.rulesets.gvg.enums import EventKind, Skill
from sheets_gm.rulesets.gvg.resolve.work import Turn

# Enum members read here every turn, looked up once: Python 3.11 reads a member off its class through
# EnumType's ``__getattr__`` hook, several times a plain attribute's cost.
_BALLISTA = Skill.BALLISTA
_SKILL_ACTIVATED = EventKind.SKILL_ACTIVATED


def command_phase(work: Turn) -> None:
    """Each captain's accepted skills paid for and logged, then the skills in force this turn (activated within their
    duration)."""
    st = work.state
    for team, skills in enumerate(work.checked.accepted.skills):
        for skill in skills:
            _activate(work, team, skill)
    duration, turn = work.s.skill_duration, work.turn
    for team in (0, 1):
        cooldowns = st.cooldowns[team]
        if cooldowns:  # none yet: ``Turn`` starts with no skill in force
            work.active[team] = {k for k, last in cooldowns.items() if last <= turn < last + duration}


def _activate(work: Turn, team: int, skill: Skill) -> None:
    """``team``'s captain pays for ``skill``, which starts its cooldown (the ballista's charges come at once)."""
    st = work.state
    cost = work.s.cost(skill)
    st.coins[team] -= cost
    st.cooldowns[team][skill] = work.turn
    extra = ""
    if skill is _BALLISTA:
        st.ballista[team] += work.s.ballista_charges
        extra = f"; {counted(st.ballista[team], 'ballista charge')}"
    work.log(_SKILL_ACTIVATED,
             f"{work.team(team)} activates {skill.display} for {counted(cost, 'coin')}; "
             f"{st.coins[team]} left{extra}.",
             team=work.team(team), skill=skill.value, cost=cost, coins_left=st.coins[team])
