"""The lobby's queue in the database (rules L1–L4): every change is one transaction under one lock (a thread lock
in the process and, with PostgreSQL, :data:`~.schema.LOBBY_LOCK` across processes), so that two server processes
never put one person at two tables nor make one group into two. Call its methods from a thread."""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dreizehn.server.accounts.schema import accounts, sessions
from dreizehn.server.lobby.matcher import QueueKey, Waiting, match
from dreizehn.server.lobby.schema import LOBBY_LOCK, lobby_queue
from dreizehn.server.refusals import ServerError
from dreizehn.server.storage import new_table_id, tables

q = lobby_queue.c
WAITING, READY, MAKING, SEATED = "waiting", "ready", "making", "seated"
STALE_MAKING = dt.timedelta(minutes=1)
"""A group claimed this long ago whose table is not made (its process died while making it) is looked at again:
seated where the table exists, else back in the queue."""


def _aware(at: dt.datetime | None) -> dt.datetime | None:
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Entry:
    """A person's row of the queue (:data:`~.schema.lobby_queue`)."""

    account_id: str
    name: str
    key: QueueKey
    bot_wait: int | None
    bot_level: str
    queued_at: dt.datetime
    state: str
    match_id: str | None
    ready: bool
    ready_due: dt.datetime | None
    seat: int | None
    bots: int

    def waiting(self) -> Waiting:
        return Waiting(self.account_id, self.key, self.queued_at, self.bot_wait, self.bot_level)


def _entry(r: Any) -> Entry:
    return Entry(r.account_id, r.name, QueueKey(r.game_id, r.players, r.pace, r.move_time, r.rated), r.bot_wait,
                 r.bot_level, _aware(r.queued_at) or r.queued_at, r.state, r.match_id, r.ready,
                 _aware(r.ready_due), r.seat, r.bots)


@dataclass(frozen=True)
class Claim:
    """A group this process claimed to make into a table (state ``making``): the table's id, the queue key, the
    people ``(seat, account, name)``, the bots' seats and level."""

    table_id: str
    key: QueueKey
    people: tuple[tuple[int, str, str], ...]
    bot_seats: tuple[int, ...]
    bot_level: str


@dataclass(frozen=True)
class Limits:
    """How long a page may stay silent before its person leaves the queue (L2) and how long a ready check lasts
    (L4)."""

    expiry: dt.timedelta
    ready_window: dt.timedelta


