"""Presence (issue 13 item 6): a person who reconnects with their token gets the seat back with the current view; a
person away past the grace period is played by the stand-in bot (marked in every message's seats) until they come
back; the turn clock has the stand-in play one move for a person who lets it run out."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.bots.base import Bot, register_bot
from dreizehn.core.game import View
from dreizehn.server.settings import Settings
from dreizehn.server.storage import actions, tables

from .kit import (
    connect,
    create_table,
    hub,
    make_settings,
    play_to_end,
    play_until_seat_moves,
    settle,
    spectator_hello,
    stored,
    tokens,
)


def _without_history(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "history"}


def test_reconnecting_brings_the_seat_back_with_the_current_view(client: TestClient) -> None:
    """Item 6: a person who drops and comes back with the same token gets the same seat and the current view;
    the others are told the seat went and came back."""
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    first, second = tokens(created)[0], tokens(created)[1]
    with connect(client, **spectator_hello(created)) as spectator, connect(client, token=second) as other:
        with connect(client, token=first) as person:
            version = play_to_end({0: person, 1: other}, [spectator], turns=3)
            before = person.view
            assert before is not None
        gone = spectator.until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
        assert not gone["seats"][0]["stand_in"]
        with connect(client) as back:
            welcome = back.hello(token=first)
            assert welcome["seat"] == 0 and welcome["view"]["version"] == version
            assert _without_history(welcome["view"]) == _without_history(before)
            assert len(welcome["view"]["history"]) == version
            spectator.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
            play_to_end({0: back, 1: other}, [spectator], turns=2, after=version - 1)
    log = stored(client, created["table"]["id"]).actions
    assert {by for seat, _, by in log if seat == 0} == {"person"}


def test_a_person_away_is_played_by_the_stand_in_and_takes_the_seat_back(
        serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Item 6: with a short grace period, a person who stays away is replaced by the stand-in bot: every message's
    seats mark it (``stand_in: true``) and its moves are stored as the stand-in's; the person who comes back takes
    the seat back and plays again."""
    client = serve(make_settings(tmp_path / "data", grace_period=0.2))
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    with connect(client, **spectator_hello(created)) as spectator, \
            connect(client, token=tokens(created)[1]) as other:
        with connect(client, token=tokens(created)[0]) as person:
            left = play_to_end({0: person, 1: other}, [spectator], turns=1)
        replaced = spectator.until(lambda m: m["type"] == "presence" and m["seats"][0]["stand_in"], timeout=30)
        assert not replaced["seats"][0]["connected"]
        mark = len(spectator.received) - 1
        version = play_to_end({1: other}, [spectator], rng=random.Random(1), turns=3, after=left)
        away = spectator.received[mark:]
        assert sum(1 for m in away if m["type"] == "update" and m["seat"] == 0) >= 2
        for message in away:  # every message of the time away marks the seat
            if "seats" in message:
                assert message["seats"][0]["stand_in"] and not message["seats"][0]["connected"], message
        stand_in_moves = [(seat, by) for seat, _, by in stored(client, table_id).actions[left:] if seat == 0]
        assert stand_in_moves and set(stand_in_moves) == {(0, "stand-in")}
        with connect(client, token=tokens(created)[0]) as back:
            assert back.view is not None and back.view["version"] >= version
            back_presence = spectator.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
            assert not back_presence["seats"][0]["stand_in"]
            returned = len(stored(client, table_id).actions)
            play_to_end({0: back, 1: other}, [spectator], turns=4, after=back.view["version"] - 1)
            mine = [by for seat, _, by in stored(client, table_id).actions[returned:] if seat == 0]
            assert mine and set(mine) == {"person"}
            for message in back.received[1:]:
                if "seats" in message:
                    assert not message["seats"][0]["stand_in"]


