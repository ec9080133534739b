"""Game records: a JSON document of a game, finished or not, that replays card for card (docs/record-format.md).

A record holds the game id, the options (every ``"random"`` already drawn), the players' names, the order of every
shuffle as it fell, every action with its seat, and the scores. Importing replays it and checks everything: a record
is exactly what docs/record-format.md describes (UTF-8 JSON, every field present with its JSON type, no other field),
and anything else is refused with a :class:`~dreizehn.core.errors.RecordError` that names the field, counting from 1.

>>> import dreizehn
>>> from dreizehn.core.record import to_record, replay, loads
>>> state = dreizehn.new_game("knizia13", players=3, seed=5)
>>> state.apply(state.legal_actions()[0])
>>> doc = to_record(state)
>>> doc["actions"][0][1] == state.game.action_to_text(state.history[0][1])
True
>>> replay(doc).history == state.history
True
>>> replay({**doc, "over": 0})
Traceback (most recent call last):
    ...
dreizehn.core.errors.RecordError: the record's 'over' field must be true or false, not 0
>>> loads(b'\\xff\\xfe{')
Traceback (most recent call last):
    ...
dreizehn.core.errors.RecordError: the record is UTF-16 text (it starts with a UTF-16 byte order mark); records are UTF-8
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from dreizehn.core.errors import DreizehnError, RecordError, ShuffleNeeded
from dreizehn.core.game import Game, Option, OptionSpec, State
from dreizehn.core.registry import game_class

FORMAT = "dreizehn-record"
VERSION = 1
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record read, in bytes (16 MiB; records of whole games of random play are well under 1 MiB)."""
MAX_DIGITS = 18
"""The most digits an integer of a record may have (no true value comes near)."""
MAX_TEXT = 200
"""The longest card or action text looked up (every true one is a few characters)."""

FIELDS: dict[str, str] = {
    "format": f"always {FORMAT!r}",
    "version": f"the integer {VERSION}",
    "game": "a game id, a string",
    "players": "the list of the players' names, seat 0 first",
    "options": "an object with every option of the game",
    "shuffles": "a list of shuffles, each a list of card texts",
    "actions": "a list of [seat, action text] pairs",
    "stage_scores": "a list of lists of integers, one list per finished stage",
    "totals": "a list of integers, one per seat",
    "over": "true or false",
    "winners": "a list of seats in ascending order",
}
"""Every field of a record, in the order :func:`to_record` writes them, with what it holds."""


