"""``benchmarks/strength.py --paired-with``: two bots' saved games against the same opponent compared seed by seed,
the bot at seat ``index mod players`` in both, its lead counted the right way round in each game."""

from __future__ import annotations

from pathlib import Path

from benchmark_scripts import load

from dreizehn.study.saved import fingerprint, run_key, save_games
from dreizehn.study.sim import GameResult, Run

strength = load("strength")


def _game(index: int, totals: tuple[int, ...], winner: int) -> GameResult:
    players = len(totals)
    shares = tuple(1.0 if seat == winner else 0.0 for seat in range(players))
    return GameResult(index, index, ("a",) * players, totals, shares, (0.0,) * players,
                      ((0.0, 1, 0.0),) * players, 10)


def test_a_lead_is_points_ahead_of_the_others_mean_whichever_way_the_game_counts() -> None:
    game = _game(0, (10, 20, 40), winner=0)
    assert strength.lead(game, 0, high_wins=False) == 20.0  # fewer points win: 30 on average against 10
    assert strength.lead(game, 0, high_wins=True) == -20.0
    assert strength.lead(game, 2, high_wins=True) == 25.0


def test_pairs_are_the_seeds_both_played_with_the_bot_at_the_rotated_seat() -> None:
    # Three Thirteen, 3 players, fewest points win: game i seats the bot at i mod 3
    ours = Run("three-thirteen", 3, {}, ("x", "heuristic"), 0,
               [_game(0, (10, 30, 30), 0), _game(1, (30, 12, 30), 1), _game(2, (30, 30, 50), 0),
                _game(5, (1, 1, 1), 0)])
    theirs = Run("three-thirteen", 3, {}, ("y", "heuristic"), 0,
                 [_game(0, (20, 30, 30), 0), _game(1, (30, 30, 12), 2), _game(2, (30, 30, 40), 0)])
    line = strength.paired(ours, theirs)
    # leads: ours 20, 18, -20; theirs 10, -9, -10; differences 10, 27, -10 (mean 9); wins: 0, +1, 0
    assert "paired with y on 3 seeds: +9.00 ±" in line
    assert "+33.3% ±" in line and "(it won 33.3% of them)" in line
    too_few = Run("three-thirteen", 3, {}, ("y", "heuristic"), 0, [_game(5, (1, 1, 1), 0)])
    assert "1 game(s) on the same seeds, too few" in strength.paired(ours, too_few)


def test_saved_games_count_whatever_names_their_seats_were_asked_by(tmp_path: Path) -> None:
    # games saved under the match-up's specifications, asked once as levels ("expert", "hard") and once by
    # specification, are all this run's, each seated by the rotation under this run's names
    results = tmp_path / "games.jsonl"
    expert = strength.level_spec("expert", "knizia13", 2)
    key = run_key("knizia13", 2, {}, (expert, "heuristic"), 0)
    asked = [("expert", "hard"), ("hard", "expert"), (expert, "heuristic"), ("heuristic", expert)]
    save_games(results, key, fingerprint(),
               [GameResult(i, i, seats, (10, 20), (1.0, 0.0), (1.0, 2.0), ((0.0, 1, 0.0),) * 2, 10)
                for i, seats in enumerate(asked)])
    run, other = strength.measure("knizia13", 2, ("expert", "heuristic"), 4, 0, {}, 1, results, deadline=0.0)
    assert other == 0 and [r.seats for r in run.games] == [("expert", "heuristic"), ("heuristic", "expert")] * 2
    summary = run.summaries()[0]
    assert (summary.bot, summary.games, summary.wins) == ("expert", 4, 2.0)



def test_a_bot_against_itself_is_counted_in_its_own_seat() -> None:
    # at 4 players game i seats the bot under test at i mod 4; in its own seat it won games 0 and 2
    totals, winners = [(5, 1, 1, 1), (9, 1, 1, 1), (1, 1, 7, 1), (1, 1, 1, 6)], [0, 0, 2, 1]
    played = list(enumerate(zip(totals, winners, strict=True)))

    def run(bot: str) -> Run:
        games = [GameResult(i, i, tuple(bot if seat == i % 4 else "expert" for seat in range(4)), t,
                            tuple(1.0 if seat == w else 0.0 for seat in range(4)), (0.0,) * 4,
                            ((0.5, 2, 0.25),) * 4, 10) for i, (t, w) in played]
        return Run("holzwurm", 4, {}, (bot, "expert"), 0, games)

    mirror = strength.seat_summary(run("expert"))
    assert (mirror.games, mirror.wins, mirror.scores, mirror.moves) == (4, 2.0, [5, 1, 7, 6], 8)
    assert run("expert").summaries()[0].wins == 4.0  # every game's winner is "expert": no figure for the seat
    alone, plain = strength.seat_summary(run("x")), run("x").summaries()[0]  # a bot of its own: the two agree
    assert (alone.games, alone.wins, alone.scores, alone.moves) == (plain.games, plain.wins, plain.scores, plain.moves)
