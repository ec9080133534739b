"""The compiled kernels' and searches' speed, this tree's code against another tree's, side by side in one run
(issue 44, item 6: the shared scaffold of :mod:`dreizehn.core.scaffold` against the loops each game wrote itself).

``python benchmarks/compare_kernels.py --base /path/to/other/worktree [--repeats 5]`` runs a worker process per tree
and repeat, the two trees alternating (base, ours, base, ours, …), each worker with its tree's ``src`` first on the
path; a worker loads every game's kernel and search (compiled, or loaded from numba's cache: a first warm-up round per
tree is not counted), then times fixed pieces of work by the CPU time of its process (a busy machine inflates it less
than the clock on the wall). The table gives each figure's median over the repeats and our median over the base's.

Each worker also prints what its code decided (the random games' action counts, the heuristic's choices, the
searches' root statistics and the hints' ratings from the same seeds): the run stops where the two trees differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

GAMES: tuple[tuple[str, int, dict[str, object], tuple[str, ...]], ...] = (
    # game, players, options, the search's playouts
    ("knizia13", 4, {}, ("random", "heuristic")),
    ("holzwurm", 4, {}, ("random", "heuristic")),
    ("three-thirteen", 2, {"stock_out": "end-round"}, ("greedy", "random", "heuristic")),
)


def _cpu(work: Callable[[], int], least: float) -> float:
    """Units per CPU second of ``work`` (which returns the units it did), repeated for at least ``least`` s."""
    units = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < least:
        units += work()
    return units / spent


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:12]


def worker(least: float, games: list[str] | None) -> dict[str, Any]:
    """Every figure and every decision of this process's ``dreizehn`` (the tree on ``PYTHONPATH``), of ``games``
    only where given."""
    figures: dict[str, float] = {}
    decisions: dict[str, str] = {}
    for game_id, players, options, playouts in GAMES:
        if games and game_id not in games:
            continue
        measure_game(game_id, players, options, playouts, least, figures, decisions)
    return {"figures": figures, "decisions": decisions}


def measure_game(game_id: str, players: int, options: dict[str, object], playouts: tuple[str, ...], least: float,
                 figures: dict[str, float], decisions: dict[str, str]) -> None:
    """One game's figures (the kernel's batches, then its search and hints) and decisions."""
    import numpy as np

    import dreizehn
    from dreizehn.core.kernel import HEURISTIC, RANDOM, load, make_keys

    game = dreizehn.load_game(game_id, players, options)
    kernel: Any = load(game)
    rows = 256
    states, keys = kernel.new(rows), make_keys(1, rows)
    kernel.reset(states, keys)
    decisions[f"{game_id} random games"] = str(kernel.random_games(states, keys, 2))
    kernel.reset(states, keys)
    decisions[f"{game_id} heuristic choices"] = _digest(kernel.choose(states, keys, HEURISTIC).tolist())
    figures[f"{game_id} random games, actions/s"] = _cpu(lambda: int(kernel.random_games(states, keys, 1)), least)
    masks = np.zeros((rows, kernel.num_actions), np.bool_)
    obs = np.zeros((rows, kernel.obs_size), np.float32)
    status = np.zeros(rows, np.int8)

    def steps() -> int:
        kernel.legal(states, masks)
        actions = kernel.choose(states, keys, RANDOM)
        over = actions < 0
        if over.any():
            kernel.reset(states, keys, np.flatnonzero(over))
            return 0
        kernel.step(states, keys, actions, status)
        kernel.observe(states, kernel.current(states).clip(0), obs)
        return rows

    kernel.reset(states, keys)
    figures[f"{game_id} legal+choose+step+observe, steps/s"] = _cpu(steps, least)

    def playouts_done() -> int:
        kernel.reset(states, keys)
        kernel.playout(states, keys, HEURISTIC)
        return rows

    figures[f"{game_id} heuristic playouts, games/s"] = _cpu(playouts_done, least)
    measure_search(game, kernel, playouts, least, figures, decisions)


def measure_search(game: Any, kernel: Any, playouts: tuple[str, ...], least: float, figures: dict[str, float],
                   decisions: dict[str, str]) -> None:
    """The search's iterations per second from four positions, each playout compiled, and the hints' ratings."""
    views = []
    for seed in range(4):
        state = game.new_state(seed)
        for _ in range(7 + seed):
            state.apply(state.legal_actions()[0])
        views.append(state.view(state.current_player))
    for playout in playouts:
        found = [kernel.search(v, 200, 0.7, 5.0, n, None, playout=playout) for n, v in enumerate(views)]
        decisions[f"{game.id} search playout={playout}"] = _digest(found)
        counter = iter(range(10**9))

        def searched(p: str = playout, positions: Any = counter) -> int:
            return int(kernel.search(views[next(positions) % 4], 200, 0.7, 5.0, 0, None, playout=p)[1])

        figures[f"{game.id} search playout={playout}, iterations/s"] = _cpu(searched, least)
    first = [int(a) for a in views[0].legal_actions[:3]]
    rated = [kernel.rate(v, [int(a) for a in v.legal_actions[:3]], 8, n) for n, v in enumerate(views)]
    decisions[f"{game.id} hints' ratings"] = _digest([(w.tolist(), p.tolist()) for w, p in rated])
    figures[f"{game.id} hints' ratings, worlds/s"] = _cpu(lambda: (kernel.rate(views[0], first, 8, 0), 8)[1], least)


def run_worker(src: Path, least: float, games: list[str] | None) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    only = [arg for game in games or [] for arg in ("--game", game)]
    done = subprocess.run([sys.executable, __file__, "--worker", "--least", str(least), *only], env=env, check=True,
                          capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="the other tree (a git worktree), timed against this one")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--least", type=float, default=0.4, help="CPU seconds a figure is measured for, at least")
    parser.add_argument("--game", action="append", choices=[g for g, *_ in GAMES], help="only this game (repeatable)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.least, args.game)))
        return
    trees = {"base": args.base.resolve() / "src", "ours": ROOT / "src"}
    for src in trees.values():  # compiled (or loaded from the cache) once, not counted
        run_worker(src, 0.01, args.game)
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "ours": []}
    for repeat in range(args.repeats):
        for name, src in trees.items():
            runs[name].append(run_worker(src, args.least, args.game))
            print(f"repeat {repeat + 1}/{args.repeats}: {name} done", file=sys.stderr, flush=True)
    for name in trees:
        for other in runs[name][1:]:
            assert other["decisions"] == runs[name][0]["decisions"], f"{name} decided differently between runs"
    same = runs["base"][0]["decisions"] == runs["ours"][0]["decisions"]
    lines = [f"Compiled kernels and searches: this tree against {args.base} (medians of {args.repeats} alternating "
             f"repeats, CPU time, at least {args.least} s a figure)", "",
             f"{'figure':<64}{'base':>14}{'ours':>14}{'ours/base':>11}"]
    for figure in runs["base"][0]["figures"]:
        base = statistics.median(r["figures"][figure] for r in runs["base"])
        ours = statistics.median(r["figures"][figure] for r in runs["ours"])
        lines.append(f"{figure:<64}{base:>14,.0f}{ours:>14,.0f}{ours / base:>11.3f}")
    lines += ["", "Decisions (the same seeds in both trees): " + ("the same, every one" if same else "DIFFERENT")]
    for key, value in runs["ours"][0]["decisions"].items():
        lines.append(f"  {key:<50}{value:>14}{'' if runs['base'][0]['decisions'][key] == value else '  DIFFERS'}")
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text(table + "\n")
    if not same:
        raise SystemExit("the two trees decided differently")


if __name__ == "__main__":
    main()
