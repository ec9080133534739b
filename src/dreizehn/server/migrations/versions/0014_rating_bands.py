"""Ratings: the accounts of each game counted by rating band and day of their last rated game (rule G4).

A reader far down a board of 100,000 players had their place found by counting every active rating above theirs
(75,000 index entries, 40 to 90 ms on PostgreSQL); with the counts kept by band (10 rating points) and day, it is a
sum over a few thousand rows and a count within one band (``dreizehn.server.ratings.bands``). The counts are made
here from the ratings stored.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

BAND = 10
"""Rating points a band (``dreizehn.server.ratings.bands.BAND`` when this migration was written)."""


def _day(at: dt.datetime) -> dt.date:
    return (at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)).astimezone(dt.UTC).date()


def upgrade() -> None:
    bands = op.create_table(
        "rating_bands",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("band", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )
    assert bands is not None
    ratings = sa.table("ratings", sa.column("game_id", sa.String), sa.column("shown", sa.Integer),
                       sa.column("played_at", sa.DateTime(timezone=True)))
    counts: Counter[tuple[str, dt.date, int]] = Counter()
    for game_id, shown, played_at in op.get_bind().execute(
            sa.select(ratings.c.game_id, ratings.c.shown, ratings.c.played_at)):
        counts[(game_id, _day(played_at), shown // BAND)] += 1
    rows = [{"game_id": g, "day": day, "band": band, "players": n} for (g, day, band), n in sorted(counts.items())]
    for start in range(0, len(rows), 10_000):
        op.bulk_insert(bands, rows[start:start + 10_000])


def downgrade() -> None:
    op.drop_table("rating_bands")