def _stamps(client: TestClient, table_id: str) -> list[dt.datetime]:
    """When the table was made, then when each of its actions was stored."""
    with hub(client).store.engine.connect() as c:
        made = c.execute(sa.select(tables.c.created_at).where(tables.c.id == table_id)).scalar_one()
        stamps = c.execute(sa.select(actions.c.at).where(actions.c.table_id == table_id)
                           .order_by(actions.c.seq)).scalars().all()
    return [made, *stamps]


def test_the_turn_clock_has_the_stand_in_play_one_move(serve: Callable[[Settings], TestClient],
                                                       tmp_path: Path) -> None:
    """Item 6: at a table with a turn clock, a person who lets it run out has the stand-in play that one move
    (stored as the stand-in's; the seat stays the person's); a person who acts in time plays their own move."""
    clock = 0.3
    client = serve(make_settings(tmp_path / "data"))
    created = create_table(client, "knizia13", ["person", "medium", "medium"], clock=clock)
    table_id = created["table"]["id"]
    assert created["table"]["clock"] == clock
    with connect(client, token=tokens(created)[0]) as person:
        for _ in range(2):  # twice: the clock starts again at each of the person's turns
            view = settle(person, {0}, -1 if person.view is None else person.view["version"] - 1)
            update = person.until(lambda m: m["type"] == "update")
            assert update["seat"] == 0 and update["version"] == view["version"] + 1
            started, played = _stamps(client, table_id)[view["version"]:view["version"] + 2]
            assert (played - started).total_seconds() >= clock  # (the server's own times: no lag of the client)
            assert not update["seats"][0]["stand_in"] and update["seats"][0]["connected"]
            settle(person, {0}, update["version"])
        log = stored(client, table_id).actions
        by = [by for seat, _, by in log if seat == 0]  # on a busy machine the clock may have run out once more
        assert by[:2] == ["stand-in", "stand-in"] and set(by) == {"stand-in"}
        for _ in range(20):  # the person acts in time; where the stand-in was quicker still, at the next turn
            assert person.view is not None
            turn = settle(person, {0}, person.view["version"] - 1)
            person.act(turn["legal_actions"][0]["index"], turn["version"])
            mine = person.until(lambda m: m["type"] in ("update", "refused"))
            if mine["type"] == "update" and mine["seat"] == 0 and mine["version"] == turn["version"] + 1 \
                    and stored(client, table_id).actions[turn["version"]][2] == "person":
                break
        else:
            raise AssertionError("the person never played a move of their own in time")


THINKING, ANSWER = threading.Event(), threading.Event()


@register_bot
class SlowStandIn(Bot):
    """A stand-in that says when it starts thinking, and answers (its first legal action) when the test lets it."""

    name = "test-slow-stand-in"

    def act(self, view: View, rng: random.Random) -> int:
        THINKING.set()
        ANSWER.wait(10)
        return view.legal_actions[0]


