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
dreizehn.core.errors.RecordError: the record's 'over' field must be true or false, not 0 (R6)
>>> loads(b'\\xff\\xfe{')  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
dreizehn.core.errors.RecordError: the record is UTF-16 text (it starts with a UTF-16 byte ...); records are UTF-8 (R1)

Every refusal names its rule, R1 to R10 of docs/record-format.md (a bad option value names the option's rule), and
says its cause, if any, as a parameter ``error``: ``words("de").error(err)`` says it all in German.
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
from dreizehn.words import Word, words

FORMAT = "dreizehn-record"
VERSION = 1
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record read, in bytes (16 MiB; records of whole games of random play are well under 1 MiB)."""
_LIMIT = {"limit": MAX_RECORD_BYTES, "mib": MAX_RECORD_BYTES // 2**20}
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
        raise RecordError("record.names_count", rule="R6", count=len(names), players=game.players)
    if not all(isinstance(name, str) for name in names):
        raise RecordError("record.names_type", rule="R6", names=list(names))
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
                raise RecordError("record.too_large.bytes", rule="R2", size=size, **_LIMIT)
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError("record.unreadable", rule="R1", path=str(path), reason=str(err.strerror or err)) from None
    return loads(data)


def loads(text: str | bytes) -> State:
    """Replay and check a record given as JSON text, or as the bytes of a file (which must be UTF-8).

    >>> loads('{"format": "dreizehn-record", "version": true}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    dreizehn.core.errors.RecordError: the record's 'version' field must be 1 (... version 1, not true) (R5)
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
    dreizehn.core.errors.RecordError: the record is nested too deeply (lists and objects within each other); ... (R3)
    """
    if isinstance(text, bytes | bytearray | memoryview):
        data = bytes(text)
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError("record.too_large.bytes", rule="R2", size=len(data), **_LIMIT)
        text = _decode(data)
    elif not isinstance(text, str):
        raise RecordError("record.not_text", rule="R1", kind=type(text).__name__)
    elif len(text) > MAX_RECORD_BYTES:
        raise RecordError("record.too_large.characters", rule="R2", size=len(text), **_LIMIT)
    try:
        return _DECODER.decode(text)
    except RecordError:
        raise
    except json.JSONDecodeError as err:
        raise RecordError("record.not_json", rule="R3", reason=err.msg, line=err.lineno, column=err.colno) from None
    except RecursionError:
        raise RecordError("record.too_deep", rule="R3") from None
    except ValueError as err:  # not raised by today's parser; kept so that no input ends in a traceback
        raise RecordError("record.not_json.other", rule="R3", reason=str(err)) from None


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise RecordError("record.utf32", rule="R1")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise RecordError("record.utf16", rule="R1")
    if data.startswith(b"\xef\xbb\xbf"):
        raise RecordError("record.bom", rule="R1")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RecordError("record.nul", rule="R1", byte=nul + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError("record.not_utf8", rule="R1", byte=err.start + 1, value=data[err.start],
                          reason=err.reason) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError("record.key_twice", rule="R3", key=_show(key))
        out[key] = value
    return out


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordError("record.long_integer", rule="R3", digits=digits, limit=MAX_DIGITS)
    return int(text)


def _constant(name: str) -> NoReturn:
    raise RecordError("record.constant", rule="R3", name=name)


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
    """The list of integers in field ``name`` (its items called ``record.item.<item>`` in messages), checked."""
    if not isinstance(value, list):
        raise RecordError("record.int_list", rule="R6", field=name, value=_show(value))
    for i, entry in enumerate(value):
        if not _is_int(entry):
            raise RecordError("record.int_item", rule="R6", field=name, item=Word(f"record.item.{item}"),
                              number=i + 1, value=_show(entry))
    if length is not None and len(value) != length:
        raise RecordError("record.int_count", rule="R6", field=name, count=length, given=len(value))
    return value


def _stage_word(game: type[Game] | Game, n: int = 1) -> Word | str:
    """The game's name of a stage, said in the reader's language where the game's catalogue has it."""
    key = f"{game.id}.stage"
    if words("en").has(key):
        return Word(key, n)
    return game.stage_name if n == 1 else f"{game.stage_name}s"


def _check_options(cls: type[Game], players: int, options: object) -> dict[str, Option]:
    """The options of a record: exactly the game's options, each of its documented JSON type."""
    names = [spec.name for spec in cls.option_specs]
    if not isinstance(options, Mapping):
        raise RecordError("record.options_type", rule="R6", value=_show(options))
    for name in options:
        if name not in names:
            raise RecordError("record.option_unknown", rule="R7", game=cls.title, name=_show(name),
                              options=", ".join(names))
    for spec in cls.option_specs:
        if spec.name not in options:
            raise RecordError("record.option_missing", rule="R7", name=spec.name, options=", ".join(names))
        value = options[spec.name]
        if spec.kind == "seat" and value == "random":
            raise RecordError("record.option_random", rule=spec.rule, name=spec.name, last=players - 1)
        wrong = _option_type(spec, players, value)
        if wrong:
            raise wrong
    return dict(options)


def _option_type(spec: OptionSpec, players: int, value: object) -> RecordError | None:
    """The refusal of ``value`` for ``spec`` (citing the option's rule), if it is not of the option's JSON type;
    ``None`` if it is."""
    said = {"rule": spec.rule, "name": spec.name, "value": _show(value)}
    if spec.kind == "bool":
        return None if type(value) is bool else RecordError("record.option_bool", **said)
    if spec.kind == "int":
        ok = _is_int(value) and spec.low <= value <= spec.high  # type: ignore[operator]
        return None if ok else RecordError("record.option_int", **said, low=spec.low, high=spec.high)
    if spec.kind == "choice":
        ok = type(value) is str and value in spec.choices
        choices = ", ".join(repr(choice) for choice in spec.choices)
        return None if ok else RecordError("record.option_choice", **said, choices=choices)
    if spec.kind == "seat":
        ok = _is_int(value) and 0 <= value < players  # type: ignore[operator]
        return None if ok else RecordError("record.option_seat", **said, last=players - 1)
    try:  # a kind this module does not know: the value must be what the game itself would write
        ok = type(spec.validate(value, players)) is type(value) and spec.validate(value, players) == value
    except (DreizehnError, RecursionError):
        ok = False
    return None if ok else RecordError("record.option_other", **said, allowed=spec.allowed(players))


def _header(doc: object) -> Mapping[str, Any]:
    """Checks ``format``, ``version`` and that the record has exactly the fields of :data:`FIELDS`."""
    if not isinstance(doc, Mapping):
        raise RecordError("record.not_object", rule="R4", value=_show(doc))
    if "format" not in doc:
        raise RecordError("record.no_format", rule="R5", format=FORMAT)
    if type(doc["format"]) is not str or doc["format"] != FORMAT:
        raise RecordError("record.format", rule="R5", format=FORMAT, value=_show(doc["format"]))
    if "version" not in doc:
        raise RecordError("record.no_version", rule="R5", version=VERSION)
    if not _is_int(doc["version"]) or doc["version"] != VERSION:
        raise RecordError("record.version", rule="R5", version=VERSION, value=_show(doc["version"]))
    for name in doc:
        if name not in FIELDS:
            raise RecordError("record.field_unknown", rule="R4", name=_show(name), fields=", ".join(FIELDS))
    for name in FIELDS:
        if name not in doc:
            raise RecordError("record.field_missing", rule="R4", name=name, what=Word(f"record.field.{name}"))
    return doc


def _check_shape(doc: Mapping[str, Any], cls: type[Game], players: int) -> None:
    """The types of ``shuffles``, ``actions``, ``stage_scores``, ``totals``, ``over`` and ``winners``."""
    shuffles = doc["shuffles"]
    if not isinstance(shuffles, list):
        raise RecordError("record.shuffles_type", rule="R6", value=_show(shuffles))
    for i, order in enumerate(shuffles):
        if not isinstance(order, list):
            raise RecordError("record.shuffle_type", rule="R6", number=i + 1, value=_show(order))
        for j, text in enumerate(order):
            if not isinstance(text, str):
                raise RecordError("record.shuffle_card_type", rule="R6", number=i + 1, position=j + 1,
                                  value=_show(text))
    actions = doc["actions"]
    if not isinstance(actions, list):
        raise RecordError("record.actions_type", rule="R6", value=_show(actions))
    for i, entry in enumerate(actions):
        if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and isinstance(entry[1], str)):
            raise RecordError("record.action_type", rule="R6", number=i + 1, value=_show(entry))
    stage_scores = doc["stage_scores"]
    stage = _stage_word(cls)
    if not isinstance(stage_scores, list):
        raise RecordError("record.stage_scores_type", rule="R6", stage_name=stage, value=_show(stage_scores))
    for i, scores in enumerate(stage_scores):
        if not isinstance(scores, list):
            raise RecordError("record.stage_scores_row", rule="R6", stage_name=stage, number=i + 1,
                              value=_show(scores))
        for seat, points in enumerate(scores):
            if not _is_int(points):
                raise RecordError("record.stage_scores_item", rule="R6", stage_name=stage, number=i + 1, seat=seat,
                                  value=_show(points))
        if len(scores) != players:
            raise RecordError("record.stage_scores_count", rule="R6", stage_name=stage, number=i + 1,
                              players=players, given=len(scores))
    _int_list(doc["totals"], "totals", "total", players)
    if type(doc["over"]) is not bool:
        raise RecordError("record.over_type", rule="R6", value=_show(doc["over"]))
    winners = _int_list(doc["winners"], "winners", "winner")
    for i, seat in enumerate(winners):
        if not 0 <= seat < players:
            raise RecordError("record.winner_seat", rule="R6", number=i + 1, last=players - 1, value=_show(seat))
        if i and seat <= winners[i - 1]:
            raise RecordError("record.winners_order", rule="R6", value=_show(winners))


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
    game = _record_game(doc)
    _check_shape(doc, type(game), game.players)
    orders = _shuffles(game, doc["shuffles"])
    try:
        state = game.new_state(0, shuffles=orders)
    except RecordError as err:
        if err.code == "shuffle.not_order":
            raise RecordError("record.first_deal.order", rule="R8", **err.params) from None
        raise RecordError("record.first_deal", rule="R8", error=err) from None
    _play(game, state, orders, doc["actions"])
    if state._forced:
        raise RecordError("record.extra_shuffles", rule="R8", count=len(state._forced))
    _check_scores(doc, state)
    return state


def _record_game(doc: Mapping[str, Any]) -> Game:
    """The game a record's header names, for its players and with its options (each checked, R6, R7)."""
    game_id = doc["game"]
    if not isinstance(game_id, str):
        raise RecordError("record.game_type", rule="R6", value=_show(game_id))
    try:
        cls = game_class(game_id)
    except DreizehnError as err:
        raise RecordError("record.game", rule="R7", error=err) from None
    names = doc["players"]
    if not isinstance(names, list) or not names:
        raise RecordError("record.players_type", rule="R6", value=_show(names))
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RecordError("record.player_type", rule="R6", number=i + 1, value=_show(name))
    try:
        cls(len(names))
    except DreizehnError as err:
        raise RecordError("record.players", rule="R7", count=len(names), error=err) from None
    options = _check_options(cls, len(names), doc["options"])
    try:
        return cls(len(names), options)
    except DreizehnError as err:
        raise RecordError("record.options", rule="R7", error=err) from None


def _shuffles(game: Game, shuffles: Sequence[Sequence[Any]]) -> list[list[int]]:
    """A record's shuffles as card numbers, each card checked (R8)."""
    orders: list[list[int]] = []
    for i, order in enumerate(shuffles):
        cards = []
        for j, text in enumerate(order):
            try:
                if len(text) > MAX_TEXT:
                    raise RecordError("record.card", rule="R8", number=i + 1, position=j + 1, value=_show(text),
                                      game=game.title)
                cards.append(int(game.parse_card(text)))
            except DreizehnError:
                raise RecordError("record.card", rule="R8", number=i + 1, position=j + 1, value=_show(text),
                                  game=game.title) from None
        orders.append(cards)
    if not orders:
        raise RecordError("record.no_shuffles", rule="R8")
    return orders


def _play(game: Game, state: State, orders: list[list[int]], actions: list[list[Any]]) -> None:
    """Apply a record's actions to ``state``, each by the seat to move (R9), its shuffles taken from ``orders``."""
    for i, (seat, text) in enumerate(actions):
        where = {"number": i + 1, "text": _show(text)}
        if state.is_over:
            raise RecordError("record.after_end", rule="R9", **where)
        if seat != state.current_player:
            raise RecordError("record.wrong_seat", rule="R9", **where, seat=_show(seat), turn=state.current_player)
        if len(text) > MAX_TEXT:
            raise RecordError("record.action_length", rule="R9", **where, seat=seat, game=game.title,
                              length=len(text))
        try:
            state.apply(text)
        except ShuffleNeeded:
            raise _missing_shuffle(game, orders, actions, i) from None
        except RecordError as err:  # the next shuffle is not an order of the cards being shuffled
            if err.code == "shuffle.not_order":
                raise RecordError("record.shuffle_order", rule="R8", **where, seat=seat,
                                  shuffle=err.params["number"], count=err.params["count"]) from None
            raise RecordError("record.shuffle", rule="R8", **where, seat=seat, error=err) from None
        except DreizehnError as err:
            raise RecordError("record.illegal", rule="R9", **where, seat=seat, error=err) from None


def _missing_shuffle(game: Game, orders: list[list[int]], actions: list[list[Any]], index: int) -> RecordError:
    """The refusal of action ``index`` (from 0), which needed a shuffle the record does not have."""
    seat, text = actions[index]
    where = {"number": index + 1, "text": _show(text), "seat": seat}
    state = game.new_state(0, shuffles=orders)
    for _, earlier in actions[:index]:
        state.apply(earlier)
    missing = len(state.shuffles) + 1
    stage = state.stage
    state._forced = None  # shuffle from the seed, only to see whether the action ends the stage
    try:
        state.apply(text)
    except DreizehnError:
        return RecordError("record.missing_shuffle", rule="R8", **where, missing=missing)
    if state.stage != stage:
        return RecordError("record.missing_shuffle.stage", rule="R8", **where, missing=missing,
                           stage_name=_stage_word(game), stage=stage + 1, next=stage + 2)
    return RecordError("record.missing_shuffle.reshuffle", rule="R8", **where, missing=missing)


def _check_scores(doc: Mapping[str, Any], state: State) -> None:
    stage_scores = [list(s) for s in state.stage_scores]
    given: list[list[int]] = doc["stage_scores"]
    stage = _stage_word(state.game)
    for i, (scores, true) in enumerate(zip(given, stage_scores, strict=False)):
        if scores != true:
            raise RecordError("record.stage_scores", rule="R10", stage_name=stage, number=i + 1, given=str(scores),
                              expected=str(true))
    if len(given) != len(stage_scores):
        raise RecordError("record.stage_count", rule="R10", given=len(given), stages=_stage_word(state.game, 2),
                          finished=len(stage_scores))
    checks: tuple[tuple[str, object], ...] = (
        ("totals", list(state.totals)), ("over", state.is_over), ("winners", list(state.winners))
    )
    for field, expected in checks:
        if doc[field] != expected:
            raise RecordError("record.result", rule="R10", field=field, given=_show(doc[field]),
                              expected=_show(expected))
