"""The view on the wire (issue 12 item 3): every view and event of random games of every game and player count is
valid under its game's published schema, round-trips to the same view, and a spectator's view holds public
information only."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from schema_check import OUTSIDE, Validator

import dreizehn
from dreizehn.core.events import Event
from dreizehn.core.wire import ViewWriter, WireError, event_schema, from_wire, schema, to_wire

CASES = [(game_id, players) for game_id in dreizehn.game_ids()
         for players in range(dreizehn.game_class(game_id).min_players, dreizehn.game_class(game_id).max_players + 1)]
GAMES = (8, 100)
"""Random games per player count: (make test, make test-long), each a short game (the game's quick options)."""


class _Checked:
    """A validator that checks each distinct document once: validation is a function of the document alone, and a
    random game sends the same event text (a draw from the pile seen by the other seats, a deal's public part) many
    times over, a ninth as many distinct texts as sent ones in Three Thirteen. Every document sent is still checked
    (:mod:`schema_check`: the published schema, ``enum`` decided by set membership)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.validator = Validator(schema)
        self.valid: set[str] = set()

    def validate(self, text: str) -> None:
        if text not in self.valid:
            self.validator.validate(json.loads(text))
            self.valid.add(text)


def _validators(game_id: str) -> tuple[_Checked, dict[str, _Checked]]:
    """The view validator, and one validator per event key, each a branch of the published event schema."""
    view_schema = schema(game_id)
    jsonschema.Draft202012Validator.check_schema(view_schema)
    branches = view_schema["$defs"]["event"]["oneOf"]
    per_key = {b["properties"]["key"]["const"]: _Checked(b) for b in branches}
    return _Checked(view_schema), per_key


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_views_and_events_follow_the_schema(game_id: str, players: int, scale: Callable[[int, int], int]) -> None:
    views, events = _validators(game_id)
    game = dreizehn.load_game(game_id, players, dreizehn.game_class(game_id).quick_options)
    rng = random.Random(players)
    receivers: list[int | None] = [*range(players), None]
    for _ in range(scale(*GAMES)):
        state = game.new_state(rng.getrandbits(32))
        steps = 0
        while not state.is_over:
            if steps % 29 == 0:
                for seat in receivers:
                    view = state.spectator_view() if seat is None else state.view(seat)
                    text = json.dumps(to_wire(view))
                    views.validate(text)
                    assert from_wire(json.loads(text)) == view
            legal = state.legal_actions()
            eager = [a for a in legal if a in game.eager_actions]
            for event in state.apply_with_events(rng.choice(eager or legal)):
                sent = {json.dumps(event.for_seat(seat).to_json(), sort_keys=True) for seat in receivers}
                sent.add(json.dumps(event.to_json(), sort_keys=True))  # a finished game's replay sends the private
                # parts too
                for text in sent:
                    events[event.key].validate(text)
            steps += 1
            assert steps < 200_000, "a random game did not end"
        views.validate(json.dumps(to_wire(state.view(0))))
    assert views.valid and events["game.over"].valid, "no document was checked"


def test_the_tests_validator_refuses_what_jsonschemas_refuses() -> None:
    """:mod:`schema_check`'s ``enum`` by set membership decides as jsonschema's own, for members and strangers of
    every JSON type, on a view of each game and on that view with a card, an action or the seat made wrong."""
    values: list[Any] = ["B5", "10H", "b5", "", "B5 ", 5, 5.0, True, False, None, ["B5"], {"B5": 1}]
    for game_id in dreizehn.game_ids():
        view_schema = schema(game_id)
        published, ours = jsonschema.Draft202012Validator(view_schema), Validator(view_schema)
        state = dreizehn.new_game(game_id, players=dreizehn.game_class(game_id).min_players, seed=5)
        state.apply(state.legal_actions()[0])
        doc = json.loads(json.dumps(to_wire(state.view(state.current_player))))
        cards, actions = list(dreizehn.game_class(game_id).card_type._texts), [e["text"] for e in doc["legal_actions"]]
        docs = [doc, *({**doc, "legal_actions": [{**doc["legal_actions"][0], "text": v}]} for v in [*values, *actions]),
                *({**doc, "history": [{"seat": 0, "action": v}]} for v in [*values, actions[-1]]),
                *({**doc, "seat": v} for v in values)]
        docs += [{**doc, "hand": [v]} for v in [*values, *cards[:3]]]
        docs += [{**doc, "hand": [*cards[:2], v, cards[0]]} for v in [*values, *cards[:3]]]  # a remembered item
        # never hides a wrong one beside it
        verdicts = [(published.is_valid(d), Validator(view_schema).is_valid(d), ours.is_valid(d)) for d in docs]
        assert all(a == b == c for a, b, c in verdicts), game_id
        assert sum(a for a, _, _ in verdicts) >= 3 and sum(not a for a, _, _ in verdicts) >= len(values), game_id


def test_no_keyword_looks_outside() -> None:
    """:mod:`schema_check` remembers an item's verdict under its schema: right only while no keyword of the published
    schemas makes a verdict depend on more than the item (a reference, an ``unevaluated*`` keyword)."""

    def keys(node: Any) -> set[str]:
        if isinstance(node, dict):
            return set(node).union(*(keys(v) for k, v in node.items() if k not in ("enum", "const")))
        if isinstance(node, list):
            return set().union(*(keys(v) for v in node))
        return set()

    for game_id in dreizehn.game_ids():
        found = keys(schema(game_id))
        assert {"items", "enum", "properties"} <= found and not found & OUTSIDE, game_id


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_a_spectator_sees_nothing_hidden(game_id: str) -> None:
    """Dealing anew what any one seat cannot see never changes the spectator's view, which has no hand and no
    legal actions."""
    game = dreizehn.load_game(game_id, dreizehn.game_class(game_id).max_players)
    rng = random.Random(7)
    state = game.new_state(3)
    for step in range(400):
        if state.is_over:
            break
        if step % 5 == 0:
            public = state.spectator_view()
            assert public.seat == -1 and not public.legal_actions and not public.hand  # type: ignore[attr-defined]
            for seat in range(game.players):
                assert state.resample_hidden(seat, rng).spectator_view() == public
        state.apply(rng.choice(state.legal_actions()))


def test_wire_documents_name_their_fields_and_refuse_wrong_ones() -> None:
    state = dreizehn.new_game("holzwurm", players=3, seed=2)
    state.apply(state.legal_actions()[0])
    doc = to_wire(state.view(1))
    assert doc["rows"][0] == {"colour": doc["rows"][0]["colour"], "cards": doc["rows"][0]["cards"]}
    assert doc["history"] == [{"seat": 0, "action": state.game.action_to_text(state.history[0][1])}]
    assert doc["seat"] == 1 and to_wire(state.spectator_view())["seat"] is None
    for field, value in (("hand", ["Z9"]), ("hand", "Y1"), ("removed", True), ("version", 5), ("wire", 2)):
        with pytest.raises(WireError):
            from_wire({**doc, field: value})
    missing = dict(doc)
    del missing["fate"]
    with pytest.raises(WireError, match="fate"):
        from_wire(missing)
    legal = to_wire(state.view(1))["legal_actions"]
    with pytest.raises(WireError):
        from_wire({**doc, "legal_actions": [{"index": legal[0]["index"], "text": legal[1]["text"]}]})


def test_an_event_off_its_schema_is_refused() -> None:
    events = jsonschema.Draft202012Validator(event_schema("knizia13"))
    good = Event("knizia13.played", {"seat": 0, "card": "B5", "target": "blue", "sum": 5, "took": []})
    events.validate(good.to_json())
    for bad in ({**good.params, "card": "X5"}, {**good.params, "target": "red"}, {"seat": 0}):
        with pytest.raises(jsonschema.ValidationError):
            events.validate(Event("knizia13.played", bad).to_json())
    with pytest.raises(jsonschema.ValidationError):
        events.validate({"key": "knizia13.unknown", "params": {}})


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_a_view_writer_writes_what_to_wire_writes(game_id: str, scale: Callable[[int, int], int]) -> None:
    """The server's writer, which keeps each field as last written, writes every seat's and the spectator's view of
    every step of random games exactly as :func:`to_wire` does: a field kept from an earlier view or another seat is
    never stale, and a seat's hand never reaches another seat's document."""
    cls = dreizehn.game_class(game_id)
    game = dreizehn.load_game(game_id, cls.max_players, cls.quick_options)
    rng = random.Random(11)

    def offer(action: int) -> str:
        return f"offer {action}"

    write = ViewWriter(offer)
    shared = 0
    for _ in range(scale(2, 20)):
        state = game.new_state(rng.getrandbits(32))
        while not state.is_over:
            docs = []
            for seat in [*range(game.players), None]:
                view = state.spectator_view() if seat is None else state.view(seat)
                doc = write(view, history=False)
                assert doc == to_wire(view, offer, history=False)
                docs.append(doc)
            shared += sum(docs[0][name] is docs[-1][name] for name in docs[0] if isinstance(docs[0][name], list))
            legal = state.legal_actions()
            eager = [a for a in legal if a in game.eager_actions]
            state.apply(rng.choice(eager or legal))
    assert shared > 0, "the writer kept nothing: it would write every field of every view anew"
