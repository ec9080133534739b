"""What every game's independent replayer shares: the refusal of a record, the shuffles it hands out, and the checks
of the options. Written from the documents alone: no ``dreizehn`` here (see the package's docstring)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn


class ReplayError(Exception):
    """The record is invalid: the message says what the replay found first."""


def fail(message: str) -> NoReturn:
    raise ReplayError(message)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class Replayed:
    """What a replay gives: the scores of each finished stage and whether the game is over."""

    stage_scores: list[list[int]]
    over: bool
    events: Counter[str] = field(default_factory=Counter)  # how stages ended, reshuffles: for the tests' coverage


class Shuffles:
    """The record's shuffles, handed out in order; each must be an order of exactly the cards being shuffled."""

    def __init__(self, shuffles: list[list[str]]) -> None:
        self.shuffles = shuffles
        self.used = 0

    def next(self, cards: Counter[str], parse: Callable[[str], str]) -> list[str]:
        """The next shuffle, its cards in canonical text, top card first; ``cards`` is what is being shuffled."""
        if self.used >= len(self.shuffles):
            fail(f"too few shuffles (shuffle {self.used + 1} is missing)")
        order = [parse(text) for text in self.shuffles[self.used]]
        self.used += 1
        if Counter(order) != cards:
            fail(f"shuffle {self.used} is not an order of the {sum(cards.values())} cards being shuffled")
        return order

    def check_all_used(self) -> None:
        if self.used != len(self.shuffles):
            fail(f"{len(self.shuffles) - self.used} shuffle(s) more than the game made")


Actions = list[tuple[int, str]]
GameReplayer = Callable[[int, dict[str, Any], Shuffles, Actions], Replayed]
"""A game's replayer: (the number of players, the record's options, its shuffles, its actions) to what it gives."""


def check_seat_option(options: dict[str, Any], name: str, players: int) -> int:
    value = options[name]
    if not is_int(value) or not 0 <= value < players:
        fail(f"option {name!r} must be the seat (0 .. {players - 1}), not {value!r}")
    return int(value)


def check_option_names(options: dict[str, Any], names: set[str]) -> None:
    if set(options) != names:
        fail(f"the options must be exactly {sorted(names)}, not {sorted(options)}")
