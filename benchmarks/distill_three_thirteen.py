"""Distil Three Thirteen's search into the ``learned`` bot's network, and measure it against the heuristic.

``python benchmarks/distill_three_thirteen.py --minutes M --out FILE`` plays 2-player games of the heuristic against
itself (the options the ``learned`` bot is fitted at, ``fit_learned.FIT_OPTIONS``) and, at a share of the decisions
where the bot may choose (a draw: draw or take; a discard with no way out: the heuristic's two best discards and its
own, as ``--candidates 2`` narrows them), asks the search the ``expert`` level plays (rollouts of the heuristic cut
off after 8 actions and valued by the learned value, dealt by inference) for each candidate's mean reward, on the
same determinizations for all of them. A candidate's target is its mean less the heuristic action's, times 100
(about points of the round's margin: the reward is the margin's logistic at scale 25). The same network as
``fit_learned.py``'s (the observation and the heuristic's action in, a rating per action out) is fitted to those
differences by least squares, so that it rates each candidate as the search would at a few milliseconds a move. The
held-out checks of ``fit_learned.py`` choose its threshold and write it where ``--out`` says; ``fit_learned.py
three-thirteen --evaluate --network FILE`` measures it on the published deals. docs/learned.md gives the figures.

Where ``fit_learned.py``'s Deep Monte-Carlo learns from one game's outcome a decision, with the whole luck of the
round in each target, a target here compares the candidates on the same deals and the same random numbers (the
search's common random numbers), so most of the luck cancels in it.
"""

from __future__ import annotations

import argparse
import copy
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from benchmarks.fit_learned import FIT_OPTIONS, TARGET_SCALE, Curve, Learner, save, scales
from dreizehn.bots.base import make_bot
from dreizehn.bots.learned import network_input
from dreizehn.core.encoding import encoder_of
from dreizehn.core.kernel import load_kernel
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.heuristic import rank
from dreizehn.games.three_thirteen.rules import DRAW, TAKE

GAME = "three-thirteen"
CANDIDATES = 2
"""The heuristic's best discards a discard is chosen among (with its own), as ``--candidates 2`` narrows them."""
SEARCH = {"cutoff": 8, "playout": "heuristic", "infer": True, "value": "learned"}
"""The search's options: those of the 2-player ``expert`` level (its iterations are ``--iterations``)."""
POINTS = 100.0
"""A reward of 0.01 is about one point of the round's margin (the logistic at scale 25, near its middle)."""


def candidates(view: ThreeThirteenView, hint: int) -> list[int] | None:
    """The actions the bot may choose at ``view``, or ``None`` where it plays the heuristic's (a way out, one
    action)."""
    legal = view.legal_actions
    if not view.drawn:
        return [DRAW, TAKE] if DRAW in legal and TAKE in legal else None
    ranked = rank(view)
    if ranked is None or len(ranked) < 2:
        return None
    return sorted({*ranked[:CANDIDATES], hint})


def label(job: tuple[range, int, float, float]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64],
                                                          npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
    """The labelled decisions of the games of ``seeds`` (until ``deadline``): observations, the heuristic's actions,
    the candidates (a mask) and each candidate's target."""
    seeds, iterations, share, deadline = job
    game = dreizehn.load_game(GAME, 2, FIT_OPTIONS[GAME])
    kernel, encoder, heuristic = load_kernel(game), encoder_of(game), make_bot("heuristic", game)
    obs: list[npt.NDArray[np.int16]] = []
    hints: list[int] = []
    masks: list[npt.NDArray[np.bool_]] = []
    targets: list[npt.NDArray[np.float32]] = []
    for seed in seeds:
        if time.time() > deadline:
            break
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            assert isinstance(view, ThreeThirteenView)
            hint = heuristic.act(view, rng)
            chosen = candidates(view, hint)
            if chosen is not None and rng.random() < share:
                stats, _ = kernel.search(view, iterations, 0.7, 25.0, rng.getrandbits(63),  # type: ignore[attr-defined]
                                         keep=frozenset(chosen), **SEARCH)
                means = {a: mean for a, _, _, mean in stats}
                mask = np.zeros(game.num_actions, np.bool_)
                target = np.zeros(game.num_actions, np.float32)
                for a in chosen:
                    mask[a], target[a] = True, POINTS * (means[a] - means[hint])
                obs.append(np.asarray(encoder.observation(view), np.int16))
                hints.append(hint)
                masks.append(mask)
                targets.append(target)
            state.apply(hint)
    if not obs:
        size, actions = len(scales(game)), game.num_actions
        return (np.zeros((0, size), np.int16), np.zeros(0, np.int64), np.zeros((0, actions), np.bool_),
                np.zeros((0, actions), np.float32))
    return np.stack(obs), np.array(hints, np.int64), np.stack(masks), np.stack(targets)


