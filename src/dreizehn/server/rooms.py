"""Live tables: each table being played in this process is a :class:`Room` holding a :class:`dreizehn.table.Table`
rebuilt from the database, its connections, its bots and its timers. The :class:`Hub` keeps the rooms.

Every change of a table goes one way, under the room's lock: the engine checks and applies the action, the database
stores it (the unique (table, sequence) key settles races with other processes), and only then is anyone told:
each connection gets its own update, filtered for its seat and said in its language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import orjson

from dreizehn.bots.base import make_bot
from dreizehn.core.errors import DreizehnError
from dreizehn.core.events import Event
from dreizehn.core.registry import load_game
from dreizehn.say import say_event
from dreizehn.server.settings import Settings
from dreizehn.server.storage import PRESENCE_CHANNEL, Append, Conflict, Store, Stored, Writer
from dreizehn.table import BotRequest, Seat, Table, Update, decide_in_worker
from dreizehn.wire import ViewWriter
from dreizehn.words import words

log = logging.getLogger("dreizehn.server")

OUTBOX_LIMIT = 256
"""Messages waiting for a slow connection before it is closed."""

RECENT = 40
"""The latest actions a room keeps as told (with their events), for the ``recent`` of a welcome: a client that
comes back shows its last moves in the same sentences as the moves it saw arrive."""


class ServerError(DreizehnError):
    """A message the server refuses (not a rule of a game): bad token, not a seat, too fast, …"""


@dataclass(eq=False)
class Conn:
    """One websocket: its seat (``None`` for a spectator), its language, and the messages waiting to be sent (as
    JSON text)."""

    seat: int | None
    lang: str
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    closed: bool = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (or its JSON text, written once for receivers who get the same); a connection that falls
        too far behind is closed."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message if isinstance(message, str) else dumps(message))
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: the server writes a view for every receiver of every action)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def build_table(stored: Stored, told: deque[Update] | None = None) -> Table:
    """The table of a stored game, its actions replayed through the engine; with ``told``, the latest
    :data:`RECENT` actions are replayed with their events into it, and so is every action applied afterwards."""
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    seats = tuple(Seat(s.name, bot=s.bot) for s in stored.seats)
    table = Table(game, seats, stored.row.seed, game.new_state(stored.row.seed))
    state = table.state
    quiet = len(stored.actions) if told is None else max(0, len(stored.actions) - RECENT)
    for _, action, _ in stored.actions[:quiet]:
        state.apply(action)
    if told is not None:
        told.clear()
        table.listen(told.append)
        for seat, action, _ in stored.actions[quiet:]:
            table.apply_as(seat, action)
    return table


@dataclass
class Said:
    """What the receivers of one update share, said once: per language the action's sentence, and each event per
    (language, its number, the receiver who owns its private part or ``None``)."""

    texts: dict[str, str] = field(default_factory=dict)
    events: dict[tuple[str, int, int | None], dict[str, Any]] = field(default_factory=dict)


class Room:
    """A table being played in this process."""

    def __init__(self, hub: Hub, stored: Stored) -> None:
        self.hub = hub
        self.id = stored.row.id
        self.row = stored.row
        self.seat_rows = list(stored.seats)
        self.told: deque[Update] = deque(maxlen=RECENT)
        """The latest actions applied, each with all its events (filtered for each receiver when said)."""
        self.table = build_table(stored, self.told)
        self.by: list[str] = [by for _, _, by in stored.actions]
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.away: dict[int, asyncio.Task[None]] = {}
        self.stand_in: set[int] = set()
        self.elsewhere: dict[str, tuple[int, dict[int, int], set[int]]] = {}
        """What other server processes said of this table (PostgreSQL): per process, the number of its notice,
        its connections per seat, and the seats its stand-in plays."""
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self.last_used = time.monotonic()
        self.told_at = 0.0
        """When the latest action was told (``time.monotonic``): bots wait the bot pause after it."""
        self.writers: dict[str, ViewWriter] = {}
        """Per language, what writes the views as documents: it keeps each legal action said as an offer and each
        field as last written (:class:`~dreizehn.wire.ViewWriter`)."""

    # -- what everyone sees ---------------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seat_rows]

    def seats_info(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.conns if c.seat is not None and not c.closed}
        stand_in = set(self.stand_in)
        for _, counts, played in self.elsewhere.values():
            connected.update(seat for seat, n in counts.items() if n > 0)
            stand_in |= played
        return [
            {"seat": s.seat, "name": s.name, "kind": "bot" if s.bot else "person", "bot": s.bot, "joined": s.joined,
             "connected": s.seat in connected, "stand_in": s.seat in stand_in}
            for s in self.seat_rows
        ]

    def connected_elsewhere(self, seat: int) -> bool:
        """Whether a connection of another server process holds ``seat``."""
        return any(counts.get(seat, 0) > 0 for _, counts, _ in self.elsewhere.values())

    def connected(self, seat: int) -> bool:
        """Whether a connection of this process or of another holds ``seat``."""
        return any(c.seat == seat and not c.closed for c in self.conns) or self.connected_elsewhere(seat)

    def presence_here(self) -> dict[str, Any]:
        """This process's part of the table's presence: connections per seat, and the seats its stand-in plays."""
        counts: dict[int, int] = {}
        for conn in self.conns:
            if conn.seat is not None and not conn.closed:
                counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return {"conns": counts, "stand_in": sorted(self.stand_in)}

    def heard_presence(self, process: str, number: int, counts: dict[int, int], stand_in: set[int]) -> None:
        """Another process's presence at this table (its notice number ``number``; older notices are dropped). A
        person whom this process's stand-in plays and who is connected there has come back: the seat is theirs."""
        known = self.elsewhere.get(process)
        if known is not None and known[0] >= number:
            return
        self.elsewhere[process] = (number, counts, stand_in)
        back = [seat for seat in self.stand_in if self.connected_elsewhere(seat)]
        for seat in back:
            self._take_back(seat)
        if back:
            self.hub.publish_presence(self)
        self.broadcast_presence()

    def _take_back(self, seat: int) -> None:
        """A person is back: their seat is theirs again, if the stand-in played it."""
        if seat in self.stand_in:
            self.stand_in.discard(seat)
            self.table.replace(seat, None)

    def _stand_in_for(self, seat: int) -> None:
        """A person is away: this process's stand-in plays their seat."""
        self.stand_in.add(seat)
        self.table.replace(seat, self.hub.settings.stand_in)

    def start_away_timers(self) -> None:
        """After a start, or when another process is gone: every person who joined a table being played and is
        connected nowhere is away until a connection comes, so the grace period runs for each (a connection stops
        it)."""
        if self.table.is_over:
            return
        for s in self.seat_rows:
            if s.bot is None and s.joined and s.seat not in self.away and not self.connected(s.seat):
                self.away[s.seat] = asyncio.create_task(self._away(s.seat))

    def forget(self, process: str) -> None:
        """Another process is gone (killed, say): its connections count no more. The seats its stand-in played
        are this process's stand-in's at once (their grace period ran out there), and the grace period runs for
        the people who were connected there only; the bots it was playing go on here."""
        known = self.elsewhere.pop(process, None)
        if known is None:
            return
        _, _, played = known
        taken = [seat for seat in played
                 if not self.table.is_over and seat not in self.stand_in and not self.connected(seat)]
        for seat in taken:
            self._stand_in_for(seat)
        self.start_away_timers()
        if taken:
            self.hub.publish_presence(self)
        self.broadcast_presence()
        self.after_change()

    def view_doc(self, seat: int | None, lang: str, history: bool) -> dict[str, Any]:
        table = self.table
        view = table.state.spectator_view() if seat is None else table.view(seat)
        write = self.writers.get(lang)
        if write is None:
            game, w = table.game, words(lang)
            said: dict[int, str] = {}

            def offer(action: int) -> str:
                text = said.get(action)
                if text is None:
                    text = said[action] = game.say_action(w, action)
                return text

            write = self.writers[lang] = ViewWriter(offer)
        return write(view, history=history)

    def history_words(self, lang: str, seat: int | None) -> list[str]:
        """The course so far, an action a line, said for ``seat``: public plays only (a card drawn by another
        seat stays unsaid)."""
        w = words(lang)
        game = self.table.game
        return [game.say_action(w, action, self.names[s] if 0 <= s < len(self.names) else None)
                for s, action in self.table.state.history]

    def welcome(self, conn: Conn, kind: str = "welcome") -> dict[str, Any]:
        return {
            "type": kind, "protocol": 1, "table": self.id, "game": self.table.game.id, "seat": conn.seat,
            "lang": conn.lang, "view": self.view_doc(conn.seat, conn.lang, history=True), "seats": self.seats_info(),
            "history": self.history_words(conn.lang, conn.seat),
            "recent": [self.said_update(update, conn.seat, conn.lang) for update in self.told],
        }

    def refusal(self, conn: Conn, err: DreizehnError, with_view: bool = True) -> dict[str, Any]:
        data = err.to_json()
        return {
            "type": "refused", "code": data["code"], "rule": data["rule"], "params": data["params"],
            "message": words(conn.lang).error(err),
            "view": self.view_doc(conn.seat, conn.lang, history=True) if with_view else None,
            "version": self.table.version,
        }

    def said_update(self, update: Update, seat: int | None, lang: str, said: Said | None = None) -> dict[str, Any]:
        """An applied action as ``seat`` (``None``: a spectator) is told of it in ``lang``: its version, seat,
        notation, the action in words, and its events filtered for that receiver and said (``said`` keeps what the
        receivers of one update share)."""
        game, names = self.table.game, self.names
        w = words(lang)
        said = Said() if said is None else said
        text = said.texts.get(lang)
        if text is None:
            text = said.texts[lang] = game.say_action(w, game.action_type.parse(update.action), names[update.seat])
        events = []
        for i, event in enumerate(update.events):
            owner = seat if event.private and seat in event.private else None
            entry = said.events.get((lang, i, owner))
            if entry is None:
                entry = said.events[(lang, i, owner)] = said_event(game, w, event.for_seat(owner), names)
            events.append(entry)
        return {"version": update.version, "seat": update.seat, "action": update.action, "text": text,
                "events": events}

    def broadcast_update(self, update: Update) -> None:
        """Tell every connection of an applied action, each its own part, in its language. What receivers share
        (the action in words, the public events) is said once per language."""
        seats = self.seats_info()
        per_seat: dict[tuple[int | None, str], str] = {}
        said = Said()
        for conn in list(self.conns):
            seat, lang = conn.seat, conn.lang
            message = per_seat.get((seat, lang))
            if message is None:
                message = per_seat[(seat, lang)] = dumps({
                    "type": "update", **self.said_update(update, seat, lang, said),
                    "view": self.view_doc(seat, lang, history=False), "seats": seats,
                })
            conn.send(message)

    def broadcast_presence(self) -> None:
        message = dumps({"type": "presence", "seats": self.seats_info()})
        for conn in list(self.conns):
            conn.send(message)

    def resync_all(self) -> None:
        for conn in list(self.conns):
            conn.send(self.welcome(conn, "resync"))

    # -- acting ---------------------------------------------------------------------------------------------------

    async def act(self, conn: Conn, version: int, action: int | str) -> None:
        """A person's action from ``conn``: applied, stored, told; or refused with the current view."""
        async with self.lock:
            if conn.seat is None:
                conn.send(self.refusal(conn, ServerError("server.spectator_acts", rule="S1")))
                return
            try:
                update = self.table.submit(conn.seat, action, version)
            except DreizehnError as err:
                conn.send(self.refusal(conn, err))
                return
            await self._store_and_tell(update, "person")
        self.after_change()

    async def _store_and_tell(self, update: Update, by: str) -> bool:
        """Store an update already applied to the table, then tell everyone; on a conflict (another process took
        the turn) reload the table and resync. Call under the lock."""
        try:
            await self.hub.writer.append(Append(self.id, update.version - 1, update.seat, update.action, by,
                                                self.table.is_over))
        except Conflict:
            await self._reload()
            return False
        except Exception:  # the database failed: what it holds is the truth
            log.exception("storing action %s of table %s failed", update.version - 1, self.id)
            await self._reload()
            return False
        self.by.append(by)
        self.told_at = time.monotonic()
        if self.table.is_over:
            self.row = _finished(self.row)
        self.broadcast_update(update)
        return True

    async def _reload(self) -> None:
        stored = await asyncio.to_thread(self.hub.store.load, self.id)
        if stored is None:
            return
        self.row, self.seat_rows = stored.row, list(stored.seats)
        self.table = build_table(stored, self.told)
        self.by = [by for _, _, by in stored.actions]
        for seat in self.stand_in:
            self.table.replace(seat, self.hub.settings.stand_in)
        self.resync_all()

    async def catch_up(self) -> None:
        """Apply the actions another process stored (PostgreSQL NOTIFY) and tell this process's connections."""
        async with self.lock:
            fresh = await asyncio.to_thread(self.hub.store.actions_from, self.id, self.table.version)
            for seat, action, by in fresh:
                if self.table.current_player != seat:
                    await self._reload()
                    break
                update = self.table.apply_as(seat, action)
                self.by.append(by)
                self.told_at = time.monotonic()
                self.broadcast_update(update)
        self.after_change()

    def after_change(self) -> None:
        """Start the bots or the turn clock, as the table now needs."""
        if self.table.is_over:
            return
        if self.table.bot_to_move and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.create_task(self._play_bots())
        self._start_clock()

    async def _play_bots(self) -> None:
        settings = self.hub.settings
        while True:
            # the pause runs from the latest action told, whoever made it, so people can follow every bot's move
            delay = settings.bot_pause
            while delay > 0:
                await asyncio.sleep(delay)
                delay = self.told_at + settings.bot_pause - time.monotonic()
            async with self.lock:
                table = self.table
                if not table.bot_to_move:
                    return
                request = table.bot_request()
            started = time.perf_counter()
            action, rng = await self.hub.decide(request, self.table.game)
            async with self.lock:
                seat = self.table.current_player
                if not self.table.bot_to_move:  # the person came back while their stand-in thought: theirs again
                    continue
                update = self.table.apply_bot_answer(request, action, rng, time.perf_counter() - started)
                if update is None:
                    continue
                await self._store_and_tell(update, "stand-in" if seat in self.stand_in else "bot")
            self._start_clock()

    def _start_clock(self) -> None:
        if self.row.clock <= 0 or not self.table.waiting_for_person:
            return
        if self.clock_task is not None and not self.clock_task.done():
            self.clock_task.cancel()
        self.clock_task = asyncio.create_task(self._clock(self.table.version, self.row.clock))

    async def _clock(self, version: int, seconds: float) -> None:
        """The turn clock: a person who lets it run out has the stand-in play that one move."""
        await asyncio.sleep(seconds)
        async with self.lock:
            table = self.table
            if table.version != version or not table.waiting_for_person:
                return
            seat = table.current_player
            bot = make_bot("heuristic", table.game)
            action = bot.act(table.view(seat), random.Random(f"{self.id}:clock:{version}"))
            update = table.apply_as(seat, action)
            await self._store_and_tell(update, "stand-in")
        self.after_change()

    def rename(self, seat: int, name: str) -> None:
        """A person joined a seat under ``name``."""
        from dataclasses import replace

        self.seat_rows[seat] = replace(self.seat_rows[seat], name=name, joined=True)
        self.broadcast_presence()

    def offer_rematch(self, table_id: str, tokens: list[str | None]) -> None:
        """Tell each connected person of a rematch, with their own new invitation."""
        for conn in list(self.conns):
            token = tokens[conn.seat] if conn.seat is not None else None
            conn.send({"type": "rematch", "table": table_id, "token": token})

    async def hint(self, conn: Conn) -> None:
        """The hint of the position for a person to move, computed off the event loop."""
        table = self.table
        if conn.seat is None or conn.seat != table.current_player or table.is_over:
            conn.send(self.refusal(conn, ServerError("server.hint_not_your_turn", rule="S5"), with_view=False))
            return
        view, version = table.view(conn.seat), table.version
        loop = asyncio.get_running_loop()
        from dreizehn.server.hints import hint_in_worker

        try:
            analysis = await loop.run_in_executor(self.hub.executor, hint_in_worker, view,
                                                  self.hub.settings.hint_seconds, conn.lang)
        except Exception:  # a hint that fails is refused; the connection goes on
            log.warning("the hint of table %s failed", self.id, exc_info=True)
            conn.send(self.refusal(conn, ServerError("server.hint_failed", rule="S5"), with_view=False))
            return
        conn.send({"type": "hint", "version": version, "analysis": analysis})

    # -- presence -------------------------------------------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        self.conns.add(conn)
        self.last_used = time.monotonic()
        seat = conn.seat
        if seat is None:
            return
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_back(seat)
        self.hub.publish_presence(self)
        self.broadcast_presence()

    def disconnect(self, conn: Conn) -> None:
        self.conns.discard(conn)
        conn.close()
        seat = conn.seat
        if seat is None or any(c.seat == seat for c in self.conns) or self.table.is_over:
            return
        if self.seat_rows[seat].bot is None and seat not in self.away:
            self.away[seat] = asyncio.create_task(self._away(seat))
        self.hub.publish_presence(self)
        self.broadcast_presence()

    async def _away(self, seat: int) -> None:
        """After the grace period, a bot plays for a person who has not come back."""
        await asyncio.sleep(self.hub.settings.grace_period)
        async with self.lock:
            self.away.pop(seat, None)
            if self.connected(seat) or self.table.is_over:
                return
            if any(seat in played for _, _, played in self.elsewhere.values()):
                return  # another process's stand-in plays the seat already
            self._stand_in_for(seat)
        self.hub.publish_presence(self)
        self.broadcast_presence()
        self.after_change()


