"""The search tree of the ``ismcts`` bot in compiled code, for the games whose kernel searches
(:mod:`dreizehn.core.kernel`, docs/bots.md): the same SO-ISMCTS as :mod:`dreizehn.bots.ismcts`, its nodes in arrays.

A tree is four arrays over node numbers (node 0 is the root): ``child[node, action]`` (the child's number, or -1),
``visits``, ``avail`` (the visits of the parent in which the action was legal) and ``total`` (the rewards summed, of
the seat that moved into the node). Each game's kernel runs the iterations (determinize, descend, play out) and calls
these for the tree's bookkeeping, so that the rule of selection, expansion and backup is written once; :func:`run`
spends a search's budget (iterations or seconds) on a game's compiled iterations.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.kernel import HEURISTIC, RANDOM, Keys, below

Tree = tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]


def new_tree(nodes: int, actions: int) -> Tree:
    """An empty tree with room for ``nodes`` nodes (one per iteration and the root)."""
    child = np.full((nodes, actions), -1, np.int32)
    return child, np.zeros(nodes, np.int32), np.ones(nodes, np.int32), np.zeros(nodes, np.float64)


@nb.njit(cache=True)
def select(child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
           total: npt.NDArray[np.float64], node: int, mask: npt.NDArray[np.bool_], c: float, key: Keys,
           size: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The action taken at ``node`` among those legal in ``mask``: while some have no child, one of them at random
    (its child made: ``size[0]`` nodes are in use); otherwise the child maximising ``mean + c * sqrt(ln(avail) /
    visits)``. Every existing child legal here gains one availability, as in :mod:`dreizehn.bots.ismcts`."""
    untried = 0
    best = -1
    best_value = -1.0
    for action in range(mask.shape[0]):
        if not mask[action]:
            continue
        k = child[node, action]
        if k < 0:
            untried += 1
            continue
        avail[k] += 1
        if not untried:
            value = total[k] / visits[k] + c * math.sqrt(math.log(avail[k]) / visits[k])
            if value > best_value:
                best_value = value
                best = action
    if not untried:
        return best
    pick = below(key, untried)
    for action in range(mask.shape[0]):
        if mask[action] and child[node, action] < 0:
            if pick == 0:
                child[node, action] = size[0]
                size[0] += 1
                return action
            pick -= 1
    return -1


@nb.njit(cache=True)
def margin_rewards(points: npt.NDArray[np.int64] | npt.NDArray[np.float64], players: int, scale: float,
                   high_wins: bool, out: npt.NDArray[np.float64]) -> None:  # pragma: no cover - compiled
    """Each seat's reward for the points of the horizon: the logistic of its advantage over the mean of the others
    (``reward=margin`` of :mod:`dreizehn.bots.ismcts`)."""
    total = 0
    for seat in range(players):
        total += points[seat]
    for seat in range(players):
        d = points[seat] * players - total
        if not high_wins:
            d = -d
        x = d / (scale * (players - 1))
        out[seat] = 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


@nb.njit(cache=True)
def seat_share(totals: npt.NDArray[np.int16], players: int, seat: int, high_wins: bool) -> float:  # pragma: no cover
    """``seat``'s share of the win for a finished game's ``totals``: 1, ``1/k`` for a win shared by ``k``, or 0
    (the engine's ``returns()``)."""
    best = totals[0]
    for other in range(1, players):
        best = max(best, totals[other]) if high_wins else min(best, totals[other])
    if totals[seat] != best:
        return 0.0
    tied = 0
    for other in range(players):
        tied += totals[other] == best
    return 1.0 / tied


