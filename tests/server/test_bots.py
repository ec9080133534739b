"""Bots at the server's tables (issue 13 item 5): they play after the bot pause, off the event loop; a bot that fails,
overruns its time or answers an illegal action is replaced by the heuristic for that move; whole games of every game
between a person and bots run to their end over the websocket."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from starlette.testclient import TestClient

import dreizehn
from dreizehn.bots.base import Bot, register_bot
from dreizehn.core.game import View
from dreizehn.core.record import replay
from dreizehn.server.rooms import acting, bots
from dreizehn.server.rooms import hub as hub_module
from dreizehn.server.settings import Settings

from .kit import connect, create_table, fake_clock, hub, make_settings, play_to_end, quick, settle, stored, tokens


@register_bot
class FailingBot(Bot):
    """A bot that raises instead of choosing."""

    name = "test-failing"

    def act(self, view: View, rng: random.Random) -> int:
        raise RuntimeError("this bot always fails")


@register_bot
class SleepyBot(Bot):
    """A bot that thinks longer than the server allows (then plays its first legal action)."""

    name = "test-sleepy"

    def act(self, view: View, rng: random.Random) -> int:
        time.sleep(0.3)
        return view.legal_actions[0]


@register_bot
class CheatingBot(Bot):
    """A bot that answers an action that is not legal."""

    name = "test-cheating"

    def act(self, view: View, rng: random.Random) -> int:
        return next(a for a in range(10_000) if a not in view.legal_actions)


def test_bots_play_after_the_pause(serve: Callable[[Settings], TestClient], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: a bot waits the bot pause (a setting) before it plays, so people can follow. The rooms' clock is the
    test's: it moves only when a bot sleeps (each sleep noted with the version it waited at), so a bot that played
    before the pause had run out since the move before it would be seen on any machine, busy or not."""
    pause = 0.25
    clock = fake_clock(monkeypatch, acting)
    fake_clock(monkeypatch, bots, clock)
    slept: list[tuple[int, float]] = []
    client = serve(make_settings(tmp_path / "data", bot_pause=pause))
    created = create_table(client, "holzwurm", ["person", "medium"], {"games": 1})

    async def sleep(seconds: float) -> None:  # the clock moves on by the pause at once
        slept.append((hub(client).rooms[created["table"]["id"]].table.version, seconds))
        clock.advance(seconds)
        await asyncio.sleep(0)

    monkeypatch.setattr(bots, "asyncio", SimpleNamespace(**{**vars(asyncio), "sleep": sleep}))
    with connect(client, token=tokens(created)[0]) as person:
        done = -1
        for _ in range(2):
            view = settle(person, {0}, done)
            done = view["version"]
            person.act(view["legal_actions"][0]["index"])
            mine = person.until(lambda m: m["type"] == "update")
            if mine["view"]["is_over"]:
                break
            bot = person.until(lambda m: m["type"] == "update")
            assert bot["seat"] == 1 and (bot["version"] - 1, pause) in slept, slept  # the pause, after the last move
    assert slept and {seconds for _, seconds in slept} == {pause}, slept  # once each: it ran out at its end
    log = stored(client, created["table"]["id"]).actions
    assert [by for _, _, by in log[:4]].count("bot") >= 1


@pytest.mark.parametrize("bot", ["test-failing", "test-sleepy", "test-cheating"])
def test_a_bot_that_fails_is_replaced_by_the_heuristic_for_that_move(
        serve: Callable[[Settings], TestClient], tmp_path: Path, bot: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Item 5: a bot that raises, thinks past ``bot_timeout`` or answers an illegal action is replaced by the
    heuristic for each such move (each said in the server's log); the game goes on to its end. Without the slack
    the server gives a bot in a thread beyond its time, the sleepy bot's 0.3 s are past its 0.1 s."""
    monkeypatch.setattr(hub_module, "DEADLINE_SLACK", 0.0)
    client = serve(make_settings(tmp_path / "data", bot_timeout=0.1))
    created = create_table(client, "holzwurm", ["person", bot], {"games": 1})
    with caplog.at_level(logging.WARNING, "dreizehn.server"), connect(client, token=tokens(created)[0]) as person:
        play_to_end({0: person}, rng=random.Random(5))
    log = stored(client, created["table"]["id"])
    assert log.row.status == "finished"
    bot_moves = [by for seat, _, by in log.actions if seat == 1]
    assert bot_moves and set(bot_moves) == {"bot"}
    replaced = [r for r in caplog.records if "the heuristic plays" in r.getMessage() and bot in r.getMessage()]
    assert len(replaced) == len(bot_moves), [r.getMessage() for r in caplog.records]
    replay(client.get(f"/api/tables/{created['table']['id']}/record").json())


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_whole_games_between_a_person_and_bots(client: TestClient, game_id: str) -> None:
    """Item 5: a whole game of every game between a person and bots runs to its end over the websocket (Three
    Thirteen with a small turn limit); the stored game replays to the totals the table shows."""
    seats = ["person"] + ["medium"] * (dreizehn.game_class(game_id).min_players - 1)
    created = create_table(client, game_id, seats, quick(game_id))
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as person:
        final = play_to_end({0: person}, rng=random.Random(game_id))
        assert person.view is not None and person.view["is_over"]
    log = stored(client, table_id)
    assert len(log.actions) == final and log.row.status == "finished"
    assert {by for seat, _, by in log.actions if seat == 0} == {"person"}
    assert {by for seat, _, by in log.actions if seat != 0} == {"bot"}
    table = client.get(f"/api/tables/{table_id}").json()
    state = replay(client.get(f"/api/tables/{table_id}/record").json())
    assert list(state.totals) == table["totals"] and list(state.winners) == table["winners"]
