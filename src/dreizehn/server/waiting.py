"""Waiting in the server's background work: for an event, at most so long, and never past a cancellation; for the
tasks still running as a server stops, at most so long, then no longer.

``await asyncio.wait_for(event.wait(), seconds)`` drops a cancellation in Python 3.11 when the event is set in the
same turn of the event loop: ``wait_for`` answers the event's result, the loop goes round and waits again, and the
task that was cancelled (the lobby's rounds, as a server stops) never ends (tests/server/test_waiting.py).
``asyncio.timeout`` waits on the event itself and tells its own cancellation from another's, so :func:`woken` uses
it.

>>> async def main() -> tuple[bool, bool]:
...     event = asyncio.Event()
...     first = await woken(event, 0.01)
...     event.set()
...     return first, await woken(event, 0.01)
>>> asyncio.run(main())
(False, True)
"""

from __future__ import annotations

import asyncio
import contextlib


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait at most ``seconds`` for ``event``; whether it was set. A cancellation of the waiting task is raised,
    never taken for the timeout."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def wait_then_cancel(pending: set[asyncio.Task[None]], timeout: float) -> None:
    """Wait at most ``timeout`` seconds for the tasks of ``pending`` (mails or notices being handed over, as a server
    stops), then cancel the rest."""
    if not pending:
        return
    _, late = await asyncio.wait(set(pending), timeout=timeout)
    for task in late:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
