"""The analyses of finished games (:mod:`dreizehn.server.analysis`): one per table and seat, with its rated
decisions, shared out between server processes on a lease."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.rows import AnalysisRow, DecisionRow, now
from dreizehn.server.storage.schema import analyses, analysis_decisions, insert_into


class Analyses:
    """The analyses and their decisions; every method is one short transaction (call them from a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, table_id: str, seat: int, total: int, playouts: int) -> bool:
        """Start the analysis of a seat (``done`` at once when it has no decision to rate); whether it is new (an
        analysis already stored, even by another process, is left as it is)."""
        stamp = now()
        with self.engine.begin() as c:
            result = c.execute(insert_into(analyses, c.dialect.name).values(
                table_id=table_id, seat=seat, status="running" if total else "done", done=0, total=total,
                playouts=playouts, created_at=stamp, updated_at=stamp,
            ).on_conflict_do_nothing().returning(analyses.c.seat))
            return result.first() is not None

    def load(self, table_id: str, seat: int) -> AnalysisRow | None:
        """An analysis with its decisions rated so far, in game order, or ``None``."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(analyses).where(analyses.c.table_id == table_id,
                                                        analyses.c.seat == seat)).first()
            if found is None:
                return None
            rows = c.execute(sa.select(analysis_decisions).where(
                analysis_decisions.c.table_id == table_id, analysis_decisions.c.seat == seat,
            ).order_by(analysis_decisions.c.version))
            decisions = tuple(DecisionRow(r.version, r.options, dict(r.played), dict(r.best), float(r.loss))
                              for r in rows)
            status = found.status  # (decisions stored between the two reads are counted alike)
            if status == "running" and len(decisions) >= found.total:
                status = "done"
            return AnalysisRow(table_id, seat, status, len(decisions), found.total, found.playouts, decisions)

    def add_decision(self, table_id: str, seat: int, decision: DecisionRow) -> int:
        """Store a rated decision (once: a decision rated twice keeps its first rating) and count it; the analysis
        is ``done`` when every decision is in. Returns how many are in."""
        with self.engine.begin() as c:
            c.execute(insert_into(analysis_decisions, c.dialect.name).values(
                table_id=table_id, seat=seat, version=decision.version, options=decision.options,
                played=decision.played, best=decision.best, loss=decision.loss,
            ).on_conflict_do_nothing())
            done = int(c.execute(sa.select(sa.func.count()).select_from(analysis_decisions).where(
                analysis_decisions.c.table_id == table_id, analysis_decisions.c.seat == seat)).scalar() or 0)
            mine = (analyses.c.table_id == table_id) & (analyses.c.seat == seat)
            c.execute(analyses.update().where(mine).values(done=done, updated_at=now()))
            c.execute(analyses.update().where(mine, analyses.c.total <= done).values(status="done"))
            return done

    def set_status(self, table_id: str, seat: int, status: str) -> None:
        """Set the status of an analysis (the analyst marks one ``failed`` when a rating fails)."""
        with self.engine.begin() as c:
            c.execute(analyses.update().where(analyses.c.table_id == table_id, analyses.c.seat == seat)
                      .values(status=status, updated_at=now()))

    def running(self, idle: float = 0.0) -> list[tuple[str, int]]:
        """The (table, seat) of the analyses not finished, oldest first; with ``idle``, only those without a sign
        of life (:meth:`touch`) for that many seconds: nobody is working on them."""
        query = sa.select(analyses.c.table_id, analyses.c.seat).where(analyses.c.status == "running")
        if idle > 0:
            query = query.where(analyses.c.updated_at < now() - dt.timedelta(seconds=idle))
        with self.engine.connect() as c:
            return [(r.table_id, r.seat) for r in c.execute(query.order_by(analyses.c.created_at))]

    def claim(self, table_id: str, seat: int, idle: float) -> bool:
        """Take up an analysis left ``running`` without a sign of life for ``idle`` seconds, or a ``failed`` one:
        whether this caller got it (of several processes trying at once, one does)."""
        stamp = now()
        mine = (analyses.c.table_id == table_id) & (analyses.c.seat == seat)
        left = ((analyses.c.status == "running") & (analyses.c.updated_at < stamp - dt.timedelta(seconds=idle))) | (
            analyses.c.status == "failed")
        with self.engine.begin() as c:
            result = c.execute(analyses.update().where(mine, left).values(status="running", updated_at=stamp))
            return result.rowcount == 1

    def touch(self, keys: Sequence[tuple[str, int]]) -> None:
        """A sign of life of the analyses this process works on (their ``updated_at`` is now)."""
        if not keys:
            return
        stamp = now()
        with self.engine.begin() as c:
            for table_id, seat in keys:
                c.execute(analyses.update().where(analyses.c.table_id == table_id, analyses.c.seat == seat,
                                                  analyses.c.status == "running").values(updated_at=stamp))
