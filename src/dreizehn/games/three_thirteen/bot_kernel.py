"""Three Thirteen's kernel with the ``heuristic`` bot as its heuristic policy: the same rules and rows as
:mod:`.kernel`, but ``choose``, ``advance`` and ``playout`` with policy ``HEURISTIC`` play the bot's decisions
compiled (:func:`.kernel_heuristic.action`, ties drawn from the game's key) instead of the search's greedy playout
player (:func:`.kernel.heuristic_action`).

The other games' kernels play their heuristic bot under ``HEURISTIC`` already; Three Thirteen's kept the greedy player
there, which the search's playouts and the batched environment's opponents use (docs/vector.md). This kernel is for
what must play against, or beside, the bot people meet: the ``learned`` bot's fitting and its paired evaluation
(``benchmarks/fit_learned.py``, docs/learned.md). It also plays the ``learned`` bot itself compiled
(:func:`learned_action`), the search's rollouts of ``ismcts:playout=learned-bot``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.bots.learned import Floats
from dreizehn.bots.learned_kernel import NetworkArrays, choice, rate_into
from dreizehn.core.kernel import HEURISTIC, Keys
from dreizehn.core.scaffold import batch_functions
from dreizehn.games.three_thirteen.kernel import (
    ACTIONS,
    LIMIT,
    TURN,
    ThreeThirteenKernel,
    _get2,
    _set2,
    apply,
    legal,
    legal_into,
    new_game,
    observe,
    random_action,
)
from dreizehn.games.three_thirteen.kernel_heuristic import action, discard_scores
from dreizehn.games.three_thirteen.rules import DISCARD, KINDS, OUT, ThreeThirteenRules

Scratch = tuple[Floats, Floats, Floats, npt.NDArray[np.bool_], npt.NDArray[np.float64]]
"""The scratch arrays of :func:`learned_action` (:func:`new_scratch`)."""


@nb.njit(cache=True)
def playout(s: npt.NDArray[np.int16], key: Keys, policy: int) -> None:  # pragma: no cover - compiled
    """Play the game to its end, every seat at random or as the heuristic bot."""
    while s[TURN] >= 0:
        apply(s, action(s, key) if policy == HEURISTIC else random_action(s, key), key)


@nb.njit(cache=True)
def narrow_one(s: npt.NDArray[np.int16], hint: int, best: int, mask: npt.NDArray[np.bool_],
               scores: npt.NDArray[np.float64]) -> None:  # pragma: no cover - compiled
    """:func:`narrow_to_best` for one state ``s`` and its legal ``mask`` (``scores``: scratch of :data:`KINDS`)."""
    if mask[OUT:].any():
        mask[:] = False
        mask[hint] = True
        return
    if not mask[DISCARD:OUT].any():
        return
    discard_scores(s, scores)
    keep = np.zeros(KINDS, np.bool_)
    for _ in range(best):
        top = -1
        for k in range(KINDS):
            if not keep[k] and scores[k] > -np.inf and (top < 0 or scores[k] > scores[top]):
                top = k
        if top >= 0:
            keep[top] = True
    if not DISCARD <= hint < OUT or not keep[hint - DISCARD]:
        keep[:] = False  # advice the ranking does not back (a discard at random, to end a stalemate): alone
        keep[hint - DISCARD] = True
    for k in range(KINDS):
        mask[DISCARD + k] = mask[DISCARD + k] and keep[k]


@nb.njit(cache=True)
def narrow_to_best(states: npt.NDArray[np.int16], hints: npt.NDArray[np.int64], best: int,
                   legal: npt.NDArray[np.bool_]) -> None:  # pragma: no cover - compiled
    """Narrow ``legal`` where the seat to move is to discard and cannot go out to the heuristic's ``best`` discards
    (in the order of :func:`.heuristic.rank`: its scores, ties by the lower action) where its action ``hints`` is
    one of them, else to that action alone (a discard at random, to end a stalemate), and where it can go out to
    the heuristic's way out, as the learned bot plays them; the draws are left as they are."""
    scores = np.empty(KINDS, np.float64)
    for i in range(len(states)):
        if states[i][TURN] >= 0:
            narrow_one(states[i], hints[i], best, legal[i], scores)


@nb.njit(cache=True)
def learned_action(s: npt.NDArray[np.int16], key: Keys, network: NetworkArrays, candidates: int, scratch: Scratch,
                   bounded: bool) -> int:  # pragma: no cover - compiled
    """The ``learned`` bot's action in ``s`` (:meth:`LearnedBot.act <dreizehn.bots.learned.LearnedBot.act>`), its
    heuristic's advice by :func:`.kernel_heuristic.action` (ties drawn from ``key``): that advice where the seat has
    one legal action or can go out, else the network's choice (``network``: the arrays of
    :meth:`~dreizehn.bots.learned_kernel.CompiledNetwork.arrays`) among the legal actions, a discard among the
    heuristic's best ``candidates`` (0: all) where its advice is one of them; ``scratch``: :func:`new_scratch`.
    With ``bounded`` the row's turn limit is a search's bound on a game that has none (:func:`.search.bounded_row`),
    and the network sees the observation of that game: no limit (it was fitted without one)."""
    observation, hidden, rated, mask, scores = scratch
    hint = action(s, key)
    legal(s, mask)
    if mask.sum() <= 1 or mask[OUT:].any():
        return hint
    if candidates:
        narrow_one(s, hint, candidates, mask, scores)
    limit = _get2(s, LIMIT)
    if bounded:
        _set2(s, LIMIT, 0)
    observe(s, s[TURN], observation)
    _set2(s, LIMIT, limit)
    w0, b0, w1, b1, w2, b2, divisors, threshold = network
    rate_into(observation, hint, mask, w0, b0, w1, b1, w2, b2, divisors, hidden, rated)
    return choice(rated, mask, hint, threshold)


@nb.njit(cache=True)
def new_scratch(network: NetworkArrays) -> Scratch:  # pragma: no cover - compiled
    """The scratch arrays of :func:`learned_action` for ``network``: the observation, the hidden layers, the
    ratings, a legal mask and the discards' scores."""
    b0, divisors = network[1], network[6]
    return (np.zeros(divisors.shape[0], np.float32), np.zeros((2, b0.shape[0]), np.float32),
            np.zeros(ACTIONS, np.float32), np.zeros(ACTIONS, np.bool_), np.zeros(KINDS, np.float64))


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