def test_a_person_who_comes_back_while_the_stand_in_thinks_keeps_the_move(
        serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Item 6: a person who comes back while the stand-in is still choosing their move gets the turn back: the
    stand-in's late answer is dropped, and the table waits for the person."""
    THINKING.clear()
    ANSWER.clear()
    client = serve(make_settings(tmp_path / "data", grace_period=0.05, stand_in="test-slow-stand-in"))
    created = create_table(client, "holzwurm", ["person", "medium"], {"games": 1})
    table_id = created["table"]["id"]
    try:
        with connect(client, token=tokens(created)[0]) as person:
            version = settle(person, {0}, -1)["version"]
        assert THINKING.wait(10)  # the stand-in took the seat and is thinking
        with connect(client, token=tokens(created)[0]) as back:
            assert back.view is not None and back.view["version"] == version
            ANSWER.set()  # its answer comes: too late
            room = hub(client).rooms[table_id]
            deadline = time.monotonic() + 10
            while not (room.bots.task is not None and room.bots.task.done()) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert all(m["type"] == "presence" for m in back.drain())  # no update: nothing was played for them
            assert len(stored(client, table_id).actions) == version
            back.act(back.view["legal_actions"][0]["index"])
            assert back.until(lambda m: m["type"] == "update")["seat"] == 0
    finally:
        ANSWER.set()
    assert stored(client, table_id).actions[version][2] == "person"


def _told(update: dict[str, Any]) -> dict[str, Any]:
    return {k: update[k] for k in ("version", "seat", "action", "text", "events")}


def test_who_comes_back_is_told_the_latest_moves_as_they_were_told_live(
        serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Item 6: a welcome's ``recent`` holds every action of the game exactly as its update told this receiver (the
    same sentences, its own private events, a spectator none), in its language; after a restart, rebuilt from the
    log, the same. So a browser that reloads shows the whole game's log in the sentences it showed them in."""
    data = tmp_path / "data"
    client = serve(make_settings(data))
    created = create_table(client, "three-thirteen", ["person", "person"])
    table_id = created["table"]["id"]
    with connect(client, **spectator_hello(created), lang="nl") as spectator, \
            connect(client, token=tokens(created)[1], lang="de") as other, \
            connect(client, token=tokens(created)[0]) as person:
        version = play_to_end({0: person, 1: other}, [spectator], rng=random.Random(3), turns=47)
        live = {name: [_told(m) for m in peer.received if m["type"] == "update"]
                for name, peer in (("person", person), ("other", other), ("spectator", spectator))}
    assert version > 40 and all(len(told) == version for told in live.values())

    def drawn(told: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e["params"] for t in told for e in t["events"] if e["key"] == "three-thirteen.drew"]

    assert any("card" in params for params in drawn(live["person"]))  # its own draws, with their cards
    assert drawn(live["spectator"]) and not any("card" in params for params in drawn(live["spectator"]))

    def welcomes(test_client: TestClient) -> dict[str, dict[str, Any]]:
        with connect(test_client, **spectator_hello(created), lang="nl") as spectator, \
                connect(test_client, token=tokens(created)[1], lang="de") as other, \
                connect(test_client, token=tokens(created)[0]) as person:
            return {"person": person.received[0], "other": other.received[0], "spectator": spectator.received[0]}

    for welcome in (welcomes(client), welcomes(serve(make_settings(data)))):
        for name, told in live.items():
            assert welcome[name]["recent"] == told, name
    assert live["person"][-1]["text"] != live["other"][-1]["text"]  # English and German
    assert stored(client, table_id).row.status == "playing"


def test_after_a_restart_a_person_who_does_not_come_back_is_played_by_the_stand_in(
        serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Item 6 and 8: the grace period runs from a restart too. A server stopped while people played starts again:
    a person who comes back takes their seat within the grace period; one who does not is played by the stand-in
    after it, so the others can finish."""
    from dreizehn.server.app import create_app

    data = tmp_path / "data"
    with TestClient(create_app(make_settings(data))) as first:
        created = create_table(first, "knizia13", ["person", "person", "medium"])
        with connect(first, token=tokens(created)[0]) as anna, connect(first, token=tokens(created)[1]) as ben:
            version = play_to_end({0: anna, 1: ben}, turns=2)
    table_id = created["table"]["id"]

    # started again: nobody is connected. Ben comes back in time: the grace period runs from the start, on the clock,
    # so it is long enough for his connection on a loaded machine (at 2 s, a test run on 2 busy cores once saw
    # Anna's stand-in move before Ben's welcome came); Anna's seat is played once it has run out
    client = serve(make_settings(data, grace_period=8))
    with connect(client, token=tokens(created)[1]) as ben:
        assert ben.view is not None and ben.view["version"] == version
        message = play_until_seat_moves(ben, 0)  # Ben plays on until Anna's seat moves
        assert message["seats"][0]["stand_in"] and not message["seats"][0]["connected"]
        assert message["seats"][1]["connected"] and not message["seats"][1]["stand_in"]
    log = stored(client, table_id).actions[version:]
    assert {by for seat, _, by in log if seat == 0} == {"stand-in"}  # Anna stayed away
    assert {by for seat, _, by in log if seat == 1} <= {"person"}  # Ben came back: his seat stayed his