def collect(args: argparse.Namespace) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64], npt.NDArray[np.bool_],
                                               npt.NDArray[np.float32]]:
    """Labelled decisions from ``args.jobs`` processes for ``args.minutes`` of wall-clock time, seeds from
    ``args.seed`` on (100 games a job, as many jobs as the time allows)."""
    deadline = time.time() + 60 * args.minutes
    jobs = [(range(args.seed + 100 * i, args.seed + 100 * (i + 1)), args.iterations, args.share, deadline)
            for i in range(10_000)]
    parts = []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for part in pool.imap(label, jobs):
            if len(part[0]):
                parts.append(part)
            if time.time() > deadline:
                pool.terminate()
                break
    obs, hints, masks, targets = (np.concatenate([p[i] for p in parts]) for i in range(4))
    print(f"{len(obs):,} decisions labelled in {args.minutes:g} minutes ({args.jobs} processes)", flush=True)
    return obs, hints, masks, targets


def fit(learner: Learner, data: tuple[npt.NDArray[np.int16], npt.NDArray[np.int64], npt.NDArray[np.bool_],
                                      npt.NDArray[np.float32]], args: argparse.Namespace) -> None:
    """Adam on the candidates' rating less the heuristic action's, against their targets (least squares), for
    ``args.epochs`` passes; the held-out tenth's error printed after each, and the network of the pass with the
    least kept (the error rises again once it fits the labels' noise)."""
    torch = learner.torch
    obs, hints, masks, targets = data
    x = torch.from_numpy(network_input(obs.astype(np.float32), hints, learner.scale, learner.num_actions))
    h, m = torch.from_numpy(hints), torch.from_numpy(masks)
    y = torch.from_numpy(targets / TARGET_SCALE)
    order = np.random.default_rng(args.seed).permutation(len(obs))
    held, train = order[: len(obs) // 10], order[len(obs) // 10 :]

    def loss(rows: npt.NDArray[np.int64]) -> Any:
        out = learner.model(x[rows])
        advantage = out - out.gather(1, h[rows, None])
        return (((advantage - y[rows]) ** 2) * m[rows]).sum() / m[rows].sum()

    best: tuple[float, dict[str, Any]] = (float("inf"), copy.deepcopy(learner.model.state_dict()))
    for epoch in range(args.epochs):
        np.random.default_rng(args.seed + epoch).shuffle(train)
        for start in range(0, len(train), args.batch):
            value = loss(train[start : start + args.batch])
            learner.optimiser.zero_grad()
            value.backward()
            learner.optimiser.step()
        with torch.no_grad():
            error = float(loss(held)) * TARGET_SCALE ** 2
        print(f"pass {epoch + 1}: held-out error {error:.3f} points²", flush=True)
        if error < best[0]:
            best = (error, copy.deepcopy(learner.model.state_dict()))
    learner.model.load_state_dict(best[1])
    print(f"kept the network of the least held-out error, {best[0]:.3f} points² (predicting no difference: "
          f"{float((y[held][m[held]] ** 2).mean()) * TARGET_SCALE ** 2:.3f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=40.0, help="wall-clock time to label decisions for")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=300, help="the search's iterations a decision")
    parser.add_argument("--share", type=float, default=0.5, help="the share of the decisions labelled")
    parser.add_argument("--seed", type=int, default=6_000_000)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hidden", default="256,256")
    parser.add_argument("--thresholds", default="0,0.5,1,2")
    parser.add_argument("--eval-seeds", type=int, default=400, help="held-out seeds choosing the threshold")
    parser.add_argument("--data", type=Path, nargs="+", help="labelled decisions: read from these files if the "
                                                             "first exists, else collected and written there")
    parser.add_argument("--out", type=Path, required=True, help="where to write the network")
    args = parser.parse_args()
    if args.data is not None and args.data[0].exists():
        parts = []
        for path in args.data:
            with np.load(path) as saved:
                parts.append((saved["obs"], saved["hints"], saved["masks"], saved["targets"]))
        obs, hints, masks, targets = (np.concatenate([p[i] for p in parts]) for i in range(4))
        data = (obs.astype(np.int16), hints.astype(np.int64), masks.astype(np.bool_), targets.astype(np.float32))
    else:
        data = collect(args)
        if args.data is not None:
            np.savez_compressed(args.data[0], obs=data[0], hints=data[1], masks=data[2], targets=data[3])
    game = dreizehn.load_game(GAME, 2, FIT_OPTIONS[GAME])
    learner = Learner(game, argparse.Namespace(seed=args.seed, hidden=args.hidden, lr=args.lr, candidates=CANDIDATES))
    fit(learner, data, args)
    curve = Curve(game, range(args.eval_seeds), [float(t) for t in args.thresholds.split(",")])
    lower, threshold = curve.check(learner.snapshot(0.0), {"seconds": 0.0, "decisions": float(len(data[0])),
                                                          "games": 0.0})
    save(learner.snapshot(threshold), args.out)
    print(f"threshold {threshold:g} (held-out lower end {lower:+.2f}); written to {args.out}")


if __name__ == "__main__":
    main()
