"""The server's background loops end when cancelled (:mod:`dreizehn.server.waiting`), even where their event is set
in the same turn of the event loop as the cancellation: ``asyncio.wait_for`` then returned the event's result and
dropped the cancellation, so the lobby's rounds went on after a server (or the lobby's benchmark) had stopped them,
and whoever awaited them waited for ever. No clock: each test counts turns of the event loop."""

from __future__ import annotations

import asyncio

from dreizehn.server.lobby.service import Lobby
from dreizehn.server.waiting import woken

TURNS = 10
"""Turns of the event loop a cancelled loop may take to end (it takes two or three)."""


async def _turns(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_wait_is_woken_by_its_event_or_gives_up() -> None:
    async def main() -> tuple[bool, bool]:
        event = asyncio.Event()
        first = await woken(event, 0.0)
        event.set()
        return first, await woken(event, 3600.0)

    assert asyncio.run(main()) == (False, True)


def test_a_loop_cancelled_as_its_event_is_set_ends() -> None:
    async def main() -> bool:
        event, waiting = asyncio.Event(), asyncio.Event()

        async def forever() -> None:
            while True:
                waiting.set()
                await woken(event, 3600.0)
                event.clear()

        task = asyncio.create_task(forever())
        await waiting.wait()
        event.set()
        task.cancel()
        await _turns(TURNS)
        ended = task.done() and task.cancelled()
        task.cancel()
        return ended

    assert asyncio.run(main())


def test_the_lobbys_rounds_end_when_cancelled_as_someone_nudges_them() -> None:
    """What hung the lobby's benchmark: a round nudged (someone queued or confirmed) as the rounds were cancelled."""

    async def main() -> tuple[bool, int]:
        lobby = Lobby.__new__(Lobby)  # only the rounds' loop is under test: its event and its step
        lobby._nudged = asyncio.Event()
        rounds: list[int] = []

        async def step() -> list[str]:
            rounds.append(len(rounds))
            return []

        lobby.step = step  # type: ignore[method-assign]
        task = asyncio.create_task(lobby.keep_matching(3600.0))
        lobby.nudge()
        await _turns(TURNS)
        assert rounds == [0]  # one round for the nudge, then waiting for the next
        lobby.nudge()
        task.cancel()
        await _turns(TURNS)
        ended = task.done() and task.cancelled()
        task.cancel()
        return ended, len(rounds)

    ended, rounds = asyncio.run(main())
    assert ended and rounds <= 2
