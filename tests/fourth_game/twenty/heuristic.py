"""Twenty's heuristic: the highest card that keeps the pile at 20 or under, else the lowest card."""

from __future__ import annotations

import random

from dreizehn.core.game import View
from twenty.game import LIMIT, VALUE, TwentyView


def act(view: View, rng: random.Random) -> int:
    """Play safe and high; when nothing is safe, give the pile as little as possible."""
    assert isinstance(view, TwentyView)
    room = LIMIT - sum(VALUE[card] for card in view.pile)
    safe = [int(a) for a in view.legal_actions if VALUE[a] <= room]
    if safe:
        return max(safe, key=lambda a: (VALUE[a], rng.random()))
    return min((int(a) for a in view.legal_actions), key=lambda a: (VALUE[a], rng.random()))
