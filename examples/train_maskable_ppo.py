"""A few minutes of MaskablePPO (sb3-contrib) on the batched kernel, with no glue: ``DreizehnVecEnv`` is a
Stable-Baselines3 ``VecEnv`` with action masks (docs/vector.md). Needs the learn extra.

    python examples/train_maskable_ppo.py knizia13 --minutes 5 --out ppo-knizia13.zip

It learns one seat against the kernel's heuristic at the others, from each stage's points (``reward="score"``),
with torch on one thread, and saves the model; ``examples/ppo_agent.py`` plays it in the arena
(``dreizehn arena knizia13 -p 4 --agent examples.ppo_agent:PPOAgent --levels heuristic``, docs/envs.md); with
``--export policy-knizia13.npz`` its actor is saved in NumPy too, which ``examples/policy_agent.py`` plays with
neither torch nor Stable-Baselines3.
"""

from __future__ import annotations

import argparse
import time

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from dreizehn.envs.sb3 import DreizehnVecEnv, export_policy


class Deadline(BaseCallback):
    """Stops learning after ``seconds`` of it, and keeps the learning curve: after each rollout, the learner steps
    so far and the mean return of the last 100 games (``rollout/ep_rew_mean``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.curve: list[tuple[int, float]] = []

    def _on_step(self) -> bool:
        return time.monotonic() < self.end

    def _on_rollout_end(self) -> None:
        games = self.model.ep_info_buffer
        if games:
            self.curve.append((self.num_timesteps, sum(g["r"] for g in games) / len(games)))


def plot(curve: list[tuple[int, float]], game: str, spent: str, path: str) -> None:
    """The learning curve drawn into ``path`` (PNG, matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot([x for x, _ in curve], [y for _, y in curve])
    ax.set_xlabel("learner steps")
    ax.set_ylabel("return a game (last 100 games)")
    ax.set_title(f"MaskablePPO in {game} against the heuristic: {spent}")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--steps", type=int, default=None,
                        help="learn this many learner steps instead, whatever the time (the same seed and steps give "
                             "the same model: torch on one thread)")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="where the model goes (default ppo-GAME.zip)")
    parser.add_argument("--plot", default=None, help="draw the learning curve into this PNG")
    parser.add_argument("--export", default=None,
                        help="also save the actor in NumPy into this .npz (examples/policy_agent.py plays it)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = DreizehnVecEnv(args.game, args.envs, args.players, opponents="heuristic", reward="score")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=1024, n_epochs=4, seed=args.seed, verbose=1,
                        device="cpu")
    deadline = Deadline(float("inf") if args.steps else args.minutes * 60)
    model.learn(args.steps or 10**9, callback=deadline)
    spent = f"{args.minutes:g} minutes" if not args.steps else f"{time.monotonic() - deadline.start:.0f} s"
    if args.plot:
        plot(deadline.curve, args.game, spent, args.plot)
    out = args.out or f"ppo-{args.game}.zip"
    model.save(out)
    print(f"{model.num_timesteps:,} learner steps in {spent}; saved to {out}")
    if args.export:
        export_policy(model).save(args.export)
        print(f"its actor in NumPy: {args.export}")


if __name__ == "__main__":
    main()
