"""``benchmarks/distill_three_thirteen.py``'s labels: at each labelled decision the candidates are the draw and the
take, or the heuristic's best two discards and its own action (what the learned bot narrows to at play); the target of
the heuristic's own action is 0 and the others' the search's mean reward less its, in points."""

from __future__ import annotations

import math
import time

import numpy as np
from benchmark_scripts import load

from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, OUT, TAKE

distill = load("distill_three_thirteen")


def test_the_labels_compare_the_candidates_with_the_heuristics_action_on_the_same_searches() -> None:
    obs, hints, masks, targets = distill.label((range(0, 1), 40, 1.0, time.time() + 600))
    assert len(obs) == len(hints) == len(masks) == len(targets) > 30
    draws = discards = 0
    for hint, mask, target in zip(hints, masks, targets, strict=True):
        chosen = set(np.flatnonzero(mask))
        assert hint in chosen and target[hint] == 0.0 and np.all(target[~mask] == 0.0)
        if chosen == {DRAW, TAKE}:
            draws += 1
        else:
            assert all(DISCARD <= a < OUT for a in chosen) and 2 <= len(chosen) <= 3
            discards += 1
        assert all(math.isfinite(float(target[a])) and abs(float(target[a])) < 100 for a in chosen)
    assert draws > 10 and discards > 10 and np.any(targets != 0.0)
