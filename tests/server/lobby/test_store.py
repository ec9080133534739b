"""The queue's store on its own (SQLite): a group claimed by a process that died before making its table is looked at
again after a minute, seated where its table exists, else matched anew (rule L5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from dreizehn.server.lobby.matcher import QueueKey
from dreizehn.server.lobby.service import table_rows
from dreizehn.server.lobby.store import SEATED, Limits, LobbyStore
from dreizehn.server.storage import Tables, make_engine, migrate, now

from ..kit import make_settings
from .test_two_processes import _people

LIMITS = Limits(dt.timedelta(hours=1), dt.timedelta(seconds=20))
KEY = QueueKey("knizia13", 3, "turn-based", 3600, False)


def test_a_group_left_half_made_is_seated_or_matched_again(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    engine = make_engine(settings.database, settings.data_dir)
    try:
        migrate(engine)
        store, at = LobbyStore(engine), now()
        ids = _people(engine, 6)
        for a in ids:
            store.put(a, a, KEY, None, "medium", at)
        first, second = store.step(at, LIMITS)  # two groups claimed; the process "dies" before making either
        assert store.step(at + dt.timedelta(seconds=30), LIMITS) == []  # not yet looked at again
        row, seats = table_rows(first, at)  # the first group's table was stored before the process died
        Tables(engine).create(row, seats, [None] * 3, "-")
        again = store.step(at + dt.timedelta(minutes=2), LIMITS)
        assert [sorted(p[1] for p in c.people) for c in again] == [sorted(p[1] for p in second.people)]
        assert again[0].table_id != second.table_id
        seated = [store.entry(p[1]) for p in first.people]
        assert {(e.state, e.match_id) for e in seated if e} == {(SEATED, first.table_id)}
    finally:
        engine.dispose()
