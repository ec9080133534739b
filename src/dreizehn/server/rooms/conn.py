"""A websocket's connection to a room: its seat, its language, and the messages waiting to be sent."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from dreizehn.server import metrics

OUTBOX_LIMIT = 256
"""Messages waiting for a slow connection before it is closed."""


@dataclass(eq=False)
class Conn:
    """One websocket: its seat (``None`` for a spectator), its language, and the messages waiting to be sent (as
    JSON text, from :mod:`dreizehn.server.messages`)."""

    seat: int | None
    lang: str
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    closed: bool = False
    dropped: bool = False
    """Closed for falling :data:`OUTBOX_LIMIT` messages behind (a client that does not read)."""
    on_drop: Callable[[], None] | None = None
    """What ends the connection's handler when it is dropped (the websocket route sets it)."""
    window: str | None = None
    """The client's window (its hello's ``window``): a new connection from the same window replaces this one."""

    def send(self, message: str) -> None:
        """Queue a message's text (written once for receivers who get the same); a connection that falls too far
        behind is dropped: what waits for it is thrown away, and its handler ends (the socket is closed)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.drop()

    def drop(self, slow: bool = True) -> None:
        """End the connection from the server's side: for falling behind (``slow``, counted in the metrics), or
        because its seat is no longer its own (taken from the list of tables)."""
        if self.closed:
            return
        self.dropped = True
        if slow:
            metrics.DROPPED.inc()
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.close()
        if self.on_drop is not None:
            self.on_drop()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
