"""A small game of sealed simultaneous choices with a public reveal, for the shared tests: a sealed-bid auction, no
map. Three bidders of 10 coins each; four lots are sold, one a window. Each bidder has a secret favourite lot, drawn
at the set-up with the match's dice. Every window each bids for the lot on sale (0 to her coins, in secret); the
highest bid buys it and pays it, a tie broken by the match's dice. The sale's line is public and tells the lot, the
buyer and the price, nothing else: the losing bids stay secret for ever. At the end every favourite is revealed, and
the scores (a lot 5, a favourite 5 more, a coin left 1) name the winners.

Each of its settings plants one mistake, for the tests to find (``tests/conformance/test_toy_games.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar

from sheets_gm.rulesets import kit

LOTS = ("Vase", "Clock", "Lamp", "Rug")
COINS = 10
Kind = Enum("Kind", "BID BIDS SOLD END")


@dataclass(frozen=True)
class Settings:
    """No house rule of the game's own: the mistakes a test may plant, one at a time."""

    losing_bids_public: bool = False  # a public line lists the losing bids
    bids_in_sale_line: bool = False  # the sale's line ends with the losing bids
    favourite_in_sale_line: bool = False  # the sale's line names the buyer's secret favourite before the end
    late: bool = False  # each window's bids kept in the state, out of every view, and carried out a window late
    random_setup: bool = False  # the favourites drawn with Python's random
    feedback_names_others: bool = False  # a bid's feedback names the other bids
    random_tie: bool = False  # the buyer among the highest bids drawn with Python's random
    fixed_window: bool = False  # every window has the same key
    bids_told_at_end: bool = False  # the last line, at the end, tells the last lot's losing bids too


@dataclass(frozen=True)
class State:
    """Each bidder's coins and favourite lot ('' where the seat whose state it is cannot know it), the sales so far
    (lot, buyer, price; '' and 0 for a lot nobody bid for), and the bids kept (``late``)."""

    coins: Mapping[str, int]
    favourite: Mapping[str, str]
    sales: tuple[tuple[str, str, int], ...] = ()
    kept: Mapping[str, int] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        """Whether every lot was put up for sale."""
        return len(self.sales) >= len(LOTS)


@dataclass(frozen=True)
class Orders:
    """Each bidder's bid for the lot on sale."""

    bids: Mapping[str, int] = field(default_factory=dict)


def scores(state: State) -> dict[str, int]:
    """Each bidder's score: 5 a lot bought, 5 more for her favourite, 1 a coin left."""
    return {s: coins + sum(5 + 5 * (lot == state.favourite[s]) for lot, buyer, _ in state.sales if buyer == s)
            for s, coins in state.coins.items()}


