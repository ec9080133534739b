"""A learned estimate of a Three Thirteen hand's penalty points at the round's end (``ismcts:value=learned``): what
a rollout cut off after ``cutoff`` actions counts for each hand, where the hand-made estimate counts its penalty
points as they stand (:func:`.search.leaf_points`).

Each seat's hand at a turn boundary is described by a few numbers (:func:`features`: its fewest penalty points now,
its meld potential, its wild cards, how far the round has gone, whether someone went out and whether the seat still
has a turn, the hand's size and the players), and a small network (one hidden layer of :data:`HIDDEN` rectified
units) maps them to the penalty points the hand is left with when the round ends. It is fitted by least squares to
rounds of the ``heuristic`` bot against itself, the rollouts' own player, so it estimates what a rollout to the end
would score, without playing it. Two networks are shipped (:data:`NETWORKS`), as data files beside this module
loaded at import: ``learned``, fitted at 2 to 4 players (``value_model.json``), and ``learned-large``, fitted at 5 to
8 (``value_model_large.json``). The fitting is no part of the runtime package: ``python benchmarks/fit_value.py
--games N --seed S`` (docs/bots.md) plays the games and fits the network anew from the seed alone, writing the file
(``--network learned-large``: the large one; ``--out FILE``: elsewhere), and prints each player count's error on
held-out rounds beside the shipped networks'.
"""

from __future__ import annotations

import json
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.games.three_thirteen.kernel import (
    ACES_HIGH,
    HANDS,
    PLAYED,
    PLAYERS,
    ROUND,
    STOCK_N,
    TURN,
    TURNS_LEFT,
    _get2,
    penalty,
)
from dreizehn.games.three_thirteen.kernel_heuristic import potential
from dreizehn.games.three_thirteen.rules import KINDS

FEATURES = 12
PLAYER_COUNT = 8
"""The feature that holds the player count ``n``, as ``(n - 2) / 6`` (:func:`features`)."""
HIDDEN = 32


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


NETWORKS: dict[str, str] = {"learned": "value_model.json", "learned-large": "value_model_large.json"}
"""The shipped networks by the name ``ismcts:value=`` gives them, and their files beside this module (package data:
the fitting command that wrote each, what it was fitted on, and its weights): ``learned`` fitted at 2 to 4 players,
``learned-large`` at 5 to 8."""


def _load(file: str) -> npt.NDArray[np.float64]:
    with (Path(__file__).parent / file).open(encoding="utf-8") as f:
        weights = np.array(json.load(f)["weights"], np.float64)
    assert weights.shape == (FEATURES * HIDDEN + 2 * HIDDEN + 1,), f"{file} holds no network of this shape"
    return weights


_WEIGHTS = {name: _load(file) for name, file in NETWORKS.items()}


def network(name: str = "learned") -> npt.NDArray[np.float64]:
    """The shipped network ``name`` (:data:`NETWORKS`, loaded at import) as one flat array, as :func:`predict_flat`
    reads it."""
    return _WEIGHTS[name].copy()


@nb.njit(cache=True)
def predict_flat(x: npt.NDArray[np.float64], net: npt.NDArray[np.float64]) -> float:  # pragma: no cover - compiled
    """:func:`predict` with the network flat (:func:`network`): the first layer's weights by feature, its biases,
    the second layer's weights, its bias."""
    at = FEATURES * HIDDEN
    return predict(x, net[:at].reshape((FEATURES, HIDDEN)), net[at : at + HIDDEN],
                   net[at + HIDDEN : at + 2 * HIDDEN], net[at + 2 * HIDDEN])


