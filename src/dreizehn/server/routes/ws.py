"""``/ws``: the websocket of a seat or a spectator (the protocol is in :mod:`dreizehn.server.protocol` and
docs/server.md).

A connection first says hello with its seat's token (or a table and the spectators' token) and its language, and is
answered with the whole view. Every message after that is checked: its size, the connection's rate, that it is JSON,
of a known type, well formed; a refused message changes nothing and is answered with a code, the rule and a message
in the connection's language. With several processes (PostgreSQL), a hello for a table another process serves is
relayed there (:mod:`dreizehn.server.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from dreizehn.core.errors import DreizehnError
from dreizehn.core.language import pick_language
from dreizehn.server import messages
from dreizehn.server.accounts.seats import bound_refusal, check_token_seat, open_invited
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.homes import Elsewhere
from dreizehn.server.protocol import (
    CLIENT_TYPES,
    PROTOCOL,
    Accept,
    Act,
    AskHint,
    ClientMessage,
    Decline,
    Hello,
    Offer,
    Ping,
    Ready,
    Say,
    SetLanguage,
    Undo,
    client_message,
)
from dreizehn.server.refusals import ServerError
from dreizehn.server.relay import MOVED, relay
from dreizehn.server.rooms import Conn, Room
from dreizehn.server.routes.deps import socket_who
from dreizehn.server.settings import Settings
from dreizehn.server.text import person_text

router = APIRouter(tags=["websocket"])

CHAT_RATE, CHAT_BURST = 1.0, 3
"""Lines of chat a connection may say each second, and at once (``server.chat_too_fast`` beyond)."""
SESSION_FRESH = 1.0
"""Seconds a connection of an account's seat trusts its session's last check in the database (rule U7), unless this
process ended a session since (:meth:`~dreizehn.server.accounts.service.Accounts.sessions_ended`): then its next
message waits for a check. Past this time, a message is answered at once while the session is checked again beside
it; once that check finds the session ended, the connection is refused and closed. So a session ended by another
process (a second server process, ``dreizehn admin``) stops the connection at the first message after the next
check; one ended here, at once; and no move of a signed-in player waits for a query and a thread's hop."""
SESSION_STALE = 10.0
"""Seconds after which a connection's last check is too old to act on: its next message waits for a new one (the
checks beside the messages, and the idle connection's every :data:`SESSION_RECHECK`, keep it younger)."""
SESSION_RECHECK = 15.0
"""Seconds between the checks of an idle connection's session (rule U7): a connection of an account's seat whose
session ended (signed out everywhere, a new password, the account deleted or disabled) is closed within this time
even if it says nothing; a message it sends is checked at once."""
NO_HELLO = 4408
"""The close code of a websocket that said no welcomed hello within ``hello_timeout`` seconds of its opening: 4000
(an application's own code) plus 408, HTTP's Request Timeout. docs/server.md lists every close code."""


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """A browser's page may open the websocket only from the server's own host or an allowed origin; clients that
    send no Origin (not browsers) are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def _say(room: Room, conn: Conn, message: Say, chat: Bucket) -> None:
    """A line of chat: refused if its text holds a character no text may (S9), is blanks alone or comes too fast;
    else said."""
    try:
        text = None if message.text is None else person_text(message.text, "text")
    except ServerError as err:
        conn.send(messages.refused(err, conn.lang))
        return
    if not room.well_said(text, message.phrase):
        conn.send(messages.refused(ServerError("server.chat_empty", rule="S3"), conn.lang))
    elif not chat.take():  # only lines that could be said count against the rate
        conn.send(messages.refused(ServerError("server.chat_too_fast", rule="S3"), conn.lang))
    else:
        await room.say(conn, text, message.phrase)


async def _dispatch(room: Room, conn: Conn, message: object, chat: Bucket) -> None:
    """A message of a connection already admitted to ``room``: an action, a change of language, a hint asked, a
    stage's scoring read, a rematch asked, accepted or declined, a move taken back, a line of chat (at most as fast
    as ``chat`` lets), a ping."""
    if isinstance(message, Act):
        await room.act(conn, message.version, message.action)
    elif isinstance(message, SetLanguage):
        try:
            conn.lang = pick_language(message.lang)
        except DreizehnError as err:
            conn.send(messages.refused(err, conn.lang))
            return
        async with room.lock:
            conn.send(room.welcome(conn, "resync"))
    elif isinstance(message, AskHint):
        await room.hint(conn)
    elif isinstance(message, Ready):
        room.ready(conn.seat, message.version)
    elif isinstance(message, Offer):
        room.offer(conn)
    elif isinstance(message, Accept | Decline):
        room.answer(conn, isinstance(message, Accept))
    elif isinstance(message, Undo):
        await room.undo(conn, message.version)
    elif isinstance(message, Say):
        await _say(room, conn, message, chat)
    elif isinstance(message, Ping):
        conn.send(messages.PONG)


@router.websocket("/ws")
async def websocket_endpoint(websocket: WebSocket) -> None:
    settings: Settings = websocket.app.state.settings
    if not origin_allowed(websocket, settings):  # closed before it is accepted: uvicorn answers the handshake 403
        await websocket.close(code=1008, reason="origin not allowed")
        return
    await websocket.accept()
    await _Socket(websocket, settings).serve()


class _NoHello(Exception):
    """The websocket said no welcomed hello in its time (``hello_timeout``)."""


class _Socket:
    """One accepted websocket, served by the task that made this (its handler): the frames it reads, and once its
    hello is admitted, its table's room, its connection there and the task that writes the connection's messages."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.settings = settings
        self.hub = websocket.app.state.hub
        self.bucket = Bucket(settings.rate_per_second, settings.rate_burst)
        self.chat = Bucket(CHAT_RATE, CHAT_BURST)
        self.room: Room | None = None
        self.conn: Conn | None = None
        self.writer: asyncio.Task[None] | None = None
        self.lang = "en"
        self.handler = asyncio.current_task()
        self.reading = False
        self.hello_by = asyncio.get_running_loop().time() + settings.hello_timeout
        """When the websocket is closed unless its hello was welcomed (:data:`NO_HELLO`)."""
        self.account_id: str | None = None
        """The account whose seat the connection acts for (rule U7): its session is checked at every message."""
        self.signed_out = False
        self.checked_at = -SESSION_FRESH
        self.rechecking: asyncio.Task[None] | None = None
        """When (``time.monotonic``) the session was last found in the database, signed in to the account."""
        self.watcher: asyncio.Task[None] | None = None

    async def serve(self) -> None:
        """Read and answer frames until the client goes, or its connection is dropped for not reading."""
        try:
            while self.conn is None or not self.conn.dropped:
                if not await self._handle(await self._receive()):
                    return
        except WebSocketDisconnect:
            pass
        except _NoHello:
            with contextlib.suppress(Exception):
                await self.websocket.close(NO_HELLO, f"no hello within {self.settings.hello_timeout:g} s")
        except asyncio.CancelledError:
            if self.conn is None or not self.conn.dropped or self.handler is None:
                raise
            self.handler.uncancel()
        finally:
            if self.room is not None and self.conn is not None:
                self.room.disconnect(self.conn)
            if self.writer is not None:
                self.writer.cancel()
            if self.watcher is not None:
                self.watcher.cancel()
            if self.rechecking is not None:
                self.rechecking.cancel()

    async def _receive(self) -> MutableMapping[str, Any]:
        self.reading = True
        try:
            if self.conn is None:  # before the hello: within its time, whatever else was said
                try:
                    async with asyncio.timeout_at(self.hello_by):
                        frame = await self.websocket.receive()
                except TimeoutError:
                    raise _NoHello from None
            else:
                frame = await self.websocket.receive()
        finally:
            self.reading = False
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code") or 1000)
        return frame

    async def _handle(self, frame: MutableMapping[str, Any]) -> bool:
        """Answer one frame; ``False`` once the websocket was carried through to another process (it is over)."""
        conn = self.conn
        checked = _read(frame, self.bucket, self.settings)
        if isinstance(checked, ServerError):
            await _answer(conn, self._send_direct, checked, conn.lang if conn else self.lang)
        elif isinstance(checked, Hello):
            return await self._hello(checked, frame)
        elif conn is None or self.room is None:
            await self._send_direct(messages.refused(ServerError("server.hello_first", rule="S4"), self.lang))
        elif self.account_id is not None and not await self._still_theirs():
            self._end_signed_out()
        else:
            await _dispatch(self.room, conn, checked, self.chat)
        return True

    async def _still_theirs(self, fresh: float | None = None) -> bool:
        """Whether the handshake's session is still signed in to the account whose seat the connection acts for: as
        the database said less than ``fresh`` seconds ago if no session ended here since; past it (and younger than
        :data:`SESSION_STALE`), yes for now, while it is asked again beside the message (:meth:`_recheck`); else
        asked again first."""
        started = time.monotonic()
        ended_here = self.websocket.app.state.accounts.ended_at
        age = started - self.checked_at
        if self.checked_at > ended_here and age < (SESSION_FRESH if fresh is None else fresh):
            return True
        if self.checked_at > ended_here and fresh is None and age < SESSION_STALE:
            if self.rechecking is None or self.rechecking.done():
                self.rechecking = asyncio.create_task(self._recheck())
            return True
        return await self._ask()

    async def _ask(self) -> bool:
        started = time.monotonic()
        account = await socket_who(self.websocket)
        if account is None or account.id != self.account_id:
            return False
        self.checked_at = started
        return True

    async def _recheck(self) -> None:
        """The session asked again beside a message: the connection ends once it has ended."""
        if not await self._ask():
            self._end_signed_out()

    def _end_signed_out(self) -> None:
        """The session ended: the connection is told (``account.signed_out``) and closed (1008); it acts no more."""
        if self.conn is None or self.signed_out:
            return
        self.signed_out = True
        self.conn.send(messages.refused(ServerError("account.signed_out", rule="U3", status=401), self.conn.lang))
        self.conn.close()  # the writer sends the refusal, then closes the websocket; the handler then ends

    async def _watch_session(self) -> None:
        """Check an account's seat's session every :data:`SESSION_RECHECK` seconds while the connection is open."""
        while not self.signed_out:
            await asyncio.sleep(SESSION_RECHECK)
            if not await self._still_theirs(fresh=0.0):
                self._end_signed_out()

    async def _hello(self, message: Hello, frame: MutableMapping[str, Any]) -> bool:
        """Admit the websocket to its table's room (a second hello is refused); ``False`` when another process
        serves the table and the websocket was carried through to it."""
        if self.conn is not None:
            await _answer(self.conn, self._send_direct, ServerError("server.hello_twice", rule="S4"), self.conn.lang)
            return True
        try:
            self.lang = pick_language(message.lang)
            if message.protocol != PROTOCOL:
                raise ServerError("server.protocol", rule="S4", given=message.protocol, protocol=PROTOCOL)
            asked = time.monotonic()
            account = await socket_who(self.websocket)
            room, seat, bound = await _admit(self.hub, message, account)
            _take_over(self.hub, room, seat, message)
        except Elsewhere as away:  # another process serves the table: carried through to it
            await relay(self.websocket, away.home, str(frame.get("text")), self.settings)
            return False
        except DreizehnError as err:
            await self._send_direct(messages.refused(err, self.lang if self.lang else "en"))
            return True
        conn = Conn(seat, self.lang, on_drop=self._drop, window=message.window)
        self.room, self.conn = room, conn
        self.writer = asyncio.create_task(self._write(conn))
        if bound and account is not None:
            self.account_id, self.checked_at = account.id, asked
            self.watcher = asyncio.create_task(self._watch_session())
        async with room.lock:  # under the lock: the welcome shows what was told, and no update falls between
            conn.send(room.welcome(conn))
            room.connect(conn)
        room.after_change()  # a table that should move and does not (its bots not started) moves now
        return True

    async def _send_direct(self, message: str) -> None:
        await self.websocket.send_text(message)

    async def _write(self, target: Conn) -> None:
        """Send the connection's messages in order; at its end, close the websocket."""
        while True:
            message = await target.outbox.get()
            if message is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(*self._ending())
                return
            await self.websocket.send_text(message)

    def _ending(self) -> tuple[int, str]:
        """The close code and reason of a connection the server ended (docs/server.md, "Close codes"): ``1012``,
        "connect again", when its room stopped (the server stops, or another process serves the table now);
        ``1008`` when it was dropped (its seat taken from the list of tables by another person, or it fell too far
        behind: a new hello says which); else ``1000``, a normal end (another window took the seat over, or the
        same window connected again)."""
        if self.room is not None and self.room.stopped:
            return MOVED, "the table's room stopped here: connect again"
        if self.signed_out:
            return 1008, "signed out: the session ended"
        if self.conn is not None and self.conn.dropped:
            return 1008, "dropped: the seat was given to another, or the messages were not read"
        return 1000, "ended by the server"

    def _drop(self) -> None:
        """The connection was dropped for not reading (:meth:`Conn.drop`): its handler ends now if it waits for a
        frame, else after the message at hand (never in the middle of an action)."""
        if self.reading and self.handler is not None:
            self.handler.cancel()


