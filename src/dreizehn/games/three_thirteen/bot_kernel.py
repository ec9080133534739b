"""Three Thirteen's kernel with the ``heuristic`` bot as its heuristic policy: the same rules and rows as
:mod:`.kernel`, but ``choose``, ``advance`` and ``playout`` with policy ``HEURISTIC`` play the bot's decisions
compiled (:func:`.kernel_heuristic.action`, ties drawn from the game's key) instead of the search's greedy playout
player (:func:`.kernel.heuristic_action`).

The other games' kernels play their heuristic bot under ``HEURISTIC`` already; Three Thirteen's kept the greedy player
there, which the search's playouts and the batched environment's opponents use (docs/vector.md). This kernel is for
what must play against, or beside, the bot people meet: the ``learned`` bot's fitting and its paired evaluation
(``benchmarks/fit_learned.py``, docs/learned.md).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.kernel import HEURISTIC, Keys
from dreizehn.core.scaffold import batch_functions
from dreizehn.games.three_thirteen.kernel import (
    ACTIONS,
    TURN,
    ThreeThirteenKernel,
    apply,
    legal_into,
    new_game,
    observe,
    random_action,
)
from dreizehn.games.three_thirteen.kernel_heuristic import action, discard_scores
from dreizehn.games.three_thirteen.rules import DISCARD, KINDS, OUT, ThreeThirteenRules


@nb.njit(cache=True)
def playout(s: npt.NDArray[np.int16], key: Keys, policy: int) -> None:  # pragma: no cover - compiled
    """Play the game to its end, every seat at random or as the heuristic bot."""
    while s[TURN] >= 0:
        apply(s, action(s, key) if policy == HEURISTIC else random_action(s, key), key)


@nb.njit(cache=True)
def narrow_to_best(states: npt.NDArray[np.int16], hints: npt.NDArray[np.int64], best: int,
                   legal: npt.NDArray[np.bool_]) -> None:  # pragma: no cover - compiled
    """Narrow ``legal`` where the seat to move is to discard and cannot go out to the heuristic's ``best`` discards
    (in the order of :func:`.heuristic.rank`: its scores, ties by the lower action) where its action ``hints`` is
    one of them, else to that action alone (a discard at random, to end a stalemate), and where it can go out to
    the heuristic's way out, as the learned bot plays them; the draws are left as they are."""
    scores = np.empty(KINDS, np.float64)
    for i in range(len(states)):
        s = states[i]
        if s[TURN] < 0:
            continue
        if legal[i, OUT:].any():
            legal[i, :] = False
            legal[i, hints[i]] = True
            continue
        if not legal[i, DISCARD:OUT].any():
            continue
        discard_scores(s, scores)
        keep = np.zeros(KINDS, np.bool_)
        for _ in range(best):
            top = -1
            for k in range(KINDS):
                if not keep[k] and scores[k] > -np.inf and (top < 0 or scores[k] > scores[top]):
                    top = k
            if top >= 0:
                keep[top] = True
        if not DISCARD <= hints[i] < OUT or not keep[hints[i] - DISCARD]:
            keep[:] = False  # advice the ranking does not back (a discard at random, to end a stalemate): alone
            keep[hints[i] - DISCARD] = True
        for k in range(KINDS):
            legal[i, DISCARD + k] = legal[i, DISCARD + k] and keep[k]


BATCHES = batch_functions("three-thirteen-bot", new_game=new_game, apply=apply, legal_into=legal_into,
                          observe=observe, heuristic_action=action, random_action=random_action, playout=playout,
                          TURN=TURN, ACTIONS=ACTIONS)
"""The batch functions of :class:`BotKernel`, compiled from the shared templates."""


class BotKernel(ThreeThirteenKernel):
    """Three Thirteen's kernel whose ``HEURISTIC`` policy is the ``heuristic`` bot's."""

    batches = BATCHES


def make(game: ThreeThirteenRules) -> BotKernel:
    """The kernel of ``game`` (its player count and options), the heuristic bot as its heuristic policy."""
    return BotKernel(game)