def to_record(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state`` as a JSON-ready dict. ``names`` are the players' names, seat by seat.

    >>> import dreizehn
    >>> doc = to_record(dreizehn.new_game("holzwurm", players=2, seed=1), names=["ann", "bo"])
    >>> list(doc) == list(FIELDS), doc["players"], doc["options"]
    (True, ['ann', 'bo'], {'games': 3, 'starter': 0})
    """
    game = state.game
    card, action = game.card_type, game.action_type
    if names is None:
        names = [f"seat {seat}" for seat in range(game.players)]
    if len(names) != game.players:
        raise ValueError(f"{len(names)} names given for {game.players} players")
    if not all(isinstance(name, str) for name in names):
        raise ValueError(f"the players' names must be strings, not {list(names)!r}")
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
    """Write the record of ``state`` to ``path`` (UTF-8)."""
    Path(path).write_text(dumps(state, names), encoding="utf-8")


def load(path: str | Path) -> State:
    """Read, replay and check the record in ``path``; raises :class:`RecordError` naming what is wrong.

    A file larger than :data:`MAX_RECORD_BYTES` is refused before it is read.
    """
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                _too_large(f"{size} bytes")
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror or err}") from None
    return loads(data)


def loads(text: str | bytes) -> State:
    """Replay and check a record given as JSON text, or as the bytes of a file (which must be UTF-8).

    >>> loads('{"format": "dreizehn-record", "version": true}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    dreizehn.core.errors.RecordError: the record's 'version' field must be 1 (... version 1, not true)
    """
    return replay(parse(text))


def parse(text: str | bytes) -> Any:
    """The JSON document in ``text`` (a str, or bytes that must be UTF-8), checked as JSON only.

    Refuses, with a :class:`RecordError`, text over :data:`MAX_RECORD_BYTES`, bytes that are not UTF-8, the
    non-JSON constants ``NaN`` and ``Infinity``, keys repeated in one object, integers of more than
    :data:`MAX_DIGITS` digits and nesting too deep for the parser.

    >>> parse('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse('[' * 100000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    dreizehn.core.errors.RecordError: the record is nested too deeply (lists and objects within each other); ...
    """
    if isinstance(text, bytes | bytearray | memoryview):
        data = bytes(text)
        if len(data) > MAX_RECORD_BYTES:
            _too_large(f"{len(data)} bytes")
        text = _decode(data)
    elif not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    elif len(text) > MAX_RECORD_BYTES:
        _too_large(f"{len(text)} characters")
    try:
        return _DECODER.decode(text)
    except RecordError:
        raise
    except json.JSONDecodeError as err:
        raise RecordError(
            f"the record is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    except RecursionError:
        raise RecordError(
            "the record is nested too deeply (lists and objects within each other); a record's deepest value lies "
            "3 levels down"
        ) from None
    except ValueError as err:  # not raised by today's parser; kept so that no input ends in a traceback
        raise RecordError(f"the record is not valid JSON: {err}") from None


def _too_large(size: str) -> NoReturn:
    raise RecordError(
        f"the record is too large ({size}); records of more than {MAX_RECORD_BYTES} bytes "
        f"({MAX_RECORD_BYTES // 2**20} MiB) are refused"
    )


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise RecordError("the record is UTF-32 text (it starts with a UTF-32 byte order mark); records are UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise RecordError("the record is UTF-16 text (it starts with a UTF-16 byte order mark); records are UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        raise RecordError("the record starts with a byte order mark; records are UTF-8 without one")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RecordError(
            f"byte {nul + 1} of the record is a NUL byte, which UTF-8 JSON text never holds (records are UTF-8; "
            f"is this file UTF-16?)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(
            f"the record is not UTF-8 text: byte {err.start + 1} (0x{data[err.start]:02x}) is not valid UTF-8 "
            f"({err.reason}); records are UTF-8"
        ) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the record is not valid: the key {_show(key)} appears twice in one object")
        out[key] = value
    return out


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordError(
            f"the record holds an integer of {digits} digits; integers in a record have at most {MAX_DIGITS}"
        )
    return int(text)


def _constant(name: str) -> NoReturn:
    raise RecordError(f"the record is not valid JSON: {name} is not a JSON value")


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant)


def _show(value: object, depth: int = 2) -> str:
    """A short text of a value for a message: JSON's literals, long strings and lists cut, never recursing deep.

    >>> _show([0, [1, [2, [3]]], "x" * 50, None, True, 5])
    "[0, [1, [...]], 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', null, ...]"
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() <= 64:
            return str(value)
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:30])[:-1] + "...'"
    if isinstance(value, list):
        if depth <= 0:
            return "[...]" if value else "[]"
        items = [_show(item, depth - 1) for item in value[:4]]
        return "[" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "]"
    if isinstance(value, Mapping):
        if depth <= 0:
            return "{...}" if value else "{}"
        items = [f"{_show(k, 0)}: {_show(v, depth - 1)}" for k, v in list(value.items())[:3]]
        return "{" + ", ".join(items + (["..."] if len(value) > 3 else [])) + "}"
    return f"a {type(value).__name__}"


def _is_int(value: object) -> bool:
    return type(value) is int


def _int_list(value: object, name: str, item: str, length: int | None = None) -> list[int]:
    """The list of integers in field ``name`` (its items called ``item`` in messages), checked."""
    where = f"the record's {name!r} field"
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of integers, not {_show(value)}")
    for i, entry in enumerate(value):
        if not _is_int(entry):
            raise RecordError(f"{where}: {item} {i + 1} must be an integer, not {_show(entry)}")
    if length is not None and len(value) != length:
        raise RecordError(f"{where} must list {length} integers (one per seat), not {len(value)}")
    return value


def _check_options(cls: type[Game], players: int, options: object) -> dict[str, Option]:
    """The options of a record: exactly the game's options, each of its documented JSON type."""
    where = "the record's 'options' field"
    names = [spec.name for spec in cls.option_specs]
    if not isinstance(options, Mapping):
        raise RecordError(f"{where} must be an object of the game's options, not {_show(options)}")
    for name in options:
        if name not in names:
            raise RecordError(f"{where}: {cls.title} has no option {_show(name)} (its options: {', '.join(names)})")
    for spec in cls.option_specs:
        if spec.name not in options:
            raise RecordError(
                f"{where} has no option {spec.name!r}: a record holds every option of the game ({', '.join(names)})"
            )
        value = options[spec.name]
        if spec.kind == "seat" and value == "random":
            raise RecordError(f"{where}: option {spec.name!r} must name the seat that was drawn (a whole number from 0 "
                              f"to {players - 1}), not 'random' ({spec.rule})")
        what = _option_type(spec, players, value)
        if what:
            raise RecordError(f"{where}: option {spec.name!r} must be {what}, not {_show(value)} ({spec.rule})")
    return dict(options)


def _option_type(spec: OptionSpec, players: int, value: object) -> str:
    """What the value of ``spec`` must be, if ``value`` is not that; empty if it is."""
    if spec.kind == "bool":
        return "" if type(value) is bool else "true or false (a JSON boolean)"
    if spec.kind == "int":
        ok = _is_int(value) and spec.low <= value <= spec.high  # type: ignore[operator]
        return "" if ok else f"a whole number from {spec.low} to {spec.high} (a JSON integer)"
    if spec.kind == "choice":
        ok = type(value) is str and value in spec.choices
        return "" if ok else "one of " + ", ".join(repr(choice) for choice in spec.choices) + " (a JSON string)"
    if spec.kind == "seat":
        ok = _is_int(value) and 0 <= value < players  # type: ignore[operator]
        return "" if ok else f"a seat, a whole number from 0 to {players - 1} (a JSON integer)"
    try:  # a kind this module does not know: the value must be what the game itself would write
        ok = type(spec.validate(value, players)) is type(value) and spec.validate(value, players) == value
    except (DreizehnError, RecursionError):
        ok = False
    return "" if ok else f"a value of the game's option ({spec.allowed(players)})"


def _header(doc: object) -> Mapping[str, Any]:
    """Checks ``format``, ``version`` and that the record has exactly the fields of :data:`FIELDS`."""
    if not isinstance(doc, Mapping):
        raise RecordError(f"a record is a JSON object, not {_show(doc)}")
    if "format" not in doc:
        raise RecordError(f"the record has no 'format' field (it is {FIELDS['format']}): is it a dreizehn record?")
    if type(doc["format"]) is not str or doc["format"] != FORMAT:
        raise RecordError(f"the record's 'format' field must be {FORMAT!r}, not {_show(doc['format'])}")
    if "version" not in doc:
        raise RecordError(f"the record has no 'version' field ({FIELDS['version']})")
    if not _is_int(doc["version"]) or doc["version"] != VERSION:
        raise RecordError(
            f"the record's 'version' field must be {VERSION} (this program reads records of version {VERSION}, "
            f"not {_show(doc['version'])})"
        )
    for name in doc:
        if name not in FIELDS:
            raise RecordError(
                f"the record has a field {_show(name)} that records do not have (their fields: {', '.join(FIELDS)})"
            )
    for name, what in FIELDS.items():
        if name not in doc:
            raise RecordError(f"the record has no {name!r} field ({what})")
    return doc


def _check_shape(doc: Mapping[str, Any], cls: type[Game], players: int) -> None:
    """The types of ``shuffles``, ``actions``, ``stage_scores``, ``totals``, ``over`` and ``winners``."""
    shuffles = doc["shuffles"]
    if not isinstance(shuffles, list):
        raise RecordError(f"the record's 'shuffles' field must be a list of shuffles, not {_show(shuffles)}")
    for i, order in enumerate(shuffles):
        if not isinstance(order, list):
            raise RecordError(f"the record's 'shuffles' field: shuffle {i + 1} must be a list of cards, not "
                              f"{_show(order)}")
        for j, text in enumerate(order):
            if not isinstance(text, str):
                raise RecordError(f"the record's 'shuffles' field: shuffle {i + 1}, position {j + 1} must be a card "
                                  f"text (a string), not {_show(text)}")
    actions = doc["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"the record's 'actions' field must be a list of [seat, action text] pairs, not "
                          f"{_show(actions)}")
    for i, entry in enumerate(actions):
        if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and isinstance(entry[1], str)):
            raise RecordError(f"the record's 'actions' field: action {i + 1} must be a pair [seat, action text], "
                              f"not {_show(entry)}")
    stage_scores = doc["stage_scores"]
    if not isinstance(stage_scores, list):
        raise RecordError(f"the record's 'stage_scores' field must be a list of lists of integers (one list per "
                          f"finished {cls.stage_name}), not {_show(stage_scores)}")
    for i, scores in enumerate(stage_scores):
        where = f"the record's 'stage_scores' field: {cls.stage_name} {i + 1}"
        if not isinstance(scores, list):
            raise RecordError(f"{where} must be a list of integers, not {_show(scores)}")
        for seat, points in enumerate(scores):
            if not _is_int(points):
                raise RecordError(f"{where}, seat {seat} must have an integer, not {_show(points)}")
        if len(scores) != players:
            raise RecordError(f"{where} must list {players} scores (one per seat), not {len(scores)}")
    _int_list(doc["totals"], "totals", "total", players)
    if type(doc["over"]) is not bool:
        raise RecordError(f"the record's 'over' field must be true or false, not {_show(doc['over'])}")
    winners = _int_list(doc["winners"], "winners", "winner")
    for i, seat in enumerate(winners):
        if not 0 <= seat < players:
            raise RecordError(f"the record's 'winners' field: winner {i + 1} must be a seat from 0 to {players - 1}, "
                              f"not {_show(seat)}")
        if i and seat <= winners[i - 1]:
            raise RecordError(f"the record's 'winners' field must list seats in ascending order, each once, not "
                              f"{_show(winners)}")


def replay(doc: Mapping[str, Any]) -> State:
    """Replay a record (a parsed JSON document) and check every field; returns the state it reaches.

    Raises :class:`RecordError` naming the first wrong field or action (counting from 1).

    >>> import dreizehn
    >>> doc = to_record(dreizehn.new_game("knizia13", players=3, seed=5))
    >>> try:
    ...     replay({**doc, "options": {"dealer": 0, "open_piles": "yes"}})
    ... except RecordError as err:
    ...     print(err)
    the record's 'options' field: option 'open_piles' must be true or false (a JSON boolean), not 'yes' (K12)
    """
    doc = _header(doc)
    game_id = doc["game"]
    if not isinstance(game_id, str):
        raise RecordError(f"the record's 'game' field must be a game id (a string), not {_show(game_id)}")
    try:
        cls = game_class(game_id)
    except DreizehnError as err:
        raise RecordError(f"the record's 'game' field: {err}") from None
    names = doc["players"]
    if not isinstance(names, list) or not names:
        raise RecordError(f"the record's 'players' field must be a non-empty list of the players' names, not "
                          f"{_show(names)}")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RecordError(f"the record's 'players' field: name {i + 1} must be a string, not {_show(name)}")
    try:
        cls(len(names))
    except DreizehnError as err:
        raise RecordError(f"the record's 'players' field lists {len(names)} players: {err}") from None
    options = _check_options(cls, len(names), doc["options"])
    try:
        game = cls(len(names), options)
    except DreizehnError as err:
        raise RecordError(f"the record's 'options' field: {err}") from None
    _check_shape(doc, cls, game.players)
    orders: list[list[int]] = []
    for i, order in enumerate(doc["shuffles"]):
        cards = []
        for j, text in enumerate(order):
            try:
                if len(text) > MAX_TEXT:
                    raise RecordError(text)
                cards.append(int(game.parse_card(text)))
            except DreizehnError:
                raise RecordError(
                    f"shuffle {i + 1}, position {j + 1}: {_show(text)} is not a card of {game.title}"
                ) from None
        orders.append(cards)
    if not orders:
        raise RecordError("the record's 'shuffles' field is empty, but the first deal needs a shuffle")
    try:
        state = game.new_state(0, shuffles=orders)
    except RecordError as err:
        raise RecordError(f"the first deal: {err}") from None
    actions: list[list[Any]] = doc["actions"]
    for i, (seat, text) in enumerate(actions):
        where = f"action {i + 1}"
        shown = _show(text)
        if state.is_over:
            raise RecordError(f"{where} ({shown}) comes after the game ended")
        if seat != state.current_player:
            raise RecordError(f"{where} ({shown}) is by seat {_show(seat)}, but it was seat {state.current_player}'s "
                              f"turn")
        if len(text) > MAX_TEXT:
            raise RecordError(f"{where} ({shown} by seat {seat}) is not an action of {game.title}: it is {len(text)} "
                              f"characters long")
        try:
            state.apply(text)
        except ShuffleNeeded:
            raise RecordError(_missing_shuffle(game, orders, actions, i)) from None
        except RecordError as err:  # the next shuffle is not an order of the cards being shuffled
            raise RecordError(f"{where} ({shown} by seat {seat}) needs a shuffle, and {err}") from None
        except DreizehnError as err:
            raise RecordError(f"{where} ({shown} by seat {seat}) is illegal: {err}") from None
    if state._forced:
        raise RecordError(f"the record has {len(state._forced)} shuffle(s) more than the game made")
    _check_scores(doc, state)
    return state


def _missing_shuffle(game: Game, orders: list[list[int]], actions: list[list[Any]], index: int) -> str:
    """The message for action ``index`` (from 0) that needed a shuffle the record does not have."""
    seat, text = actions[index]
    where = f"action {index + 1} ({_show(text)} by seat {seat})"
    state = game.new_state(0, shuffles=orders)
    for _, earlier in actions[:index]:
        state.apply(earlier)
    missing = f"shuffle {len(state.shuffles) + 1} is missing"
    stage = state.stage
    state._forced = None  # shuffle from the seed, only to see whether the action ends the stage
    try:
        state.apply(text)
    except DreizehnError:
        return f"{where} needs a shuffle, but the record has too few shuffles: {missing}"
    name = game.stage_name
    if state.stage != stage:
        return (f"{where} ends {name} {stage + 1}, but the record has no shuffle for the next {name} "
                f"({name} {stage + 2}): {missing}")
    return f"{where} needs a shuffle (a reshuffle), but the record has too few shuffles: {missing}"


def _check_scores(doc: Mapping[str, Any], state: State) -> None:
    stage_scores = [list(s) for s in state.stage_scores]
    given: list[list[int]] = doc["stage_scores"]
    name = state.game.stage_name
    for i, (scores, true) in enumerate(zip(given, stage_scores, strict=False)):
        if scores != true:
            raise RecordError(f"the record's 'stage_scores' of {name} {i + 1} are {scores}, but the game gives {true}")
    if len(given) != len(stage_scores):
        raise RecordError(
            f"the record's 'stage_scores' field lists {len(given)} {name}s, but {len(stage_scores)} were finished"
        )
    checks: tuple[tuple[str, object], ...] = (
        ("totals", list(state.totals)), ("over", state.is_over), ("winners", list(state.winners))
    )
    for field, expected in checks:
        if doc[field] != expected:
            raise RecordError(
                f"the record's {field!r} field is {_show(doc[field])}, but the game gives {_show(expected)}"
            )
