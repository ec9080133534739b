"""Two server processes on one PostgreSQL database match the same queue at once (rule L3): each group becomes one
table, made by one of them, and nobody is in two groups. Each process is its own store on its own engine (its own
connections and thread lock: only the database's advisory lock is shared)."""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.lobby.matcher import QueueKey
from dreizehn.server.lobby.store import Claim, Limits, LobbyStore
from dreizehn.server.storage import make_engine, migrate, now

from ..kit import make_settings

T = TypeVar("T")
LIMITS = Limits(dt.timedelta(seconds=15), dt.timedelta(seconds=20))


def _people(engine: sa.Engine, n: int) -> list[str]:
    at = now()
    ids = [f"acc{i:04d}" for i in range(n)]
    with engine.begin() as c:
        c.execute(accounts.insert(), [{"id": a, "name": a, "name_key": a, "password_hash": "-", "settings": {},
                                       "created_at": at} for a in ids])
    return ids


def _at_once(work: list[Callable[[], T]]) -> list[T]:
    """Run each of ``work`` in its own thread, started together; their answers."""
    start, answers, lock = threading.Barrier(len(work)), [], threading.Lock()

    def run(job: Callable[[], T]) -> None:
        start.wait()
        answer = job()
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=run, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_processes_make_each_group_into_one_table(pg_database: str, tmp_path: Path) -> None:
    url = make_settings(tmp_path, pg_database).database
    engines = [make_engine(url) for _ in range(2)]
    try:
        migrate(engines[0])
        ids = _people(engines[0], 120)
        one, two = (LobbyStore(e) for e in engines)
        at = now()
        turn_based = QueueKey("knizia13", 4, "turn-based", 3600, False)
        realtime = QueueKey("holzwurm", 2, "realtime", None, False)
        for i, a in enumerate(ids):
            (one if i % 2 else two).put(a, a, turn_based if i < 80 else realtime, None, "medium", at)
        def matching(store: LobbyStore) -> Callable[[], list[Claim]]:
            return lambda: store.step(at, LIMITS)

        def confirming(store: LobbyStore, account: str) -> Callable[[], list[Claim]]:
            return lambda: store.confirm(account, at)[1]

        claims = [c for found in _at_once([matching(s) for s in (one, two) * 3]) for c in found]
        assert sorted(len(c.people) for c in claims) == [4] * 20  # the turn-based groups, each claimed once
        in_ready_check = ids[80:]
        confirmed = [c for found in _at_once([confirming(s, a)
                                              for a, s in zip(in_ready_check, (one, two) * 20, strict=False)])
                     for c in found]
        claims += confirmed
        assert sorted(len(c.people) for c in confirmed) == [2] * 20  # each pair once, by the last to confirm
        seated = Counter(a for c in claims for _, a, _ in c.people)
        assert set(seated) == set(ids) and set(seated.values()) == {1}
        assert len({c.table_id for c in claims}) == len(claims)
    finally:
        for engine in engines:
            engine.dispose()