def _read(frame: MutableMapping[str, Any], bucket: Bucket, settings: Settings) -> ClientMessage | ServerError:
    """A frame's message, or why it is refused (rule S3): too large, too fast, not JSON text, of no known type, or
    not well formed."""
    text: str | None = frame.get("text")  # None: a binary frame, refused below as not JSON text
    if len(text.encode() if text is not None else frame.get("bytes") or b"") > settings.max_message_bytes:
        return ServerError("server.too_large", rule="S3", limit=settings.max_message_bytes)
    if not bucket.take():
        return ServerError("server.too_fast", rule="S3", rate=settings.rate_per_second)
    try:  # a binary frame is no JSON text either; NaN and Infinity are no JSON (RFC 8259)
        raw = None if text is None else json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not JSON, or nested too deep for the parser
        text = None
    if text is None:
        return ServerError("server.bad_json", rule="S3")
    try:
        return client_message.validate_python(raw)
    except ValidationError as err:
        kind = raw.get("type") if isinstance(raw, dict) else None
        if isinstance(kind, str) and kind in CLIENT_TYPES:
            loc = err.errors()[0]["loc"]  # (the type, the field, …): the field the message got wrong
            return ServerError("server.bad_message", rule="S3", type=kind,
                               field=str(loc[1])[:40] if len(loc) > 1 else "type")
        return ServerError("server.unknown_type", rule="S3", type=str(kind)[:20])


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's parser reads and JSON does not have: refused (as the
    frame's parse error, which :func:`_read` answers)."""
    raise ServerError("server.bad_json", rule="S3")


