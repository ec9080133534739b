"""Ratings: the leaderboard's index walks a game's ratings from the highest down (rule G4).

``ix_ratings_board`` (game, last played, rating) made PostgreSQL read and sort every active rating of a game for its
top 100 (170 ms at 100,000 players); ``ix_ratings_rank`` (game, rating, last played) gives them in order, the
activity read from the index as it goes (1.3 ms; benchmarks/bench_ratings.py).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.create_index("ix_ratings_rank", "ratings", ["game_id", "shown", "played_at"])


def downgrade() -> None:
    op.drop_index("ix_ratings_rank", table_name="ratings")
    op.create_index("ix_ratings_board", "ratings", ["game_id", "played_at", "shown"])
