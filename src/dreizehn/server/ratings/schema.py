"""The tables of ratings (made by migrations ``0007``, ``0012``, ``0013`` and ``0014``, which this module must agree
with)."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

ratings = sa.Table(
    "ratings", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("shown", sa.Integer, nullable=False),
    sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_ratings_rank", "game_id", "shown", "played_at"),
)
"""An account's rating in a game: openskill's mu and sigma, its rated games, the number shown (kept for the
leaderboards' order: ``ix_ratings_rank`` walks a game's ratings from the highest down, migration ``0013``) and when it
last played a rated game."""

rating_history = sa.Table(
    "rating_history", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("shown", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""An account's rating after each rated game it finished (the profile's plot), with its place in that game."""

rating_bands = sa.Table(
    "rating_bands", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("band", sa.Integer, primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
)
"""How many accounts of a game have their shown rating in a band (``shown // 10``: :mod:`.bands`) and their last
rated game on a day (UTC). Kept in the transaction that changes the ratings, so that a rank far down a board is a
sum over a few thousand of these rows and a count within one band, not a count of everyone above (rule G4,
migration ``0014``). The key's order (game, day, band) lets the board's days be read alone: days before the board's
first are never read, and :meth:`~.store.RatingStore.prune` deletes them."""

rated_games = sa.Table(
    "rated_games", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)
"""The rated games whose ratings were updated: a row is written in the update's own transaction, so a game updates
the ratings exactly once, whatever process or restart comes first (rule G3)."""

bot_ratings = sa.Table(
    "bot_ratings", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("level", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("measured_at", sa.DateTime(timezone=True), nullable=False),
)
"""Each bot level's calibrated rating in a game at a player count (``dreizehn ratings calibrate``, rule G5): a bot
seat of a rated game is rated at it, fixed."""
