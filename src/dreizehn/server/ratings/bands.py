"""A board's rank without counting everyone above (rule G4): the accounts of a game counted by rating band and day of
their last rated game (table ``rating_bands``), kept in the transaction that changes the ratings.

An account's place on a board is one more than the active accounts rated above it. Those in a band above its own are
the sum of the bands' counts over the board's days (a few thousand rows whoever asks); those in its own band above it
are counted in ``ratings`` (one band's range of the index ``ix_ratings_rank``): one query,
:data:`STANDING`. The board starts at a midnight (:func:`active_since`), so that whole days of counts are
exactly the active accounts.

>>> band_of(1500), band_of(1509), band_of(1510), band_of(-1), band_of(-10), band_of(-11)
(150, 150, 151, -1, -1, -2)
>>> active_since(dt.datetime(2026, 11, 29, 13, 5, tzinfo=dt.UTC)).isoformat()
'2026-10-30T00:00:00+00:00'
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from dreizehn.server.ratings.schema import rating_bands, ratings

BAND = 10
"""Rating points a band: a band holds a few thousand of 100,000 players where they are densest (its count within is
an index range as short as the top 100's), and a board's bands and days are a few thousand rows to sum."""
ACTIVE_DAYS = 30
"""A player is on a game's board while their last rated game of it was on one of the last 30 days (UTC) or today."""

Key = tuple[dt.date, int]
"""A count's day and band."""


def band_of(shown: int) -> int:
    """The band of a shown rating: ``shown // BAND`` (rounded down, also below zero)."""
    return shown // BAND


def day_of(at: dt.datetime) -> dt.date:
    """The day (UTC) of a moment; one without a zone (SQLite gives them so) is taken as UTC."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)).astimezone(dt.UTC).date()


def active_since(at: dt.datetime) -> dt.datetime:
    """The start of a game's board at ``at``: midnight (UTC) of the day :data:`ACTIVE_DAYS` days before."""
    first = day_of(at) - dt.timedelta(days=ACTIVE_DAYS)
    return dt.datetime.combine(first, dt.time(), dt.UTC)


def key_of(shown: int, played_at: dt.datetime) -> Key:
    return day_of(played_at), band_of(shown)


def change(c: Connection, game_id: str, deltas: Mapping[Key, int]) -> None:
    """Add ``deltas`` (by day and band) to a game's counts, in one statement (a row missing is made with its delta).
    Its rows are in one order in every transaction, so two transactions never wait for each other in a circle."""
    rows = [{"game_id": game_id, "day": day, "band": band, "players": n} for (day, band), n in sorted(deltas.items())
            if n]
    if not rows:
        return
    insert = (postgresql.insert if c.dialect.name == "postgresql" else sqlite.insert)(rating_bands).values(rows)
    c.execute(insert.on_conflict_do_update(
        index_elements=[rating_bands.c.game_id, rating_bands.c.day, rating_bands.c.band],
        set_={"players": rating_bands.c.players + insert.excluded.players}))


def deltas(moves: Iterable[tuple[Key | None, Key]]) -> Counter[Key]:
    """The changes of the counts for accounts moved from one count (``None``: newly rated) to another."""
    out: Counter[Key] = Counter()
    for before, after in moves:
        if before is not None:
            out[before] -= 1
        out[after] += 1
    return out


STANDING = sa.text(f"""
SELECT mine.mu, mine.sigma, mine.games, mine.shown,
       (SELECT coalesce(sum(b.players), 0) FROM rating_bands b
         WHERE b.game_id = :game AND b.day >= :day AND b.band * {BAND} > mine.shown)
     + (SELECT count(*) FROM ratings other
         WHERE other.game_id = :game AND other.shown > mine.shown
           AND other.shown < mine.shown - (mine.shown % {BAND} + {BAND}) % {BAND} + {BAND}
           AND other.played_at >= :since) AS above
  FROM ratings mine
 WHERE mine.game_id = :game AND mine.account_id = :account AND mine.played_at >= :since
""").bindparams(sa.bindparam("game", type_=sa.String), sa.bindparam("account", type_=sa.String),
                sa.bindparam("day", type_=sa.Date), sa.bindparam("since", type_=sa.DateTime(timezone=True)))
"""An account's rating in a game (``mu``, ``sigma``, ``games``, ``shown``) and how many on the game's board are rated
above it (``above``), in one query: no row where the account is not on the board (no rating, or its last rated game
before ``since``, a midnight: :func:`active_since`; ``day`` its date). Above it are the counts of the bands above its
own (band ``b`` is above a shown rating ``s`` where ``b * BAND > s``) and a count within its own band (up to
``BAND * (s // BAND + 1)``, written with ``%`` as SQLite and PostgreSQL both read it). Written once as text: a page
asks it, and building the same query with SQLAlchemy's expressions took more of a loaded machine's time than the
database took to answer it (benchmarks/bench_ratings.py)."""


def standing_values(game_id: str, account_id: str, since: dt.datetime) -> dict[str, Any]:
    """The values of :data:`STANDING`."""
    return {"game": game_id, "account": account_id, "day": day_of(since), "since": since}


def forget(c: Connection, account_id: str) -> None:
    """Take an account's ratings out of the counts (before the account and, by their key, its ratings are
    deleted)."""
    rows = c.execute(sa.select(ratings.c.game_id, ratings.c.shown, ratings.c.played_at)
                     .where(ratings.c.account_id == account_id)).all()
    for r in rows:
        change(c, r.game_id, {key_of(r.shown, r.played_at): -1})  # a pruned day comes back below 0: no board reads it


def recount(c: Connection) -> None:
    """Count every game's ratings afresh (the migration that made the counts; a database whose ratings were changed
    around :class:`~.store.RatingStore`)."""
    counts: Counter[tuple[str, dt.date, int]] = Counter()
    for r in c.execute(sa.select(ratings.c.game_id, ratings.c.shown, ratings.c.played_at)):
        counts[(r.game_id, *key_of(r.shown, r.played_at))] += 1
    c.execute(rating_bands.delete())
    rows = [{"game_id": g, "day": day, "band": band, "players": n} for (g, day, band), n in sorted(counts.items())]
    for start in range(0, len(rows), 10_000):
        c.execute(rating_bands.insert(), rows[start:start + 10_000])


def prune(c: Connection, before: dt.date) -> int:
    """Delete the counts of days before ``before`` (no board reads them); how many."""
    return int(c.execute(rating_bands.delete().where(rating_bands.c.day < before)).rowcount or 0)
