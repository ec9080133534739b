"""The relay (PostgreSQL, several processes): a websocket whose table another process serves (its home,
:mod:`dreizehn.server.homes`) is carried through to that process, frame for frame both ways, from the hello on.
This process does no work of its own for the table: the home checks every message, acts, stores and tells.

When the home goes (it stopped, or was killed), or cannot be reached, the client's websocket is closed with
``1012`` (the service restarts): the client connects again, as after any lost connection, and the process it
reaches then claims the home the silent one left (or relays to the process that did). A relayed websocket that
reaches a process which is not the table's home either (the home moved meanwhile) is closed the same way, never
relayed twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from dreizehn.server import metrics
from dreizehn.server.homes import Home
from dreizehn.server.settings import Settings

log = logging.getLogger("dreizehn.server")

RELAYED = "x-dreizehn-relayed"
"""The header of a websocket that another server process relays (it is never relayed again)."""
MOVED = 1012
"""The close code that says "connect again": the table's home moved, or could not be reached."""
_PASSED = frozenset({1000, 1001, 1008, 1009, 1011})
"""Close codes of the home passed on to the client as they are (a closed seat, a message too large, …); any other
end of the home's websocket (the connection lost) is :data:`MOVED`."""


async def relay(websocket: WebSocket, home: Home, hello: str, settings: Settings) -> None:
    """Carry ``websocket`` (accepted, its ``hello`` read) through to ``home`` until either side closes."""
    if websocket.headers.get(RELAYED) or not home.address:
        await _close(websocket, MOVED, "the table's home moved: connect again")
        return
    code, reason = MOVED, "the table's home is gone: connect again"
    try:
        passed = {RELAYED: "1"}
        for header in ("cookie", "authorization"):  # the session or API token an account's seat is opened by (U7)
            if websocket.headers.get(header):
                passed[header] = websocket.headers[header]
        async with connect(f"ws://{home.address}/ws", additional_headers=passed, open_timeout=5,
                           max_size=settings.frame_limit, ping_interval=None, compression=None) as upstream:
            metrics.RELAYED.inc()
            try:
                await upstream.send(hello)
                to_home = asyncio.create_task(_to_home(websocket, upstream))
                from_home = asyncio.create_task(_from_home(upstream, websocket))
                try:
                    await asyncio.wait({to_home, from_home}, return_when=asyncio.FIRST_COMPLETED)
                finally:  # the other way ends too (and both, should this handler be cancelled: the server stops)
                    for task in (to_home, from_home):
                        task.cancel()
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await task
                if to_home.done() and not to_home.cancelled() and to_home.exception() is None and to_home.result():
                    return  # the client left: the home's websocket closes with this block
                if upstream.close_code in _PASSED:
                    code, reason = int(upstream.close_code or MOVED), upstream.close_reason or ""
            finally:
                metrics.RELAYED.dec()
    except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
        log.info("the home of a table at %s could not be reached", home.address, exc_info=True)
    await _close(websocket, code, reason)


async def _to_home(websocket: WebSocket, upstream: ClientConnection) -> bool:
    """The client's frames to the home; ``True`` when the client left."""
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return True
        text, data = frame.get("text"), frame.get("bytes")
        await upstream.send(text if text is not None else data or b"")


async def _from_home(upstream: ClientConnection, websocket: WebSocket) -> None:
    """The home's messages to the client, until the home's websocket ends."""
    async for message in upstream:
        if isinstance(message, str):
            await websocket.send_text(message)
        else:
            await websocket.send_bytes(message)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)
