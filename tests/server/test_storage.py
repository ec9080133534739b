"""Storage (issue 13 item 2): the schema made by migrations, the append-only log with its unique (table, seq) key, and
tables rebuilt from their log, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

import dreizehn
from dreizehn.play.table import Seat, Table
from dreizehn.server.rooms import build_table
from dreizehn.server.settings import Settings
from dreizehn.server.storage import (
    MIGRATIONS,
    Append,
    Conflict,
    Store,
    Writer,
    hash_token,
    make_engine,
    migrate,
    new_table_id,
)

from .kit import append, make_settings, store_table


@pytest.fixture
def engine(db_settings: Settings) -> Iterator[Engine]:
    """An engine on an empty database (a new SQLite file, or a new PostgreSQL database)."""
    made = make_engine(db_settings.database, db_settings.data_dir)
    yield made
    made.dispose()


def test_migrations_make_the_schema_on_an_empty_sqlite_file_in_wal_mode(tmp_path: Path) -> None:
    """Item 2: migrations make the schema on an empty SQLite file, in WAL mode, and run twice without harm."""
    settings = make_settings(tmp_path / "fresh")
    file = tmp_path / "fresh" / "dreizehn.sqlite3"
    assert not file.exists()
    engine = make_engine(settings.database, settings.data_dir)
    try:
        migrate(engine)
        assert {"tables", "seats", "actions", "alembic_version"} <= set(sa.inspect(engine).get_table_names())
        with engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        store = Store(engine)
        row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
        append(store, row.id, 0, 0, "Y1>new", "person")
        migrate(engine)  # again: nothing changes, nothing is lost
        with engine.connect() as c:
            head = ScriptDirectory(str(MIGRATIONS)).get_current_head()  # the latest migration, one line of history
            assert c.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == [head]
        stored = store.tables.load(row.id)
        assert stored is not None and stored.actions == ((0, "Y1>new", "person"),)
    finally:
        engine.dispose()
    with sqlite3.connect(file) as plain:  # WAL is a property of the file: any connection sees it
        assert plain.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_migrations_run_twice_without_harm(engine: Engine) -> None:
    """Item 2: on SQLite and PostgreSQL, migrating an empty database makes the schema; migrating again keeps it and
    its rows."""
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "knizia13", [Seat("a", bot="random")] * 3)
    migrate(engine)
    names = set(sa.inspect(engine).get_table_names())
    assert {"tables", "seats", "actions", "alembic_version"} <= names
    columns = {c["name"] for c in sa.inspect(engine).get_columns("actions")}
    assert columns == {"table_id", "seq", "seat", "action", "by", "at"}
    assert store.tables.load(row.id) is not None


def test_the_table_and_seq_key_refuses_a_second_action_with_the_same_number(engine: Engine) -> None:
    """Item 2: the unique (table, seq) key: a second action numbered like one stored raises Conflict, and the first
    stays; the first action makes the table ``playing``, the last ``finished``."""
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
    other, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
    append(store, row.id, 0, 0, "Y1>new", "person")
    with pytest.raises(Conflict):
        append(store, row.id, 0, 1, "Y2>new", "bot")
    append(store, other.id, 0, 0, "Y2>new", "person")  # the same number in another table is another key
    append(store, row.id, 1, 1, "Y3>new", "bot", finished=True)
    with pytest.raises(Conflict):
        append(store, row.id, 1, 0, "Y4>new", "person")
    stored = store.tables.load(row.id)
    assert stored is not None
    assert stored.actions == ((0, "Y1>new", "person"), (1, "Y3>new", "bot"))
    assert stored.row.status == "finished" and stored.row.finished_at is not None
    assert store.actions.actions_from(row.id, 1) == [(1, "Y3>new", "bot")]
    second = store.tables.load(other.id)
    assert second is not None and second.row.status == "playing"
    assert store.tables.load("no-such-table") is None


def test_the_writer_stores_groups_of_actions_and_refuses_taken_numbers(engine: Engine) -> None:
    """Item 2: actions stored from the event loop through the writer (a group commit): each caller hears of its
    own action, a number taken by another action of the same group raises Conflict, the others are stored."""
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
    other, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])

    async def race() -> tuple[BaseException | None, ...]:
        writer = Writer(store)
        try:
            return await asyncio.gather(
                writer.append(Append(row.id, 0, 0, "Y1>new", "person")),
                writer.append(Append(row.id, 0, 1, "Y2>new", "bot")),
                writer.append(Append(other.id, 0, 0, "Y3>new", "person")),
                writer.append(Append(other.id, 1, 1, "Y4>new", "bot", finished=True)),
                return_exceptions=True)
        finally:
            writer.close()

    results = asyncio.run(race())
    assert results[0] is None and isinstance(results[1], Conflict) and list(results[2:]) == [None, None]
    first, second = store.tables.load(row.id), store.tables.load(other.id)
    assert first is not None and first.actions == ((0, "Y1>new", "person"),) and first.row.status == "playing"
    assert second is not None and len(second.actions) == 2 and second.row.status == "finished"


def test_on_sqlite_the_writer_stores_on_the_loop_and_checkpoints_from_a_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2 and 11: on SQLite an action is committed on the event loop before its caller goes on (no thread: one
    turn of the loop's actions, one commit); every ``CHECKPOINT_EVERY`` commits the write-ahead log is copied into
    the database file from another thread, and the log starts over instead of growing."""
    from dreizehn.server.storage import writer as writing

    settings = make_settings(tmp_path / "inline")
    engine = make_engine(settings.database, settings.data_dir)
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("Ben")])
    monkeypatch.setattr(writing, "CHECKPOINT_EVERY", 5)
    threads: list[str] = []
    checkpoint = store.checkpoint

    def spy() -> None:
        threads.append(threading.current_thread().name)
        checkpoint()

    monkeypatch.setattr(store, "checkpoint", spy)
    wal = Path(str(settings.data_dir / "dreizehn.sqlite3") + "-wal")

    async def play() -> tuple[bool, list[int]]:
        writer = Writer(store)
        sizes = []
        try:
            stored_on_the_loop = writer._thread is None
            for seq in range(30):  # one action a turn of the loop: a commit each
                await writer.append(Append(row.id, seq, seq % 2, f"Y{seq % 5 + 1}>new", "person"))
                with sqlite3.connect(settings.data_dir / "dreizehn.sqlite3") as other:  # committed: seen by others
                    assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == seq + 1
                if writer._checkpoint is not None:
                    await writer._checkpoint
                sizes.append(wal.stat().st_size)
            return stored_on_the_loop, sizes
        finally:
            writer.close()

    on_loop, sizes = asyncio.run(play())
    assert on_loop
    assert max(sizes) < 64 * 4096, sizes
    assert len(threads) == 30 // 5 and all(name != threading.main_thread().name for name in threads)
    assert max(sizes) < 64 * 4096  # the log started over (it would hold about 30 commits of pages without)
    stored = store.tables.load(row.id)
    assert stored is not None and [a for _, a, _ in stored.actions] == [f"Y{s % 5 + 1}>new" for s in range(30)]
    store.close()
    engine.dispose()