def said_event(game: Any, w: Any, sent: Event, names: list[str], heard: Event | None = None) -> dict[str, Any]:
    """An event as a client receives it, in ``w``'s language: ``sent`` (filtered for its receiver, or whole once the
    game is over) as key and parameters, the sentence of ``heard`` (by default ``sent``), and for a scored stage the
    lines of its explanation."""
    entry = {**sent.to_json(), "text": say_event(game, w, sent if heard is None else heard, names)}
    if sent.key == "stage.scored":
        entry["lines"] = game.say_explanation(w, sent.params["explanation"], names)
    return entry


def _finished(row: Any) -> Any:
    from dataclasses import replace

    from dreizehn.server.storage import now

    return replace(row, status="finished", finished_at=now())


class Hub:
    """The rooms of this process, the storage, the bot pool."""

    def __init__(self, settings: Settings, store: Store, executor: Executor | None) -> None:
        self.settings = settings
        self.store = store
        self.writer = Writer(store)
        self.executor = executor
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.process = secrets.token_hex(6)
        """This process among the server processes of one PostgreSQL database (its presence notices say it)."""
        self._presence_number = 0
        self.heard_at: dict[str, float] = {}
        """When each other process was last heard of (``time.monotonic``; PostgreSQL)."""

    async def room(self, table_id: str) -> Room | None:
        """The live room of a table, loaded from the database when needed."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is None:
                stored = await asyncio.to_thread(self.store.load, table_id)
                if stored is None:
                    return None
                room = self.rooms[table_id] = Room(self, stored)
                if self.store.postgres:  # an action another process stored while this one loaded it: its NOTIFY
                    self.notified(table_id)  # found no room, so catch up once now
                    self._send_presence({"table": table_id, "ask": True})  # and who is connected to it elsewhere
        return room

    async def decide(self, request: BotRequest, game: Any) -> tuple[int, Any]:
        """A bot's decision in the worker pool, within the time allowed; a bot that fails or overruns is replaced
        by the heuristic for that move."""
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self.executor, decide_in_worker, request)
            action, rng = await asyncio.wait_for(future, self.settings.bot_timeout)
            if action in request.view.legal_actions:
                return action, rng
            log.warning("bot %s chose %s, which is not legal: the heuristic plays", request.spec, action)
        except Exception:
            log.warning("bot %s failed or took too long: the heuristic plays", request.spec, exc_info=True)
        fallback = make_bot("heuristic", game)
        return fallback.act(request.view, request.rng), request.rng

    async def resume_all(self) -> None:
        """After a start, let the bots of every table being played go on, and the grace period run for its
        people."""
        for table_id in await asyncio.to_thread(self.store.playing):
            room = await self.room(table_id)
            if room is not None:
                room.start_away_timers()
                room.after_change()

    def notified(self, table_id: str, seq: int | None = None) -> None:
        """A process (another, or this one: PostgreSQL tells every listener) stored action ``seq`` of ``table_id``;
        a room that has it already (its own action, or one caught up with) has nothing to fetch."""
        room = self.rooms.get(table_id)
        if room is not None and (seq is None or seq >= room.table.version):
            task = asyncio.create_task(room.catch_up())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def publish_presence(self, room: Room) -> None:
        """PostgreSQL: tell the other processes this one's presence at ``room``'s table."""
        if self.store.postgres:
            self._send_presence({"table": room.id, **room.presence_here()})

    def _send_presence(self, message: dict[str, Any]) -> asyncio.Task[None]:
        """A presence notice to the other processes, numbered (they keep only the newest of each process); the task
        that sends it."""
        self._presence_number += 1
        payload = dumps({**message, "process": self.process, "number": self._presence_number})
        task = asyncio.create_task(asyncio.to_thread(self.store.notify, PRESENCE_CHANNEL, payload))
        self._tasks.add(task)
        task.add_done_callback(self._presence_sent)
        return task

    def _presence_sent(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a presence notice was not sent", exc_info=task.exception())

    async def keep_presence(self) -> None:
        """PostgreSQL: give the other processes a sign of life every presence interval, and forget a process not
        heard of for three (:meth:`Room.forget`)."""
        every = self.settings.presence_interval
        while True:
            self._send_presence({"alive": True})
            await asyncio.sleep(every)
            silent = time.monotonic() - 3 * every
            for process in [p for p, at in self.heard_at.items() if at < silent]:
                self.forget(process)

    def forget(self, process: str) -> None:
        """Another process is gone: no room counts its connections any more."""
        self.heard_at.pop(process, None)
        for room in list(self.rooms.values()):
            room.forget(process)

    def presence_heard(self, payload: str) -> None:
        """A presence notice (PostgreSQL): another process's presence at a table, its question for ours, its sign
        of life, or its goodbye."""
        try:
            message = orjson.loads(payload)
            process = str(message["process"])
            if process == self.process:
                return
            if message.get("gone"):
                self.forget(process)
                return
            self.heard_at[process] = time.monotonic()
            if message.get("alive"):
                return
            table_id = str(message["table"])
        except (ValueError, KeyError, TypeError):
            log.warning("a presence notice not understood: %r", payload[:200])
            return
        room = self.rooms.get(table_id)
        if room is None:
            return
        if message.get("ask"):
            self.publish_presence(room)
            return
        counts = {int(seat): int(n) for seat, n in message.get("conns", {}).items()}
        room.heard_presence(process, int(message["number"]), counts, {int(s) for s in message.get("stand_in", [])})

    async def close(self) -> None:
        if self.store.postgres:  # the others forget this process's connections at once
            with contextlib.suppress(Exception):
                await self._send_presence({"gone": True})
        self.writer.close()
        self.store.close()
        for room in self.rooms.values():
            for task in (room.bot_task, room.clock_task, *room.away.values()):
                if task is not None:
                    task.cancel()
            for conn in room.conns:
                conn.close()
