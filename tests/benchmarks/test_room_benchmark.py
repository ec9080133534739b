"""``benchmarks/bench_room.py`` (part of ``make bench``) builds real rooms around a stand-in hub: it must keep up with
what a room asks of its hub (:class:`~dreizehn.server.rooms.room.HubLike`), or ``make bench`` stops there."""

from __future__ import annotations

from benchmark_scripts import load

from dreizehn.core.registry import game_ids


def test_the_rooms_benchmark_plays_every_game_through_a_room() -> None:
    rows = load("bench_room").room_table(actions=30, runs=1)
    assert [row[0] for row in rows] == list(game_ids())
    assert all(players >= 2 and seconds > 0 for _, players, seconds in rows)
