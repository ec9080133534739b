"""Do the hints' win chances mean what they say? A reliability table and Brier scores per game.

Run with ``python benchmarks/hint_calibration.py [--games N] [--positions K] [--playouts P | --seconds S]
[--game G ...] [--players N] [--bots heuristic,random] [--seed S] [--infer auto|on|off] [--json FILE]
[--against FILE]``. One core.

For each game, ``--games`` games are played between bots (``heuristic`` in every seat unless ``--bots`` says
otherwise; the seats rotate as in ``dreizehn simulate``); game ``i`` uses seed ``seed + i``. In each, ``--positions``
decision points (two or more legal actions) are drawn at random, and :func:`dreizehn.play.hints.analyse` is asked for
the
view of the seat to move there, with the budget given. What is kept: the win chance the hint gave **the move the bot
then played**, and that seat's share of the win at the end of the game (1, 1/k for a win shared by k, 0).

Printed per game: the reliability table (predictions grouped by tenths, 0-10%, 10-20%, ...: how many, the mean
chance predicted, the share of those positions really won), the Brier score (the mean squared difference between
the chance and the outcome) against that of always predicting a fair share (1/players), the skill score
``1 - Brier / fair-share Brier`` with a standard error over games (positions of one game share its outcome, so the
games are the independent units), how often the hint's best action was the move played, and the mean time per hint.

``--infer`` says how the hints deal the hidden cards (``auto``: by what the seat saw where the game has a model of
it, Three Thirteen; ``on``/``off``). ``--json`` writes every position and the tables, keeping the file's entries of
other games, player counts or ``--infer``. ``--against FILE`` compares the hints with those of an earlier run on the
same positions (the same seeds, games and positions): the mean difference of the Brier scores, position by position,
with its standard error over games.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.core.game import Game
from dreizehn.games.three_thirteen.melds import warm_up
from dreizehn.play.hints import analyse
from dreizehn.study.sim import play, seating

GAMES = ("knizia13", "holzwurm", "three-thirteen")
PLAYERS = {"knizia13": 4, "holzwurm": 4, "three-thirteen": 2}
"""The player count per game unless ``--players`` is given (Three Thirteen at 2 as in the strength tables)."""


@dataclass(frozen=True)
class Position:
    """One hinted position: the chance given to the move played, and how it went."""

    game: int
    seat: int
    move: int
    chance: float
    chance_sd: float
    best: bool
    outcome: float
    seconds: float
    playouts: int
    samples: int
    stage: int


def positions(game: Game, bots: list[str], index: int, seed: int, count: int, playouts: int | None,
              seconds: float | None, infer: bool | None = None) -> list[Position]:
    """Play game ``index`` (seed ``seed + index``) between ``bots`` and hint ``count`` of its decision points."""
    seats = seating(bots, game.players, index)
    _, final = play(game, seats, seed + index, index)
    outcome = final.returns()
    state = game.new_state(seed + index)
    decisions: list[int] = []
    for number, (_, action) in enumerate(final.history):
        if len(state.legal_actions()) > 1:
            decisions.append(number)
        state.apply(action)
    picked = sorted(random.Random(f"{seed}:{index}").sample(decisions, min(count, len(decisions))))
    out: list[Position] = []
    state = game.new_state(seed + index)
    for number, (seat, action) in enumerate(final.history):
        if picked and number == picked[0]:
            picked.pop(0)
            view = state.view(seat)
            analysis = analyse(view, playouts, seconds=seconds, rng=random.Random(number), game=game, infer=infer)
            rating = analysis.rating(action)
            out.append(Position(index, seat, number, rating.win, rating.win_sd, analysis.best.action == action,
                                outcome[seat], analysis.seconds, analysis.playouts, rating.samples, state.stage))
        state.apply(action)
    return out


def hint_times(count: int = 4, playouts: int = 100) -> list[tuple[str, int, float, float]]:
    """Per game (at its player count of :data:`PLAYERS`): the mean and worst seconds of a hint of ``playouts``
    playouts, over ``count`` positions of one game between heuristic bots (for ``benchmarks/run.py``)."""
    warm_up()
    rows = []
    for game_id in GAMES:
        game = dreizehn.load_game(game_id, PLAYERS[game_id])
        hinted = positions(game, ["heuristic"], 0, 0, count, playouts, None)
        times = [p.seconds for p in hinted]
        rows.append((game_id, game.players, statistics.fmean(times), max(times)))
    return rows


def report(game_id: str, players: int, rows: list[Position]) -> dict[str, object]:
    """Print the reliability table and the scores of one game's positions; return them as a dict."""
    fair = 1.0 / players
    print(f"\n{game_id}, {players} players: {len(rows)} positions from {len({r.game for r in rows})} games")
    print(f"{'predicted':<12}{'positions':>10}{'mean predicted':>16}{'observed':>10}")
    bins: list[dict[str, object]] = []
    for tenth in range(10):
        group = [r for r in rows if min(int(r.chance * 10), 9) == tenth]
        if not group:
            continue
        predicted = statistics.fmean(r.chance for r in group)
        observed = statistics.fmean(r.outcome for r in group)
        print(f"{f'{tenth * 10}-{tenth * 10 + 10}%':<12}{len(group):>10}{predicted:>16.1%}{observed:>10.1%}")
        bins.append({"from": tenth / 10, "positions": len(group), "predicted": predicted, "observed": observed})
    brier = statistics.fmean((r.chance - r.outcome) ** 2 for r in rows)
    base = statistics.fmean((fair - r.outcome) ** 2 for r in rows)
    # the skill score's standard error over games (a ratio estimator, the games as clusters)
    by_game: dict[int, list[Position]] = {}
    for r in rows:
        by_game.setdefault(r.game, []).append(r)
    diffs = [sum((fair - r.outcome) ** 2 - (r.chance - r.outcome) ** 2 for r in g) for g in by_game.values()]
    sizes = [len(g) for g in by_game.values()]
    skill = 1 - brier / base
    k = len(diffs)
    resid = [d - skill * base * n for d, n in zip(diffs, sizes, strict=True)]
    skill_se = math.sqrt(k / (k - 1) * sum(e * e for e in resid)) / (base * len(rows)) if k > 1 else float("nan")
    best = statistics.fmean(r.best for r in rows)
    mean_time = statistics.fmean(r.seconds for r in rows)
    mean_playouts = statistics.fmean(r.playouts for r in rows)
    mean_sd = statistics.fmean(r.chance_sd for r in rows)
    print(f"Brier score {brier:.4f}; always {fair:.0%}: {base:.4f}; skill {skill:+.3f} ± {skill_se:.3f}")
    print(f"mean chance {statistics.fmean(r.chance for r in rows):.1%}, mean outcome "
          f"{statistics.fmean(r.outcome for r in rows):.1%}, mean standard error of a chance {mean_sd:.3f}")
    print(f"the hint's best was the move played in {best:.0%}; {mean_time:.2f} s and {mean_playouts:.0f} playouts "
          f"a hint on average", flush=True)
    return {"game": game_id, "players": players, "positions": len(rows), "games": k, "bins": bins, "brier": brier,
            "fair_brier": base, "skill": skill, "skill_se": skill_se, "best_played": best, "seconds": mean_time,
            "playouts": mean_playouts}