def test_a_database_that_fails_fails_every_caller_of_the_group_and_the_next_group_is_stored(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 8: when the database fails to store a group, every caller of that group hears of it (the room then
    reloads what the database holds); the writer goes on with the next group."""
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("Ben")])
    real = store.actions.append_many
    failures = [RuntimeError("disk full")]

    def flaky(rows: list[Append], process: str | None = None) -> list[bool]:
        if failures:
            raise failures.pop()
        return real(rows, process)

    monkeypatch.setattr(store.actions, "append_many", flaky)

    async def play() -> tuple[BaseException | None, ...]:
        writer = Writer(store)
        try:
            first = await asyncio.gather(writer.append(Append(row.id, 0, 0, "Y1>new", "person")),
                                         writer.append(Append(row.id, 1, 1, "Y2>new", "person")),
                                         return_exceptions=True)
            await writer.append(Append(row.id, 0, 0, "Y3>new", "person"))
            return tuple(first)
        finally:
            writer.close()

    first = asyncio.run(play())
    assert all(isinstance(err, RuntimeError) for err in first)
    stored = store.tables.load(row.id)
    assert stored is not None and stored.actions == ((0, "Y3>new", "person"),)


def test_one_group_answers_each_row_even_when_two_rows_want_one_number(engine: Engine) -> None:
    """Item 2: a group stored in one statement says of each row whether it was stored: a number already taken, or
    taken by an earlier row of the same group, is refused; the rest of the group is stored."""
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
    other, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("bot", bot="random")])
    assert store.actions.append_many([Append(row.id, 0, 0, "Y1>new", "person")]) == [True]
    assert store.actions.append_many([
        Append(row.id, 0, 0, "Y2>new", "person"),  # taken before
        Append(other.id, 0, 0, "Y1>new", "person"),
        Append(other.id, 0, 0, "Y3>new", "person"),  # taken by the row above
        Append(row.id, 1, 1, "Y4>new", "bot"),
    ]) == [False, True, False, True]
    first, second = store.tables.load(row.id), store.tables.load(other.id)
    assert first is not None and first.actions == ((0, "Y1>new", "person"), (1, "Y4>new", "bot"))
    assert second is not None and second.actions == ((0, "Y1>new", "person"),)


def test_tokens_are_stored_hashed_and_open_their_seat(engine: Engine) -> None:
    """Item 2: an invitation token opens its seat (stored as its hash only); the spectators' token its table;
    joining names a seat; a new token replaces the old one."""
    migrate(engine)
    store = Store(engine)
    row, tokens = store_table(store, "knizia13", [Seat(""), Seat(""), Seat("bot", bot="random")])
    first, second = tokens[0], tokens[1]
    assert first is not None and second is not None
    with engine.connect() as c:
        stored_hashes = set(c.execute(sa.text("SELECT token_hash FROM seats")).scalars())
    assert first not in stored_hashes and hash_token(first) in stored_hashes
    assert store.tables.seat_of_token(first) == (row.id, 0)
    assert store.tables.seat_of_token(second) == (row.id, 1)
    assert store.tables.seat_of_token("not a token") is None
    assert store.tables.spectator_ok(row.id, "watch-" + row.id)
    assert not store.tables.spectator_ok(row.id, "watch-other")
    assert not store.tables.spectator_ok("no-such-table", "watch-" + row.id)
    assert store.tables.join(row.id, 0, "Anna") is False
    assert store.tables.join(row.id, 1, "Bruno") is True
    stored = store.tables.load(row.id)
    assert stored is not None and [s.name for s in stored.seats[:2]] == ["Anna", "Bruno"]
    store.tables.set_token(row.id, 0, hash_token("fresh token"))
    assert store.tables.seat_of_token(first) is None
    assert store.tables.seat_of_token("fresh token") == (row.id, 0)
    other, _ = store_table(store, "knizia13", [Seat(""), Seat(""), Seat("bot", bot="random")])
    assert store.tables.take_seat(other.id, 0, "Clara") is True  # issue 27: a seat is taken once
    assert store.tables.take_seat(other.id, 0, "Mallory") is False
    assert store.tables.take_seat(other.id, 2, "Mallory") is False  # a bot's seat is taken from the start
    assert store.tables.issue_token(other.id, 1, hash_token("second")) is False  # it has its invitation already
    assert store.tables.issue_token(other.id, 2, hash_token("bot")) is False  # a bot has none
    again = store.tables.load(other.id)
    assert again is not None and [s.name for s in again.seats[:2]] == ["Clara", ""]


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_a_table_rebuilt_from_its_log_equals_the_table_played(engine: Engine, game_id: str) -> None:
    """Item 2: a table played by bots with every action stored, rebuilt from its log (build_table), has the same
    history, the same view for every seat and spectator, the same totals."""
    migrate(engine)
    store = Store(engine)
    cls = dreizehn.game_class(game_id)
    seats = [Seat("Anna")] + [Seat(f"bot {i}", bot="heuristic") for i in range(1, cls.min_players)]
    row, _ = store_table(store, game_id, seats, seed=11)
    game = dreizehn.load_game(game_id, len(seats), row.options)
    played = Table(game, tuple(Seat(s.name, bot="heuristic") for s in seats), row.seed, game.new_state(row.seed))
    checkpoints = {0: played.state.copy()}
    while not played.is_over:
        update = played.step()
        append(store, row.id, update.version - 1, update.seat, update.action, "bot", finished=played.is_over)
        if update.version % 17 == 0:
            checkpoints[update.version] = played.state.copy()
    stored = store.tables.load(row.id)
    assert stored is not None and stored.row.status == "finished"
    rebuilt = build_table(stored)
    assert rebuilt.state.history == played.state.history
    assert rebuilt.is_over and rebuilt.version == played.version
    assert rebuilt.state.totals == played.state.totals
    for seat in range(len(seats)):
        assert rebuilt.view(seat) == played.view(seat)
    assert rebuilt.state.spectator_view() == played.state.spectator_view()
    assert [s.name for s in rebuilt.seats] == [s.name for s in seats]
    for version, state in checkpoints.items():  # and on the way: a prefix of the log rebuilds that moment
        partial = build_table(type(stored)(stored.row, stored.seats, stored.actions[:version]))
        assert partial.version == version
        for seat in range(len(seats)):
            assert partial.view(seat) == state.view(seat)


def test_a_table_id_never_starts_with_a_dash() -> None:
    """A table id is given to ``dreizehn admin`` on its command line, where one starting with ``-`` read as an option
    (one id in 64 did)."""
    ids = [new_table_id() for _ in range(3000)]
    assert not [i for i in ids if i.startswith("-")]
    assert len(set(ids)) == len(ids) and {len(i) for i in ids} == {12}