class LobbyStore:
    """The queue of the lobby on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._lock = threading.Lock()

    @contextmanager
    def _changing(self) -> Iterator[Connection]:
        with self._lock, self.engine.begin() as c:
            if self.postgres:
                c.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOBBY_LOCK})
            yield c

    # -- one person ----------------------------------------------------------------------------------------------
    def entry(self, account_id: str, at: dt.datetime | None = None) -> Entry | None:
        """The person's row, its ``seen_at`` set to ``at`` when given (their page asked: rule L2)."""
        with self._changing() as c:
            if at is not None:
                c.execute(lobby_queue.update().where(q.account_id == account_id).values(seen_at=at))
            found = c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).first()
            return None if found is None else _entry(found)

    def put(self, account_id: str, name: str, key: QueueKey, bot_wait: int | None, bot_level: str,
            at: dt.datetime) -> tuple[Entry, bool]:
        """Queue the person (rule L1): a second queueing of one account is merged into its one row (the choice is
        the newest, the place in the queue kept where the key is the same); answers the row and whether it was
        merged. Refused (``lobby.busy``, 409) while the person's group is in its ready check or being made."""
        with self._changing() as c:
            found = c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).first()
            old = None if found is None else _entry(found)
            if old is not None and old.state in (READY, MAKING):
                raise ServerError("lobby.busy", rule="L1", status=409)
            values = {"name": name, "game_id": key.game_id, "players": key.players, "pace": key.pace,
                      "move_time": key.move_time, "rated": key.rated, "bot_wait": bot_wait, "bot_level": bot_level,
                      "seen_at": at, "state": WAITING, "match_id": None, "ready": False, "ready_due": None,
                      "seat": None, "bots": 0, "changed_at": at}
            merged = old is not None and old.state == WAITING
            keep_place = merged and old is not None and old.key == key
            values["queued_at"] = old.queued_at if keep_place and old is not None else at
            if old is None:
                c.execute(lobby_queue.insert().values(account_id=account_id, **values))
            else:
                c.execute(lobby_queue.update().where(q.account_id == account_id).values(**values))
            row = c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).one()
            return _entry(row), merged

    def remove(self, account_id: str, at: dt.datetime) -> bool:
        """The person leaves the lobby; one in a ready check ends it (the others go back to their places: L4)."""
        with self._changing() as c:
            found = c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).first()
            if found is None or found.state == MAKING:
                return False
            if found.state == READY:
                _dissolve(c, found.match_id, {account_id}, at)
            c.execute(lobby_queue.delete().where(q.account_id == account_id))
            return True

    def confirm(self, account_id: str, at: dt.datetime) -> tuple[Entry, list[Claim]]:
        """The person confirms "ready" (L4); answers their row and the group claimed when they were the last."""
        with self._changing() as c:
            found = c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).first()
            if found is None or found.state != READY:
                raise ServerError("lobby.no_ready_check", rule="L4", status=409)
            c.execute(lobby_queue.update().where(q.account_id == account_id).values(ready=True, seen_at=at))
            claims = _promote(c, at, [found.match_id])
            return _entry(c.execute(sa.select(lobby_queue).where(q.account_id == account_id)).one()), claims

    # -- the whole queue -----------------------------------------------------------------------------------------
    def step(self, at: dt.datetime, limits: Limits) -> list[Claim]:
        """One round of the lobby at ``at``: the people whose page went silent leave (L2), ready checks past their
        time end (L4), groups left half-made by a process that died are looked at again, the people waiting are
        matched (L3); answers the groups this call claimed to make into tables. An empty queue is seen without the
        lock: nobody waiting, nothing to do (an idle server's round writes nothing)."""
        with self.engine.connect() as c:
            if c.execute(sa.select(q.account_id).limit(1)).first() is None:
                return []
        with self._changing() as c:
            _drop_silent(c, at - limits.expiry, at)
            due = c.execute(sa.select(q.match_id).where(q.state == READY, q.ready_due <= at).distinct()).scalars()
            for match_id in list(due):
                unready = set(c.execute(sa.select(q.account_id).where(q.match_id == match_id,
                                                                       q.ready.is_(False))).scalars())
                _dissolve(c, match_id, unready, at)
                c.execute(lobby_queue.delete().where(q.account_id.in_(unready)))
            _recover(c, at)
            waiting = [_entry(r) for r in c.execute(sa.select(lobby_queue).where(q.state == WAITING))]
            groups = match([e.waiting() for e in waiting], at)
            matched: list[str] = []
            for group in groups:
                match_id = new_table_id()
                seats = list(range(group.key.players))
                secrets.SystemRandom().shuffle(seats)
                turn_based = group.key.pace == "turn-based"
                c.execute(lobby_queue.update().where(q.account_id == sa.bindparam("a")).values(
                    state=MAKING if turn_based else READY, match_id=match_id, seat=sa.bindparam("s"),
                    ready=turn_based, bots=group.bots, changed_at=at,
                    ready_due=None if turn_based else at + limits.ready_window),
                    [{"a": a, "s": s} for a, s in zip(group.people, seats, strict=False)])
                matched.append(match_id)
            return _promote(c, at, matched)

    def made(self, claim: Claim, at: dt.datetime) -> None:
        """The claimed group's table exists: its people are seated (they find it at their seat's page)."""
        with self._changing() as c:
            c.execute(lobby_queue.update().where(q.match_id == claim.table_id, q.state == MAKING)
                      .values(state=SEATED, changed_at=at))

    def unmade(self, claim: Claim, at: dt.datetime) -> None:
        """The claimed group's table could not be made: its people go back to their places in the queue."""
        with self._changing() as c:
            _dissolve(c, claim.table_id, set(), at)

    def group(self, match_id: str) -> list[str]:
        """The names of the people of a group, in their seats' order."""
        with self.engine.connect() as c:
            return list(c.execute(sa.select(q.name).where(q.match_id == match_id).order_by(q.seat)).scalars())

    def waiting_by_key(self) -> list[tuple[QueueKey, int]]:
        """How many people wait (or are in a ready check) for each queue key."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(q.game_id, q.players, q.pace, q.move_time, q.rated, sa.func.count())
                             .where(q.state.in_((WAITING, READY)))
                             .group_by(q.game_id, q.players, q.pace, q.move_time, q.rated))
            return sorted((QueueKey(r[0], r[1], r[2], r[3], r[4]), int(r[5])) for r in rows)

    def online(self, since: dt.datetime, limit: int) -> tuple[int, list[str]]:
        """The signed-in accounts seen since ``since`` (rule L6): a session of theirs was used, or they are in the
        lobby; how many, and up to ``limit`` of their names (in the order of names)."""
        with self.engine.connect() as c:
            ids = (sa.select(sessions.c.account_id.label("id")).where(sessions.c.seen_at >= since)
                   .union(sa.select(q.account_id.label("id"))).subquery())
            named = (sa.select(accounts.c.name).where(accounts.c.id.in_(sa.select(ids.c.id)),
                                                      accounts.c.disabled.is_(False)))
            count = c.execute(sa.select(sa.func.count()).select_from(named.subquery())).scalar_one()
            names = list(c.execute(named.order_by(accounts.c.name_key).limit(limit)).scalars())
            return int(count), names


def _dissolve(c: Connection, match_id: str | None, dropped: set[str], at: dt.datetime) -> None:
    """A group that will not sit together: its people but ``dropped`` go back to waiting, at their old places."""
    if match_id is None:
        return
    c.execute(lobby_queue.update().where(q.match_id == match_id, q.account_id.not_in(dropped)).values(
        state=WAITING, match_id=None, ready=False, ready_due=None, seat=None, bots=0, changed_at=at))


def _drop_silent(c: Connection, before: dt.datetime, at: dt.datetime) -> None:
    """The people whose page has not asked since ``before`` leave the lobby (L2); their ready checks end."""
    silent = c.execute(sa.select(q.account_id, q.match_id, q.state).where(q.seen_at < before,
                                                                          q.state != MAKING)).all()
    gone = {r.account_id for r in silent}
    for match_id in {r.match_id for r in silent if r.state == READY}:
        _dissolve(c, match_id, gone, at)
    if gone:
        c.execute(lobby_queue.delete().where(q.account_id.in_(gone)))


def _recover(c: Connection, at: dt.datetime) -> None:
    """Groups claimed long ago and not made: seated where their table exists, else back to waiting."""
    stale = set(c.execute(sa.select(q.match_id).where(q.state == MAKING, q.changed_at < at - STALE_MAKING))
                .scalars())
    for match_id in stale:
        exists = c.execute(sa.select(tables.c.id).where(tables.c.id == match_id)).first() is not None
        if exists:
            c.execute(lobby_queue.update().where(q.match_id == match_id).values(state=SEATED, changed_at=at))
        else:
            _dissolve(c, match_id, set(), at)


def _promote(c: Connection, at: dt.datetime, match_ids: Sequence[str | None]) -> list[Claim]:
    """Of ``match_ids``, the groups whose people are all ready: claimed (``making``) by this call."""
    claims: list[Claim] = []
    for match_id in match_ids:
        rows = [_entry(r) for r in c.execute(sa.select(lobby_queue).where(q.match_id == match_id)
                                             .order_by(q.queued_at, q.account_id))]
        if not rows or not all(r.ready for r in rows) or any(r.state == SEATED for r in rows):
            continue
        c.execute(lobby_queue.update().where(q.match_id == match_id).values(state=MAKING, changed_at=at))
        people = tuple(sorted((r.seat or 0, r.account_id, r.name) for r in rows))
        taken = {p[0] for p in people}
        key = rows[0].key
        claims.append(Claim(match_id or "", key, people, tuple(s for s in range(key.players) if s not in taken),
                            rows[0].bot_level))
    return claims
