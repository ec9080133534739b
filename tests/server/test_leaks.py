"""Nothing leaks (issue 13 item 9, and item 7: spectators see public information only): every message every client
receives during whole games of every game (each person's seat, a spectator), refusals and the API's answers about
the unfinished game included, mentions only cards its receiver could see."""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

import dreizehn
from dreizehn.core.errors import DreizehnError
from dreizehn.core.events import Event
from dreizehn.core.game import Game
from dreizehn.core.wire import to_wire

from .kit import Peer, connect, create_table, play_to_end, quick, spectator_hello, stored, tokens

SEATS = {"knizia13": ["person", "person", "medium"], "three-thirteen": ["person", "person", "medium"],
         "holzwurm": ["person", "person", "medium"]}
"""Two people and a bot at each game."""


STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
"""A JSON string in a document (the keys of objects too)."""


@functools.cache
def _card(game_id: str, raw: str) -> str | None:
    """The card that the JSON string ``raw`` (as written, without its quotes) reads as in the game
    (``parse_card``), or ``None``."""
    cls = dreizehn.game_class(game_id)
    try:
        return cls(cls.min_players).parse_card(json.loads(f'"{raw}"')).text
    except DreizehnError:
        return None


def cards_in(game: Game, value: Any) -> set[str]:
    """The cards a JSON value mentions: every string in it (a key or a value) that parses as a card of the game
    (``game.parse_card``)."""
    texts = set(STRING.findall(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)))
    return {card for text in texts if (card := _card(game.id, text)) is not None}


class Knowledge:
    """What each receiver (a seat, or ``None`` for a spectator) could know at each version of a finished game: its
    own views up to then, the cards of every public play, and the hands a stage's scoring revealed; and the events of
    each action as the engine made them."""

    def __init__(self, game: Game, seed: int, log: list[str]) -> None:
        self.game = game
        receivers: list[int | None] = [*range(game.players), None]
        state = game.new_state(seed)
        public: set[str] = set()
        seen: dict[int | None, set[str]] = {r: set() for r in receivers}
        self.allowed: dict[int | None, list[set[str]]] = {r: [] for r in receivers}
        self.events: list[list[Event]] = [[]]
        for version in range(len(log) + 1):
            for receiver in receivers:
                view = state.spectator_view() if receiver is None else state.view(receiver)
                seen[receiver] |= cards_in(game, to_wire(view))
                self.allowed[receiver].append(seen[receiver] | public)
            if version == len(log):
                break
            events = state.apply_with_events(log[version])
            action = game.action_type.of(state.log[-1][1])
            card = getattr(action, "card", None)
            if card is not None:
                public.add(card.text)
            for event in events:
                if event.key == "stage.scored":
                    public |= cards_in(game, event.for_seat(None).params)
            self.events.append(list(events))

    def check(self, receiver: int | None, messages: list[dict[str, Any]], sent: set[str]) -> None:
        """Every message mentions only cards the receiver could see at its version (or named itself)."""
        version = 0
        for message in messages:
            if message.get("view") is not None:
                version = message["view"]["version"]
            elif message.get("version") is not None:
                version = message["version"]
            foreign = cards_in(self.game, message) - self.allowed[receiver][version] - sent
            assert not foreign, f"seat {receiver} was told {sorted(foreign)} at version {version}: {message}"
            if message["type"] == "update":  # and the events exactly as the engine filters them for it
                expected = [e.for_seat(receiver) for e in self.events[message["version"]]]
                assert [(e["key"], e["params"]) for e in message["events"]] == [
                    (e.key, dict(e.params)) for e in expected]


