"""Our ``ismcts`` against OpenSpiel's information-set MCTS bot, at equal iterations or equal time, head to head.

Run with ``python benchmarks/openspiel_ismcts.py --game holzwurm --players 2 --option games=1 --iterations 100
--games 40``, or with ``--time 0.1`` for the same seconds a move to both bots (ours ``ismcts:time=0.1``, OpenSpiel's
searching until its time is up, at least two simulations a move: :class:`TimedISMCTSBot`). Both bots play the same
games through the OpenSpiel adapter (:mod:`dreizehn.envs.openspiel`): ours gets a seat's view, OpenSpiel's bot
(``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random-rollout evaluator, UCT constant 2, one rollout per
leaf) gets the OpenSpiel state and resamples it through ``resample_from_infostate``. In game ``i`` seat ``s`` is
ours when ``s + i`` is even, so over two games every seat is held by each bot equally often (with an odd number of
players one bot holds one seat more in each game; the shares are per seat held). The shuffles are dealt at the
chance nodes from the seed ``seed + i``.

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

from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.envs.openspiel import short_name
from dreizehn.study.stats import wilson_interval

OURS, THEIRS = "dreizehn ismcts", "OpenSpiel ISMCTS"


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot searching for ``seconds`` a move instead of a number of simulations: its own
    ``run_search`` with the loop over simulations bounded by the clock (at least two: the first one only expands
    the root)."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.simulations: list[int] = []
        """The simulations of each search (a move with more than one legal action)."""

    def run_search(self, state: Any) -> Any:
        deadline = time.perf_counter() + self.seconds
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # its first simulation only expands the root
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations.append(done)
        if self._allow_inconsistent_action_sets:
            return self.get_final_policy(state, self.filter_illegals(self._root_node, state.legal_actions()))
        return self.get_final_policy(state, self._root_node)


def play(game: Any, iterations: int, seed: int, index: int, seconds: float | None = None
         ) -> tuple[list[str], list[float], list[int], dict[str, list[float]], dict[str, list[int]]]:
    """One game: the bot of each seat, the returns, the totals, the move times per bot and (with ``seconds``) the
    iterations of each bot's searches; each bot searches ``iterations`` a move, or ``seconds`` where given."""
    players = game.num_players()
    engine_game = game.engine
    seats = [OURS if (s + index) % 2 == 0 else THEIRS for s in range(players)]
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    if seconds is None:
        ours = IsmctsBot(engine_game, iterations=iterations)
        theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=iterations, random_state=rs)
    else:
        ours = IsmctsBot(engine_game, time=seconds)
        theirs = TimedISMCTSBot(game, evaluator, 2.0, max_simulations=1, random_state=rs, seconds=seconds)
    rngs = [random.Random(f"{seed}:bot:{s}") for s in range(players)]
    chance = random.Random(f"{seed}:deal")
    times: dict[str, list[float]] = {OURS: [], THEIRS: []}
    searched: dict[str, list[int]] = {OURS: [], THEIRS: []}
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
        if seats[seat] == OURS and ours.last_iterations:  # 0: a move without a search (one legal action)
            searched[OURS].append(ours.last_iterations)
        state.apply_action(action)
    searched[THEIRS] = list(getattr(theirs, "simulations", []))
    return seats, state.returns(), list(state.engine.totals), times, searched if seconds is not None else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=("knizia13", "holzwurm", "three-thirteen"))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, a game option (repeatable)")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--time", type=float, help="seconds a move for both bots instead of --iterations")
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
    budget: int | dict[str, float] = args.iterations if args.time is None else {"time": args.time}
    key = json.dumps([str(game), budget, args.seed])
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
        seats, returns, totals, spent, searched = play(game, args.iterations, args.seed + i, i, args.time)
        game_row: dict[str, Any] = {"key": key, "index": i, "seats": seats, "returns": returns, "totals": totals,
                                    "times": spent}
        if searched:
            game_row["iterations"] = searched
        done[i] = game_row
        if args.results is not None:
            with args.results.open("a") as out:
                out.write(json.dumps(game_row) + "\n")
        print(f"game {i}: {' '.join(f'{b.split()[0]}={r:.2f}' for b, r in zip(seats, returns, strict=True))}",
              file=sys.stderr, flush=True)
    each = f"{args.iterations} iterations" if args.time is None else f"{args.time} s"
    report([done[i] for i in sorted(done) if i < args.games], f"{game}", each, args.players)


def report(rows: list[dict[str, Any]], game: str, each: str, players: int) -> None:
    """Print each bot's share of the wins per seat held, its points, move times and (by time) iterations a move."""
    wins = {OURS: 0.0, THEIRS: 0.0}
    held = {OURS: 0, THEIRS: 0}
    points: dict[str, list[int]] = {OURS: [], THEIRS: []}
    times: dict[str, list[float]] = {OURS: [], THEIRS: []}
    searched: dict[str, list[int]] = {OURS: [], THEIRS: []}
    for row in rows:
        for seat, bot in enumerate(row["seats"]):
            wins[bot] += row["returns"][seat]
            held[bot] += 1
            points[bot].append(row["totals"][seat])
        for bot in times:
            times[bot].extend(row["times"][bot])
            searched[bot].extend(row.get("iterations", {}).get(bot, []))
    print(f"{game}: {len(rows)} games, {each} a move, fair share {1 / players:.1%}")
    print(f"{'bot':<18}{'seats':>7}{'win share':>11}{'95% interval':>18}{'mean points':>13}{'mean move':>11}"
          f"{'worst':>9}{'iterations a search':>21}")
    for bot in (OURS, THEIRS):
        low, high = wilson_interval(wins[bot], held[bot])
        rate = wins[bot] / held[bot] if held[bot] else 0.0
        mean_points = sum(points[bot]) / len(points[bot]) if points[bot] else 0.0
        mean_move = sum(times[bot]) / len(times[bot]) if times[bot] else 0.0
        iterations = f"{sum(searched[bot]) / len(searched[bot]):,.0f}" if searched[bot] else "-"
        print(f"{bot:<18}{held[bot]:>7}{rate:>11.1%}{f'{low:.1%} to {high:.1%}':>18}{mean_points:>13.1f}"
              f"{mean_move * 1000:>9.1f}ms{max(times[bot], default=0.0) * 1000:>7.0f}ms{iterations:>21}")


if __name__ == "__main__":
    main()
