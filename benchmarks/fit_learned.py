"""Fit the ``learned`` bot's network (:mod:`dreizehn.bots.learned`) by Deep Monte-Carlo on the compiled kernels, and
measure it against the heuristic on paired seeds.

``python benchmarks/fit_learned.py GAME [--minutes M] [--seed S]`` plays 512 games at once on the game's kernel (the
research player count and options, docs/envs.md), the learner in one seat (rotated round by round) and the game's
compiled heuristic in the others. At each of the learner's decisions it keeps the seat's observation, the
heuristic's action there and the action played; when the stage ends, every decision of it gets the stage's margin
(the seat's points minus the mean of the others', signed so that more is better). A small network (PyTorch, one
thread) learns to predict that margin for the action played, from the observation and the heuristic's action (Deep
Monte-Carlo, as DouZero: Zha et al. 2021). While fitting, the learner plays a random action with chance
``--epsilon``, else the heuristic's with a chance that falls from 1 to ``--heuristic-floor``, else the network's
best. Every ``--eval-every`` seconds the network plays held-out deals against the heuristic in the same seat, the
heuristic's action kept unless another is rated higher by more than each of ``--thresholds`` (the bot's rule); the
network and threshold with the best lower end of the 95% interval so far are written as the game's data file
(``src/dreizehn/games/<game>/learned_model.npz``, NumPy arrays: the runtime package never needs torch), the curve as
a PNG and JSON (``--curve``). docs/learned.md gives the settings and the figures.

``python benchmarks/fit_learned.py GAME --evaluate [--seeds 0:2000]`` plays the shipped network against the heuristic
on paired seeds: seed ``s`` deals game ``s`` of key ``BASE``, played once with the network in each seat and once with
the heuristic in that seat (the others heuristics both times), and prints the mean margin of each and their
difference seed by seed, with its 95% interval; ``--network PATH`` measures a network written by ``--out`` instead
of the shipped one (``--threshold``, ``--overrules``: under another threshold, or overruling only some of the
heuristic's actions). Needs the ``learn`` extra (torch) only to fit.

The heuristic is the ``heuristic`` bot compiled, in every game: Three Thirteen's kernel plays the search's greedy
player under ``HEURISTIC``, so its games here run on :mod:`dreizehn.games.three_thirteen.bot_kernel`, and are fitted
without the research ``turn_limit`` (:data:`FIT_OPTIONS`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from dreizehn.bots.learned import MODEL_FILE, Network, from_arrays, network_input, shipped
from dreizehn.core.game import Game
from dreizehn.core.kernel import GAME_OVER, HEURISTIC, STAGE_OVER, WAITING, Kernel, load_kernel, make_keys
from dreizehn.core.registry import game_class
from dreizehn.envs.observations import encoder_of
from dreizehn.games.three_thirteen.bot_kernel import narrow_to_best
from dreizehn.study.vector import _load

BASE = 4_800_000
"""The key of the published evaluation seeds (apart from the seeds the learner trains on)."""
HELD_OUT = BASE + 1
"""The key of the seeds of the learning curve (apart from the published ones, which judge the chosen network)."""

FIT_OPTIONS: dict[str, dict[str, object]] = {"three-thirteen": {"turn_limit": 0}}
"""Options fitted at that differ from the research adapters' (docs/envs.md): Three Thirteen without the research
``turn_limit`` of 200, as people play it (the observation shows the limit; the heuristic's own rule ends rounds that
last too long)."""

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]], npt.NDArray[np.int64]]
"""Observations, legal masks and the heuristic's actions of the learner's decisions → the actions played."""


@dataclass
class Table:
    """A batch of games on the kernel with the learner in ``seat`` and the heuristic in every other seat."""

    game: Game
    kernel: Kernel
    states: npt.NDArray[np.int16]
    keys: npt.NDArray[np.uint64]
    seat: int
    candidates: int = 0
    """Where not 0, the learner's discards narrowed to the heuristic's best ``candidates`` and its own (Three
    Thirteen: :func:`~dreizehn.games.three_thirteen.bot_kernel.narrow_to_best`)."""
    status: npt.NDArray[np.int8] = field(init=False)

    def __post_init__(self) -> None:
        self.status = np.zeros(len(self.states), np.int8)
        self.sign = 1.0 if self.game.high_score_wins else -1.0

    def margins(self, scores: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The learner's points minus the mean of the others', signed so that more is better."""
        n = scores.shape[1]
        own = scores[:, self.seat]
        margin: npt.NDArray[np.float64] = self.sign * (own - (scores.sum(axis=1) - own) / (n - 1))
        return margin

    def ended(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """The rows whose stage ended in the last step, their stage margins, and which of them ended the game."""
        rows = np.flatnonzero((self.status == STAGE_OVER) | (self.status == GAME_OVER))
        return rows, self.margins(self.kernel.stage_scores(self.states[rows])), self.status[rows] == GAME_OVER

    def decide(self, policy: Policy) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The learner's move in every game (a finished game gets a move that changes nothing): its observation,
        the heuristic's action and the action played."""
        kernel, states = self.kernel, self.states
        rows = len(states)
        obs = np.zeros((rows, kernel.obs_size), np.float32)
        kernel.observe(states, np.full(rows, self.seat, np.int64), obs)
        legal = np.zeros((rows, kernel.num_actions), np.bool_)
        kernel.legal(states, legal)
        hint = np.maximum(kernel.choose(states, self.keys, HEURISTIC), 0)
        if self.candidates:
            narrow_to_best(states, hint, self.candidates, legal)
        actions = policy(obs, legal, hint)
        kernel.step(states, self.keys, actions, self.status)
        return obs, hint, actions

    def advance(self, on_end: Callable[[], None]) -> None:
        """The heuristic's moves until the learner is to move (or the game is over) in every game."""
        while True:
            self.kernel.advance(self.states, self.keys, self.seat, HEURISTIC, self.status)
            if (self.status == WAITING).all():
                return
            on_end()


def kernel_of(game: Game) -> Kernel:
    """The game's kernel, with the ``heuristic`` bot as its ``HEURISTIC`` policy: Three Thirteen's own kernel plays
    the search's greedy player there (docs/vector.md), so its bot's compiled decisions come from :mod:`.bot_kernel`."""
    if game.id == "three-thirteen":
        from dreizehn.games.three_thirteen import bot_kernel

        return bot_kernel.make(game)  # type: ignore[arg-type]
    return load_kernel(game)


def table(game: Game, seat: int, games: int, seed: int, candidates: int = 0) -> Table:
    kernel = kernel_of(game)
    states, keys = kernel.new(games), make_keys(seed, games)
    kernel.reset(states, keys)
    return Table(game, kernel, states, keys, seat, candidates)


def play_out(game: Game, seat: int, games: int, seed: int, policy: Policy | None,
             candidates: int = 0) -> npt.NDArray[np.float64]:
    """Each game's final margin for ``seat``, played by ``policy`` (``None``: the heuristic) against heuristics,
    its discards narrowed to ``candidates`` (:class:`Table`)."""
    t = table(game, seat, games, seed, candidates)
    if policy is None:
        t.kernel.playout(t.states, t.keys, HEURISTIC)
        return t.margins(t.kernel.totals(t.states))
    done = np.zeros(games, np.bool_)
    final = np.zeros((games, game.players), np.int64)

    def on_end() -> None:
        over = np.flatnonzero((t.status == GAME_OVER) & ~done)
        final[over] = t.kernel.totals(t.states[over])
        done[over] = True

    while True:
        t.advance(on_end)
        on_end()
        if done.all() or (t.kernel.current(t.states) < 0).all():
            final[~done] = t.kernel.totals(t.states[~done])
            return t.margins(final)
        t.decide(policy)
        on_end()


def seat_margins(game: Game, policy: Policy | None, seeds: range, key: int = BASE,
                 candidates: int = 0) -> npt.NDArray[np.float64]:
    """Per seat and seed (game ``s`` of ``key``), ``(players, len(seeds))``, the margin of ``policy`` (``None``: the
    heuristic) in that seat against heuristics in the others."""
    return np.stack([play_out(game, seat, seeds.stop, key, policy, candidates)[seeds.start :]
                     for seat in range(game.players)])


def margins(game: Game, policy: Policy | None, seeds: range, key: int = BASE,
            candidates: int = 0) -> npt.NDArray[np.float64]:
    """Per seed (game ``s`` of ``key``), the margin of ``policy`` (``None``: the heuristic) against three
    heuristics, meaned over the seats it is played in."""
    out: npt.NDArray[np.float64] = (seat_margins(game, policy, seeds, key, candidates) / game.players).sum(axis=0)
    return out


def interval(values: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    return float(values.mean()), 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))


