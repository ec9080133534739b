"""The migrations make the schema the code describes: Alembic's comparison of a freshly migrated database with the
tables every store declares finds nothing to add, drop or change (on SQLite and on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.chat import chat
from dreizehn.server.daily.schema import daily_plays
from dreizehn.server.homes import homes
from dreizehn.server.lobby.schema import lobby_queue
from dreizehn.server.notices.schema import notice_prefs
from dreizehn.server.ratings.schema import ratings
from dreizehn.server.storage import make_engine, metadata, migrate
from dreizehn.server.turns.schema import turn_clocks

from .kit import make_settings

DECLARED_ELSEWHERE = (accounts, chat, daily_plays, homes, lobby_queue, notice_prefs, ratings, turn_clocks)
"""A table of each module that declares tables on the shared metadata beside the storage's own (imported here, so
that the comparison sees them all)."""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migrations_make_the_declared_schema(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("pg_database") if backend == "postgres" else None
    settings = make_settings(tmp_path, url)
    engine = make_engine(settings.database, settings.data_dir)
    try:
        migrate(engine)
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
    finally:
        engine.dispose()
    assert differences == []
    assert all(table.name in metadata.tables for table in DECLARED_ELSEWHERE)
