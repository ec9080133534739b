"""The levels' module beside the bots' registry: one name, one meaning (that no two modules of the package define a
function of one name meaning two things, as ``bot_names`` once named the kinds of bot and names for nameless bot
seats, is tests/core/test_names.py's)."""

from __future__ import annotations

from dreizehn.bots.base import bot_names
from dreizehn.bots.levels import BOT_NAMES, name_bot_seats


def test_bot_seats_are_named_apart_from_every_other_seat() -> None:
    """A nameless bot seat takes the first of :data:`BOT_NAMES` that no seat has (letter case aside); named seats
    keep their names; the kinds of bot are another list."""
    names = name_bot_seats(["ADA", None, None, "clara", None], [False, True, True, False, True])
    assert names == ["ADA", "Bruno", "Emil", "clara", "Frida"]
    assert name_bot_seats(["Ann", "Hal"], [False, True]) == ["Ann", "Hal"]
    assert not set(BOT_NAMES) & set(bot_names())