def restricted(network: Network, overrules: list[int]) -> Policy:
    """``network``'s play where the heuristic advises one of ``overrules``, the heuristic's elsewhere."""

    def policy(obs: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
               hint: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.where(np.isin(hint, overrules), network.choose(obs, legal, hint), hint)

    return policy


def evaluate(game_id: str, seeds: range, args: argparse.Namespace) -> None:
    """Print the shipped network's (or the one saved at ``args.network``, under ``args.threshold`` and
    ``args.overrules`` where given) margin against the heuristic's, seed by seed, on ``seeds``; at 2 players the
    share of games each side won; the bot's time a move only for the shipped one (the bot plays only that)."""
    network = shipped(game_id) if args.network is None else load_network(args.network)
    if network is None:
        raise SystemExit(f"{game_id} has no network")
    if args.threshold is not None:
        network = replace(network, threshold=args.threshold)
    policy = network.choose if args.overrules is None else restricted(
        network, [int(a) for a in args.overrules.split(",")])
    game = _load(game_id, network.players, network.options)
    start = time.perf_counter()
    by_seat = seat_margins(game, policy, seeds, candidates=network.candidates)
    mine = (by_seat / game.players).sum(axis=0)
    their_seats = seat_margins(game, None, seeds)
    theirs = (their_seats / game.players).sum(axis=0)
    for name, values in (("learned", mine), ("heuristic", theirs), ("learned minus heuristic", mine - theirs)):
        mean, half = interval(values)
        print(f"{name:<26}{mean:+8.2f} ± {half:.2f} points a game")
    if game.players == 2:  # a margin above 0 is a game won (the better total of the two)
        for name, values in (("learned", by_seat), ("heuristic", their_seats)):
            mean, half = interval((values > 0).astype(np.float64).ravel())
            print(f"{name:<26}won {100 * mean:.1f}% ± {100 * half:.1f}% of its games against the heuristic "
                  f"({100 * float((values == 0).mean()):.1f}% tied)")
    print(f"{len(seeds)} seeds × {game.players} seats ({len(seeds) * game.players} games a side) in "
          f"{time.perf_counter() - start:.0f} s")
    if args.network is not None:
        return
    mean, worst = move_times(game, 10)
    print(f"the bot's move through the engine (its view): {mean * 1000:.2f} ms on average, {worst * 1000:.1f} ms at "
          "worst (10 games, every seat the bot)")


def move_times(game: Game, games: int) -> tuple[float, float]:
    """The ``learned`` bot's mean and worst time to move from a view, in ``games`` whole games it plays alone."""
    from dreizehn.bots.base import make_bot

    bot = make_bot("learned", game)
    rng = random.Random(0)
    times: list[float] = []
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            start = time.perf_counter()
            action = bot.act(view, rng)
            times.append(time.perf_counter() - start)
            state.apply(action)
    return sum(times) / len(times), max(times)


class Collector:
    """The learner's games: rounds of decisions, each decision kept until its stage ends and gives its margin."""

    def __init__(self, game: Game, games: int, seed: int, candidates: int = 0) -> None:
        self.game = game
        self.games = games
        self.seed = seed
        self.table = table(game, 0, games, seed, candidates)
        self.stage = np.arange(games, dtype=np.int64)
        """Each game's stage, numbered over the whole fit: the index of its margin in ``margins``."""
        self.next_stage = games
        self.margins = np.full(1 << 16, np.nan)
        self.pending: list[tuple[npt.NDArray[np.int16], npt.NDArray[np.int64], npt.NDArray[np.int64],
                                 npt.NDArray[np.int64]]] = []
        self.games_played = 0

    def _on_end(self) -> None:
        t = self.table
        rows, margins, over = t.ended()
        if not len(rows):
            return
        self.margins[self.stage[rows]] = margins
        fresh = np.arange(self.next_stage, self.next_stage + len(rows))
        self.next_stage += len(rows)
        if self.next_stage > len(self.margins):
            self.margins = np.concatenate([self.margins, np.full(max(len(self.margins), len(rows)), np.nan)])
        self.stage[rows] = fresh
        done = rows[over]
        if len(done):
            t.kernel.reset(t.states, t.keys, done)
            self.games_played += len(done)

    def round(self, seat: int, steps: int, policy: Policy) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64],
                                                                      npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """``steps`` decisions in every game with the learner in ``seat``; the decisions whose stage has ended
        (this round's or earlier ones'): observations, heuristic's actions, actions played and stage margins."""
        t = self.table
        t.seat = seat  # the seat changes between rounds: a game in progress goes on with the learner elsewhere
        for _ in range(steps):
            t.advance(self._on_end)
            self._on_end()
            obs, hint, actions = t.decide(policy)
            self.pending.append((obs.astype(np.int16), hint, actions, self.stage.copy()))
            self._on_end()
        obs16 = np.concatenate([p[0] for p in self.pending])
        hints, acts, stages = (np.concatenate([p[i] for p in self.pending]) for i in (1, 2, 3))
        margins = self.margins[stages]
        known = ~np.isnan(margins)
        waiting = ~known
        self.pending = [(obs16[waiting], hints[waiting], acts[waiting], stages[waiting])] if waiting.any() else []
        return obs16[known], hints[known], acts[known], margins[known].astype(np.float32)


