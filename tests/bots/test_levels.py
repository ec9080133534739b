"""The levels' module beside the bots' registry: one name, one meaning."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import dreizehn.bots
from dreizehn.bots.base import bot_names
from dreizehn.bots.levels import BOT_NAMES, name_bot_seats

BOTS = Path(dreizehn.bots.__file__).parent


def test_no_two_modules_of_the_bots_define_a_function_of_the_same_name() -> None:
    """``bot_names`` named two things: the kinds of bot (``bots.base``) and names for nameless bot seats
    (``bots.levels``, now :func:`name_bot_seats`)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(BOTS.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
                where[node.name].append(path.name)
    assert {name: files for name, files in where.items() if len(files) > 1} == {}


def test_bot_seats_are_named_apart_from_every_other_seat() -> None:
    """A nameless bot seat takes the first of :data:`BOT_NAMES` that no seat has (letter case aside); named seats
    keep their names; the kinds of bot are another list."""
    names = name_bot_seats(["ADA", None, None, "clara", None], [False, True, True, False, True])
    assert names == ["ADA", "Bruno", "Emil", "clara", "Frida"]
    assert name_bot_seats(["Ann", "Hal"], [False, True]) == ["Ann", "Hal"]
    assert not set(BOT_NAMES) & set(bot_names())
