"""The view on the wire: one versioned JSON document per seat or spectator, its JSON Schema, and the way back.

Every interface that is not Python (the browser, a bot written in another language) reads views as these documents
(docs/wire.md). They are made from a game's view class alone, field by field from its type annotations, so a game
that adds a field to its view has it on the wire, in the schema and in the round trip at once:

- cards and other tokens are written in notation (``"B5"``, ``"10H"``); a row or another record is an object with
  named fields; ``None`` is ``null``; per-seat lists are indexed by seat;
- ``history`` is a list of ``{"seat", "action"}`` objects, the action in notation;
- ``legal_actions`` is a list of ``{"index", "text"}`` objects (``"words"`` too when a language is asked for, and
  ``"takes": {"cards", "points"}`` for a play that takes cards, :meth:`~dreizehn.core.game.Game.action_cost`);
- ``seat`` is ``null`` for a spectator's view; ``version`` is the number of actions applied (a client names it
  when it acts, so a stale action is refused).

>>> import dreizehn
>>> state = dreizehn.new_game("holzwurm", players=2, seed=1)
>>> doc = to_wire(state.view(0))
>>> doc["wire"], doc["version"], doc["legal_actions"][0]
(1, 0, {'index': 5, 'text': 'Y1>new'})
>>> from_wire(doc) == state.view(0)
True
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Union

from dreizehn.core.cards import Token
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import Game, OptionSpec, View
from dreizehn.core.registry import game_class
from dreizehn.words import Word

WIRE_VERSION = 1
"""The version of the document's layout; a client that reads another version refuses it."""


class WireError(DreizehnError):
    """A document that is not a view of the game it names (the rules W1 to W4 of docs/wire.md)."""


@functools.cache
def view_class(game_id: str) -> type[View]:
    """The view class of a game, found from its states' :meth:`~dreizehn.core.game.State.view` annotation."""
    cls = game_class(game_id)
    state_cls = typing.get_type_hints(cls.new_state)["return"]
    view_cls: type[View] = typing.get_type_hints(state_cls.view)["return"]
    return view_cls


_HINTS: dict[type[View], dict[str, Any]] = {}


def _hints(view_cls: type[View]) -> dict[str, Any]:
    """The view's fields with their types, in order (worked out once per class)."""
    found = _HINTS.get(view_cls)
    if found is None:
        hints = typing.get_type_hints(view_cls)
        found = _HINTS[view_cls] = {f.name: hints[f.name] for f in dataclasses.fields(view_cls)}
    return found


def to_wire(view: View, words: Callable[[int], str] | None = None, *, history: bool = True) -> dict[str, Any]:
    """The view as its JSON document; ``words(action)`` (if given) says each legal action in a language;
    ``history=False`` leaves the history out (a client that follows the updates has it already)."""
    return ViewWriter(words, memo=False)(view, history=history)


class ViewWriter:
    """Writes the views of one table as documents (:func:`to_wire`), each field written once for as long as its value
    stays the same: a server writes a view for every receiver of every action, and these share most fields (the
    public ones) and change few between actions. A field whose value equals the one last written, for any seat or
    for this seat, is taken from then. The documents share those parts: treat them as read-only.

    >>> import dreizehn
    >>> state = dreizehn.new_game("knizia13", players=3, seed=1)
    >>> write = ViewWriter()
    >>> first, second = write(state.view(0)), write(state.view(1))
    >>> first["targets"] is second["targets"], first == to_wire(state.view(0))
    (True, True)
    """

    def __init__(self, words: Callable[[int], str] | None = None, *, memo: bool = True) -> None:
        self.words = words
        self._memo: dict[Any, tuple[Any, Any]] | None = {} if memo else None

    def __call__(self, view: View, *, history: bool = True) -> dict[str, Any]:
        words, memo = self.words, self._memo
        cls = game_class(view.game_id)
        action_texts = cls.action_type._texts
        seat = view.seat
        doc: dict[str, Any] = {"wire": WIRE_VERSION, "version": len(view.history)}
        for name, encode in _encoders(type(view)):
            value = getattr(view, name)
            if name == "history":
                if history:
                    doc[name] = [{"seat": s, "action": action_texts[action]} for s, action in value]
                continue
            if name == "seat":
                doc[name] = None if value < 0 else value
                continue
            if name == "legal_actions":
                costs = tuple(cls.action_cost(view, a) for a in value) if cls.captures else ()
                value = (value, costs)  # the memo compares both: equal actions may cost otherwise elsewhere
            if memo is not None:
                found = memo.get(name)
                if found is not None and found[0] == value:
                    doc[name] = found[1]
                    continue
                found = memo.get((name, seat))
                if found is not None and found[0] == value:
                    memo[name] = found
                    doc[name] = found[1]
                    continue
            if name == "legal_actions":
                actions, costs = value
                encoded: Any = [
                    {"index": int(a), "text": action_texts[a], **({"words": words(a)} if words else {}),
                     **({"takes": {"cards": c[0], "points": c[1]}} if c else {})}
                    for a, c in zip(actions, costs or [None] * len(actions), strict=True)
                ]
            elif name == "options":
                encoded = dict(value)
            else:
                encoded = encode(value)
            doc[name] = encoded
            if memo is not None:
                memo[name] = memo[(name, seat)] = (value, encoded)
        return doc


