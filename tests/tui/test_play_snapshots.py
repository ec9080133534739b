"""Snapshots of each game's screen at 80x24 (pytest-textual-snapshot): a fixed seed, random bots that play without
a pause, no hint and a cursor that does not blink, so the picture is the same on every run (issue 15, item 9)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from dreizehn.core.registry import game_class, game_ids
from dreizehn.tui.app import PlayApp
from dreizehn.tui.session import Session


@pytest.mark.parametrize("game_id", sorted(game_ids()))
def test_each_games_screen(game_id: str, tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    players = game_class(game_id).min_players
    session = Session.create(game_id, ["Ann"], ["random"], players, 7, options=dict(game_class(game_id).quick_options),
                             path=tmp_path / "game.json")
    app = PlayApp(session, pause=0)

    async def bots_done(pilot: Pilot[Any]) -> None:
        pilot.app.query_one("#entry", Input).cursor_blink = False  # a blinking cursor is shown or not by the clock
        await pilot.app.workers.wait_for_complete()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=bots_done)
