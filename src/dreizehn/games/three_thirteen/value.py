"""A learned estimate of a Three Thirteen hand's penalty points at the round's end (``ismcts:value=learned``): what
a rollout cut off after ``cutoff`` actions counts for each hand, where the hand-made estimate counts its penalty
points as they stand (:func:`.search.leaf_points`).

Each seat's hand at a turn boundary is described by a few numbers (:func:`features`: its fewest penalty points now,
its meld potential, its wild cards, how far the round has gone, whether someone went out and whether the seat still
has a turn, the hand's size and the players), and a small network (one hidden layer of :data:`HIDDEN` rectified
units) maps them to the penalty points the hand is left with when the round ends. It is fitted by least squares to
rounds of the ``heuristic`` bot against itself, the rollouts' own player, so it estimates what a rollout to the end
would score, without playing it. ``python -m dreizehn.games.three_thirteen.value --games N --seed S`` plays the games
and fits the network anew from the seed alone, writing :mod:`.value_model` (``--network learned-large``:
:mod:`.value_model_large`; ``--out FILE``: elsewhere); it prints each player count's error on held-out rounds beside
the shipped networks'. Two are shipped (:data:`NETWORKS`): ``learned``, fitted at 2 to 4 players
(:mod:`.value_model`), and ``learned-large``, fitted at 5 to 8 (:mod:`.value_model_large`).
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Sequence
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.kernel import Keys, next_u64
from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen.kernel import (
    ACES_HIGH,
    DRAWN,
    HANDS,
    LAST,
    LIMIT,
    OUT_ORDER,
    PLAYED,
    PLAYERS,
    ROUND,
    STOCK_N,
    TURN,
    TURNS_LEFT,
    ThreeThirteenKernel,
    _get2,
    _set2,
    _uniform,
    apply,
    new_game,
    penalty,
)
from dreizehn.games.three_thirteen.kernel_heuristic import action as heuristic_action
from dreizehn.games.three_thirteen.kernel_heuristic import potential
from dreizehn.games.three_thirteen.rules import KINDS, ThreeThirteenRules

FEATURES = 12
PLAYER_COUNT = 8
"""The feature that holds the player count ``n``, as ``(n - 2) / 6`` (:func:`features`, :func:`player_counts`)."""
HIDDEN = 32
ROUND_TURNS = 200
"""The turns a self-play round may last (as :data:`.search.PLAYOUT_TURNS`)."""


@nb.njit(cache=True)
def features(s: npt.NDArray[np.int16], seat: int, out: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """The numbers that describe the hand of ``seat`` at a turn boundary (no card drawn), into ``out``."""
    n = int(s[PLAYERS])
    size = int(s[ROUND]) + 3
    counts = np.zeros(KINDS, np.int64)
    wilds = 0
    for k in range(KINDS):
        counts[k] = s[HANDS + seat * KINDS + k]
        if k % 13 + 1 == size:
            wilds += counts[k]
    points = penalty(s, seat)
    ahead = (seat - int(s[TURN])) % n
    left = int(s[TURNS_LEFT])
    out[0] = points / 20.0
    out[1] = potential(counts, size, s[ACES_HIGH] != 0) / 5.0
    out[2] = wilds
    out[3] = _get2(s, PLAYED) / (10.0 * n)
    out[4] = 1.0 if left >= 0 else 0.0
    out[5] = 1.0 if 0 <= ahead < left else 0.0
    out[6] = ahead / max(1, n - 1)
    out[7] = size / 13.0
    out[PLAYER_COUNT] = (n - 2) / 6.0
    out[9] = 1.0 if points == 0 else 0.0
    out[10] = s[STOCK_N] / 52.0
    out[11] = points * size / 260.0


@nb.njit(cache=True)
def predict(x: npt.NDArray[np.float64], w1: npt.NDArray[np.float64], b1: npt.NDArray[np.float64],
            w2: npt.NDArray[np.float64], b2: float) -> float:  # pragma: no cover - compiled
    """The network's estimate for the features ``x``."""
    y = b2
    for j in range(w1.shape[1]):
        h = b1[j]
        for i in range(w1.shape[0]):
            h += x[i] * w1[i, j]
        if h > 0.0:
            y += h * w2[j]
    return y


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


NETWORKS: dict[str, str] = {"learned": "value_model", "learned-large": "value_model_large"}
"""The shipped networks by the name ``ismcts:value=`` gives them, and their modules: ``learned`` fitted at 2 to 4
players, ``learned-large`` at 5 to 8."""


def network(name: str = "learned") -> npt.NDArray[np.float64]:
    """The shipped network ``name`` (:data:`NETWORKS`) as one flat array, as :func:`predict_flat` reads it."""
    module = importlib.import_module(f"dreizehn.games.three_thirteen.{NETWORKS[name]}")
    return np.array(module.WEIGHTS, np.float64)


@nb.njit(cache=True)
def predict_flat(x: npt.NDArray[np.float64], net: npt.NDArray[np.float64]) -> float:  # pragma: no cover - compiled
    """:func:`predict` with the network flat (:func:`network`): the first layer's weights by feature, its biases,
    the second layer's weights, its bias."""
    at = FEATURES * HIDDEN
    return predict(x, net[:at].reshape((FEATURES, HIDDEN)), net[at : at + HIDDEN],
                   net[at + HIDDEN : at + 2 * HIDDEN], net[at + 2 * HIDDEN])


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
    numbers = ",\n".join(f"    {v:+.6f}" for v in flat)
    command = f"--games {args.games} --seed {args.seed} --players {args.players}"
    command += "" if args.network == "learned" else f" --network {args.network}"
    path.write_text(
        f'''"""The network of :mod:`.value`, written by
``python -m dreizehn.games.three_thirteen.value {command}``
(do not edit).

Fitted on {samples:,} samples (a hand at a turn boundary, the points it was left with when its round ended). On
held-out rounds its mean squared error is {losses[0]:.2f} points², against {losses[1]:.2f} for the mean and
{losses[2]:.2f} for the hand's points as they stand.
"""

WEIGHTS = (
{numbers},
)
''')


def main(argv: Sequence[str] | None = None) -> None:
    """Play, fit and write :mod:`.value_model`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="self-play games at each player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--network", choices=list(NETWORKS), default="learned", help="the shipped network to write")
    parser.add_argument("--out", type=Path, help="write the network here instead")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = Path(__file__).with_name(f"{NETWORKS[args.network]}.py")
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
