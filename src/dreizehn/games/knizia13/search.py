"""The ``ismcts`` bot's search for 13 in compiled code (:mod:`dreizehn.bots.tree`, docs/bots.md): determinizations
drawn from a seat's view, selection and expansion in the tree, playouts to the end of the stage, the margin reward;
the same algorithm as :mod:`dreizehn.bots.ismcts` with ``root=ucb``, ``horizon=stage``, ``reward=margin`` and random
playouts (13's defaults) or the heuristic's (``playout=heuristic``, flat at the root or below a tree with
``tree=on``), at tens of times its speed.

A view becomes a kernel row (:func:`row_of_view`): what the seat sees is copied, and the cards it cannot see (the
other hands and the stock) are put in any order; each iteration deals those anew at random (:func:`determinize`),
uniformly over what the seat cannot tell apart, as ``Game.sample_state`` does.
"""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.bots.tree import Iterations, backup, margin_rewards, policy_of, run, seat_share, select
from dreizehn.bots.tree import rate as tree_rate
from dreizehn.core.kernel import HEURISTIC, RANDOM, Keys, next_u64, pick_legal, shuffle
from dreizehn.games.knizia13.kernel import (
    ACTIONS,
    CARDS,
    DEALER,
    HAND_SIZES,
    HANDS,
    KINDS,
    LAST,
    MAX_SEATS,
    PLAYERS,
    PLAYS,
    STAGE,
    STOCK,
    STOCK_N,
    SUMS,
    TAKEN,
    TAKEN_SIZES,
    TARGET_LEN,
    TARGET_ROOM,
    TARGETS,
    TOTALS,
    TURN,
    apply,
    heuristic_action,
    legal,
    playout,
)
from dreizehn.games.knizia13.rules import DECK, Knizia13View, replay_plays, stage_plays


def row_of_view(empty: npt.NDArray[np.int16], view: Knizia13View) -> npt.NDArray[np.int16]:
    """A kernel row (made from ``empty``, a new row of the game) that agrees with everything ``view`` shows; the
    unseen cards are in the other hands and the stock in an arbitrary order (:func:`determinize` deals them)."""
    s = empty.copy()
    n = view.players
    s[TURN], s[DEALER], s[STAGE] = view.current_player, view.dealer, view.stage
    stage_log = stage_plays(view)
    s[PLAYS] = len(stage_log)
    targets, sums, taken = replay_plays(stage_log, n)
    unseen = Counter(DECK)
    for t, cards in enumerate(targets):
        s[SUMS + t], s[TARGET_LEN + t] = sums[t], len(cards)
        s[TARGETS + t * TARGET_ROOM : TARGETS + t * TARGET_ROOM + len(cards)] = cards
        unseen.subtract(cards)
    for seat, pile in enumerate(taken):
        for kind in pile:
            s[TAKEN + seat * KINDS + kind] += 1
        s[TAKEN_SIZES + seat] = len(pile)
        unseen.subtract(pile)
    for seat, points in enumerate(view.totals):
        s[TOTALS + seat] = points
    for card in view.hand:
        s[HANDS + view.seat * KINDS + int(card)] += 1
        unseen[int(card)] -= 1
    pool = sorted(unseen.elements())
    for seat in range(n):
        s[HAND_SIZES + seat] = view.hand_sizes[seat]
        if seat != view.seat:
            for kind in pool[: view.hand_sizes[seat]]:
                s[HANDS + seat * KINDS + kind] += 1
            del pool[: view.hand_sizes[seat]]
    s[STOCK : STOCK + len(pool)] = pool
    s[STOCK_N] = len(pool)
    return s


@nb.njit(cache=True)
def determinize(s: npt.NDArray[np.int16], seat: int, key: Keys) -> None:  # pragma: no cover - compiled
    """Deal the cards ``seat`` cannot see (the other hands and the stock) anew, uniformly at random."""
    n = s[PLAYERS]
    pool = np.empty(CARDS, np.int16)
    count = 0
    for other in range(n):
        if other == seat:
            continue
        for kind in range(KINDS):
            for _ in range(s[HANDS + other * KINDS + kind]):
                pool[count] = kind
                count += 1
            s[HANDS + other * KINDS + kind] = 0
    for j in range(s[STOCK_N]):
        pool[count] = s[STOCK + j]
        count += 1
    shuffle(key, pool, count)
    at = 0
    for other in range(n):
        if other == seat:
            continue
        for _ in range(s[HAND_SIZES + other]):
            s[HANDS + other * KINDS + pool[at]] += 1
            at += 1
    for j in range(s[STOCK_N]):
        s[STOCK + j] = pool[at + j]