class Rules(kit.Ruleset[State, Orders, dict[str, Any]]):
    """The rules of the auction (see the module)."""

    traits: ClassVar[kit.RulesetTraits] = kit.RulesetTraits(
        name="auction", title="Auction (a test game of sealed bids)", turn_structure=kit.TurnStructure.SIMULTANEOUS,
        seat_kind=kit.SeatKind.PLAYER, information=kit.Information.HIDDEN_STATE, board_kind=kit.BoardKind.SQUARE,
        min_seats=3, max_seats=3, max_windows=len(LOTS), settings_type=Settings)
    reveals = (kit.Reveal(Kind.SOLD, after=("sales",)),
               kit.Reveal(Kind.END, after=("favourite", "sales", "coins")))

    def sample_roster(self) -> kit.Roster:
        """Ann, Bo and Cy."""
        return kit.Roster(("Ann", "Bo", "Cy"), tuple(kit.Member(n, n) for n in ("Ann", "Bo", "Cy")))

    def new_match(self, roster: kit.Roster, seed: bytes) -> State:
        """Ten coins each, and a favourite lot drawn for each."""
        dice = kit.TurnDice(seed, 0)
        favourite = {s: random.choice(LOTS) if self.settings.random_setup else dice.pick(f"favourite/{s}", LOTS)
                     for s in roster.seats}
        return State(dict.fromkeys(roster.seats, COINS), favourite)

    def seats(self, state: State) -> tuple[str, ...]:
        """The bidders."""
        return tuple(state.coins)

    def window(self, state: State) -> kit.Window | None:
        """One window a lot, every bidder in it."""
        if state.over:
            return None
        n = len(state.sales) + 1
        key = "lot" if self.settings.fixed_window else str(n)
        return kit.Window(key, f"lot {n}: the {LOTS[n - 1]}", "bid", self.seats(state), n)

    def dice(self, seed: bytes, state: State, pins: Mapping[str, Any] | None = None) -> kit.TurnDice:
        """The window's dice (a tie's draw)."""
        return kit.TurnDice(seed, len(state.sales) + 1, pins)

    def merge_orders(self, parts: Mapping[str, Orders]) -> Orders:
        """Each bidder's bid."""
        return Orders({seat: bid for part in parts.values() for seat, bid in part.bids.items()})

    def check(self, state: State, orders: Orders, dice: kit.TurnDice) -> list[kit.Verdict]:
        """A bid of 0 to her coins is accepted from a bidder."""
        out = []
        for seat, bid in orders.bids.items():
            ok = seat in state.coins and 0 <= bid <= state.coins[seat]
            said = f"you bid {bid}" if ok else f"bid 0 to {state.coins.get(seat, 0)}, not {bid}"
            if self.settings.feedback_names_others:
                said += " (" + ", ".join(f"{s} {b}" for s, b in orders.bids.items() if s != seat) + ")"
            out.append(kit.Verdict(seat, seat, "bid", ok, said))
        return out

    def resolve(self, state: State, orders: Orders, dice: kit.TurnDice) -> kit.Resolution[State]:
        """The lot sold to the highest bid (a tie drawn), told publicly; each bidder told her own bid."""
        carried = Orders(dict(state.kept)) if self.settings.late else orders
        lot = LOTS[len(state.sales)]
        bids = {v.seat: carried.bids[v.seat] for v in self.check(state, carried, dice) if v.accepted}
        events = [kit.Event(len(state.sales) + 1, Kind.BID, f"You bid {b} for the {lot}.", audience=frozenset({s}))
                  for s, b in bids.items()]
        top = max(bids.values(), default=0)
        tied = sorted(s for s, b in bids.items() if b == top and b > 0)
        buyer = (random.choice(tied) if self.settings.random_tie else dice.pick(f"tie/{lot}", tied)) if tied else ""
        coins = {s: c - (top if s == buyer else 0) for s, c in state.coins.items()}
        after = replace(state, coins=coins, sales=(*state.sales, (lot, buyer, top if buyer else 0)),
                        kept=dict(orders.bids) if self.settings.late else {})
        events.append(kit.Event(len(state.sales) + 1, Kind.SOLD, self._sale_line(state, lot, buyer, top, bids)))
        losing = ", ".join(f"{s} {b}" for s, b in sorted(bids.items()) if s != buyer)
        if self.settings.losing_bids_public and losing:
            events.append(kit.Event(len(state.sales) + 1, Kind.BIDS, f"Losing bids: {losing}."))
        if after.over:
            told = "; ".join(f"{s}: the {f}, {n} points" for (s, f), n in zip(
                after.favourite.items(), scores(after).values(), strict=True))
            told += f"; the last bids: {losing}" if self.settings.bids_told_at_end and losing else ""
            events.append(kit.Event(len(state.sales) + 1, Kind.END, f"Favourites and scores: {told}."))
        return kit.Resolution(after, events)

    def _sale_line(self, state: State, lot: str, buyer: str, price: int, bids: Mapping[str, int]) -> str:
        """The public line of a sale: the lot, the buyer and the price (and what a planted mistake adds)."""
        if not buyer:
            return f"Nobody bids for the {lot}."
        line = f"The {lot} goes to {buyer} for {price}."
        if self.settings.bids_in_sale_line:
            line += " Other bids: " + ", ".join(f"{s} {b}" for s, b in sorted(bids.items()) if s != buyer) + "."
        if self.settings.favourite_in_sale_line:
            line += f" {buyer}'s favourite is the {state.favourite[buyer]}."
        return line

    def outcome(self, state: State) -> kit.Outcome | None:
        """The best scores win, once every lot was put up."""
        if not state.over:
            return None
        best = max(scores(state).values())
        winners = tuple(s for s, n in scores(state).items() if n == best)
        return kit.Outcome(winners, f"{' and '.join(winners)} won with {best}")

    def seat_state(self, state: State, seat: str) -> State:
        """Her own favourite (every one, once the auction is over), none of the bids kept."""
        shown = state.favourite if state.over else {s: f if s == seat else "" for s, f in state.favourite.items()}
        return State(state.coins, shown, state.sales)

    def unseen_twin(self, state: State, seat: str, rng: random.Random) -> State:
        """The other bidders' favourites drawn afresh, while the auction goes on (at its end none is secret)."""
        if state.over:
            return state
        return replace(state, favourite={s: f if s == seat else rng.choice(LOTS) for s, f in state.favourite.items()})


@dataclass
class Bidder:
    """A bot: a few coins at random for a lot, more for her favourite, so that bids often tie."""

    rng: random.Random

    def orders(self, state: State, seat: str, dice: kit.TurnDice) -> Orders:
        """Her bid for the lot on sale."""
        lot = LOTS[len(state.sales)]
        most = min(state.coins[seat], 5 if lot == state.favourite[seat] else 3)
        return Orders({seat: self.rng.randint(0, most)})


#: The game's one kind of bot.
BOTS = {"bidder": kit.BotKind("bidder", "a few coins at random, more for her favourite",
                              lambda seed: Bidder(random.Random(seed)))}
