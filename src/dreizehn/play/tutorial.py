"""A game's tutorial: a first game on a fixed deal that teaches its rules on the table itself (docs/web.md).

A game that has one keeps it in its own folder as ``tutorial.json``: the deal (``seed``, ``players``, ``options``),
the person's ``seat``, the bots' ``level`` (one whose moves are deterministic given the seed, so the opponents play the
same each time) and the ``steps``. Each step says a catalogue key of the game's own words (``say``) and ends on a
condition (``until``); the browser shows the step now beside the table and moves on when its condition is met:

- ``"want": "<action>"``: the person must make this move (only it is accepted); the step ends when it is made.
- ``"until": "next"``: the person reads and presses Next (no move is accepted meanwhile).
- ``"until": "mine"``: it ends when it is the person's turn.
- ``"until": {"event": <key>, "seat": "me" | "other" | <n>, "has": <param>}``: it ends with an update that told
  such an event (by that seat, with that parameter not empty).
- ``"until": "end"``: the last step; it never ends.

``"free": true`` lets the person play any move while the step is shown (else only the wanted one, or none).

:func:`walk` plays a tutorial through the engine with its bots as the browser would, and says where each step
ended; tests/play/test_tutorials.py checks with it that every step's condition is reached in order on the deal.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreizehn.bots.base import make_bot
from dreizehn.core.registry import game_class

Step = Mapping[str, Any]


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial as its ``tutorial.json`` gives it."""

    game: str
    players: int
    seat: int
    seed: int
    options: Mapping[str, Any]
    level: str
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        """What the browser reads: the game, the person's seat and the steps (not the seed; a tutorial is a practice
        game on a deal its file makes public, and a step that wants a move names a card the person will hold)."""
        return {"game": self.game, "seat": self.seat, "steps": list(self.steps)}


class TutorialError(Exception):
    """A tutorial whose steps do not match what happens on its deal."""


def tutorial_path(game_id: str) -> Path:
    """Where the game keeps its tutorial (it may have none)."""
    module = sys.modules[game_class(game_id).__module__]
    return Path(str(module.__file__)).parent / "tutorial.json"


def load_tutorial(game_id: str) -> Tutorial | None:
    """The game's tutorial, or ``None`` when it has none (an unknown game raises as :func:`game_class` does)."""
    path = tutorial_path(game_id)
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return Tutorial(game_id, int(data["players"]), int(data["seat"]), int(data["seed"]), dict(data.get("options", {})),
                    str(data.get("level", "medium")), tuple(data["steps"]))


def allows_moves(step: Step) -> bool:
    """Whether the person may move while ``step`` is shown (a wanted move, or any in a free step)."""
    return "want" in step or bool(step.get("free")) or step.get("until") == "end"


def matches(until: Any, update: Mapping[str, Any], seat: int) -> bool:
    """Whether an update (its JSON form: ``seat``, ``action``, ``events``) meets an event condition of a step."""
    if not isinstance(until, Mapping):
        return False
    who = until.get("seat")
    for event in update["events"]:
        if event["key"] != until.get("event"):
            continue
        by = event["params"].get("seat", update["seat"])
        if not _by(who, by, seat):
            continue
        if "has" in until and not event["params"].get(until["has"]):
            continue
        return True
    return False


def _by(who: Any, by: int, seat: int) -> bool:
    """Whether an event by seat ``by`` is by ``who`` (``"me"``, the person at ``seat``; ``"other"``; a seat; anyone)."""
    if who == "me":
        return by == seat
    if who == "other":
        return by != seat
    return not isinstance(who, int) or by == who


def ends_with(step: Step, update: Mapping[str, Any], seat: int) -> bool:
    """Whether ``update`` ends ``step``: its wanted move made, or its event told."""
    if "want" in step:
        return bool(update["seat"] == seat and update["action"] == step["want"])
    return matches(step.get("until"), update, seat)


def walk(tutorial: Tutorial) -> list[int]:
    """Play ``tutorial`` through the engine with its bots, the person making each wanted move (in free steps the
    medium bot's move), pressing Next only when the bots wait for them (the slowest reader: what the bots do
    meanwhile is no step's to wait for). Answers the version at which each step ended, up to the last (``"end"``);
    raises :class:`TutorialError` where the deal and the steps part."""
    from dreizehn.play.table import Seat, Table

    seats = [Seat("person") if i == tutorial.seat else Seat(f"bot {i}", bot=tutorial.level)
             for i in range(tutorial.players)]
    table = Table.create(tutorial.game, seats, tutorial.seed, options=tutorial.options)
    helper = make_bot("medium", table.game)
    rng = random.Random(0)
    ended: list[int] = []
    for number, step in enumerate(tutorial.steps):
        until = step.get("until")
        if until == "end":
            ended.append(table.version)
            return ended
        waited = False
        while True:
            if until == "mine" and table.waiting_for_person:
                break
            if until == "next":
                waited = bool(table.play_bots())
                break
            if table.is_over:
                raise TutorialError(f"step {number} ({step['say']}): the game ended before its condition")
            if table.bot_to_move:
                if ends_with(step, table.step().for_seat(tutorial.seat).to_json(), tutorial.seat):
                    break
                continue
            if not allows_moves(step):
                raise TutorialError(f"step {number} ({step['say']}): the person must move, and may not")
            view = table.view(tutorial.seat)
            action = step.get("want") or table.game.action_to_text(helper.act(view, rng))
            legal = [table.game.action_to_text(a) for a in view.legal_actions]
            if action not in legal:
                raise TutorialError(f"step {number} ({step['say']}): {action} is not legal (legal: {legal})")
            if ends_with(step, table.submit(tutorial.seat, action).for_seat(tutorial.seat).to_json(), tutorial.seat):
                break
        follows = tutorial.steps[number + 1] if number + 1 < len(tutorial.steps) else {}
        if waited and isinstance(follows.get("until"), Mapping):
            raise TutorialError(f"step {number + 1} ({follows['say']}) waits for an event the bots may tell while "
                                f"step {number} is read")
        ended.append(table.version)
    raise TutorialError("the tutorial has no last step (until: end)")
