"""Measure the bots' strength: one bot against opponents, seats rotated, win rates with 95% Wilson intervals.

Run with ``python benchmarks/strength.py --games 1000 [--jobs J] [--game G ...] [--matchup BOT,OPPONENT ...]``.
The default match-ups are the project's targets at 4 players: one ``heuristic`` against three ``random`` (a fair
share is 25%) and one ``ismcts`` (default budget) against three ``heuristic``. Game i uses seed ``seed + i`` and the
seating rotated by i places; a win shared by k players counts 1/k. Three Thirteen is played under
``stock_out=end-round`` with ``--end-round``.

Long runs (an ISMCTS game takes seconds) can be played in parts: with ``--results FILE`` every finished game is
appended to FILE (one JSON line), a later run with the same arguments plays only the games still missing, and
``--minutes M`` stops starting new games after M minutes. The lines carry a fingerprint of the bots' and games'
source; games played by other code are not counted (the table says how many were left out), so a part played before
a change to a bot never mixes with one played after it.

Two bots that met the same opponent on the same seeds met the same cards (each round is dealt from the game's seed)
from the same seat, so the luck of the deal cancels in their difference: ``--paired-with SPEC`` prints, under each
row, the bot's lead over the others' mean (points a game; more is better in every game) less SPEC's in its saved
games against the same opponent under this code, seed by seed, and the same for the share of wins, each with its
95% interval (SPEC's games are read from ``--results``, none is played).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.levels import level_spec
from dreizehn.study.saved import adopt, fingerprint, run_key
from dreizehn.study.sim import BotSummary, GameResult, Run, RunSpec, run_saved, seating
from dreizehn.study.stats import Z95, mean_sd

GAMES = ("knizia13", "holzwurm", "three-thirteen")
MATCHUPS = (("heuristic", "random"), ("ismcts", "heuristic"))


def measure(game_id: str, players: int, bots: tuple[str, str], games: int, seed: int, options: dict[str, object],
            jobs: int | None, results: Path | None, deadline: float | None) -> tuple[Run, int]:
    """Play (or resume) one match-up; the run holds the games played so far, in order, and the count left out."""
    # a level is saved under its specification, so that games played before a level's budget changed never count
    specs = (level_spec(bots[0], game_id, players), level_spec(bots[1], game_id, players))
    spec = RunSpec(game_id, players, bots, games, seed=seed, options=options, jobs=jobs, results=results,
                   deadline=deadline)
    key = run_key(game_id, players, options, specs, seed)
    played, _, other = run_saved(spec, lambda i: seating(bots, players, i), key=key)
    return Run(game_id, players, options, bots, seed, played), other


def seat_summary(run: Run) -> BotSummary:
    """The bot's numbers in its own seat of each game (``index mod players``): where the opponent is the same bot
    (``--matchup expert,expert``, the baseline that ``--paired-with`` reads), :meth:`Run.summaries` would count every
    seat as that bot's and give it every game's win; here it gets its seat's share, a fair share being one in
    ``players``. Elsewhere the bot holds that seat alone, and the two agree."""
    summary = BotSummary(run.bots[0])
    for game in run.games:
        seat = game.index % run.players
        summary.count_seat(game, seat)
        summary.games += 1
        summary.wins += game.shares[seat]
    return summary


def lead(result: GameResult, seat: int, high_wins: bool) -> float:
    """The points ``seat`` finished ahead of the mean of the other seats (negative behind), whichever way the game
    counts."""
    others = statistics.fmean(t for i, t in enumerate(result.totals) if i != seat)
    return result.totals[seat] - others if high_wins else others - result.totals[seat]


def paired(run: Run, other: Run) -> str:
    """``run``'s bot against ``other``'s, game by game on the indices both played (the bot sits at seat ``index mod
    players`` in both): the mean difference of their leads and of their shares of the win, with 95% intervals."""
    high_wins = dreizehn.load_game(run.game_id, run.players, run.options).high_score_wins
    theirs = {r.index: r for r in other.games}
    pairs = [(r, theirs[r.index]) for r in run.games if r.index in theirs]
    if len(pairs) < 2:
        return f"  paired with {other.bots[0]}: {len(pairs)} game(s) on the same seeds, too few"
    leads = [lead(a, a.index % run.players, high_wins) - lead(b, b.index % run.players, high_wins) for a, b in pairs]
    wins = [a.shares[a.index % run.players] - b.shares[b.index % run.players] for a, b in pairs]
    their_wins = statistics.fmean(b.shares[b.index % run.players] for _, b in pairs)

    (lead_mean, lead_sd), (win_mean, win_sd) = mean_sd(leads), mean_sd(wins)
    half = Z95 / math.sqrt(len(pairs))
    return (f"  paired with {other.bots[0]} on {len(pairs)} seeds: {lead_mean:+.2f} ± {half * lead_sd:.2f}"
            f" points a game, {win_mean:+.1%} ± {half * win_sd:.1%} of the wins (it won {their_wins:.1%} of them)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per row (default 1000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--matchup", action="append", help="BOT,OPPONENT (repeatable)")
    parser.add_argument("--end-round", action="store_true", help="Three Thirteen under stock_out=end-round")
    parser.add_argument("--results", type=Path, help="JSON-lines file to save every game to and resume from")
    parser.add_argument("--minutes", type=float, help="start no new games after this many minutes")
    parser.add_argument("--paired-with", metavar="SPEC", help="under each row, the bot against SPEC's saved games "
                        "against the same opponent, seed by seed (needs --results)")
    parser.add_argument("--adopt", metavar="CODE", help="count the games saved under the fingerprint CODE as this "
                        "code's (after a change shown not to alter play; only those of --game where given), then stop")
    args = parser.parse_args()
    if args.adopt:
        if args.results is None:
            parser.error("--adopt needs --results FILE")
        print(f"{adopt(args.results, args.adopt, args.game or ())} games adopted by the code {fingerprint()}")
        return
    if args.paired_with and args.results is None:
        parser.error("--paired-with needs --results FILE")
    matchups: list[tuple[str, str]] = []
    for m in args.matchup or [",".join(m) for m in MATCHUPS]:
        bot, comma, opponent = m.partition(",")
        if not comma or not bot or not opponent:
            parser.error(f"--matchup takes BOT,OPPONENT, not {m!r}")
        matchups.append((bot, opponent))
    deadline = None if args.minutes is None else time.time() + args.minutes * 60
    width = max(12, *(len(name) + 2 for pair in matchups for name in pair))  # a specification can be long
    print(f"{'game':<16}{'bot':<{width}}{'against':<{width}}{'games':>7}{'win rate':>10}{'95% interval':>18}"
          f"{'mean move':>11}{'worst':>9}{'seconds':>9}")
    for game_id in args.game or GAMES:
        options: dict[str, object] = {"stock_out": "end-round"} if game_id == "three-thirteen" and args.end_round \
            else {}
        for bot, opponent in matchups:
            start = time.perf_counter()
            run, other = measure(game_id, args.players, (bot, opponent), args.games, args.seed, options, args.jobs,
                                 args.results, deadline)
            summary = seat_summary(run)
            low, high = summary.interval
            note = f"  ({other} games by other code left out)" if other else ""
            print(f"{game_id:<16}{bot:<{width}}{opponent:<{width}}{summary.games:>7}{summary.win_rate:>10.1%}"
                  f"{f'{low:.1%} to {high:.1%}':>18}{summary.mean_move * 1000:>9.2f}ms"
                  f"{summary.worst * 1000:>7.0f}ms{time.perf_counter() - start:>9.0f}{note}", flush=True)
            if args.paired_with:
                other_run, _ = measure(game_id, args.players, (args.paired_with, opponent), args.games, args.seed,
                                       options, args.jobs, args.results, deadline=0.0)  # saved games only
                print(paired(run, other_run), flush=True)


if __name__ == "__main__":
    main()
