"""Bad input (issue 13 item 9): random and hostile messages thrown at a live table change nothing and leave it
playable; pages of other origins, oversized messages and floods are refused."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import dreizehn
from dreizehn.core.errors import DreizehnError
from dreizehn.server.protocol import Act, client_message
from dreizehn.server.routes import ws
from dreizehn.server.settings import Settings

from .kit import (
    TestPeer,
    connect,
    create_table,
    fake_clock,
    hub,
    make_settings,
    settle,
    spectator_hello,
    stored,
    tokens,
)

MAX_BYTES = 8192
TYPES = ["hello", "action", "hint", "lang", "ping", "pong", "welcome", "update", "refused", "", "ACTION"]

huge_ints = st.integers(2**63 - 2, 10**40) | st.integers(-(10**40), -(2**63) + 1)
"""Whole numbers at and beyond the bounds of signed 64 bits (what orjson, and many clients, cannot write)."""
loose_numbers = st.one_of(huge_ints, st.floats(), st.sampled_from([math.nan, math.inf, -math.inf]), st.booleans(),
                          st.integers(-3, 60).map(str), st.integers(0, 60).map(float))
"""Numbers as a strict protocol takes none of them (issue 27): beyond 64 bits, floats (whole ones, NaN, the
infinities: ``json.dumps`` writes them as ``NaN`` and ``Infinity``), booleans, digits in a string."""
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | huge_ints | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
junk_dicts = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"version": st.integers(-5, 10**20) | json_values,
              "action": st.integers() | st.text(max_size=12) | json_values,
              "lang": st.sampled_from(["en", "de", "nl", "xx", ""]) | st.text(max_size=12),
              "protocol": st.integers(-1, 3) | json_values, "token": st.text(max_size=70),
              "table": st.text(max_size=30), "spectator": st.text(max_size=70), "junk": json_values},
)
"""Objects of a protocol type (or a near miss) with random and missing fields and junk."""


def _texts(turn: dict[str, Any]) -> st.SearchStrategy[tuple[str, str]]:
    """(who sends, the message) for the table as it stands: random JSON, junk of a known type, oversized, deeply
    nested and non-JSON text, actions for another seat, stale and illegal actions."""
    version = turn["version"]
    legal = [a["index"] for a in turn["legal_actions"]]
    texts = [a["text"] for a in turn["legal_actions"]]
    game = dreizehn.game_class(turn["game_id"])
    count = len(game.action_type.all())
    anyone = st.sampled_from(["mover", "other", "spectator"])
    action = st.integers(-3, count + 3) | st.text(max_size=12) | st.sampled_from(game.action_type._texts)
    legal_or_text = st.sampled_from(legal + texts)
    return st.one_of(
        st.tuples(st.just("mover"), st.tuples(loose_numbers, legal_or_text | loose_numbers).map(
            lambda va: json.dumps({"type": "action", "version": va[0], "action": va[1]}))),
        st.tuples(st.just("mover"), loose_numbers.map(
            lambda a: json.dumps({"type": "action", "version": version, "action": a}))),
        st.tuples(anyone, loose_numbers.map(lambda p: json.dumps({"type": "hello", "protocol": p}))),
        st.tuples(anyone, json_values.map(json.dumps)),
        st.tuples(anyone, junk_dicts.map(json.dumps)),
        st.tuples(anyone, st.integers(MAX_BYTES - 100, 3 * MAX_BYTES).map(
            lambda n: json.dumps({"type": "ping", "pad": "é" * (n // 2)}))),
        st.tuples(anyone, st.integers(1, 3000).map(lambda n: "[" * n + "]" * n)),
        st.tuples(anyone, st.text(max_size=40)),
        st.tuples(st.sampled_from(["other", "spectator"]), st.sampled_from(legal + texts).map(
            lambda a: json.dumps({"type": "action", "version": version, "action": a}))),
        st.tuples(st.just("mover"), st.tuples(st.integers(-2, version + 5).filter(lambda v: v != version),
                                                action).map(
            lambda va: json.dumps({"type": "action", "version": va[0], "action": va[1]}))),
        st.tuples(st.just("mover"), action.map(
            lambda a: json.dumps({"type": "action", "version": version, "action": a}))),
    )


def _legal_now(text: str, mover: bool, turn: dict[str, Any]) -> bool:
    """Whether a message is an action that the table would accept now (the fuzzer must not play)."""
    try:
        message = client_message.validate_json(text)
    except (ValidationError, ValueError, RecursionError):
        return False
    if not mover or not isinstance(message, Act) or message.version != turn["version"]:
        return False
    game = dreizehn.game_class(turn["game_id"])
    try:
        number = game.action_type.of(message.action) if isinstance(message.action, int) else \
            game.action_type.parse(message.action)
    except DreizehnError:
        return False
    return int(number) in {a["index"] for a in turn["legal_actions"]}


def test_random_messages_change_nothing_and_the_table_still_plays(client: TestClient,
                                                                 scale: Callable[[int, int], int]) -> None:
    """Item 9: random JSON, junk of every message type, oversized, deeply nested and non-JSON text, actions for
    another seat, stale and illegal actions, from both people and a spectator; and (issue 27) versions, actions and
    protocols of every loose shape: beyond 64 bits, NaN and the infinities, floats, booleans, digits in strings.
    Each is answered (refused, or a pong, resync or hint) and the connection kept, and afterwards the stored log
    and every seat's view are unchanged; then a legal action is accepted."""
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as first, connect(client, token=tokens(created)[1]) as second, \
            connect(client, **spectator_hello(created)) as spectator:
        for peer in (first, second, spectator):
            settle(peer, {0, 1}, -1)
        assert first.view is not None
        to_move = first.view["current_player"]
        peers = {"mover": (first, second)[to_move], "other": (second, first)[to_move], "spectator": spectator}
        turn = peers["mover"].view
        assert turn is not None and turn["legal_actions"]
        room = hub(client).rooms[table_id]
        log = stored(client, table_id).actions
        views = [room.table.view(seat) for seat in range(3)]

        @settings(max_examples=scale(40, 400), deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.lists(_texts(turn), min_size=1, max_size=4))
        def throw(batch: list[tuple[str, str]]) -> None:
            batch = [(who, text) for who, text in batch if not _legal_now(text, who == "mover", turn)]
            for who, text in batch:
                peers[who].send(text)
            for who, _ in batch:
                answer = peers[who].recv(skip=("presence",))
                assert answer["type"] in ("refused", "pong", "resync", "hint"), answer
            assert room.table.version == turn["version"]
            assert [room.table.view(seat) for seat in range(3)] == views

        throw()
        assert stored(client, table_id).actions == log
        for peer in (first, second, spectator):
            assert peer.drain() == [], "a message came that nobody asked for"
            assert peer.view is not None and peer.view["version"] == turn["version"]
        mover = peers["mover"]
        mover.act(turn["legal_actions"][0]["index"], turn["version"])
        for peer in (first, second, spectator):
            update = peer.until(lambda m: m["type"] == "update")
            assert update["version"] == turn["version"] + 1
    assert len(stored(client, table_id).actions) > len(log)


