"""Learner steps a second: MaskablePPO (sb3-contrib) learning through the batched ``DreizehnVecEnv``
(``dreizehn.envs.sb3``) beside the same learner through the single-game Gymnasium environment (``DreizehnEnv``,
which MaskablePPO wraps in its own ``DummyVecEnv``), in one run.

Part of ``make bench`` (or ``python benchmarks/bench_learn.py [--rollouts R]``); needs the ``learn`` extra
(``pip install 'dreizehn[learn]'``) and is left out without it. Both sides learn with the same settings, a rollout of
4,096 learner steps (one game × 4,096 steps, or 256 games × 16 steps), minibatches of 512, 4 epochs, the heuristic
at the other seats, torch on one thread; each side is warmed up with one rollout and then timed over ``R``. A learner
step is one action of the learning seat; the opponents' moves are played inside it. The ratio is the figure to read.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROWS: tuple[tuple[str, int], ...] = (("knizia13", 4), ("holzwurm", 4), ("three-thirteen", 2))
ROLLOUT = 4096
GAMES = 256


def learner_rate(env: Any, n_steps: int, rollouts: int) -> float:
    """Learner steps a second of MaskablePPO on ``env`` (``n_steps`` per game per rollout), after a warm-up."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=512, n_epochs=4, seed=0, verbose=0,
                        device="cpu")
    model.learn(ROLLOUT)
    start = time.perf_counter()
    model.learn(ROLLOUT * rollouts, reset_num_timesteps=False)
    return ROLLOUT * rollouts / (time.perf_counter() - start)


def learn_rows(rollouts: int) -> list[tuple[str, int, float, float]]:
    """Per game: learner steps a second through the single-game adapter and through the batched one."""
    import torch

    from dreizehn.envs.gymnasium import DreizehnEnv
    from dreizehn.envs.sb3 import DreizehnVecEnv

    torch.set_num_threads(1)
    rows = []
    for game_id, players in ROWS:
        single = learner_rate(DreizehnEnv(game_id, players=players, opponents="heuristic", reward="score"),
                              ROLLOUT, rollouts)
        batched = learner_rate(DreizehnVecEnv(game_id, GAMES, players, opponents="heuristic", reward="score"),
                               ROLLOUT // GAMES, rollouts)
        rows.append((game_id, players, single, batched))
    return rows


def print_learn_table(rollouts: int = 2) -> None:
    """The table of :func:`learn_rows`, or a line saying why it is left out."""
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("MaskablePPO learner steps: left out (needs the learn extra: pip install 'dreizehn[learn]')")
        return
    print(f"MaskablePPO learner steps a second ({rollouts} rollouts of {ROLLOUT:,} steps a row, heuristic "
          "opponents, torch on one thread)")
    print(f"{'game':<16}{'players':>8}{'DreizehnEnv':>14}{'DreizehnVecEnv':>16}{'ratio':>8}")
    for game_id, players, single, batched in learn_rows(rollouts):
        print(f"{game_id:<16}{players:>8}{single:>14,.0f}{batched:>16,.0f}{batched / single:>7.1f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts", type=int, default=2, help="timed rollouts a row (default 2)")
    print_learn_table(parser.parse_args().rollouts)


if __name__ == "__main__":
    main()
