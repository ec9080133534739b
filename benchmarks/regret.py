"""Compare searches move by move, not game by game: each bot's choice in the same positions, scored by a far larger
search (the oracle).

Run with ``python benchmarks/regret.py --game three-thirteen --players 2 --positions 200 --oracle SPEC --bot SPEC
[--bot SPEC ...]``. The positions are the turns of games of ``heuristic`` bots against each other (``--seed``; a turn
is kept with chance 0.08, where more than one move is legal), each seen by the seat to move. The oracle searches each
position and gives every root action it searched a mean reward; a bot's *regret* in a position is the oracle's best
mean less the mean of the move the bot chose (0 where it chose the oracle's best). A bot with less regret chooses
better moves as the oracle judges them, so this compares searches of one kind (the oracle is the same search with
far more iterations) with far less luck than whole games: a game's points are decided by the deal, a position's
regret only by the choice. It says nothing about what the oracle itself gets wrong; whole games
(``strength.py``, ``paired.py``) remain the measurement.

The table prints each bot's mean regret (in thousandths of the reward, whose range is 0 to 1) with its 95% interval,
its CPU time a move, and each bot's regret less the first bot's, position by position. ``--json FILE`` saves it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.core.game import View

KEEP = 0.08
"""The chance that a turn of the heuristic games becomes a position."""


def positions(game_id: str, players: int, count: int, seed: int) -> list[View]:
    """``count`` positions of heuristic games from ``seed``: views of the seat to move, with a choice to make."""
    game = dreizehn.load_game(game_id, players)
    heuristic = make_bot("heuristic", game)
    rng = random.Random(seed)
    views: list[View] = []
    index = 0
    while len(views) < count:
        state = game.new_state(seed * 1000 + index)
        index += 1
        while not state.is_over and len(views) < count:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1 and rng.random() < KEEP:
                views.append(view)
            state.apply(heuristic.act(view, rng))
    return views


def interval(values: list[float]) -> str:
    """Mean ± half of the 95% interval, in thousandths."""
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{1000 * statistics.fmean(values):.2f} ± {1000 * half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="three-thirteen", choices=dreizehn.game_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--oracle", required=True, help="an ismcts specification, far larger than the bots'")
    parser.add_argument("--bot", action="append", required=True, help="a bot or level (repeatable)")
    parser.add_argument("--json", type=Path, help="save the table to this file")
    args = parser.parse_args()
    game = dreizehn.load_game(args.game, args.players)
    oracle = make_bot(args.oracle, game)
    if not isinstance(oracle, IsmctsBot):
        raise SystemExit("the oracle must be an ismcts search")
    bots = {spec: make_bot(spec, game) for spec in ["heuristic", *args.bot]}
    regrets: dict[str, list[float]] = {spec: [] for spec in bots}
    seconds = dict.fromkeys(bots, 0.0)
    rng = random.Random(args.seed)
    began = time.perf_counter()
    for view in positions(args.game, args.players, args.positions, args.seed):
        oracle.act(view, rng)
        means = {stat.action: stat.mean for stat in oracle.last_stats if stat.visits}
        if len(means) < 2:
            continue  # the oracle searched one move: nothing to choose
        best, worst = max(means.values()), min(means.values())
        for spec, bot in bots.items():
            clock = time.process_time()
            action = int(bot.act(view, rng))
            seconds[spec] += time.process_time() - clock
            regrets[spec].append(best - means.get(action, worst))  # a move the oracle left out: its worst
    counted = len(regrets["heuristic"])
    print(f"{args.game}, {args.players} players: {counted} positions with a choice, oracle {args.oracle} "
          f"({time.perf_counter() - began:.0f} s)")
    print(f"{'bot':<90}{'regret (x1000)':>18}{'CPU a move':>12}")
    rows = []
    for spec, values in regrets.items():
        move = seconds[spec] / max(1, counted)
        print(f"{spec:<90}{interval(values):>18}{move * 1000:>10.1f}ms")
        rows.append({"bot": spec, "regret": statistics.fmean(values), "move": move})
    first = args.bot[0]
    for spec in args.bot[1:]:
        differences = [a - b for a, b in zip(regrets[spec], regrets[first], strict=True)]
        print(f"{spec} minus {first}: {interval(differences)}")
    if args.json is not None:
        args.json.write_text(json.dumps({"game": args.game, "players": args.players, "positions": counted,
                                         "oracle": args.oracle, "seed": args.seed, "rows": rows,
                                         "regrets": regrets}, indent=1) + "\n")


if __name__ == "__main__":
    main()