def compare(game_id: str, players: int, rows: list[Position], earlier: list[dict[str, object]]) -> None:
    """Print the difference of the Brier scores, and of the chances, between ``rows`` and an earlier run's rows of
    the same game and players, on the positions both hinted (a negative Brier difference: these hints are the
    better), each with its standard error over games."""
    for entry in earlier:
        if entry["game"] != game_id or entry["players"] != players:
            continue
        before = {(int(r["game"]), int(r["move"])): float(r["chance"]) for r in entry["rows"]}  # type: ignore[attr-defined]
        brier: dict[int, list[float]] = {}
        chance: dict[int, list[float]] = {}
        for r in rows:
            if (r.game, r.move) in before:
                old = before[(r.game, r.move)]
                brier.setdefault(r.game, []).append((r.chance - r.outcome) ** 2 - (old - r.outcome) ** 2)
                chance.setdefault(r.game, []).append(r.chance - old)
        if len(brier) < 2:
            continue
        (b, b_se), (c, c_se) = clustered_mean(brier), clustered_mean(chance)
        count = sum(len(d) for d in brier.values())
        print(f"against the earlier run (infer {entry.get('infer')}), over {count} positions of {len(brier)} games: "
              f"Brier score {b:+.4f} ± {b_se:.4f} a position (negative: these hints are the better), "
              f"chance {c:+.4f} ± {c_se:.4f}", flush=True)


