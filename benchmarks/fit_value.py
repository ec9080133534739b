"""Fit the learned value of a Three Thirteen hand (:mod:`dreizehn.games.three_thirteen.value`,
``ismcts:value=learned``): self-play rounds of the ``heuristic`` bot, a small network fitted to them by least squares,
written as the game's data file that the runtime package loads (``value_model.json``; ``--network learned-large``:
``value_model_large.json``; ``--out FILE``: elsewhere).

``python benchmarks/fit_value.py --games N --seed S [--players 2,3,4]`` writes the same network from the same seed,
and prints each player count's error on held-out rounds beside the shipped networks'. The fitting lives here, with
the lab's other scripts, not in the runtime package: a game needs the weights, never the code that fitted them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dreizehn.core.kernel import Keys, next_u64
from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen import value
from dreizehn.games.three_thirteen.kernel import (
    DRAWN,
    LAST,
    LIMIT,
    OUT_ORDER,
    PLAYERS,
    ROUND,
    TURN,
    ThreeThirteenKernel,
    _set2,
    _uniform,
    apply,
    new_game,
)
from dreizehn.games.three_thirteen.kernel_heuristic import action as heuristic_action
from dreizehn.games.three_thirteen.rules import ThreeThirteenRules
from dreizehn.games.three_thirteen.value import FEATURES, HIDDEN, NETWORKS, PLAYER_COUNT, features, network

ROUND_TURNS = 200
"""The turns a self-play round may last (as :data:`dreizehn.games.three_thirteen.search.PLAYOUT_TURNS`)."""


@nb.njit(cache=True)
def _self_play(header: npt.NDArray[np.int16], games: int, key: Keys, keep: float, x: npt.NDArray[np.float64],
               y: npt.NDArray[np.float64], group: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Play ``games`` games of the heuristic against itself from ``header``; at each turn boundary, with chance
    ``keep``, each hand still held: its features into ``x`` and, when its round ends, its points into ``y``; the
    round's number into ``group``. The samples written."""
    s = header.copy()
    m = 0
    rounds = 0
    start = 0
    buf = np.zeros(FEATURES, np.float64)
    seats = np.zeros(x.shape[0], np.int64)
    for _ in range(games):
        new_game(s, key)
        while s[TURN] >= 0:
            stage = s[ROUND]
            if not s[DRAWN] and _uniform(key) < keep:
                for seat in range(s[PLAYERS]):
                    if s[OUT_ORDER + seat] or m >= x.shape[0]:
                        continue
                    features(s, seat, buf)
                    x[m, :] = buf
                    seats[m] = seat
                    group[m] = rounds
                    m += 1
            apply(s, heuristic_action(s, key), key)
            if s[TURN] < 0 or s[ROUND] != stage:
                for i in range(start, m):
                    y[i] = s[LAST + seats[i]]
                start = m
                rounds += 1
    return start