async def _answer(conn: Conn | None, send: Any, err: DreizehnError, lang: str) -> None:
    if conn is not None:
        conn.send(messages.refused(err, conn.lang))
    else:
        await send(messages.refused(err, lang))


def _take_over(hub: Any, room: Room, seat: int | None, hello: Hello) -> None:
    """A hello's ``takeover``: with ``ask``, refused (``server.seat_open``) while the seat is open in another window
    (here or on another process); with ``yes``, the seat's other windows are told ``taken_over`` and closed (those
    of other processes by a notice). Either way an older connection of the same window is closed: it is the page
    that came back. Without ``takeover`` nothing changes: every window stays connected."""
    if seat is None or hello.takeover is None:
        return
    mine = [c for c in room.conns if c.seat == seat and not c.closed]
    others = [c for c in mine if hello.window is None or c.window != hello.window]
    elsewhere = room.presence.connected_elsewhere(seat)
    if hello.takeover == "ask" and (others or elsewhere):
        raise ServerError("server.seat_open", rule="S1")
    for c in mine:
        if c not in others:
            c.close()  # the same window's older connection: the page came back
    room.presence.taken_over(seat, others)
    if elsewhere:
        hub.peers.publish_take_over(room, seat)


async def _admit(hub: Any, hello: Hello, account: AccountRow | None) -> tuple[Room, int | None, bool]:
    """The room and seat a hello opens (a spectator's seat is ``None``), and whether the seat is bound to
    ``account`` (the handshake's: its session is checked at every message). A seat bound to an account opens to
    that account alone (rule U7)."""
    if hello.token is not None:
        found = await asyncio.to_thread(hub.store.tables.token_seat, hello.token)
        if found is None:
            raise ServerError("server.bad_token", rule="S1")
        await check_token_seat(hub.store, found, account.id if account is not None else None)
        room = await hub.room(found.table_id)
        if room is None:
            raise ServerError("server.bad_token", rule="S1")
        return room, found.seat, found.account_id is not None
    if hello.table is not None and hello.seat is not None:
        return await _own_seat(hub, hello.table, hello.seat, account)
    room, seat = await _watcher(hub, hello)
    return room, seat, False


