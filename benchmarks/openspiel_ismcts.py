"""Our ``ismcts`` against OpenSpiel's information-set MCTS bot, at equal iterations, head to head.

Run with ``python benchmarks/openspiel_ismcts.py --game holzwurm --players 2 --option games=1 --iterations 100
--games 40``. Both bots play the same games through the OpenSpiel adapter (:mod:`dreizehn.envs.openspiel`): ours
gets a seat's view, OpenSpiel's bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random-rollout
evaluator, UCT constant 2, one rollout per leaf) gets the OpenSpiel state and resamples it through
``resample_from_infostate``. In game ``i`` seat ``s`` is ours when ``s + i`` is even, so over two games every seat is
held by each bot equally often (with an odd number of players one bot holds one seat more in each game; the shares
are per seat held). The shuffles are dealt at the chance nodes from the seed ``seed + i``.

With ``--results FILE`` every game is saved as one JSON line as it ends, and a later run with the same arguments
plays only the games still missing (the games so far: ``benchmarks/results/openspiel_ismcts.jsonl``).

The table gives each bot's share of the wins per seat held with its 95% Wilson interval (a fair share is 1/players),
its mean points, and its mean and worst time per move. Needs ``pip install 'dreizehn[research]'``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from dreizehn.bots.base import make_bot
from dreizehn.envs.openspiel import short_name
from dreizehn.stats import wilson_interval

OURS, THEIRS = "dreizehn ismcts", "OpenSpiel ISMCTS"


def play(game: Any, iterations: int, seed: int, index: int) -> tuple[list[str], list[float], list[int],
                                                                      dict[str, list[float]]]:
    """One game: the bot of each seat, the returns, the totals and the move times per bot."""
    players = game.num_players()
    engine_game = game.engine
    seats = [OURS if (s + index) % 2 == 0 else THEIRS for s in range(players)]
    ours = make_bot(f"ismcts:iterations={iterations}", engine_game)
    rs = np.random.RandomState(seed)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=iterations,
                              random_state=rs)
    rngs = [random.Random(f"{seed}:bot:{s}") for s in range(players)]
    chance = random.Random(f"{seed}:deal")
    times: dict[str, list[float]] = {OURS: [], THEIRS: []}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(cards, probs)[0])
            continue
        seat = state.current_player()
        start = time.perf_counter()
        action = int(ours.act(state.engine.view(seat), rngs[seat])) if seats[seat] == OURS else theirs.step(state)
        times[seats[seat]].append(time.perf_counter() - start)
        state.apply_action(action)
    return seats, state.returns(), list(state.engine.totals), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=("knizia13", "holzwurm", "three-thirteen"))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, a game option (repeatable)")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, help="start no new game after this many minutes")
    parser.add_argument("--results", type=Path, help="JSON-lines file to save every game to and resume from")
    args = parser.parse_args()
    import dreizehn.envs.openspiel  # noqa: F401  (registers the games)

    params: dict[str, Any] = {"players": args.players}
    for pair in args.option:
        name, eq, value = pair.partition("=")
        if not eq:
            parser.error(f"--option takes NAME=VALUE, not {pair!r}")
        params[name] = int(value) if value.lstrip("-").isdigit() else value
    game = pyspiel.load_game(short_name(args.game), params)
    key = json.dumps([str(game), args.iterations, args.seed])
    done: dict[int, dict[str, Any]] = {}
    if args.results is not None and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line) if line.strip() else None
            if row is not None and row["key"] == key:
                done[row["index"]] = row
    deadline = None if args.minutes is None else time.time() + 60 * args.minutes
    for i in range(args.games):
        if i in done:
            continue
        if deadline is not None and time.time() > deadline:
            break
        seats, returns, totals, spent = play(game, args.iterations, args.seed + i, i)
        row = {"key": key, "index": i, "seats": seats, "returns": returns, "totals": totals, "times": spent}
        done[i] = row
        if args.results is not None:
            with args.results.open("a") as out:
                out.write(json.dumps(row) + "\n")
        print(f"game {i}: {' '.join(f'{b.split()[0]}={r:.2f}' for b, r in zip(seats, returns, strict=True))}",
              file=sys.stderr, flush=True)
    wins = {OURS: 0.0, THEIRS: 0.0}
    held = {OURS: 0, THEIRS: 0}
    points: dict[str, list[int]] = {OURS: [], THEIRS: []}
    times: dict[str, list[float]] = {OURS: [], THEIRS: []}
    played = 0
    for i in sorted(done):
        if i >= args.games:
            continue
        row = done[i]
        for seat, bot in enumerate(row["seats"]):
            wins[bot] += row["returns"][seat]
            held[bot] += 1
            points[bot].append(row["totals"][seat])
        for bot in times:
            times[bot].extend(row["times"][bot])
        played += 1
    print(f"{game}: {played} games, {args.iterations} iterations a move, fair share {1 / args.players:.1%}")
    print(f"{'bot':<18}{'seats':>7}{'win share':>11}{'95% interval':>18}{'mean points':>13}{'mean move':>11}"
          f"{'worst':>9}")
    for bot in (OURS, THEIRS):
        low, high = wilson_interval(wins[bot], held[bot])
        rate = wins[bot] / held[bot] if held[bot] else 0.0
        mean_points = sum(points[bot]) / len(points[bot]) if points[bot] else 0.0
        mean_move = sum(times[bot]) / len(times[bot]) if times[bot] else 0.0
        print(f"{bot:<18}{held[bot]:>7}{rate:>11.1%}{f'{low:.1%} to {high:.1%}':>18}{mean_points:>13.1f}"
              f"{mean_move * 1000:>9.1f}ms{max(times[bot], default=0.0) * 1000:>7.0f}ms")


if __name__ == "__main__":
    main()