def test_a_page_of_another_origin_is_refused(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Item 9: a browser page of another origin cannot open the websocket (closed with 1008); the server's own
    origin and the allowed ones can, and so can clients that send no Origin."""
    client = serve(make_settings(tmp_path / "data", allowed_origins=["https://play.example"]))
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/ws", headers={"origin": "https://evil.example"}):
        pass
    assert refused.value.code == 1008
    for origin in ("http://testserver", "https://play.example"):
        with client.websocket_connect("/ws", headers={"origin": origin}) as session:
            peer = TestPeer(session)
            peer.send({"type": "ping"})
            assert peer.recv()["code"] == "server.hello_first"


def test_oversized_binary_and_too_many_messages_are_refused(serve: Callable[[Settings], TestClient],
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 9: a message larger than ``max_message_bytes`` is refused with ``server.too_large``, a binary frame
    as not JSON text, and a connection that sends faster than its rate with ``server.too_fast``; the connection
    goes on. The rate's clock is the test's (it moves only when told), so the counts are exact on any machine."""
    clock = fake_clock(monkeypatch, ws)
    client = serve(make_settings(tmp_path / "data", max_message_bytes=1000, rate_per_second=2, rate_burst=3))
    created = create_table(client, "holzwurm", ["person", "medium"])
    with connect(client) as peer:
        peer.send(json.dumps({"type": "ping", "pad": "x" * 1000}))
        answer = peer.recv()
        assert (answer["code"], answer["rule"], answer["params"]) == ("server.too_large", "S3", {"limit": 1000})
        peer.session.send_bytes(b'{"type": "ping"}')
        assert peer.recv()["code"] == "server.bad_json"  # the bucket: 2 of 3 left (a message too large took none)
        clock.advance(0.5)  # one more
        welcome = peer.hello(token=tokens(created)[0])
        assert welcome["type"] == "welcome"
        ping = '{"type": "ping"}'
        peer.send(ping + " " * (1000 - len(ping)))  # exactly 1000 bytes (JSON may end in blanks): accepted
        assert peer.recv(skip=("presence",))["type"] == "pong"
        peer.send(ping + " " * (1000 - len(ping) - 1) + "é")  # 1000 characters, 1001 bytes
        assert peer.recv(skip=("presence",))["code"] == "server.too_large"
        clock.advance(5)  # full again: 3
        for _ in range(8):
            peer.send({"type": "ping"})
        answers = [peer.recv(skip=("presence",)) for _ in range(8)]
        kinds = [a["type"] if a["type"] == "pong" else a["code"] for a in answers]
        assert kinds == ["pong"] * 3 + ["server.too_fast"] * 5, kinds
        assert all(a["rule"] == "S3" for a in answers if a["type"] == "refused")
        peer.send({"type": "ping"})
        assert peer.recv(skip=("presence",))["code"] == "server.too_fast"  # time stood still: still none
        clock.advance(0.5)
        peer.send({"type": "ping"})
        assert peer.recv(skip=("presence",))["type"] == "pong"
