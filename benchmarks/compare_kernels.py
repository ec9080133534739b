"""The compiled kernels' and searches' speed, this tree's code against another tree's, side by side in one run
(issue 44, item 6: the shared scaffold of :mod:`dreizehn.core.scaffold` against the loops each game wrote itself).

``make bench-compare BASE=/path/to/other/worktree`` (or ``python benchmarks/compare_kernels.py --base PATH
[--repeats 8]``) runs a worker process per tree and round, the two trees alternating (base, ours, ours, base, base, …,
the first of a round swapped every round so that a load that rises or falls weighs on both alike),
each worker a fresh process with its tree's ``src`` first on the path. Before the counted rounds, one worker per tree
compiles every kernel and search (or loads it from numba's disk cache) and is not counted; within a worker each
figure's work runs once before its clock starts. A figure is timed by the CPU time of its process (a busy machine
inflates it less than the clock on the wall), in chunks of at least 10 ms, its best chunk counting (:func:`_cpu`).
The table gives, for each side, the median over the rounds and the best round (the least CPU time per unit of
work), then our median over the base's and our best over the base's; the load averages at the start and the end
(as ``uptime`` says them) tell how busy the machine was. Units are counted the same way in both trees: a step is
one player's decision in one game of the batch.

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


CHUNK = 0.01
"""CPU seconds of a chunk (:func:`_cpu`), at least: a few of the scheduler's slices on a busy machine."""


def _cpu(work: Callable[[], int], least: float) -> float:
    """Units per CPU second of ``work`` (which returns the units it did) in its best chunk: after one call that is
    not counted (what it calls compiled or loaded, its arrays touched), ``work`` is repeated in chunks of at least
    :data:`CHUNK` CPU seconds for at least ``least`` s in all, and the chunk that did the most units a CPU second
    counts (the one least slowed by the other processes of a busy machine, which empty the caches it runs on)."""
    work()
    best = 0.0
    start = time.process_time()
    while time.process_time() - start < least:
        units = 0
        begun = time.process_time()
        while (spent := time.process_time() - begun) < CHUNK:
            units += work()
        best = max(best, units / spent)
    return best


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
    import dreizehn.core.kernel as kernels
    from dreizehn.core.kernel import HEURISTIC, RANDOM, make_keys

    game = dreizehn.load_game(game_id, players, options)
    names: Any = kernels  # a tree before 2026-11-30 names the function load
    load_kernel = getattr(names, "load_kernel", None) or names.load
    kernel: Any = load_kernel(game)
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
    figures[f"{game_id} VectorGame.step (make bench), steps/s"] = _vector_rate(game_id, players, options, least)

    def playouts_done() -> int:
        kernel.reset(states, keys)
        kernel.playout(states, keys, HEURISTIC)
        return rows

    figures[f"{game_id} heuristic playouts, games/s"] = _cpu(playouts_done, least)
    measure_search(game, kernel, playouts, least, figures, decisions)


def _vector_rate(game_id: str, players: int, options: dict[str, object], least: float) -> float:
    """Steps per CPU second of the batched environment (``make bench``'s "vector st/s": 4,096 games, a legal action
    chosen by noise, observation and mask every step), a step being one decision in one game."""
    import numpy as np

    try:
        from dreizehn.study.vector import VectorGame
    except ImportError:  # the tree before issue 44 item 2 kept it at the root
        from dreizehn.vector import VectorGame  # type: ignore[import-not-found,no-redef]

    num_envs = 4096
    env = VectorGame(game_id, num_envs, players, options=options)
    batch = env.reset(seed=1)
    noise = np.random.default_rng(0).random((16, num_envs, env.num_actions)).astype(np.float32)
    turn = iter(range(10**9))

    def steps() -> int:
        nonlocal batch
        batch = env.step((noise[next(turn) % 16] * batch.action_mask).argmax(axis=1))
        return num_envs

    return _cpu(steps, least)


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


def uptime() -> str:
    """The clock and the load averages over 1, 5 and 15 minutes, as ``uptime`` says them."""
    one, five, fifteen = os.getloadavg()
    return f"{time.strftime('%H:%M:%S', time.gmtime())} UTC, load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def table(runs: dict[str, list[dict[str, Any]]], header: list[str]) -> list[str]:
    """The figures' lines: each side's median and best repeat, ours over the base's for both."""
    lines = [*header, f"{'figure':<56}{'base median':>13}{'base best':>13}{'ours median':>13}{'ours best':>13}"
                      f"{'median ×':>10}{'best ×':>8}"]
    for figure in runs["base"][0]["figures"]:
        base = [r["figures"][figure] for r in runs["base"]]
        ours = [r["figures"][figure] for r in runs["ours"]]
        b, o = statistics.median(base), statistics.median(ours)
        lines.append(f"{figure:<56}{b:>13,.0f}{max(base):>13,.0f}{o:>13,.0f}{max(ours):>13,.0f}"
                     f"{o / b:>10.3f}{max(ours) / max(base):>8.3f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="the other tree (a git worktree), timed against this one")
    parser.add_argument("--repeats", type=int, default=8, help="counted rounds of each tree (default 8, even)")
    parser.add_argument("--least", type=float, default=0.4, help="CPU seconds a figure is measured for, at least")
    parser.add_argument("--game", action="append", choices=[g for g, *_ in GAMES], help="only this game (repeatable)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.least, args.game)))
        return
    if args.base is None:
        parser.error("--base: the other tree to time against (a git worktree, e.g. git worktree add ../base c8a5b04)")
    trees = {"base": args.base.resolve() / "src", "ours": ROOT / "src"}
    for src in trees.values():  # compiled (or loaded from the cache) once, not counted
        run_worker(src, 0.01, args.game)
    started = uptime()
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "ours": []}
    for repeat in range(args.repeats):
        order = list(trees.items())
        for name, src in order[::-1] if repeat % 2 else order:  # base, ours, ours, base, …: what drifts cancels
            runs[name].append(run_worker(src, args.least, args.game))
            print(f"round {repeat + 1}/{args.repeats}: {name} done ({uptime()})", file=sys.stderr, flush=True)
    ended = uptime()
    for name in trees:
        for other in runs[name][1:]:
            assert other["decisions"] == runs[name][0]["decisions"], f"{name} decided differently between runs"
    same = runs["base"][0]["decisions"] == runs["ours"][0]["decisions"]
    lines = table(runs, [
        f"Compiled kernels and searches: this tree against {args.base}, {args.repeats} rounds (base, ours, ours, "
        f"base, …), each a fresh process, CPU time, at least {args.least} s a figure; median and best of the rounds, "
        "× ours over base", f"start: {started}", f"end:   {ended}", ""])
    lines += ["", "Decisions (the same seeds in both trees): " + ("the same, every one" if same else "DIFFERENT")]
    for key, value in runs["ours"][0]["decisions"].items():
        lines.append(f"  {key:<50}{value:>14}{'' if runs['base'][0]['decisions'][key] == value else '  DIFFERS'}")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    if not same:
        raise SystemExit("the two trees decided differently")


if __name__ == "__main__":
    main()