def _named(game: Game, peer: Peer) -> set[str]:
    """The cards a client named itself in what it sent (a refusal may repeat them)."""
    named = set()
    for text in peer.sent:
        named |= cards_in(game, text)
        for word in text.replace('"', " ").replace(":", " ").replace(",", " ").replace("}", " ").split():
            if word.lstrip("-").isdigit() and 0 <= int(word) < len(game.action_type.all()):
                card = getattr(game.action_type.of(int(word)), "card", None)
                if card is not None:
                    named.add(card.text)
    return named


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_no_message_carries_a_card_outside_its_receivers_view(client: TestClient, game_id: str) -> None:
    """Items 7 and 9: during a whole game, every message to each person and to a spectator, refusals included,
    mentions only cards its receiver could see, and its events are exactly the engine's events filtered for it; the
    API's answers about the unfinished game (the table, its refused record and replays) show no card of a hand."""
    created = create_table(client, game_id, SEATS[game_id], quick(game_id))
    table_id = created["table"]["id"]
    answers: list[tuple[int, Any]] = []
    rng = random.Random(game_id)
    with connect(client, token=tokens(created)[0]) as first, connect(client, token=tokens(created)[1]) as second, \
            connect(client, **spectator_hello(created)) as spectator:
        seats = {0: first, 1: second}
        for peer in (first, second, spectator):
            peer.schema_every = 7  # the schemas are checked elsewhere: every 7th update is enough here

        def mischief(seat: int, view: dict[str, Any]) -> None:
            """Now and then (and on the first turn, so that a short game has some too): a stale action, an illegal
            one, one out of turn, and questions about the game."""
            if answers and rng.random() > 0.15:
                return
            mover, other = seats[seat], seats[1 - seat]
            legal = {a["index"] for a in view["legal_actions"]}
            mover.act(view["legal_actions"][0]["index"], view["version"] + 1)
            mover.act(rng.choice([a for a in range(len(mover_actions)) if a not in legal]))
            other.act(view["legal_actions"][0]["index"])
            spectator.act(view["legal_actions"][0]["index"])
            for path in ("", "/record", "/replay", "/replay/1"):
                response = client.get(f"/api/tables/{table_id}{path}")
                assert response.status_code == (200 if not path else 409)
                answers.append((view["version"], response.json()))

        mover_actions = dreizehn.game_class(game_id).action_type.all()
        play_to_end(seats, [spectator], rng=rng, each_turn=mischief)
        for peer in (first, second, spectator):
            peer.drain()
    assert sum(1 for m in first.received + second.received if m["type"] == "refused") >= 3
    table = stored(client, table_id)
    game = dreizehn.load_game(game_id, table.row.players, table.row.options)
    knowledge = Knowledge(game, table.row.seed, [action for _, action, _ in table.actions])
    for receiver, peer in ((0, first), (1, second), (None, spectator)):
        assert peer.received and peer.received[-1]["type"] == "pong"
        knowledge.check(receiver, peer.received, _named(game, peer))
    assert answers
    for version, answer in answers:
        foreign = cards_in(game, answer) - knowledge.allowed[None][version]
        assert not foreign, f"the API showed {sorted(foreign)} at version {version}: {answer}"


def test_the_check_finds_a_card_of_another_hand() -> None:
    """Item 9: the check itself: a message naming a card of another seat's hand, or an event with another seat's
    private part, fails it; the same card named by the receiver itself does not."""
    game = dreizehn.load_game("knizia13", 3)
    state = game.new_state(5)
    log: list[str] = []
    while len(log) < 6:
        action = state.legal_actions()[0]
        log.append(game.action_to_text(action))
        state.apply(action)
    knowledge = Knowledge(game, 5, log)
    secret = sorted(cards_in(game, to_wire(game.new_state(5).view(1))) - knowledge.allowed[0][0])[0]
    told = [{"type": "refused", "code": "x", "rule": None, "message": "", "params": {"card": secret}}]
    knowledge.check(0, told, {secret})
    with pytest.raises(AssertionError, match="was told"):
        knowledge.check(0, told, set())
    with pytest.raises(AssertionError, match="was told"):
        knowledge.check(None, [{"type": "presence", "seats": [{"name": secret}]}], set())
    events = knowledge.events[1]
    assert any(e.private for e in events)
    whole = [{"key": e.key, "params": dict(e.for_seat(next(iter(e.private), None)).params), "text": ""}
             for e in events]  # each event as its owner sees it
    update = {"type": "update", "version": 1, "events": whole, "view": None}
    with pytest.raises(AssertionError):
        knowledge.check(None, [update], set(cards_in(game, whole)))
