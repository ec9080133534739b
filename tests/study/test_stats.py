"""The statistics behind the bot tables, checked against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from dreizehn.study.stats import mean_sd, ranks, wilson_interval


def test_wilson_hand_computed() -> None:
    # p = 0.5, n = 10: centre 0.5, half width 1.96 * sqrt(0.025 + 0.00960) / 1.38415 = 0.26341
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.23659, abs=1e-4) and high == pytest.approx(0.76341, abs=1e-4)
    # p = 0, n = 10: the interval still has width: (0, 0.27754)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.27754, abs=1e-4)
    # p = 0.4, n = 100
    low, high = wilson_interval(40, 100)
    assert low == pytest.approx(0.30940, abs=1e-4) and high == pytest.approx(0.49800, abs=1e-4)
    # shared wins are fractions; the interval is symmetric under p -> 1 - p
    a, b = wilson_interval(12.5, 40)
    c, d = wilson_interval(27.5, 40)
    assert a == pytest.approx(1 - d) and b == pytest.approx(1 - c)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_wilson_narrows_with_games() -> None:
    widths = [wilson_interval(n * 0.3, n)[1] - wilson_interval(n * 0.3, n)[0] for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] == pytest.approx(2 * 1.96 * math.sqrt(0.3 * 0.7 / 10000), rel=1e-2)


def test_mean_sd_hand_computed() -> None:
    assert mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert mean_sd([3]) == (3.0, 0.0) and mean_sd([]) == (0.0, 0.0)


def test_ranks() -> None:
    assert ranks([10, 30, 10, 20], high_wins=False) == [1.5, 4.0, 1.5, 3.0]
    assert ranks([10, 30, 10, 20], high_wins=True) == [3.5, 1.0, 3.5, 2.0]
    assert ranks([5, 5, 5], high_wins=True) == [2.0, 2.0, 2.0]