def collect(games: int, seed: int, players: Sequence[int], keep: float = 0.2
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Features, final points and round numbers from ``games`` self-play games at each count of ``players``."""
    xs, ys, gs = [], [], []
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    offset = 0
    for n in players:
        game = load_game("three-thirteen", n)
        assert isinstance(game, ThreeThirteenRules)
        header = ThreeThirteenKernel(game).new(1)[0]
        _set2(header, LIMIT, ROUND_TURNS)
        room = int(games * 11 * n * ROUND_TURNS * keep / 4) + 1000
        x = np.zeros((room, FEATURES))
        y = np.zeros(room)
        g = np.zeros(room, np.int64)
        m = _self_play(header, games, key, keep, x, y, g)
        xs.append(x[:m])
        ys.append(y[:m])
        gs.append(g[:m] + offset)
        offset += int(g[:m].max()) + 1 if m else 0
        next_u64(key)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], seed: int, epochs: int = 12,
        batch: int = 256, rate: float = 3e-3) -> tuple[npt.NDArray[np.float64], ...]:
    """The network's weights fitted to ``x`` and ``y`` by least squares (Adam, mini-batches), from ``seed``."""
    rng = np.random.default_rng(seed)
    f = x.shape[1]
    params = [rng.normal(0, np.sqrt(2 / f), (f, HIDDEN)), np.zeros(HIDDEN),
              rng.normal(0, np.sqrt(1 / HIDDEN), HIDDEN), np.array([y.mean()])]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for at in range(0, len(y), batch):
            idx = order[at : at + batch]
            xb, yb = x[idx], y[idx]
            pre = xb @ params[0] + params[1]
            h = np.maximum(pre, 0.0)
            err = (h @ params[2] + params[3][0] - yb) / len(yb)
            dh = np.outer(err, params[2]) * (pre > 0)
            grads = [xb.T @ dh, dh.sum(0), h.T @ err, np.array([err.sum()])]
            step += 1
            for p, g, mo, sq in zip(params, grads, moments, squares, strict=True):
                mo *= 0.9
                mo += 0.1 * g
                sq *= 0.999
                sq += 0.001 * g * g
                p -= rate * (mo / (1 - 0.9**step)) / (np.sqrt(sq / (1 - 0.999**step)) + 1e-8)
    return tuple(params)


def estimate(x: npt.NDArray[np.float64], params: Sequence[npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
    """The network's estimates for the rows of ``x``."""
    out: npt.NDArray[np.float64] = np.maximum(x @ params[0] + params[1], 0.0) @ params[2] + params[3][0]
    return out




def unflatten(net: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    """The flat network (:func:`network`) as :func:`estimate` takes it: the layers' weights and biases."""
    at = FEATURES * HIDDEN
    return (net[:at].reshape((FEATURES, HIDDEN)), net[at : at + HIDDEN], net[at + HIDDEN : at + 2 * HIDDEN],
            net[at + 2 * HIDDEN : at + 2 * HIDDEN + 1])


def player_counts(x: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The player count of each row of features (the inverse of :func:`features`' :data:`PLAYER_COUNT`)."""
    return np.rint(x[:, PLAYER_COUNT] * 6 + 2).astype(np.int64)


def errors_by_count(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
                    nets: Sequence[Sequence[npt.NDArray[np.float64]]]) -> dict[int, tuple[int, list[float]]]:
    """Per player count (read from the features): the rows, and each network's mean squared error on them followed
    by the error of their mean."""
    counts = player_counts(x)
    table = {}
    for n in sorted(set(counts.tolist())):
        rows = counts == n
        errors = [float(np.mean((estimate(x[rows], net) - y[rows]) ** 2)) for net in nets]
        table[n] = (int(rows.sum()), [*errors, float(np.var(y[rows]))])
    return table


def _write(path: Path, params: Sequence[npt.NDArray[np.float64]], args: argparse.Namespace, samples: int,
           losses: tuple[float, float, float]) -> None:
    flat = np.concatenate([p.ravel() for p in params])
    command = f"python benchmarks/fit_value.py --games {args.games} --seed {args.seed} --players {args.players}"
    command += "" if args.network == "learned" else f" --network {args.network}"
    about = (f"Fitted on {samples:,} samples (a hand at a turn boundary, the points it was left with when its round "
             f"ended). On held-out rounds its mean squared error is {losses[0]:.2f} points\u00b2, against "
             f"{losses[1]:.2f} for the mean and {losses[2]:.2f} for the hand's points as they stand.")
    data = {"command": command, "about": about, "weights": [float(f"{v:.6f}") for v in flat]}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    """Play, fit and write a network (the shipped ``value_model.json`` by default)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="self-play games at each player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--network", choices=list(NETWORKS), default="learned", help="the shipped network to write")
    parser.add_argument("--out", type=Path, help="write the network here instead")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = Path(value.__file__).with_name(NETWORKS[args.network])
    began = time.perf_counter()
    x, y, g = collect(args.games, args.seed, [int(p) for p in args.players.split(",")])
    held = g % 5 == 0
    print(f"{len(y):,} samples in {time.perf_counter() - began:.0f} s")
    params = fit(x[~held], y[~held], args.seed)
    losses = (float(np.mean((estimate(x[held], params) - y[held]) ** 2)),
              float(np.mean((y[~held].mean() - y[held]) ** 2)),
              float(np.mean((x[held, 0] * 20 - y[held]) ** 2)))
    print("held out, mean squared error: {:.2f} (network), {:.2f} (mean), {:.2f} (points as they stand)".format(
        *losses))
    _write(args.out, params, args, int((~held).sum()), losses)
    print("held out, mean squared error by player count (this fit, the shipped networks, the mean):")
    print(f"players  {'hands':>9}  this fit  {'  '.join(NETWORKS)}  the mean")
    table = errors_by_count(x[held], y[held], [params, *(unflatten(network(name)) for name in NETWORKS)])
    for n, (hands, errors) in table.items():
        print(f"{n:7d}  {hands:9,d}  " + "  ".join(f"{e:8.2f}" for e in errors))


if __name__ == "__main__":
    main()
