"""Train a small policy on the batched environment and watch it beat random players (docs/vector.md).

A two-layer network in plain NumPy (observation -> 64 ReLU units -> one logit per action, illegal actions masked)
learns by REINFORCE with a batch-mean baseline, playing one seat of ``--envs`` games at once against the kernel's
random players (``DreizehnVectorEnv``). It learns from each stage's points (``reward="score"``) and is judged by
its share of the wins, whose fair share is ``1 / players``. Every ``--every`` updates it prints the win share of the
games finished since, and at the end it can save the curve (``--plot curve.png``, matplotlib) and the numbers
(``--csv``).

    python examples/train_policy_gradient.py knizia13 --updates 300 --plot docs/vector-knizia13.png

The same seed gives the same run.
"""

from __future__ import annotations

import argparse
import csv
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dreizehn.core.encoding import encoder_of
from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv

Array = npt.NDArray[np.float32]


@dataclass
class Policy:
    """A two-layer network with Adam's moments."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    scale: Array
    moments: dict[str, tuple[Array, Array]] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def new(cls, inputs: int, actions: int, high: Array, rng: np.random.Generator, hidden: int = 64) -> Policy:
        return cls(
            w1=(rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            b1=np.zeros(hidden, np.float32),
            w2=(rng.standard_normal((hidden, actions)) * 0.01).astype(np.float32),
            b2=np.zeros(actions, np.float32),
            scale=(1.0 / np.maximum(high, 1.0)).astype(np.float32),
        )

    def forward(self, obs: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array, Array]:
        """The hidden layer's input, its output and the action probabilities (0 where illegal)."""
        x = obs * self.scale
        pre: Array = (x @ self.w1 + self.b1).astype(np.float32)
        hidden: Array = np.maximum(pre, 0.0)
        logits = hidden @ self.w2 + self.b2
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        return pre, hidden, probs.astype(np.float32)

    def act(self, obs: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
        probs = self.forward(obs, mask)[2]
        cumulative = probs.cumsum(axis=1)
        draws = rng.random((len(obs), 1))
        chosen: npt.NDArray[np.int64] = np.minimum((cumulative < draws).sum(axis=1), probs.shape[1] - 1)
        return chosen

    def update(self, obs: Array, mask: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64], advantage: Array,
               rate: float = 3e-3) -> None:
        """One step of Adam along the policy gradient: ``advantage * grad log pi(action)``."""
        pre, hidden, probs = self.forward(obs, mask)
        g_logits = -probs
        g_logits[np.arange(len(actions)), actions] += 1.0
        g_logits *= advantage[:, None] / len(actions)
        grads = {"w2": hidden.T @ g_logits, "b2": g_logits.sum(axis=0)}
        g_hidden = (g_logits @ self.w2.T) * (pre > 0)
        grads["w1"] = (obs * self.scale).T @ g_hidden
        grads["b1"] = g_hidden.sum(axis=0)
        self.steps += 1
        for name, grad in grads.items():
            m, v = self.moments.get(name, (np.zeros_like(grad), np.zeros_like(grad)))
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad * grad
            self.moments[name] = (m, v)
            m_hat = m / (1 - 0.9**self.steps)
            v_hat = v / (1 - 0.999**self.steps)
            param = getattr(self, name)
            param += (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)  # ascent: more reward


def returns(rewards: Array, ended: npt.NDArray[np.bool_], discount: float) -> tuple[Array, npt.NDArray[np.bool_]]:
    """Rewards summed to the end of each game (``(steps, envs)``), each step's ``discount`` times the next's, and
    which steps have their return: those whose game ended within the rollout, and those far enough from its end
    that what the rollout does not see weighs less than 1% (a long game, such as Three Thirteen's 11 rounds, would
    otherwise leave most steps unused)."""
    total = np.zeros_like(rewards)
    known = np.zeros(rewards.shape, np.bool_)
    running = np.zeros(rewards.shape[1], np.float32)
    done = np.zeros(rewards.shape[1], np.bool_)
    horizon = int(np.ceil(np.log(0.01) / np.log(discount))) if discount < 1 else len(rewards)
    for t in range(len(rewards) - 1, -1, -1):
        running = np.where(ended[t], 0.0, discount * running) + rewards[t]
        done = done | ended[t]
        total[t], known[t] = running, done | (len(rewards) - t > horizon)
    return total, known