Encoder = Callable[[Any], Any]
_ENCODERS: dict[type[View], list[tuple[str, Encoder]]] = {}


def _encoders(view_cls: type[View]) -> list[tuple[str, Encoder]]:
    """Each field of a view class with the function that writes its values (made once per class: views are
    written for every receiver of every action)."""
    found = _ENCODERS.get(view_cls)
    if found is None:
        found = _ENCODERS[view_cls] = [(name, _encoder(hint)) for name, hint in _hints(view_cls).items()]
    return found


def _plain(value: Any) -> Any:
    return value


def _encoder(hint: Any) -> Encoder:
    """The function that writes values of type ``hint`` as JSON."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        inner = _encoder(next(arg for arg in typing.get_args(hint) if arg is not type(None)))
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        item_hint = typing.get_args(hint)[0]
        if isinstance(item_hint, type) and issubclass(item_hint, Token):
            texts = item_hint._texts
            return lambda value: [texts[v] for v in value]
        if item_hint is int or item_hint is bool or item_hint is str:
            return list
        item = _encoder(item_hint)
        return lambda value: [item(v) for v in value]
    if isinstance(hint, type) and issubclass(hint, Token):
        texts = hint._texts
        return lambda value: texts[value]
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):  # a NamedTuple
        row_hints = _row_hints(hint)
        fields = [(name, _encoder(row_hints[name])) for name in hint._fields]
        return lambda value: {name: encode(getattr(value, name)) for name, encode in fields}
    return _plain


@functools.cache
def _row_hints(row: type) -> dict[str, Any]:
    return typing.get_type_hints(row)


def from_wire(doc: Mapping[str, Any]) -> View:
    """The view a document holds (checked against the game's types; a wrong one raises :class:`WireError`)."""
    if not isinstance(doc, Mapping) or doc.get("wire") != WIRE_VERSION:
        raise WireError("wire.version", rule="W1", version=WIRE_VERSION)
    game_id = doc.get("game_id")
    if not isinstance(game_id, str):
        raise WireError("wire.game", rule="W1")
    try:
        game = game_class(game_id)
    except DreizehnError as err:
        raise WireError("wire.game_unknown", rule="W1", error=err) from None
    view_cls = view_class(game_id)
    hints = _hints(view_cls)
    missing = sorted(set(hints) - set(doc))
    if missing:
        raise WireError("wire.missing", rule="W2", name=missing[0])
    action_type = game.action_type
    values: dict[str, Any] = {}
    try:
        for name, hint in hints.items():
            raw = doc[name]
            if name == "history":
                values[name] = tuple((int(e["seat"]), int(action_type.parse(e["action"]))) for e in raw)
            elif name == "legal_actions":
                actions = []
                for entry in raw:
                    action = action_type.of(entry["index"])
                    if action.text != entry["text"]:
                        raise WireError("wire.legal_text", rule="W3", index=entry["index"], text=action.text,
                                        given=entry["text"])
                    actions.append(int(action))
                values[name] = tuple(actions)
            elif name == "seat":
                values[name] = -1 if raw is None else int(raw)
            elif name == "options":
                values[name] = dict(raw)
            else:
                values[name] = _decode(raw, hint, name)
    except WireError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        if isinstance(err, DreizehnError):
            raise WireError("wire.field", rule="W2", name=name, error=err) from None
        raise WireError("wire.field_type", rule="W2", name=name, error=repr(err)) from None
    if doc.get("version") != len(values["history"]):
        raise WireError("wire.history_version", rule="W4")
    return view_cls(**values)


def _decode(raw: Any, hint: Any, field: str) -> Any:
    """The value of type ``hint`` that ``raw`` (of the document's field ``field``) holds; a wrong one is refused."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        if raw is None:
            return None
        inner = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        return _decode(raw, inner, field)
    if origin is tuple:
        if not isinstance(raw, list):
            raise WireError("wire.type", rule="W2", name=field, kind=Word("wire.kind.list"), value=raw)
        item = typing.get_args(hint)[0]
        return tuple(_decode(v, item, field) for v in raw)
    if isinstance(hint, type) and issubclass(hint, Token):
        return hint.parse(raw)
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        row_hints = _row_hints(hint)
        return hint(**{name: _decode(raw[name], row_hints[name], field) for name in hint._fields})
    if hint is bool and not isinstance(raw, bool):
        raise WireError("wire.type", rule="W2", name=field, kind=Word("wire.kind.bool"), value=raw)
    if hint is int and (isinstance(raw, bool) or not isinstance(raw, int)):
        raise WireError("wire.type", rule="W2", name=field, kind=Word("wire.kind.int"), value=raw)
    if hint is str and not isinstance(raw, str):
        raise WireError("wire.type", rule="W2", name=field, kind=Word("wire.kind.str"), value=raw)
    return raw


# -- the schema -----------------------------------------------------------------------------------------------------


def schema(game_id: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the view documents of a game, a seat's and a spectator's; its ``$defs``
    hold ``event``, the schema of the game's events (:func:`event_schema`)."""
    cls = game_class(game_id)
    view_cls = view_class(game_id)
    properties: dict[str, Any] = {
        "wire": {"const": WIRE_VERSION, "description": "the layout version of this document"},
        "version": {"type": "integer", "minimum": 0, "description": "the number of actions applied"},
    }
    for name, hint in _hints(view_cls).items():
        properties[name] = _field_schema(cls, name, hint)
    properties["game_id"] = {"const": game_id}
    return {
        "$defs": {"event": event_schema(game_id)},
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://dreizehn.invalid/schema/{game_id}/view-{WIRE_VERSION}.json",
        "title": f"A view of {cls.title} ({game_id}), wire version {WIRE_VERSION}",
        "type": "object",
        "properties": properties,
        "required": sorted(set(properties) - {"history"}),
        "additionalProperties": False,
    }


def event_schema(game_id: str) -> dict[str, Any]:
    """The JSON Schema of the events of a game as a receiver gets them (``{"key", "params"}``; a finished game's
    replay adds ``"private"``, per seat as text)."""
    from dreizehn.core.events import common_schemas

    cls = game_class(game_id)
    params = {**cls.event_params, **common_schemas(cls.card_type._texts, cls.explanation_schema)}
    return {"oneOf": [
        {
            "type": "object", "required": ["key", "params"], "additionalProperties": False,
            "properties": {
                "key": {"const": key}, "params": schema,
                "private": {"type": "object", "additionalProperties": schema | {"required": []}},
            },
        }
        for key, schema in sorted(params.items())
    ]}


def _field_schema(cls: type[Game], name: str, hint: Any) -> dict[str, Any]:
    actions = list(cls.action_type._texts)
    if name == "history":
        return {"type": "array", "items": {
            "type": "object", "required": ["seat", "action"], "additionalProperties": False,
            "properties": {"seat": {"type": "integer", "minimum": 0}, "action": {"enum": actions}},
        }}
    if name == "legal_actions":
        return {"type": "array", "items": {
            "type": "object", "required": ["index", "text"], "additionalProperties": False,
            "properties": {"index": {"type": "integer", "minimum": 0, "maximum": len(actions) - 1},
                           "text": {"enum": actions}, "words": {"type": "string"},
                           "takes": {"type": "object", "required": ["cards", "points"], "additionalProperties": False,
                                     "description": "what the play takes (13's K11, Holzwurm's H12): the cards, "
                                                    "counted as the game's log counts them, and the points the "
                                                    "hand or pile changes by",
                                     "properties": {"cards": {"type": "integer", "minimum": 1},
                                                    "points": {"type": "integer"}}}},
        }}
    if name == "seat":
        return {"type": ["integer", "null"], "minimum": 0, "description": "null for a spectator"}
    if name == "options":
        return {"type": "object", "additionalProperties": False, "required": [s.name for s in cls.option_specs],
                "properties": {s.name: _option_schema(s) for s in cls.option_specs}}
    return _type_schema(hint)


def _option_schema(spec: OptionSpec) -> dict[str, Any]:
    if spec.kind == "bool":
        return {"type": "boolean", "description": spec.description}
    if spec.kind == "choice":
        return {"enum": list(spec.choices), "description": spec.description}
    if spec.kind == "seat":
        return {"type": "integer", "minimum": 0, "description": spec.description}
    return {"type": "integer", "minimum": spec.low, "maximum": spec.high, "description": spec.description}


def _type_schema(hint: Any) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        inner = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        return {"anyOf": [_type_schema(inner), {"type": "null"}]}
    if origin is tuple:
        return {"type": "array", "items": _type_schema(typing.get_args(hint)[0])}
    if isinstance(hint, type) and issubclass(hint, Token):
        return {"enum": list(hint._texts)}
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        row_hints = typing.get_type_hints(hint)
        return {"type": "object", "required": list(hint._fields), "additionalProperties": False,
                "properties": {name: _type_schema(row_hints[name]) for name in hint._fields}}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    raise TypeError(f"no JSON type for {hint!r}")
