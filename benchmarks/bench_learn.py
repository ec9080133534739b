"""Learner steps a second: MaskablePPO (sb3-contrib) learning through the batched ``DreizehnVecEnv``
(``dreizehn.envs.sb3``) beside the same learner through the single-game Gymnasium environment (``DreizehnEnv``,
which MaskablePPO wraps in its own ``DummyVecEnv``), in one run.

Part of ``make bench`` (or ``python benchmarks/bench_learn.py [--rollouts R]``); needs the ``learn`` extra
(``pip install 'dreizehn[learn]'``) and is left out without it. Both sides learn with the same settings, a rollout of
4,096 learner steps (one game × 4,096 steps, or 256 games × 16 steps), minibatches of 512, 4 epochs, the heuristic
at the other seats, torch on one thread; each side is warmed up with one rollout and then timed over ``R``. A learner
step is one action of the learning seat; the opponents' moves are played inside it. Each side is counted in wall-clock
time and in the process's CPU time (``time.process_time``: on a machine busy with other work the wall clock counts the
others' turns too); the ratios are the figures to read. ``--split`` adds, per side, the CPU seconds a learner step
spends stepping the games (the adapter with the kernel or the engine), in the rest of collecting (the network choosing
the actions, the rollout buffer) and in the update (the same network and settings on both sides); ``--game`` runs
one game's row, ``--device cuda`` puts the network on a GPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROWS: tuple[tuple[str, int], ...] = (("knizia13", 4), ("holzwurm", 4), ("three-thirteen", 2))
ROLLOUT = 4096
GAMES = 256


@dataclass
class Rate:
    """One side's timed rollouts: learner steps a second of wall-clock and of CPU time, and the CPU seconds a step
    spent stepping the games, in the rest of collecting and in the update."""

    wall: float
    cpu: float
    games: float
    collect: float
    update: float


def learner_rate(env: Any, n_steps: int, rollouts: int, device: str = "cpu") -> Rate:
    """Learner steps a second of MaskablePPO on ``env`` (``n_steps`` per game per rollout, the network on torch's
    ``device``), after a warm-up; the CPU time of ``env.step_wait``, of collecting and of the update measured alike
    on both sides."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=512, n_epochs=4, seed=0, verbose=0,
                        device=device)
    model.set_logger(Logger(folder=None, output_formats=[]))  # no log folder in /tmp for each run
    model.learn(ROLLOUT)
    spent = {"step_wait": 0.0, "collect_rollouts": 0.0, "train": 0.0}
    for owner, name in ((model.env, "step_wait"), (model, "collect_rollouts"), (model, "train")):
        _timed(owner, name, spent)
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(ROLLOUT * rollouts, reset_num_timesteps=False)
    steps = ROLLOUT * rollouts
    return Rate(steps / (time.perf_counter() - start), steps / (time.process_time() - cpu),
                spent["step_wait"] / steps, (spent["collect_rollouts"] - spent["step_wait"]) / steps,
                spent["train"] / steps)


def _timed(owner: Any, name: str, spent: dict[str, float]) -> None:
    """Wrap ``owner.name`` so that its CPU time adds up in ``spent[name]``."""
    method = getattr(owner, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - start

    setattr(owner, name, wrapped)


def learn_rows(rollouts: int, games: Sequence[str] | None = None, threads: int = 1,
               device: str = "cpu") -> list[tuple[str, int, Rate, Rate]]:
    """Per game (``games``: those only): the single-game adapter's rate and the batched one's, torch on ``threads``
    threads and the network on ``device`` on both sides."""
    import torch

    from dreizehn.envs.gymnasium import DreizehnEnv
    from dreizehn.envs.sb3 import DreizehnVecEnv

    torch.set_num_threads(threads)
    rows = []
    for game_id, players in ROWS:
        if games and game_id not in games:
            continue
        single = learner_rate(DreizehnEnv(game_id, players=players, opponents="heuristic", reward="score"),
                              ROLLOUT, rollouts, device)
        batched = learner_rate(DreizehnVecEnv(game_id, GAMES, players, opponents="heuristic", reward="score"),
                               ROLLOUT // GAMES, rollouts, device)
        rows.append((game_id, players, single, batched))
    return rows


def print_learn_table(rollouts: int = 2, games: Sequence[str] | None = None, split: bool = False,
                      threads: int = 1, device: str = "cpu") -> None:
    """The table of :func:`learn_rows`, or a line saying why it is left out."""
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("MaskablePPO learner steps: left out (needs the learn extra: pip install 'dreizehn[learn]')")
        return
    print(f"MaskablePPO learner steps a second ({rollouts} rollouts of {ROLLOUT:,} steps a row, heuristic "
          f"opponents, torch on {threads} thread{'s' if threads > 1 else ''} and the network on {device} on both "
          f"sides; wall-clock, then CPU time)")
    print(f"{'game':<16}{'players':>8}{'DreizehnEnv':>14}{'DreizehnVecEnv':>16}{'ratio':>8}"
          f"{'CPU: single':>13}{'batched':>9}{'ratio':>8}")
    rows = learn_rows(rollouts, games, threads, device)
    for game_id, players, single, batched in rows:
        print(f"{game_id:<16}{players:>8}{single.wall:>14,.0f}{batched.wall:>16,.0f}{batched.wall / single.wall:>7.1f}×"
              f"{single.cpu:>13,.0f}{batched.cpu:>9,.0f}{batched.cpu / single.cpu:>7.1f}×")
    if split:
        print("CPU microseconds a learner step: stepping the games, the rest of collecting, the update")
        for game_id, _, single, batched in rows:
            for side, rate in (("DreizehnEnv", single), ("DreizehnVecEnv", batched)):
                print(f"{game_id:<16}{side:<16}{rate.games * 1e6:>8,.0f}{rate.collect * 1e6:>8,.0f}"
                      f"{rate.update * 1e6:>8,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts", type=int, default=2, help="timed rollouts a row (default 2)")
    parser.add_argument("--game", action="append", help="only this game's row (repeat for several)")
    parser.add_argument("--split", action="store_true", help="where each side's CPU time goes")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch's threads on both sides (default 1: on a machine shared with other work, more "
                             "threads fight for the cores; on an idle machine the update may use them all)")
    parser.add_argument("--device", default="cpu",
                        help="torch's device for the network on both sides (default cpu; cuda where a GPU is)")
    args = parser.parse_args()
    print_learn_table(args.rollouts, args.game, args.split, args.threads, args.device)


if __name__ == "__main__":
    main()
