"""13's records replay independently: seeded random records, finished and stopped mid-stage or at a stage's end,
replayed by this folder's clean-room replayer (``replayer.py``) through the shared driver (``tests/clean_room``)."""

from __future__ import annotations

import random

import pytest
from clean_room.records import check_replays, make_record

K13_CASES: list[tuple[int, dict[str, object]]] = [
    (3, {}), (4, {"dealer": "random"}), (5, {"dealer": 3, "open_piles": True}), (6, {"dealer": "random"}),
]


@pytest.mark.parametrize(("players", "options"), K13_CASES)
def test_knizia13_records_replay_independently(players: int, options: dict[str, object]) -> None:
    for seed in range(3):
        doc, state = make_record("knizia13", players, seed, options)
        assert check_replays(doc, state).over
        total = len(doc["actions"])
        # unfinished records: mid-stage, and exactly at the end of a stage (the next stage is dealt already)
        for stop in (0, 1, 37, 50, 99, 100, random.Random(seed).randrange(total)):
            doc, state = make_record("knizia13", players, seed, options, stop=stop)
            assert not check_replays(doc, state).over
