"""Simulations and tournaments between bots: seatings, reproducibility across processes, summaries."""

from __future__ import annotations

import pytest

from dreizehn.study.sim import GameResult, RunSpec, pairings, run_games, seating, simulate, tournament


def test_seating_fills_and_rotates() -> None:
    assert seating(["a"], 3, 0) == ("a", "a", "a")
    assert seating(["a", "b"], 4, 0) == ("a", "b", "b", "b")
    assert [seating(["a", "b", "c"], 3, i) for i in range(4)] == [
        ("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a"), ("a", "b", "c")]
    with pytest.raises(ValueError, match="3 bots named for 2 seats"):
        seating(["a", "b", "c"], 2, 0)


def test_pairings_cover_every_pair_and_both_seats() -> None:
    games = list(pairings(["a", "b", "c"], 4, 6))
    assert games[:3] == [("a", "b", "a", "b"), ("a", "c", "a", "c"), ("b", "c", "b", "c")]
    assert games[3] == ("b", "a", "b", "a")
    with pytest.raises(ValueError, match="two different bots"):
        list(pairings(["a", "a"], 2, 1))


def test_same_seed_same_results_whatever_the_jobs() -> None:
    one = simulate(RunSpec("holzwurm", 3, ["heuristic", "random"], games=6, seed=5, jobs=1, options={"games": 1}))
    two = simulate(RunSpec("holzwurm", 3, ["heuristic", "random"], games=6, seed=5, jobs=2, options={"games": 1}))
    assert [(g.seats, g.totals) for g in one.games] == [(g.seats, g.totals) for g in two.games]
    other = simulate(RunSpec("holzwurm", 3, ["heuristic", "random"], games=6, seed=6, jobs=1, options={"games": 1}))
    assert [g.totals for g in other.games] != [g.totals for g in one.games]


def test_summaries_add_up() -> None:
    run = simulate(RunSpec("knizia13", 3, ["heuristic", "random"], games=6, seed=1, jobs=1))
    summaries = {s.bot: s for s in run.summaries()}
    assert summaries["heuristic"].games == 6 and summaries["random"].games == 6
    assert len(summaries["heuristic"].scores) == 6 and len(summaries["random"].scores) == 12
    total_wins = sum(sum(g.shares) for g in run.games)
    assert total_wins == pytest.approx(6.0)
    assert summaries["heuristic"].moves == sum(g.move_times[g.seats.index("heuristic")][1] for g in run.games)
    doc = run.to_json()
    assert doc["games"] == 6 and len(doc["summary"]) == 2  # type: ignore[arg-type]


def test_tournament_ratings_and_head_to_head() -> None:
    result = tournament(RunSpec("knizia13", 3, ["heuristic", "random"], games=8, seed=2, jobs=1))
    ratings = result.ratings()
    assert {r.bot for r in ratings} == {"heuristic", "random"}
    assert all(r.sigma > 0 for r in ratings)
    pairs = result.head_to_head()
    ab, ba = pairs[("heuristic", "random")], pairs[("random", "heuristic")]
    assert ab[1] == ba[1] == 8 and ab[0] + ba[0] == pytest.approx(8.0)


def test_a_run_played_in_parts_gives_the_same_games() -> None:
    bots = ["heuristic", "random"]
    whole = simulate(RunSpec("holzwurm", 3, bots, games=7, seed=4, jobs=1)).games
    first = run_games(RunSpec("holzwurm", 3, bots, 3, seed=4, jobs=1), [seating(bots, 3, i) for i in range(3)])
    rest = run_games(RunSpec("holzwurm", 3, bots, 4, seed=4, jobs=2), [seating(bots, 3, i) for i in range(3, 7)],
                     start=3)
    assert [r.index for r in first + rest] == list(range(7))
    def key(games: list[GameResult]) -> list[tuple[object, ...]]:
        return [(g.index, g.seed, g.seats, g.totals, g.shares, g.actions) for g in games]

    assert key(first + rest) == key(whole)