def train(game: str, envs: int, steps: int, updates: int, every: int, seed: int, discount: float = 0.9,
          rate: float = 1e-2, opponents: str = "random") -> list[tuple[int, int, float]]:
    """Train and return the curve: (update, games finished since the last point, the learner's win share)."""
    rng = np.random.default_rng(seed)
    env = DreizehnVectorEnv(game, envs, opponents=opponents, reward="score")
    obs, info = env.reset(seed=seed)
    high = encoder_of(env.vector.game).observation_layout.bounds()[1]
    policy = Policy.new(env.vector.obs_size, env.vector.num_actions, high, rng)
    fair = 1.0 / env.vector.players
    curve: list[tuple[int, int, float]] = []
    won = games = 0.0
    start = time.perf_counter()
    for update in range(1, updates + 1):
        batch_obs = np.empty((steps, envs, env.vector.obs_size), np.float32)
        batch_mask = np.empty((steps, envs, env.vector.num_actions), np.bool_)
        batch_act = np.empty((steps, envs), np.int64)
        batch_rew = np.empty((steps, envs), np.float32)
        batch_end = np.empty((steps, envs), np.bool_)
        for t in range(steps):
            mask = info["action_mask"].astype(np.bool_)
            actions = policy.act(obs, mask, rng)
            batch_obs[t], batch_mask[t], batch_act[t] = obs, mask, actions
            obs, reward, ended, _, info = env.step(actions)
            batch_rew[t], batch_end[t] = reward, ended
            if ended.any():
                totals = info["final_obs"][ended]
                won += float(win_share(totals, env).sum())
                games += float(ended.sum())
        total, finished = returns(batch_rew, batch_end, discount)
        if finished.any():
            advantage = total[finished]
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
            policy.update(batch_obs[finished], batch_mask[finished], batch_act[finished], advantage, rate)
        if update % every == 0:
            share = won / max(games, 1.0)
            curve.append((update, int(games), share))
            print(f"update {update:>4}  games {int(games):>6}  win share {share:.3f} (fair {fair:.3f})  "
                  f"{time.perf_counter() - start:6.1f} s", flush=True)
            won = games = 0.0
    return curve


def win_share(final_obs: Array, env: DreizehnVectorEnv) -> Array:
    """The learner's share of the win from its final observations: the ``totals`` block (the learner first)."""
    layout = encoder_of(env.vector.game).observation_layout
    block = next(b for b in layout.blocks if b.name == "totals")
    totals = final_obs[:, block.offset : block.offset + block.size]
    best = totals.max(axis=1) if env.vector.game.high_score_wins else totals.min(axis=1)
    won = totals == best[:, None]
    shares: Array = (won[:, 0] / won.sum(axis=1)).astype(np.float32)
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="a game with a kernel: knizia13, holzwurm, three-thirteen")
    parser.add_argument("--envs", type=int, default=512, help="games at once (default 512)")
    parser.add_argument("--steps", type=int, default=64, help="learner steps a rollout (default 64)")
    parser.add_argument("--updates", type=int, default=200, help="policy updates (default 200)")
    parser.add_argument("--every", type=int, default=10, help="updates between points of the curve (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="random", help="random (default) or heuristic: the kernel's players")
    parser.add_argument("--plot", help="save the curve as a PNG (matplotlib)")
    parser.add_argument("--csv", help="save the curve as CSV")
    args = parser.parse_args()
    curve = train(args.game, args.envs, args.steps, args.updates, args.every, args.seed, opponents=args.opponents)
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            csv.writer(out).writerows([("update", "games", "win_share"), *curve])
    if args.plot:
        env = DreizehnVectorEnv(args.game, 1)
        plot(curve, env.vector.game.title, env.vector.players, args.opponents, args.plot)


def plot(curve: list[tuple[int, int, float]], title: str, players: int, opponents: str, path: str) -> None:
    """The learning curve as a PNG (matplotlib): the learner's share of the wins against the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([u for u, _, _ in curve], [s for _, _, s in curve], marker="o", label="learner")
    ax.axhline(1 / players, color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("policy updates")
    ax.set_ylabel("share of the wins")
    others = players - 1
    ax.set_title(f"{title}: a NumPy policy against {others} {opponents} player{'s' if others > 1 else ''}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