async def _own_seat(hub: Any, table_id: str, seat: int, account: AccountRow | None) -> tuple[Room, int, bool]:
    """An account's own seat opened by its session (rule U7; the hello's ``table`` and ``seat``): refused to a
    guest (``account.signed_out``), for a seat of another account (``account.seat_bound``) or of nobody's
    (``account.not_your_seat``: its invitation opens it). A seat the account was invited to is taken now."""
    if account is None:
        raise ServerError("account.signed_out", rule="U3", status=401)
    found = await asyncio.to_thread(hub.store.tables.seat, table_id, seat)
    if found is not None and found.account_id is not None and found.account_id != account.id:
        raise await bound_refusal(hub.store, table_id, seat)
    if found is None or found.account_id != account.id:
        raise ServerError("account.not_your_seat", rule="U7", status=403, seat=seat)
    room = await hub.room(table_id)
    if room is None:
        raise ServerError("server.no_table", rule="S1", table=table_id)
    if not found.joined and await asyncio.to_thread(open_invited, hub.store, table_id, seat, account.id):
        hub.peers.seat_taken(table_id, seat, found.name, drop=False)
    return room, seat, True


async def _watcher(hub: Any, hello: Hello) -> tuple[Room, None]:
    """The room a spectator's hello opens: by the table's spectators' token, or as anyone may watch it."""
    if hello.table is not None and hello.spectator is not None:
        if not await asyncio.to_thread(hub.store.tables.spectator_ok, hello.table, hello.spectator):
            raise ServerError("server.bad_token", rule="S1")
        room = await hub.room(hello.table)
        if room is None:
            raise ServerError("server.bad_token", rule="S1")
        return room, None
    if hello.table is not None and hello.watch:
        room = await hub.room(hello.table)
        if room is None:
            raise ServerError("server.no_table", rule="S1", table=hello.table)
        return room, None
    raise ServerError("server.hello_needs_token", rule="S4")
