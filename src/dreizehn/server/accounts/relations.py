"""Friends and blocks (rule U8): what one account is to another, kept in the table ``relations`` (one row per
direction: ``asked``, ``friend`` or ``blocked``, :data:`~.schema.relations`).

A person asks another to be friends; the other accepts by asking back, or declines; either removes a friendship (both
rows go). A block ends the friendship and every ask between the two; the person blocked is not told, sends the blocker
no invitation by name, and the blocker reads no line of theirs at any table (:func:`seat_mutes`). Every method is one
short transaction (call them from a thread).

>>> Outcome.ASKED.value, Outcome.FRIENDS.value
('asked', 'friends')
"""

from __future__ import annotations

import enum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dreizehn.server.accounts.schema import accounts, relations
from dreizehn.server.storage import now, seats

ASKED, FRIEND, BLOCKED = "asked", "friend", "blocked"
"""The kinds of a row, seen from its ``account_id``."""


class Outcome(enum.Enum):
    """What asking someone to be friends came to."""

    ASKED = "asked"
    """The ask stands, waiting for the other's answer."""
    FRIENDS = "friends"
    """The two are friends (the other had asked already, or they were friends before)."""


def _engine(store_or_engine: Any) -> Engine:
    """The engine of a :class:`~dreizehn.server.storage.Store` (or of anything with ``.engine``), or the engine
    itself."""
    engine: Engine = getattr(store_or_engine, "engine", store_or_engine)
    return engine


def _kind(c: Connection, account_id: str, other_id: str) -> str | None:
    found = c.execute(sa.select(relations.c.kind).where(relations.c.account_id == account_id,
                                                        relations.c.other_id == other_id)).scalar()
    return None if found is None else str(found)


def _set(c: Connection, account_id: str, other_id: str, kind: str) -> None:
    c.execute(relations.delete().where(relations.c.account_id == account_id, relations.c.other_id == other_id))
    c.execute(relations.insert().values(account_id=account_id, other_id=other_id, kind=kind, at=now()))


def _drop(c: Connection, account_id: str, other_id: str, *kinds: str) -> int:
    """Delete the row from ``account_id`` to ``other_id`` if it is of one of ``kinds``; how many went."""
    return int(c.execute(relations.delete().where(relations.c.account_id == account_id,
                                                  relations.c.other_id == other_id,
                                                  relations.c.kind.in_(kinds))).rowcount)


def blocks(store_or_engine: Any, blocker_id: str, blocked_id: str) -> bool:
    """Whether the account ``blocker_id`` blocks ``blocked_id`` (who then may not invite them by name, and whose
    lines of chat they do not read). ``store_or_engine``: the server's store or its engine."""
    with _engine(store_or_engine).connect() as c:
        return _kind(c, blocker_id, blocked_id) == BLOCKED


class Relations:
    """Friends and blocks on the server's database engine."""

    def __init__(self, store_or_engine: Any) -> None:
        self.engine = _engine(store_or_engine)

    def listing(self, account_id: str) -> dict[str, list[str]]:
        """The names of an account's ``friends``, of those it ``asked``, of those ``asking`` it (none it blocks)
        and of those it ``blocked``, each list by name without regard to case."""
        mine = (sa.select(relations.c.kind, accounts.c.name, accounts.c.name_key)
                .join(accounts, accounts.c.id == relations.c.other_id)
                .where(relations.c.account_id == account_id))
        theirs = (sa.select(accounts.c.name, accounts.c.name_key)
                  .join(accounts, accounts.c.id == relations.c.account_id)
                  .where(relations.c.other_id == account_id, relations.c.kind == ASKED,
                         ~sa.exists().where(relations.c.account_id == account_id)
                         .where(relations.c.other_id == accounts.c.id)
                         .correlate(accounts)))
        found: dict[str, list[tuple[str, str]]] = {"friends": [], "asked": [], "asking": [], "blocked": []}
        lists = {FRIEND: "friends", ASKED: "asked", BLOCKED: "blocked"}
        with self.engine.connect() as c:
            for kind, name, key in c.execute(mine):
                found[lists[kind]].append((key, name))
            found["asking"] = [(key, name) for name, key in c.execute(theirs)]
        return {part: [name for _, name in sorted(names)] for part, names in found.items()}

    def ask(self, account_id: str, other_id: str) -> Outcome:
        """``account_id`` asks ``other_id`` to be friends: they become friends where the other asked already (an
        ask accepted). An ask to someone who blocks the asker is kept but never shown to them."""
        with self.engine.begin() as c:
            mine, theirs = _kind(c, account_id, other_id), _kind(c, other_id, account_id)
            if mine == FRIEND:
                return Outcome.FRIENDS
            if theirs == ASKED:
                _set(c, account_id, other_id, FRIEND)
                _set(c, other_id, account_id, FRIEND)
                return Outcome.FRIENDS
            if mine != ASKED:
                _set(c, account_id, other_id, ASKED)
            return Outcome.ASKED

    def is_blocking(self, account_id: str, other_id: str) -> bool:
        return blocks(self.engine, account_id, other_id)

    def remove(self, account_id: str, other_id: str) -> bool:
        """End a friendship (both rows), withdraw an ask made or decline one received; whether there was one."""
        with self.engine.begin() as c:
            gone = _drop(c, account_id, other_id, FRIEND, ASKED)
            gone += _drop(c, other_id, account_id, FRIEND, ASKED)
            return gone > 0

    def block(self, account_id: str, other_id: str) -> None:
        """``account_id`` blocks ``other_id``: their friendship and every ask between them end (a block the other
        made stays)."""
        with self.engine.begin() as c:
            _drop(c, other_id, account_id, FRIEND, ASKED)
            _set(c, account_id, other_id, BLOCKED)

    def unblock(self, account_id: str, other_id: str) -> bool:
        """End a block; an ask the other made meanwhile (never shown) goes too. Whether there was a block."""
        with self.engine.begin() as c:
            if not _drop(c, account_id, other_id, BLOCKED):
                return False
            _drop(c, other_id, account_id, ASKED)
            return True


def seat_mutes(store_or_engine: Any, table_id: str) -> dict[int, frozenset[int]]:
    """Per seat of a table whose account blocks the account of another seat, the seats whose lines of chat it
    does not read (seats bound to accounts, ``seats.account_id``)."""
    reader, speaker = seats.alias("reader"), seats.alias("speaker")
    query = (sa.select(reader.c.seat, speaker.c.seat)
             .join(relations, sa.and_(relations.c.account_id == reader.c.account_id, relations.c.kind == BLOCKED))
             .join(speaker, sa.and_(speaker.c.table_id == reader.c.table_id,
                                    speaker.c.account_id == relations.c.other_id))
             .where(reader.c.table_id == table_id))
    found: dict[int, set[int]] = {}
    with _engine(store_or_engine).connect() as c:
        for seat, hidden in c.execute(query):
            found.setdefault(int(seat), set()).add(int(hidden))
    return {seat: frozenset(hidden) for seat, hidden in found.items()}


def tables_of(store_or_engine: Any, account_ids: tuple[str, ...]) -> set[str]:
    """The tables where one of ``account_ids`` holds a seat."""
    with _engine(store_or_engine).connect() as c:
        return {str(t) for t in c.execute(sa.select(seats.c.table_id).distinct()
                                          .where(seats.c.account_id.in_(account_ids))).scalars()}
