"""Game records: a JSON document of a game, finished or not, that replays card for card (docs/record-format.md).

A record holds the game id, the options (every ``"random"`` already drawn), the players' names, the order of every
shuffle as it fell, every action with its seat, and the scores. Importing replays it and checks everything.

>>> import dreizehn
>>> from dreizehn.core.record import to_record, replay
>>> state = dreizehn.new_game("knizia13", players=3, seed=5)
>>> state.apply(state.legal_actions()[0])
>>> doc = to_record(state)
>>> doc["actions"][0][1] == state.game.action_to_text(state.history[0][1])
True
>>> replay(doc).history == state.history
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dreizehn.core.errors import DreizehnError, RecordError
from dreizehn.core.game import State
from dreizehn.core.registry import game_class

FORMAT = "dreizehn-record"
VERSION = 1


def to_record(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state`` as a JSON-ready dict. ``names`` are the players' names, seat by seat."""
    game = state.game
    card, action = game.card_type, game.action_type
    if names is None:
        names = [f"seat {seat}" for seat in range(game.players)]
    if len(names) != game.players:
        raise ValueError(f"{len(names)} names given for {game.players} players")
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.id,
        "players": list(names),
        "options": dict(state.options),
        "shuffles": [[card.of(c).text for c in order] for order in state.shuffles],
        "actions": [[seat, action.of(a).text] for seat, a in state.log],
        "stage_scores": [list(scores) for scores in state.stage_scores],
        "totals": list(state.totals),
        "over": state.is_over,
        "winners": list(state.winners),
    }


def dumps(state: State, names: Sequence[str] | None = None) -> str:
    """The record as JSON text (one action per line, easy to read and to diff)."""
    doc = to_record(state, names)
    head = {k: v for k, v in doc.items() if k not in ("shuffles", "actions")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "shuffles": [')
    lines.append(",\n".join(f"    {json.dumps(order)}" for order in doc["shuffles"]))
    lines.append("  ],")
    lines.append('  "actions": [')
    lines.append(",\n".join(f"    {json.dumps(a)}" for a in doc["actions"]))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def save(state: State, path: str | Path, names: Sequence[str] | None = None) -> None:
    """Write the record of ``state`` to ``path``."""
    Path(path).write_text(dumps(state, names), encoding="utf-8")


def load(path: str | Path) -> State:
    """Read, replay and check the record in ``path``; raises :class:`RecordError` naming what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    return loads(text)


def loads(text: str) -> State:
    """Replay and check a record given as JSON text."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"the record is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    return replay(doc)


def _field(doc: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    if name not in doc:
        raise RecordError(f"the record has no {name!r} field ({what})")
    value = doc[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"the record's {name!r} field must be {what}, not {value!r}")
    return value


def replay(doc: Mapping[str, Any]) -> State:
    """Replay a record (a parsed JSON document) and check every field; returns the state it reaches.

    Raises :class:`RecordError` naming the first wrong field or action.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record is a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f"the record's 'format' field must be {FORMAT!r}, not {doc.get('format')!r}")
    if doc.get("version") != VERSION:
        raise RecordError(f"this program reads records of version {VERSION}, not {doc.get('version')!r}")
    game_id = _field(doc, "game", str, "a game id")
    names = _field(doc, "players", list, "the list of the players' names")
    options = _field(doc, "options", dict, "an object of game options")
    shuffles = _field(doc, "shuffles", list, "a list of shuffles")
    actions = _field(doc, "actions", list, "a list of [seat, action] pairs")
    try:
        cls = game_class(game_id)
        for spec in cls.option_specs:
            if spec.kind == "seat" and options.get(spec.name) == "random":
                raise RecordError(f"option {spec.name!r} must name the seat that was drawn, not 'random'")
        game = cls(len(names), options)
    except DreizehnError as err:
        raise RecordError(f"the record's game, players or options are wrong: {err}") from None
    orders: list[list[int]] = []
    for i, order in enumerate(shuffles):
        if not isinstance(order, list):
            raise RecordError(f"shuffle {i + 1} must be a list of cards")
        cards = []
        for j, text in enumerate(order):
            try:
                cards.append(int(game.parse_card(str(text))))
            except DreizehnError:
                raise RecordError(
                    f"shuffle {i + 1}, position {j + 1}: {text!r} is not a card of {game.title}"
                ) from None
        orders.append(cards)
    try:
        state = game.new_state(0, shuffles=orders)
    except RecordError as err:
        raise RecordError(f"the first deal: {err}") from None
    for i, entry in enumerate(actions):
        where = f"action {i + 1}"
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and not isinstance(entry[0], bool) and isinstance(entry[1], str)):
            raise RecordError(f"{where} must be a pair [seat, action text], not {entry!r}")
        seat, text = entry
        if state.is_over:
            raise RecordError(f"{where} ({text!r}) comes after the game ended")
        if seat != state.current_player:
            raise RecordError(f"{where} ({text!r}) is by seat {seat}, but it was seat {state.current_player}'s turn")
        try:
            state.apply(text)
        except DreizehnError as err:
            raise RecordError(f"{where} ({text!r} by seat {seat}) is illegal: {err}") from None
    if state._forced:
        raise RecordError(f"the record has {len(state._forced)} shuffle(s) more than the game made")
    _check_scores(doc, state)
    return state


def _check_scores(doc: Mapping[str, Any], state: State) -> None:
    if "stage_scores" in doc:
        stage_scores = [list(s) for s in state.stage_scores]
        if doc["stage_scores"] != stage_scores:
            for i, (given, true) in enumerate(zip(doc["stage_scores"], stage_scores, strict=False)):
                if given != true:
                    raise RecordError(
                        f"'stage_scores' of {state.game.stage_name} {i + 1} are {given}, but the game gives {true}"
                    )
            raise RecordError(
                f"'stage_scores' lists {len(doc['stage_scores'])} {state.game.stage_name}s, "
                f"but {len(stage_scores)} were finished"
            )
    checks: tuple[tuple[str, object], ...] = (
        ("totals", list(state.totals)), ("over", state.is_over), ("winners", list(state.winners))
    )
    for name, expected in checks:
        if name in doc and doc[name] != expected:
            raise RecordError(f"the record's {name!r} field is {doc[name]!r}, but the game gives {expected!r}")