def clustered_mean(by_game: dict[int, list[float]]) -> tuple[float, float]:
    """The mean of the values of all games and its standard error, the games as independent clusters."""
    count = sum(len(d) for d in by_game.values())
    mean = sum(sum(d) for d in by_game.values()) / count
    resid = [sum(d) - mean * len(d) for d in by_game.values()]
    k = len(resid)
    return mean, math.sqrt(k / (k - 1) * sum(e * e for e in resid)) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per game id (default 30)")
    parser.add_argument("--positions", type=int, default=3, help="positions hinted per game (default 3)")
    parser.add_argument("--playouts", type=int, default=None, help="hint budget in playouts (default 120)")
    parser.add_argument("--seconds", type=float, default=None, help="hint budget in seconds instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--players", type=int, default=None, help="players (default: 4, 4, 2 for Three Thirteen)")
    parser.add_argument("--bots", default="heuristic", help="bots seat by seat, the last filling the rest")
    parser.add_argument("--infer", choices=("auto", "on", "off"), default="auto",
                        help="deal the hints' worlds by what the seat saw (auto: where the game can)")
    parser.add_argument("--json", type=Path, default=None, help="write every position and the tables here")
    parser.add_argument("--against", type=Path, default=None, help="compare with an earlier run's --json")
    args = parser.parse_args()
    playouts = args.playouts if args.playouts is not None or args.seconds is not None else 120
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    infer = {"auto": None, "on": True, "off": False}[args.infer]
    earlier = json.loads(args.against.read_text()) if args.against is not None else []
    warm_up()
    budget = f"{playouts} playouts" if playouts is not None else f"{args.seconds:g} s"
    print(f"Hint calibration: {args.games} games of bots {','.join(bots)} a row, {args.positions} positions a game, "
          f"{budget} a hint, seeds {args.seed}..{args.seed + args.games - 1}")
    out: list[dict[str, object]] = []
    for game_id in args.game or GAMES:
        game = dreizehn.load_game(game_id, args.players or PLAYERS[game_id])
        start = time.perf_counter()
        rows: list[Position] = []
        for index in range(args.games):
            rows.extend(positions(game, bots, index, args.seed, args.positions, playouts, args.seconds, infer))
        summary = report(game_id, game.players, rows)
        compare(game_id, game.players, rows, earlier)
        print(f"({time.perf_counter() - start:.0f} s)")
        summary["infer"] = game.infers if infer is None else infer and game.infers
        summary["rows"] = [vars(r) for r in rows]
        out.append(summary)
    if args.json is not None:
        write(args.json, out)


def write(path: Path, entries: list[dict[str, object]]) -> None:
    """Write ``entries`` to ``path``, keeping the entries already there of another game, player count or way of
    dealing (an entry without ``infer`` was dealt uniformly)."""
    def key(entry: dict[str, object]) -> tuple[object, ...]:
        return entry["game"], entry["players"], bool(entry.get("infer", False))

    kept = json.loads(path.read_text()) if path.exists() else []
    new = {key(e) for e in entries}
    path.write_text(json.dumps([e for e in kept if key(e) not in new] + entries, indent=1) + "\n")


if __name__ == "__main__":
    main()