@nb.njit(cache=True)
def backup(visits: npt.NDArray[np.int32], total: npt.NDArray[np.float64], path: npt.NDArray[np.int64],
           movers: npt.NDArray[np.int64], depth: int, rewards: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """Add one visit and the mover's reward to every node of the path, and a visit to the root."""
    visits[0] += 1
    for i in range(depth):
        visits[path[i]] += 1
        total[path[i]] += rewards[movers[i]]


Iterations = Callable[..., None]
"""A game's compiled iterations: ``(root, seat, iterations, c, scale, key, child, visits, avail, total, size)``, as
:func:`dreizehn.games.knizia13.search.ismcts`."""


def rate(rate_worlds: Any, row: npt.NDArray[np.int16], seat: int, actions: list[int], worlds: int,
         seed: int, *extra: Any) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Hints' playouts in a game's kernel (``rate_worlds``, its compiled loop, given ``extra`` after its outputs):
    each action's outcomes, the seat's share of the win and its final total, on ``worlds`` worlds drawn from
    ``row`` (``(actions, worlds)`` each)."""
    wins = np.zeros((len(actions), worlds))
    points = np.zeros((len(actions), worlds))
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    rate_worlds(row, seat, np.array(actions, np.int64), worlds, key, wins, points, *extra)
    return wins, points


TREE_BYTES = 256 * 2**20
"""The most memory a search by time gives its tree's child table (an ``int32`` per action a node): it stops there,
before its time is up (Holzwurm's 390 actions: about 170,000 nodes, a second of search or more)."""


def policy_of(playout: str) -> int:
    """The compiled playout policy of the ``ismcts`` option ``playout``: :data:`~dreizehn.core.kernel.HEURISTIC`
    where ``playout`` is ``heuristic``, else :data:`~dreizehn.core.kernel.RANDOM`."""
    return HEURISTIC if playout == "heuristic" else RANDOM


def with_playout(ismcts: Iterations, playout: str, tree: bool) -> Iterations:
    """A game's compiled iterations that take their playout policy (:func:`policy_of`) and whether the tree grows
    below the root last (after the tree's arrays and its size), as :func:`run` calls them."""
    policy = policy_of(playout)

    def iterate(*args: object) -> None:
        ismcts(*args, policy, tree)

    return iterate


def run(ismcts: Iterations, row: npt.NDArray[np.int16], seat: int, actions: int, iterations: int, c: float,
        scale: float, seed: int, seconds: float | None) -> tuple[list[tuple[int, int, int, float]], int]:
    """Run a game's compiled iterations from ``row`` (made from ``seat``'s view, ``actions`` action numbers) on a new
    tree; the root statistics (per action searched: visits, availability, mean reward) and the iterations run:
    ``iterations`` of them, or as many as ``seconds`` allow (checked after 1, 2, 4, … and then every 256)."""
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    size = np.ones(1, np.int64)
    if seconds is None:
        tree = new_tree(iterations + 1, actions)
        ismcts(row, seat, iterations, c, scale, key, *tree, size)
        done = iterations
    else:
        deadline = time.perf_counter() + seconds
        tree = new_tree(4097, actions)
        done = 0
        most = max(4097, TREE_BYTES // (4 * actions))
        while not done or time.perf_counter() < deadline:
            chunk = min(256, max(1, done))  # 1, 1, 2, 4, ...: a budget of 0 s runs one iteration
            if size[0] + chunk > len(tree[1]):
                if 2 * len(tree[1]) > most:
                    break  # the tree is as large as a search by time may make it
                tree = grown(tree)
            ismcts(row, seat, chunk, c, scale, key, *tree, size)
            done += chunk
    child, visits, avail, total = tree
    stats = [(a, int(visits[k]), int(avail[k]), float(total[k] / visits[k]) if visits[k] else 0.0)
             for a, k in enumerate(child[0]) if k >= 0]
    return stats, done


def grown(tree: Tree) -> Tree:
    """The same tree with room for twice as many nodes."""
    child, visits, avail, total = tree
    bigger = new_tree(2 * len(child), child.shape[1])
    n = len(child)
    bigger[0][:n], bigger[1][:n], bigger[2][:n], bigger[3][:n] = child, visits, avail, total
    return bigger
