"""Waiting in the server's background loops: for an event, at most so long, and never past a cancellation.

``with suppress(TimeoutError): await asyncio.wait_for(event.wait(), seconds)`` loses a cancellation in Python 3.11
when it arrives as the timeout falls: ``wait_for`` answers ``TimeoutError``, the loop waits again, and the task that
was cancelled (the lobby's rounds, as a server stops) never ends. ``asyncio.timeout`` tells its own cancellation from
another's, so :func:`woken` uses it.

>>> import asyncio
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


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait at most ``seconds`` for ``event``; whether it was set. A cancellation of the waiting task is raised,
    never taken for the timeout."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
