"""Tables with a home (PostgreSQL): each table being played is served by one server process at a time, the one
that holds its row in ``homes``. The holder renews its homes every presence interval; a home not renewed for the
lease (three intervals: the process is gone) may be claimed by another. Every time is the database's clock
(``now()``), so that the machines' clocks need not agree. SQLite has one process and no homes.

A process that does not hold a table's home serves its websockets through the holder (:mod:`.relay`), at the
address the holder gave (``DREIZEHN_ADDRESS``)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage import metadata

homes = sa.Table(
    "homes", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("process", sa.String(32), nullable=False, index=True),
    sa.Column("address", sa.String(255), nullable=False),
    sa.Column("renewed_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per table with a home: the process that serves it, the address (``host:port``) where that process takes
relayed websockets, and when it last said it still does (the database's time)."""

_CLAIM = sa.text("""
INSERT INTO homes (table_id, process, address, renewed_at)
SELECT id, :process, :address, now() FROM tables WHERE id = :table
ON CONFLICT (table_id) DO UPDATE SET process = excluded.process, address = excluded.address, renewed_at = now()
WHERE homes.process = excluded.process OR homes.renewed_at < now() - make_interval(secs => :lease)
RETURNING xmax = 0 AS fresh""")

_EXPIRED = sa.text("""
SELECT homes.table_id FROM homes JOIN tables ON tables.id = homes.table_id
WHERE tables.status <> 'finished' AND homes.renewed_at < now() - make_interval(secs => :lease)
ORDER BY homes.renewed_at LIMIT :limit""")

_STALE = sa.text("""
DELETE FROM homes USING tables WHERE tables.id = homes.table_id AND tables.status = 'finished'
AND homes.renewed_at < now() - make_interval(secs => :lease)""")


@dataclass(frozen=True)
class Home:
    """Who serves a table: a process, and the address where it takes relayed websockets."""

    process: str
    address: str


class Elsewhere(Exception):
    """A table served by another process (:class:`Home`): its websockets are relayed there."""

    def __init__(self, home: Home) -> None:
        super().__init__(f"table served by process {home.process} at {home.address}")
        self.home = home


class Homes:
    """The homes of one server process (``process``, reached at ``address``), each held for ``lease`` seconds after
    it was last renewed. Every method is one short transaction (call them from a thread, not the event loop)."""

    def __init__(self, engine: Engine, process: str, address: str, lease: float) -> None:
        self.engine, self.process, self.address, self.lease = engine, process, address, lease

    def claim(self, table_id: str) -> Home | bool:
        """Make this process ``table_id``'s home, if no other holds it (or its holder let the lease run out):
        ``True`` when it is this process's now and was another's before (taken over: its bots and grace periods
        are to be taken up), ``False`` when it is a new home; else the home that holds it (with no process when
        there is no such table, or when its holder released it a moment ago)."""
        with self.engine.begin() as c:
            mine = c.execute(_CLAIM, {"table": table_id, "process": self.process, "address": self.address,
                                      "lease": self.lease}).first()
            if mine is not None:
                return not mine.fresh
            found = c.execute(sa.select(homes.c.process, homes.c.address).where(homes.c.table_id == table_id)).first()
        if found is None:  # no such table, or released between the two statements
            return Home("", "")
        return Home(found.process, found.address)

    def renew(self) -> set[str]:
        """Renew every home of this process: the tables it still holds (one whose lease ran out and another
        process claimed is no longer among them)."""
        with self.engine.begin() as c:
            renewed = c.execute(homes.update().where(homes.c.process == self.process)
                                .values(renewed_at=sa.func.now()).returning(homes.c.table_id))
            return set(renewed.scalars())

    def release(self, table_ids: list[str]) -> None:
        """Give up the homes of tables this process no longer serves (rooms dropped from memory): the next
        connection's process claims them."""
        if table_ids:
            with self.engine.begin() as c:
                c.execute(homes.delete().where(homes.c.process == self.process, homes.c.table_id.in_(table_ids)))

    def hand_over(self) -> None:
        """The process stops: its homes are left expired at once, so that another process's sweep takes their
        tables up now rather than after the lease."""
        with self.engine.begin() as c:
            c.execute(homes.update().where(homes.c.process == self.process)
                      .values(renewed_at=sa.text("'-infinity'::timestamptz")))

    def expired(self, limit: int = 100) -> list[str]:
        """Tables not finished (being played, or open: seats to fill, its first action to come) whose home's holder
        is gone (its lease ran out, or it stopped): to be claimed. The expired homes of finished tables are removed:
        nothing is left to take up there."""
        with self.engine.begin() as c:
            c.execute(_STALE, {"lease": self.lease})
            return list(c.execute(_EXPIRED, {"lease": self.lease, "limit": limit}).scalars())
