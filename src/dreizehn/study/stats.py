"""Small statistics for measuring bots: win rates with confidence intervals, means and spreads.

>>> low, high = wilson_interval(40, 100)
>>> round(low, 4), round(high, 4)
(0.3094, 0.498)
>>> mean_sd([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
(5.0, 2.138089935299395)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dreizehn.core.errors import SimulationError

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default). ``wins`` may be fractional (shared wins).

    For no games the interval is the whole range (0, 1).
    """
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= games:
        raise SimulationError("stats.wins", rule="C6", wins=wins, games=games)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, 0.0)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, math.sqrt(variance))


def ranks(scores: Sequence[float], high_wins: bool) -> list[float]:
    """Competition ranks from 1 (best); tied scores share the mean of their places.

    >>> ranks([10, 30, 10, 20], high_wins=False)
    [1.5, 4.0, 1.5, 3.0]
    """
    order = sorted(range(len(scores)), key=lambda i: -scores[i] if high_wins else scores[i])
    out = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        shared = (i + j) / 2 + 1
        for k in range(i, j + 1):
            out[order[k]] = shared
        i = j + 1
    return out