def compiled_iterations(policy: int, tree: bool) -> Iterations:
    """The search's iterations compiled for one playout ``policy`` (:data:`~dreizehn.core.kernel.RANDOM` or
    :data:`~dreizehn.core.kernel.HEURISTIC`, every seat) and one ``tree`` (grown below the root, or a search flat at
    the root), both fixed when compiled, so a random playout carries neither a test of the policy nor the heuristic's
    code; each of the four is compiled and cached apart (:data:`ISMCTS`). With both chosen at run time the random
    playouts' search ran at 0.94 times the speed it has so (282,000 iterations a second against 299,000, CPU time,
    five runs each alternating on the idle machine); the statistics are the same, number for number."""

    @nb.njit(cache=True)
    def ismcts(root: npt.NDArray[np.int16], seat: int, iterations: int, c: float, scale: float, key: Keys,
               child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
               total: npt.NDArray[np.float64], size: npt.NDArray[np.int64]) -> None:  # pragma: no cover - compiled
        """``iterations`` more iterations of the search from ``root`` (a row made by :func:`row_of_view` for
        ``seat``, who is to move), into the tree's arrays (``size[0]`` nodes in use, room for one more an
        iteration), each playout from the node expanded, or from the root's child chosen where not ``tree``; the
        root's children hold the statistics of its actions."""
        n = root[PLAYERS]
        stage = root[STAGE]
        mask = np.zeros(ACTIONS, np.bool_)
        path = np.empty(CARDS + 1, np.int64)
        movers = np.empty(CARDS + 1, np.int64)
        points = np.zeros(MAX_SEATS, np.int64)
        rewards = np.zeros(MAX_SEATS, np.float64)
        s = root.copy()
        for _ in range(iterations):
            s[:] = root
            determinize(s, seat, key)
            node = 0
            depth = 0
            while s[TURN] >= 0 and s[STAGE] == stage:  # selection and expansion
                legal(s, mask)
                before = size[0]
                action = select(child, visits, avail, total, node, mask, c, key, size)
                movers[depth] = s[TURN]
                apply(s, action, key)
                node = child[node, action]
                path[depth] = node
                depth += 1
                if size[0] != before or not tree:
                    break
            while s[TURN] >= 0 and s[STAGE] == stage:  # the playout, to the end of the stage
                if policy == HEURISTIC:
                    apply(s, heuristic_action(s, key), key)
                else:
                    legal(s, mask)
                    apply(s, pick_legal(key, mask), key)
            for other in range(n):
                points[other] = s[LAST + other]
            margin_rewards(points, n, scale, False, rewards)
            backup(visits, total, path, movers, depth, rewards)

    return ismcts


ISMCTS = {(policy, tree): compiled_iterations(policy, tree) for policy in (RANDOM, HEURISTIC) for tree in (False, True)}
"""The search's compiled iterations by playout policy and tree (:func:`compiled_iterations`)."""


@nb.njit(cache=True)
def rate_worlds(root: npt.NDArray[np.int16], seat: int, actions: npt.NDArray[np.int64], worlds: int, key: Keys,
                wins: npt.NDArray[np.float64], points: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """Hints (:mod:`dreizehn.play.hints`): on each of ``worlds`` determinizations of ``root`` (the view of ``seat``, who
    is to move), every one of ``actions`` followed by the rest of the game with every seat playing the heuristic,
    all actions of a world on the same stream of random numbers; ``seat``'s share of the win and final total into
    ``wins[i, w]`` and ``points[i, w]``."""
    n = root[PLAYERS]
    world = root.copy()
    s = root.copy()
    stream = np.empty(1, np.uint64)
    for w in range(worlds):
        world[:] = root
        determinize(world, seat, key)
        first = next_u64(key)
        for i in range(actions.shape[0]):
            s[:] = world
            stream[0] = first
            apply(s, actions[i], stream)
            playout(s, stream, HEURISTIC)
            wins[i, w] = seat_share(s[TOTALS : TOTALS + n], n, seat, False)
            points[i, w] = s[TOTALS + seat]


def rate(empty: npt.NDArray[np.int16], view: Knizia13View, actions: list[int], worlds: int,
         seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each action's outcomes on ``worlds`` worlds drawn from ``view`` (:func:`dreizehn.bots.tree.rate`)."""
    return tree_rate(rate_worlds, row_of_view(empty, view), view.seat, actions, worlds, seed)


def search(empty: npt.NDArray[np.int16], view: Knizia13View, iterations: int, c: float, scale: float, seed: int,
           seconds: float | None = None, playout: str = "random",
           tree: bool = True) -> tuple[list[tuple[int, int, int, float]], int]:
    """The root statistics of a search from ``view`` (per action searched: visits, availability, mean reward) and
    the iterations run: ``iterations`` of them, or as many as ``seconds`` allow (:func:`dreizehn.bots.tree.run`);
    its playouts ``random`` or by the ``heuristic``, below a tree grown where ``tree`` (else flat at the root)."""
    return run(ISMCTS[policy_of(playout), tree], row_of_view(empty, view), view.seat, ACTIONS, iterations, c, scale,
               seed, seconds)
