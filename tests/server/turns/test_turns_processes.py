"""Issue 46's faults of turn clocks, with real server processes: a clock that runs out while its server is killed
(SIGKILL) fires when a server starts again on the same database; two processes on one PostgreSQL database both
sweep, and each clock fires once (in the table's home); when the home is killed, the other process fires the next
clock. Each clock is made run out by moving its due time into the past in the database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import sqlalchemy as sa

from dreizehn.server.storage import actions
from dreizehn.server.turns.schema import turn_clocks

from ..accounts.people import PASSWORD
from ..conftest import new_database
from ..kit import ServerProcess, eventually

ENV = {"DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_BOT_PAUSE": 0.0, "DREIZEHN_TURN_SWEEP": 0.05,
       "DREIZEHN_MOVE_TIME_MIN": 60, "DREIZEHN_PASSWORD_MEMORY_KIB": 8192, "DREIZEHN_PASSWORD_PASSES": 1,
       "DREIZEHN_PRESENCE_INTERVAL": 0.3}


def signed_in(server: ServerProcess, name: str) -> httpx2.Client:
    client = httpx2.Client(base_url=server.url, timeout=30.0)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    client.headers["X-CSRF-Token"] = made.json()["csrf"]
    client.headers["Origin"] = server.url
    return client


def against_a_bot(client: httpx2.Client) -> str:
    """A turn-based table of the client's person and a random bot (a bot that moves at once): its id."""
    made = client.post("/api/tables", json={
        "game": "holzwurm", "options": {"games": 2}, "pace": "turn-based", "move_time": 3600, "on_timeout": "move",
        "seats": [{"kind": "person", "name": "Me"}, {"kind": "bot", "bot": "random"}]})
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    return table_id


def clock_of(engine: sa.Engine, table_id: str) -> Any:
    with engine.connect() as c:
        return c.execute(sa.select(turn_clocks).where(turn_clocks.c.table_id == table_id)).first()


def run_out(engine: sa.Engine, table_id: str) -> int:
    """The table's clock runs out now; the version it was stored at."""
    eventually(lambda: clock_of(engine, table_id) is not None, "the person's clock is stored")
    with engine.begin() as c:
        c.execute(turn_clocks.update().where(turn_clocks.c.table_id == table_id)
                  .values(due_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)))
    version: int = clock_of(engine, table_id).version
    return version


def moved_on(engine: sa.Engine, table_id: str, version: int) -> Callable[[], bool]:
    """Whether the table's clock is of a later version than ``version`` (the one of that version fired)."""
    return lambda: bool(getattr(clock_of(engine, table_id), "version", -1) > version)


def stand_ins(engine: sa.Engine, table_id: str) -> list[int]:
    """The sequence numbers of the table's actions a stand-in played."""
    with engine.connect() as c:
        return list(c.execute(sa.select(actions.c.seq).where(actions.c.table_id == table_id,
                                                             actions.c.by == "stand-in")
                              .order_by(actions.c.seq)).scalars())


def test_a_clock_run_out_while_its_server_was_killed_fires_at_the_next_start(
        processes: Callable[..., ServerProcess], tmp_path: Path) -> None:
    env = {**ENV, "DREIZEHN_DATA_DIR": tmp_path / "data"}
    server = processes(env)
    table_id = against_a_bot(signed_in(server, "Anna"))
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'data' / 'dreizehn.sqlite3'}")
    try:
        eventually(lambda: clock_of(engine, table_id) is not None, "the person's clock is stored")
        server.kill()
        version = run_out(engine, table_id)  # the time ran out while no server ran
        again = processes(env)
        eventually(lambda: stand_ins(engine, table_id) == [version], "the clock fired after the start")
        eventually(lambda: getattr(clock_of(engine, table_id), "version", -1) > version, "the next clock is stored")
        assert stand_ins(engine, table_id) == [version]
        again.kill()
        third = processes(env)  # the next clock is not due: its table waits in the database, not in memory
        assert third.metric("dreizehn_rooms") == 0
    finally:
        engine.dispose()


def test_two_processes_fire_each_clock_once_and_the_survivor_takes_over(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    database = new_database(postgres_url)
    # a home's lease is three presence intervals. Once, in a fresh clone's run on 2 busy cores, a clock here did not
    # fire within 30 s at 0.3 s (a lease of 0.9 s); the suspected cause, not shown, is a process starved of the CPU
    # that lost its homes to the other while its rooms still played. At 2 s a starved process keeps them, and the
    # survivor still takes over 6 s after a kill
    env = {**ENV, "DATABASE_URL": database, "DREIZEHN_DATA_DIR": tmp_path / "unused", "DREIZEHN_PRESENCE_INTERVAL": 2.0}
    first = processes(env)
    processes(env)  # the second process: it sweeps too, and takes the tables up when the first dies
    tables = [against_a_bot(signed_in(first, f"Anna{i}")) for i in range(3)]
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        fired = {table_id: run_out(engine, table_id) for table_id in tables}
        for table_id, version in fired.items():  # both sweep: each fires once, in the table's home
            eventually(moved_on(engine, table_id, version), "the clock fired and the next one is stored")
            assert stand_ins(engine, table_id) == [version]
        first.kill()  # the tables' home is gone: the other process takes them up and fires their clocks
        again = {table_id: run_out(engine, table_id) for table_id in tables}
        for table_id, version in again.items():
            eventually(moved_on(engine, table_id, version), "the surviving process fired the clock", timeout=60)
            assert stand_ins(engine, table_id) == [fired[table_id], version]
    finally:
        engine.dispose()