class Replay:
    """The latest decisions, a ring of ``size``."""

    def __init__(self, size: int, obs_size: int) -> None:
        self.obs = np.zeros((size, obs_size), np.int16)
        self.hint = np.zeros(size, np.int64)
        self.action = np.zeros(size, np.int64)
        self.target = np.zeros(size, np.float32)
        self.size, self.count, self.at = size, 0, 0

    def add(self, obs: npt.NDArray[np.int16], hint: npt.NDArray[np.int64], action: npt.NDArray[np.int64],
            target: npt.NDArray[np.float32]) -> None:
        rows = (self.at + np.arange(len(obs))) % self.size
        self.obs[rows], self.hint[rows], self.action[rows], self.target[rows] = obs, hint, action, target
        self.at = int((self.at + len(obs)) % self.size)
        self.count = min(self.size, self.count + len(obs))

    def sample(self, rng: np.random.Generator, batch: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64],
                                                                    npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        rows = rng.integers(0, self.count, batch)
        return self.obs[rows], self.hint[rows], self.action[rows], self.target[rows]


def behaviour(network: Callable[[], Network], epsilon: float, heuristic: Callable[[], float],
              rng: np.random.Generator) -> Policy:
    """The learner's play while fitting: a random legal action with chance ``epsilon``, else the heuristic's with
    chance ``heuristic()``, else the network's best (threshold 0: the rating of actions off the heuristic's path is
    learned from the network's own play as well as from the random one)."""

    def policy(obs: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
               hint: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        rows = len(obs)
        draw = rng.random(rows)
        share = heuristic()
        actions = hint.copy()
        own = draw >= epsilon + share * (1 - epsilon)
        if own.any():
            actions[own] = replace(network(), threshold=0.0).choose(obs[own], legal[own], hint[own])
        explore = draw < epsilon
        if explore.any():
            noise = rng.random((int(explore.sum()), legal.shape[1])) * legal[explore]
            actions[explore] = noise.argmax(axis=1)
        playable = legal.any(axis=1)
        return np.where(playable, actions, 0)

    return policy


SEATING = ("dealer", "starter")
"""Options that only say who begins: the network is fitted under the research default but plays under any."""

TARGET_SCALE = 10.0
"""Margins are learned divided by this (the network's outputs times it are points)."""


class Learner:
    """The network being fitted (PyTorch, one thread) and its optimiser."""

    def __init__(self, game: Game, args: argparse.Namespace) -> None:
        import torch

        torch.set_num_threads(1)
        torch.manual_seed(args.seed)
        self.torch = torch
        self.game = game
        self.num_actions = game.num_actions
        self.candidates = int(args.candidates)
        self.scale = scales(game)
        widths = [len(self.scale) + self.num_actions, *(int(w) for w in args.hidden.split(",")), self.num_actions]
        layers: list[Any] = []
        for i in range(len(widths) - 1):
            layers += [torch.nn.Linear(widths[i], widths[i + 1]), torch.nn.ReLU()]
        self.model = torch.nn.Sequential(*layers[:-1])
        self.optimiser = torch.optim.Adam(self.model.parameters(), lr=args.lr)

    def snapshot(self, threshold: float) -> Network:
        """The network as NumPy arrays, its outputs in points."""
        linear = [m for m in self.model if isinstance(m, self.torch.nn.Linear)]
        last = len(linear) - 1
        return Network(
            weights=tuple((m.weight.detach().numpy().T * (TARGET_SCALE if i == last else 1.0)).astype(np.float32)
                          for i, m in enumerate(linear)),
            biases=tuple((m.bias.detach().numpy() * (TARGET_SCALE if i == last else 1.0)).astype(np.float32)
                         for i, m in enumerate(linear)),
            scale=self.scale, target_scale=1.0, game_id=self.game.id, players=self.game.players,
            options={k: v for k, v in self.game.options.items() if k not in SEATING},
            num_actions=self.num_actions, threshold=threshold, candidates=self.candidates)

    def update(self, replay: Replay, rng: np.random.Generator, batch: int, updates: int) -> None:
        """``updates`` steps of Adam on minibatches of ``replay``: the squared error of the action played."""
        torch = self.torch
        for _ in range(updates):
            o, h, a, y = replay.sample(rng, batch)
            x = torch.from_numpy(network_input(o.astype(np.float32), h, self.scale, self.num_actions))
            q = self.model(x).gather(1, torch.from_numpy(a)[:, None])[:, 0]
            loss = torch.nn.functional.mse_loss(q, torch.from_numpy(y))
            self.optimiser.zero_grad()
            loss.backward()
            self.optimiser.step()


@dataclass
class Curve:
    """The held-out checks: each threshold of the network against the heuristic's margins on the same seeds."""

    game: Game
    seeds: range
    thresholds: list[float]
    points: list[dict[str, float]] = field(default_factory=list)
    best: float = -math.inf

    def __post_init__(self) -> None:
        self.heuristic = margins(self.game, None, self.seeds, HELD_OUT)

    def check(self, network: Network, at: dict[str, float]) -> tuple[float, float]:
        """The lower end of the best threshold's interval (the best lower end: a noisy high mean is not chosen over
        a surer one) and that threshold; its point added to the curve."""
        found = []
        for threshold in self.thresholds:
            played = replace(network, threshold=threshold)
            diffs = margins(self.game, played.choose, self.seeds, HELD_OUT, network.candidates) - self.heuristic
            found.append((*interval(diffs), threshold))
        mean, half, threshold = max(found, key=lambda f: f[0] - f[1])  # the best lower end of the interval
        self.points.append({**at, "margin": mean, "half": half, "threshold": threshold})
        print(f"{at['seconds'] / 60:6.1f} min {at['decisions']:>12,.0f} decisions {at['games']:>9,.0f} games: "
              + ", ".join(f"{t:g}: {m:+.2f} ± {h:.2f}" for m, h, t in found), flush=True)
        return mean - half, threshold


def fit(args: argparse.Namespace, out: Path) -> None:
    """Fit for ``args.minutes``, writing the best network so far (on the held-out seeds) to ``out`` and the curve to
    ``args.curve``."""
    rng = np.random.default_rng(args.seed)
    game = _load(args.game, None, FIT_OPTIONS.get(args.game, {}))
    learner = Learner(game, args)
    thresholds = [float(t) for t in args.thresholds.split(",")]
    current = [learner.snapshot(thresholds[0])]
    start = time.perf_counter()
    limit = float(args.minutes) * 60

    def share() -> float:
        passing = 1.0 - (time.perf_counter() - start) / (limit * float(args.heuristic_share))
        return max(float(args.heuristic_floor), passing)

    collector = Collector(game, args.games, args.seed, args.candidates)
    replay = Replay(args.replay, learner.scale.size)
    policy = behaviour(lambda: current[0], args.epsilon, share, rng)
    curve = Curve(game, range(args.eval_seeds), thresholds)
    next_check, decisions, rounds, threshold = 0.0, 0, 0, thresholds[0]
    while True:
        elapsed = time.perf_counter() - start
        if elapsed >= next_check or elapsed >= limit:
            lower, found = curve.check(current[0], {"seconds": elapsed, "decisions": decisions,
                                                   "games": collector.games_played})
            if lower > curve.best and rounds:
                curve.best, threshold = lower, found
                save(replace(current[0], threshold=threshold), out)
            write_curve(args, curve.points)
            next_check = time.perf_counter() - start + args.eval_every
            if elapsed >= limit:
                break
        obs, hint, action, target = collector.round(rounds % game.players, args.steps, policy)
        rounds += 1
        decisions += args.games * args.steps
        replay.add(obs, hint, action, target / TARGET_SCALE)
        learner.update(replay, rng, args.batch, max(1, int(args.reuse * len(obs) / args.batch)))
        current[0] = learner.snapshot(threshold)
    print(f"best lower end of a held-out interval {curve.best:+.2f} (threshold {threshold:g}); written to {out}")


def write_curve(args: argparse.Namespace, curve: list[dict[str, float]]) -> None:
    """The curve as JSON, and as a PNG where ``args.curve`` names one."""
    if args.curve is None:
        return
    args.curve.with_suffix(".json").write_text(json.dumps({"game": args.game, "settings": {
        k: str(v) for k, v in vars(args).items()}, "curve": curve}, indent=1) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    minutes = [p["seconds"] / 60 for p in curve]
    ax.errorbar(minutes, [p["margin"] for p in curve], yerr=[p["half"] for p in curve], fmt="o-", capsize=3)
    ax.axhline(0.0, color="grey", lw=1)
    ax.set_xlabel("minutes of fitting (one thread, nice 19, the busy 2-core machine)")
    ax.set_ylabel("points a game more (held-out deals)")
    ax.set_title(f"learned bot in {args.game} against the heuristic in its seat")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.curve, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=[g for g in ("knizia13", "holzwurm", "three-thirteen")])
    parser.add_argument("--evaluate", action="store_true", help="measure the shipped network, fit nothing")
    parser.add_argument("--seeds", default="0:2000", help="FIRST:END, the paired seeds of --evaluate")
    parser.add_argument("--network", type=Path, help="with --evaluate: a network written by --out, not the shipped one")
    parser.add_argument("--threshold", type=float, help="with --evaluate --network: the threshold to play it under")
    parser.add_argument("--overrules", help="with --evaluate --network: the heuristic's actions (A,B,...) the network "
                                            "may overrule; the heuristic's played where it advises another")
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-clock time to fit for")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=512, help="games played at once")
    parser.add_argument("--steps", type=int, default=32, help="learner decisions per game per round")
    parser.add_argument("--epsilon", type=float, default=0.1, help="chance of a random action")
    parser.add_argument("--heuristic-share", type=float, default=0.3,
                        help="share of the time over which the learner's play passes from the heuristic's to its own")
    parser.add_argument("--heuristic-floor", type=float, default=0.5,
                        help="the chance of the heuristic's action that stays after that")
    parser.add_argument("--hidden", default="256,256", help="hidden layers' widths")
    parser.add_argument("--eval-every", type=float, default=120.0, help="seconds between points of the curve")
    parser.add_argument("--eval-seeds", type=int, default=200, help="held-out seeds of each point of the curve")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--reuse", type=float, default=4.0, help="times each new decision is drawn, on average")
    parser.add_argument("--replay", type=int, default=300_000, help="decisions kept to learn from")
    parser.add_argument("--thresholds", default="0.5,1,2", help="the thresholds tried at each check (points)")
    parser.add_argument("--candidates", type=int, default=0,
                        help="Three Thirteen: the learner's discards only among the heuristic's best N and its own")
    parser.add_argument("--out", type=Path, help="where to write the network (default: the game's data file)")
    parser.add_argument("--curve", type=Path, help="the learning curve's PNG (its JSON beside it)")
    args = parser.parse_args()
    if args.evaluate:
        first, _, end = args.seeds.partition(":")
        evaluate(args.game, range(int(first), int(end)), args)
        return
    cls = game_class(args.game)
    out = args.out or Path(sys.modules[cls.__module__].__file__ or "").parent / MODEL_FILE
    fit(args, out)


def save(network: Network, path: Path) -> None:
    with path.open("wb") as handle:
        np.savez_compressed(handle, **network.to_arrays())  # type: ignore[arg-type]


def load_network(path: Path) -> Network:
    with np.load(path) as saved:
        return from_arrays({name: saved[name] for name in saved.files})


def scales(game: Game) -> npt.NDArray[np.float32]:
    """Each observation value's divisor: its bound (docs/envs.md), at least 1."""
    _, high = encoder_of(game).observation_layout.bounds()
    return np.maximum(np.abs(np.asarray(high, np.float32)), 1.0)


if __name__ == "__main__":
    main()
