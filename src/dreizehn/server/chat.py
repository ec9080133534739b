"""Chat at a table: free text (at most :data:`TEXT_LIMIT` characters) or a quick phrase (:data:`PHRASES`, a key each
reader's page says in its own language), said by a seat's person or by a spectator.

What the players say, everyone at the table reads (spectators too); what spectators say, only spectators read, so
that no one watching can whisper to a player. A line is stored before anyone is told of it (in the table's log of
chat, with the version of the game it was said at, so that the replay shows it in its place), and other server
processes on the same PostgreSQL database hear of it by ``NOTIFY`` (:data:`CHAT_CHANNEL`) and tell their own
connections.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from dreizehn.server.storage import Store, metadata, now

TEXT_LIMIT = 200
"""The most characters a line of free text may have."""
PHRASES = ("hello", "good_luck", "well_played", "thanks", "oops", "good_game", "one_moment", "bye")
"""The quick phrases, by key (``chat.<key>`` in each language's catalogue)."""
CHAT_CHANNEL = "dreizehn_chat"
"""PostgreSQL's channel on which a process tells the others of a line it stored (the line as JSON)."""
RECENT_LINES = 50
"""The latest lines a welcome carries."""

chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(TEXT_LIMIT), nullable=True),
    sa.Column("phrase", sa.String(32), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_chat_table_id", "table_id", "id"),
)
"""One row per line: ``seat`` is the speaker's (``None`` for a spectator, whose ``name`` is empty), and exactly one
of ``text`` and ``phrase`` is set."""


@dataclass(frozen=True)
class Line:
    """A line said at a table."""

    id: int
    table_id: str
    seat: int | None
    name: str
    text: str | None
    phrase: str | None
    version: int

    @property
    def spectators_only(self) -> bool:
        """Whether only spectators read it (a spectator said it)."""
        return self.seat is None

    def to_json(self) -> dict[str, Any]:
        """The line as the websocket's ``said`` carries it (docs/server.md)."""
        return {"type": "said", "id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "phrase": self.phrase, "version": self.version}

    @classmethod
    def from_json(cls, table_id: str, data: dict[str, Any]) -> Line:
        return cls(int(data["id"]), table_id, data["seat"], str(data["name"]), data["text"], data["phrase"],
                   int(data["version"]))


def store_line(store: Store, table_id: str, seat: int | None, name: str, text: str | None, phrase: str | None,
               version: int) -> Line:
    """Store a line; the line with its id."""
    with store.engine.begin() as c:
        found = c.execute(chat.insert().values(table_id=table_id, seat=seat, name=name, text=text, phrase=phrase,
                                               version=version, at=now()).returning(chat.c.id)).scalar_one()
    return Line(int(found), table_id, seat, name, text, phrase, version)


def lines(store: Store, table_id: str, spectators: bool, limit: int | None = RECENT_LINES) -> list[Line]:
    """The latest lines of a table a reader may read (the players' only, unless ``spectators``), oldest first;
    every one with ``limit`` ``None``."""
    query = sa.select(chat).where(chat.c.table_id == table_id)
    if not spectators:
        query = query.where(chat.c.seat.is_not(None))
    query = query.order_by(chat.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    with store.engine.connect() as c:
        rows = c.execute(query).mappings().all()
    return [Line(int(r["id"]), table_id, r["seat"], r["name"], r["text"], r["phrase"], int(r["version"]))
            for r in reversed(rows)]


def readable(found: Sequence[Line], spectator: bool) -> list[Line]:
    """The lines a reader may read: a spectator all, a player the players' only."""
    return [line for line in found if spectator or not line.spectators_only]
