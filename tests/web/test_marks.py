"""The marks a map draws on a square or hex: where several stand, their count at its corner, whatever draws them
(a faction's symbol, an owner's sign), but not twice where the square's badge already counts them."""

from __future__ import annotations

from sheets_gm.web.scene import Place, Plane
from sheets_gm.web.site import environment
from sheets_gm.web.svg import plane_svg


def _svg(who: tuple[str, ...], symbol: str = "", shape: str = "square", size: int = 20) -> str:
    """A map of ``size`` squares a side (a small one's squares grow, and write the names of who stands there)."""
    place = Place("3C", 0, 0, "#FFFFFF", "", who, "\n".join(who), symbol, "red")
    return plane_svg(environment(), Plane("", shape, size, size, ("3",), ("C",), (place,)), 0)


def test_a_square_several_share_carries_their_count() -> None:
    two = ("◆ Keldon Horde (4 · 9000)", "◆ Shiv Firebrands (3 · 10000)")
    assert '<text class="c"' in _svg(two, "coalition") and ">2</text>" in _svg(two, "coalition")
    assert ">3</text>" in _svg((*two, "○ Caldera Sellswords (2 · 2775)"), "coalition", "hex")
    assert '<text class="c"' not in _svg(two[:1], "coalition")


def test_a_badge_that_counts_them_is_not_counted_again() -> None:
    assert '<text class="c"' not in _svg(("Bo", "Lu", "Ned"))  # Champions' badge: how many stand there
    assert '<text class="c"' not in _svg(("◆ Keldon Horde", "◆ Shiv Firebrands"), size=4)  # both names written


def test_a_villages_owner_is_drawn_beside_it_not_only_on_hover() -> None:
    from sheets_gm.web.scene import sign_words
    from sheets_gm.web.svg import _mark

    def ground(text: str) -> Place:
        return Place("K5", 0, 0, "#FFFFFF", text, (), "")

    assert _mark(ground("⌂●")) == "⌂●" and _mark(ground("⌂ village")) == "⌂"
    assert _mark(ground("▲▲ mountain")) == "▲"  # a mountain's two signs are one ground, not an owner
    from sheets_gm.web.scene import _terrain

    words = sign_words(["♣ forest · ⌂ village, followed by its owner's sign · plain unmarked"])
    assert _terrain("⌂●", words) == "⌂● village" and _terrain("⌂", words) == "⌂ village"


def test_a_battle_is_no_army_of_the_count() -> None:
    """The count is of armies: a battle's own line (what they do) is none, and a crowd's line run on counts each."""
    import re

    def count(who: tuple[str, ...]) -> list[str]:
        return re.findall(r'<text class="c"[^>]*>(\d+)</text>', _svg(who, "coalition"))

    assert count(("⚔ battle (attacks)", "◆ Keldon Horde (4 · 10000)", "○ Caldera Sellswords (2 · 3700)")) == ["2"]
    assert count(("⚔ battle (attacks)", "◆ Keldon Horde (4 · 10000)  ◆ Shiv Firebrands (3 · 10000)",
                  "● Vat Legion (1 · 50)")) == ["3"]
