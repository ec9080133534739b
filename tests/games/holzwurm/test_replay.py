"""Holzwurm's records replay independently: seeded random matches, finished and stopped around each game's end,
replayed by this folder's clean-room replayer (``replayer.py``) through the shared driver (``tests/clean_room``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from clean_room.records import Policy, careful_policy, check_replays, make_record, new_shuffle_stops, random_policy

from .replayer import hw_number, hw_points

HW_CASES: list[tuple[int, dict[str, object], Policy]] = [
    (2, {"games": 1}, random_policy), (3, {"games": 2, "starter": "random"}, random_policy),
    (4, {}, careful_policy), (5, {"games": 3, "starter": 4}, random_policy),
    (6, {"games": 2, "starter": "random"}, careful_policy), (2, {"games": 3, "starter": "random"}, careful_policy),
    (3, {"games": 1, "starter": 2}, careful_policy),
]


@pytest.mark.parametrize(("players", "options", "policy"), HW_CASES)
def test_holzwurm_records_replay_independently(players: int, options: dict[str, object], policy: Policy) -> None:
    for seed in range(4):
        doc, state = make_record("holzwurm", players, seed, options, policy)
        assert check_replays(doc, state).over
        total = len(doc["actions"])
        for stop in (0, 1, random.Random(seed).randrange(total), total - 1):
            doc, state = make_record("holzwurm", players, seed, options, policy, stop=stop)
            assert not check_replays(doc, state).over


def test_holzwurm_endings_are_covered_and_records_stop_at_game_boundaries() -> None:
    """Games end by playing out (H14a, +30) and by taking the thirteen (H14b); unfinished records stop just before
    and just after a game of the match ends."""
    events: Counter[str] = Counter()
    for players, options, policy in HW_CASES:
        for seed in range(4):
            events += check_replays(*make_record("holzwurm", players, seed, options, policy)).events
    assert events["played out"] and events["took the thirteen"]
    for policy in (random_policy, careful_policy):
        new_game = new_shuffle_stops("holzwurm", 3, 2, {"games": 3}, policy)
        assert len(new_game) == 2
        for stop in new_game:
            for at in (stop - 1, stop, stop + 1):
                check_replays(*make_record("holzwurm", 3, 2, {"games": 3}, policy, stop=at))


def test_holzwurm_fate_row_example_from_the_docs() -> None:
    """docs/games/holzwurm.md: seed 3 with 4 players begins R10 P7 P3 Y4 N11 B8 N10 R2 ..."""
    doc, _ = make_record("holzwurm", 4, 3, {}, stop=0)
    assert doc["shuffles"][0][:8] == ["R10", "P7", "P3", "Y4", "N11", "B8", "N10", "R2"]
    order = doc["shuffles"][0][:5]
    assert ["13", *sorted(order, key=lambda c: (hw_points(c), hw_number(c)))] == ["13", "N11", "P7", "P3", "Y4", "R10"]
