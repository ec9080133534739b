"""Every way out of ``dreizehn play`` saves the game, and nothing claims a save that did not happen (issue 49,
item 8): Ctrl+Q, Ctrl+C and the command palette's Quit in the full screen, SIGTERM and SIGHUP (the terminal closed)
in both faces, Ctrl+C (SIGINT) in ``--plain``."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerState

from dreizehn.core.record import load
from dreizehn.tui.app import PassScreen, PlayApp, ScoringScreen
from dreizehn.tui.session import Session

ARGS = ["knizia13", "--players", "3", "--bots", "random", "--seed", "3", "--names", "Ann", "--pause", "0"]


async def settle(app: PlayApp, pilot: Pilot[None]) -> None:
    for _ in range(10_000):
        await pilot.pause()
        busy = [worker for worker in app.workers if worker.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy or isinstance(app.screen, ScoringScreen | PassScreen):
            await pilot.pause()
            return
    raise AssertionError("the app never settled")


def session(tmp_path: Path) -> Session:
    return Session.create("knizia13", ["Ann"], ["random"], 3, 3, lang="en", path=tmp_path / "game.json")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("way", ["palette", "ctrl+c", "ctrl+q"])
async def test_each_key_that_quits_saves(way: str, tmp_path: Path, anyio_backend: str) -> None:
    played = session(tmp_path)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")  # a move, so that the game as it stands differs from the deal
        await settle(app, pilot)
        if way == "palette":
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*"quit")
            await pilot.pause(0.5)
            await pilot.press("enter")
        else:
            await pilot.press(way)
        await pilot.pause()
    assert app.return_code is not None  # the app ended
    assert load(tmp_path / "game.json").history == played.table.state.history
    assert played.saved and played.saved_line().startswith("Game saved to")


def test_no_line_claims_a_save_that_did_not_happen(tmp_path: Path) -> None:
    played = Session.create("knizia13", ["Ann"], ["random"], 3, 3, lang="en", path=tmp_path / "no" / "game.json")
    assert played.save() is None
    assert not played.saved and "could not be saved" in played.saved_line()
    played.path = tmp_path / "game.json"
    assert played.save() == played.path and played.saved_line().startswith("Game saved to")
    played.table.play_bots()
    played.submit(played.legal()[0])
    assert not played.saved and "Game saved" not in played.saved_line()  # saved before the move: not as it stands
    off = Session.create("knizia13", ["Ann"], ["random"], 3, 3, lang="de", path=tmp_path / "off.json", saving=False)
    assert off.save() is None and not (tmp_path / "off.json").exists()
    assert off.saved_line() == "Das Spiel wurde nicht gespeichert (--no-save)."


ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": os.environ.get("PYTHONPATH", "")}


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_saves_the_plain_game(number: int, tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "dreizehn.cli.main", "play", *ARGS, "--plain"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               encoding="utf-8", env=ENV)
    assert process.stdout is not None and process.stdin is not None
    for line in process.stdout:
        if line.startswith("legal: "):
            break
    process.send_signal(number)
    rest = process.stdout.read().splitlines()
    assert process.wait(timeout=60) == 128 + number
    assert rest[-1] == ("Game saved to dreizehn-knizia13-3.json; continue it with: dreizehn play --resume "
                        "dreizehn-knizia13-3.json")
    assert len(load(tmp_path / "dreizehn-knizia13-3.json").history) == 2  # the two bots' moves


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_saves_the_full_screen_game(number: int, tmp_path: Path) -> None:
    """The full screen in a pseudo-terminal of 80x24: ended by a signal once it shows the moves, it saves."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "dreizehn.cli.main", "play", *ARGS], cwd=tmp_path,
                               stdin=follower, stdout=follower, stderr=follower, env={**ENV, "TERM": "xterm-256color"},
                               start_new_session=True)
    os.close(follower)
    shown = bytearray()
    ready = threading.Event()

    def read() -> None:  # drain the terminal, so the app never waits to write
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            shown.extend(chunk)
            if b"Put the yellow 2" in shown:  # the first move offered: the app is up and Ann's turn drawn
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert ready.wait(timeout=120), shown[-2000:]
        process.send_signal(number)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    assert len(load(tmp_path / "dreizehn-knizia13-3.json").history) == 2
