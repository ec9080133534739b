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

from dreizehn.bots.learned_kernel import CompiledNetwork, choice, rate_into
from dreizehn.core.kernel import HEURISTIC, RANDOM, Keys, below, next_u64
from dreizehn.core.scaffold import specialise, unbound

NO_WEIGHTS = np.ones((1, 1))
"""The weights of a deal that weighs nothing (:func:`rate` for the games whose ``prepare`` ignores them)."""

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
:func:`_ismcts_template`."""


def rate(rate_worlds: Any, row: npt.NDArray[np.int16], seat: int, actions: list[int], worlds: int, seed: int,
         weights: npt.NDArray[np.float64] = NO_WEIGHTS,
         sweeps: int = 0) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Hints' playouts in a game's kernel (``rate_worlds``, its compiled loop made from :func:`_rating_template`):
    each action's outcomes, the seat's share of the win and its final total, on ``worlds`` worlds drawn from
    ``row`` (``(actions, worlds)`` each), each world dealt by the game's ``prepare`` (with ``weights`` and
    ``sweeps`` where the game weighs its deals)."""
    wins = np.zeros((len(actions), worlds))
    points = np.zeros((len(actions), worlds))
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    rate_worlds(row, seat, np.array(actions, np.int64), worlds, key, wins, points, weights, sweeps)
    return wins, points


UCB_COMPILED_SEARCHES: tuple[dict[str, object], ...] = tuple(
    {"tree": tree, **names} for names in ({"playout": "random"}, {"playout": "heuristic"},
                                          {"value": "learned-bot"}, {"value": "learned-bot-mix"})
    for tree in (False, True))
"""The options of a game's :class:`UcbSearch` (13's and Holzwurm's) that each compile a variant of it, what
:func:`~dreizehn.core.kernel.warm_up` compiles ahead: either playout, and either network-valued leaf, with a tree and
without."""

TREE_BYTES = 256 * 2**20
"""The most memory a search by time gives its tree's child table (an ``int32`` per action a node): it stops there,
before its time is up (Holzwurm's 390 actions: about 170,000 nodes, a second of search or more)."""


def policy_of(playout: str) -> int:
    """The compiled playout policy of the ``ismcts`` option ``playout``: :data:`~dreizehn.core.kernel.HEURISTIC`
    where ``playout`` is ``heuristic``, else :data:`~dreizehn.core.kernel.RANDOM`."""
    return HEURISTIC if playout == "heuristic" else RANDOM


def run(ismcts: Iterations, row: npt.NDArray[np.int16], seat: int, actions: int, iterations: int, c: float,
        scale: float, seed: int, seconds: float | None,
        extra: tuple[object, ...] = ()) -> tuple[list[tuple[int, int, int, float]], int]:
    """Run a game's compiled iterations from ``row`` (made from ``seat``'s view, ``actions`` action numbers) on a new
    tree; the root statistics (per action searched: visits, availability, mean reward) and the iterations run:
    ``iterations`` of them, or as many as ``seconds`` allow (checked after 1, 2, 4, … and then every 256).
    ``extra``: the arguments the iterations take after the tree (a network's arrays, :func:`_valued_template`)."""
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    size = np.ones(1, np.int64)
    if seconds is None:
        tree = new_tree(iterations + 1, actions)
        ismcts(row, seat, iterations, c, scale, key, *tree, size, *extra)
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
            ismcts(row, seat, chunk, c, scale, key, *tree, size, *extra)
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


# -- the loops every game's search shares, compiled per game and variant (dreizehn.core.scaffold) ---------------------

# The names the templates call, bound per game by :class:`UcbSearch` and :func:`rating_loop` (placeholders here).
determinize = apply = legal_into = heuristic_action = random_action = prepare = finish = observe = unbound
value_leaf = descend = unbound
PLAYERS = STAGE = TURN = LAST = TOTALS = ACTIONS = MAX_SEATS = PATH_ROOM = 0
HIGH_WINS = False


def _descend_template(variant: str, tree: bool) -> Callable[..., int]:
    """The template of an iteration's selection and expansion (``root=ucb``), shared by every search's iterations."""

    def descend(s: npt.NDArray[np.int16], stage: int, node: int, depth: int, key: Keys,
                child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
                total: npt.NDArray[np.float64], size: npt.NDArray[np.int64], c: float, mask: npt.NDArray[np.bool_],
                buffer: npt.NDArray[np.int64], path: npt.NDArray[np.int64],
                movers: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
        """Play ``s`` (a determinization of the root, at ``node``, with ``depth`` nodes on the path already: the
        root at 0 and 0) down the tree by :func:`select` among the actions ``legal_into`` sets, to the first node it
        adds (``size[0]`` grew), or to the first child chosen where not ``tree`` (a search flat at the root), or to
        the stage's end; the nodes passed into ``path``, the seat that moved to each into ``movers``; the path's
        new length."""
        variant  # noqa: B018 - the closure's value keys numba's cache (dreizehn.core.scaffold.specialise)
        while s[TURN] >= 0 and s[STAGE] == stage:
            legal_into(s, mask, buffer)
            before = size[0]
            action = select(child, visits, avail, total, node, mask, c, key, size)
            movers[depth] = s[TURN]
            apply(s, action, key)
            node = child[node, action]
            path[depth] = node
            depth += 1
            if size[0] != before or not tree:
                break
        return depth

    return descend


def _ismcts_template(variant: str, policy: int, tree: bool) -> Callable[..., None]:
    """The template of a search's iterations (``root=ucb``)."""

    def ismcts(root: npt.NDArray[np.int16], seat: int, iterations: int, c: float, scale: float, key: Keys,
               child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
               total: npt.NDArray[np.float64], size: npt.NDArray[np.int64]) -> None:  # pragma: no cover - compiled
        """``iterations`` more iterations of the search from ``root`` (a row made from the view of ``seat``, who is
        to move), into the tree's arrays (``size[0]`` nodes in use, room for one more an iteration), each playout by
        ``policy`` (every seat) to the end of the stage from the node expanded, or from the root's child chosen
        where not ``tree`` (a search flat at the root); the root's children hold the statistics of its actions."""
        variant  # noqa: B018 - the closure's value keys numba's cache (dreizehn.core.scaffold.specialise)
        tree  # noqa: B018 - keys the cache: ``descend`` (bound by specialise) holds it
        n = root[PLAYERS]
        stage = root[STAGE]
        mask = np.zeros(ACTIONS, np.bool_)
        buffer = np.empty(ACTIONS, np.int64)
        path = np.empty(PATH_ROOM, np.int64)
        movers = np.empty(PATH_ROOM, np.int64)
        points = np.zeros(MAX_SEATS, np.int64)
        rewards = np.zeros(MAX_SEATS, np.float64)
        s = root.copy()
        for _ in range(iterations):
            s[:] = root
            determinize(s, seat, key)
            depth = descend(s, stage, 0, 0, key, child, visits, avail, total, size, c, mask, buffer, path, movers)
            while s[TURN] >= 0 and s[STAGE] == stage:  # the playout, to the end of the stage
                apply(s, heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key), key)
            for other in range(n):
                points[other] = s[LAST + other]
            margin_rewards(points, n, scale, HIGH_WINS, rewards)
            backup(visits, total, path, movers, depth, rewards)

    return ismcts


def _leaf_template(variant: str, policy: int) -> Callable[..., bool]:
    """The template of the valuation of a leaf by the ``learned`` bot's network (``value=learned-bot``)."""

    def value_leaf(s: npt.NDArray[np.int16], seat: int, stage: int, key: Keys, mask: npt.NDArray[np.bool_],
                   buffer: npt.NDArray[np.int64], observation: npt.NDArray[np.float32],
                   hidden: npt.NDArray[np.float32], rated: npt.NDArray[np.float32], valued: npt.NDArray[np.bool_],
                   points: npt.NDArray[np.float64], w0: npt.NDArray[np.float32], b0: npt.NDArray[np.float32],
                   w1: npt.NDArray[np.float32], b1: npt.NDArray[np.float32], w2: npt.NDArray[np.float32],
                   b2: npt.NDArray[np.float32], divisors: npt.NDArray[np.float32],
                   threshold: float) -> bool:  # pragma: no cover - compiled
        """Play ``s`` on from a leaf until every seat has been valued at a decision of its own: at a seat's first
        decision, the network rates its legal actions from its observation and the heuristic's action, the seat's
        stage margin is the rating of the action the ``learned`` bot chooses (into ``points[seat]``), and that action
        is played; a seat already valued moves by ``policy``. True where every seat was valued; false where the
        stage ended first (its points are then in the row). (``seat``, the searching seat, is not used.)"""
        variant  # noqa: B018 - the closure's value keys numba's cache (dreizehn.core.scaffold.specialise)
        n = s[PLAYERS]
        valued[:] = False
        count = 0
        while s[TURN] >= 0 and s[STAGE] == stage:
            mover = s[TURN]
            if valued[mover]:
                apply(s, heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key), key)
                continue
            legal_into(s, mask, buffer)
            hint = heuristic_action(s, key)
            observe(s, mover, observation)
            rate_into(observation, hint, mask, w0, b0, w1, b1, w2, b2, divisors, hidden, rated)
            action = choice(rated, mask, hint, threshold)
            points[mover] = rated[action]
            valued[mover] = True
            count += 1
            if count == n:
                return True
            apply(s, action, key)
        return False

    return value_leaf


def _mixed_leaf_template(variant: str, policy: int) -> Callable[..., bool]:
    """The template of a playout whose searching seat the ``learned`` bot's network also values
    (``value=learned-bot-mix``)."""

    def value_leaf(s: npt.NDArray[np.int16], seat: int, stage: int, key: Keys, mask: npt.NDArray[np.bool_],
                   buffer: npt.NDArray[np.int64], observation: npt.NDArray[np.float32],
                   hidden: npt.NDArray[np.float32], rated: npt.NDArray[np.float32], valued: npt.NDArray[np.bool_],
                   points: npt.NDArray[np.float64], w0: npt.NDArray[np.float32], b0: npt.NDArray[np.float32],
                   w1: npt.NDArray[np.float32], b1: npt.NDArray[np.float32], w2: npt.NDArray[np.float32],
                   b2: npt.NDArray[np.float32], divisors: npt.NDArray[np.float32],
                   threshold: float) -> bool:  # pragma: no cover - compiled
        """Play ``s`` on from a leaf to the end of the stage by ``policy``, but at the first decision of ``seat``
        (the searching seat): there the network rates its legal actions, ``points[seat]`` is the rating of the
        action the ``learned`` bot chooses, and that action is played. True where ``seat`` was valued so; the
        stage's points are in the row either way (``valued``: not used)."""
        variant  # noqa: B018 - the closure's value keys numba's cache (dreizehn.core.scaffold.specialise)
        found = False
        while s[TURN] >= 0 and s[STAGE] == stage:
            if found or s[TURN] != seat:
                apply(s, heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key), key)
                continue
            legal_into(s, mask, buffer)
            hint = heuristic_action(s, key)
            observe(s, seat, observation)
            rate_into(observation, hint, mask, w0, b0, w1, b1, w2, b2, divisors, hidden, rated)
            action = choice(rated, mask, hint, threshold)
            points[seat] = rated[action]
            found = True
            apply(s, action, key)
        return found

    return value_leaf


def _valued_template(variant: str, policy: int, tree: bool, mix: bool) -> Callable[..., None]:
    """The template of a search's iterations (``root=ucb``) whose leaves the ``learned`` bot's network values
    (``mix``: the searching seat's, beside a playout, :func:`_mixed_leaf_template`)."""

    def ismcts(root: npt.NDArray[np.int16], seat: int, iterations: int, c: float, scale: float, key: Keys,
               child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
               total: npt.NDArray[np.float64], size: npt.NDArray[np.int64], w0: npt.NDArray[np.float32],
               b0: npt.NDArray[np.float32], w1: npt.NDArray[np.float32], b1: npt.NDArray[np.float32],
               w2: npt.NDArray[np.float32], b2: npt.NDArray[np.float32], divisors: npt.NDArray[np.float32],
               threshold: float, share: float) -> None:  # pragma: no cover - compiled
        """As :func:`_ismcts_template`'s iterations, but each leaf is valued by the network (``value_leaf``): each
        seat's reward is the logistic of its rated stage margin, less the mean of every seat's (true margins add up
        to 0), over ``scale``; where the stage ends before every seat is valued, by its points as they are. With
        ``mix``, each leaf is played out and rewarded as :func:`_ismcts_template`'s, but the searching seat's reward
        weighs the logistic of its rated margin over ``scale`` (where it was valued) by ``share`` and the playout's
        by the rest (``share`` is not read without ``mix``)."""
        variant  # noqa: B018
        policy  # noqa: B018 - keys the cache: ``value_leaf`` (bound by specialise) plays it
        mix  # noqa: B018 - keys the cache, as ``policy``
        tree  # noqa: B018 - keys the cache: ``descend`` (bound by specialise) holds it
        n = root[PLAYERS]
        stage = root[STAGE]
        mask = np.zeros(ACTIONS, np.bool_)
        buffer = np.empty(ACTIONS, np.int64)
        path = np.empty(PATH_ROOM, np.int64)
        movers = np.empty(PATH_ROOM, np.int64)
        points = np.zeros(MAX_SEATS, np.float64)
        rewards = np.zeros(MAX_SEATS, np.float64)
        valued = np.zeros(MAX_SEATS, np.bool_)
        observation = np.zeros(divisors.shape[0], np.float32)
        hidden = np.empty((2, b0.shape[0]), np.float32)
        rated = np.zeros(ACTIONS, np.float32)
        s = root.copy()
        for _ in range(iterations):
            s[:] = root
            determinize(s, seat, key)
            depth = descend(s, stage, 0, 0, key, child, visits, avail, total, size, c, mask, buffer, path, movers)
            found = value_leaf(s, seat, stage, key, mask, buffer, observation, hidden, rated, valued, points, w0, b0,
                               w1, b1, w2, b2, divisors, threshold)
            if mix:
                rated_margin = points[seat]
                for other in range(n):
                    points[other] = s[LAST + other]
                margin_rewards(points, n, scale, HIGH_WINS, rewards)
                if found:
                    rewards[seat] = (1.0 - share) * rewards[seat] + share / (1.0 + math.exp(-rated_margin / scale))
            elif found:
                mean = 0.0
                for other in range(n):
                    mean += points[other] / n
                for other in range(n):
                    x = (points[other] - mean) / scale
                    rewards[other] = 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0
            else:
                for other in range(n):
                    points[other] = s[LAST + other]
                margin_rewards(points, n, scale, HIGH_WINS, rewards)
            backup(visits, total, path, movers, depth, rewards)

    return ismcts


def _rating_template(variant: str) -> Callable[..., None]:
    """The template of the hints' rating loop."""

    def rate_worlds(root: npt.NDArray[np.int16], seat: int, actions: npt.NDArray[np.int64], worlds: int, key: Keys,
                    wins: npt.NDArray[np.float64], points: npt.NDArray[np.float64], weights: npt.NDArray[np.float64],
                    sweeps: int) -> None:  # pragma: no cover - compiled
        """Hints (:mod:`dreizehn.play.hints`): on each of ``worlds`` worlds dealt from ``root`` (the view of ``seat``,
        who is to move) by the game's ``prepare`` (with ``weights`` and ``sweeps`` where it weighs its deals), every one
        of ``actions`` followed by the rest of the game as the game's ``finish`` plays it (the hints' player at
        every seat), all actions of a world on the same stream of random numbers; ``seat``'s share of the win and
        final total into ``wins[i, w]`` and ``points[i, w]``."""
        variant  # noqa: B018
        n = root[PLAYERS]
        world = root.copy()
        s = root.copy()
        stream = np.empty(1, np.uint64)
        for w in range(worlds):
            world[:] = root
            prepare(world, seat, key, weights, sweeps)
            first = next_u64(key)
            for i in range(actions.shape[0]):
                s[:] = world
                stream[0] = first
                apply(s, actions[i], stream)
                finish(s, stream)
                wins[i, w] = seat_share(s[TOTALS : TOTALS + n], n, seat, HIGH_WINS)
                points[i, w] = s[TOTALS + seat]

    return rate_worlds


_DESCEND, _ISMCTS, _RATE_WORLDS = _descend_template("", True), _ismcts_template("", RANDOM, True), _rating_template("")
_LEAF, _MIXED_LEAF = _leaf_template("", RANDOM), _mixed_leaf_template("", RANDOM)
_VALUED = _valued_template("", RANDOM, True, False)


def descent(name: str, tree: bool, **names: object) -> Any:
    """An iteration's selection and expansion (``descend``, as the iterations call it) compiled for the game
    ``name`` from its functions and constants: ``legal_into(s, mask, buffer)`` (the actions searched in ``s``),
    ``apply``, ``STAGE`` (where a row holds its stage: a search ends with it) and ``TURN``; a tree grown below the
    root's children where ``tree``."""
    return specialise(_DESCEND, name, names, tree=tree)


def rating_loop(name: str, **names: object) -> Any:
    """The hints' rating loop (``rate_worlds``, as :func:`rate` calls it) compiled for the game ``name`` from its
    functions and constants: ``prepare(s, seat, key, weights, sweeps)`` (deal the cards ``seat`` cannot see),
    ``apply``, ``finish(s, key)`` (play on to the game's end), ``PLAYERS``, ``TOTALS`` and ``HIGH_WINS``."""
    return specialise(_RATE_WORLDS, name, names)


class UcbSearch:
    """A game's compiled ``ismcts`` search with ``root=ucb``, ``horizon=stage`` and ``reward=margin`` (13's and
    Holzwurm's), and its hints' rating loop: the iterations compiled per playout policy and tree from the shared
    template (:func:`dreizehn.core.scaffold.specialise`), each cached apart, so that a random playout carries
    neither a test of the policy nor the heuristic's code."""

    def __init__(self, name: str, row_of_view: Callable[..., npt.NDArray[np.int16]], **names: object) -> None:
        """``names``: the game's ``determinize(s, seat, key)``, ``apply``, ``legal_into``, ``heuristic_action``,
        ``random_action``, ``observe(s, seat, out)`` (the research observation, what the ``learned`` bot's network
        reads), ``prepare`` and ``finish`` (:func:`rating_loop`), and its constants ``PLAYERS``,
        ``STAGE``, ``TURN``, ``LAST``, ``TOTALS``, ``ACTIONS``, ``MAX_SEATS``, ``PATH_ROOM`` (more than the plays of
        a stage) and ``HIGH_WINS``."""
        self.row_of_view = row_of_view
        self.actions = int(names["ACTIONS"])  # type: ignore[call-overload]
        descents = {tree: descent(name, tree, **names) for tree in (False, True)}
        self.iterations = {(policy, tree): specialise(_ISMCTS, name, {**names, "descend": descents[tree]},
                                                      policy=policy, tree=tree)
                           for policy in (RANDOM, HEURISTIC) for tree in (False, True)}
        leaves = {(policy, mix): specialise(_MIXED_LEAF if mix else _LEAF, name, names, policy=policy)
                  for policy in (RANDOM, HEURISTIC) for mix in (False, True)}
        self.valued = {(policy, tree, mix): specialise(_VALUED, name, {**names, "value_leaf": leaves[policy, mix],
                                                                      "descend": descents[tree]},
                                                       policy=policy, tree=tree, mix=mix)
                       for policy in (RANDOM, HEURISTIC) for tree in (False, True) for mix in (False, True)}
        """The iterations whose leaves the ``learned`` bot's network values (``value=learned-bot``), compiled on
        first use."""
        self.rate_worlds = rating_loop(name, **names)

    def search(self, empty: npt.NDArray[np.int16], view: Any, iterations: int, c: float, scale: float, seed: int,
               seconds: float | None = None, playout: str = "random", tree: bool = True,
               network: CompiledNetwork | None = None,
               mix: float | None = None) -> tuple[list[tuple[int, int, int, float]], int]:
        """The root statistics of a search from ``view`` (per action searched: visits, availability, mean reward)
        and the iterations run: ``iterations`` of them, or as many as ``seconds`` allow (:func:`run`); its playouts
        ``random`` or by the ``heuristic``, below a tree grown where ``tree`` (else flat at the root); with a
        ``network`` (``value=learned-bot``), each leaf valued by it at every seat's next decision instead of played
        out (:func:`_valued_template`), the moves between those by the playout's policy; with ``mix`` as well
        (``value=learned-bot-mix``), each leaf played out and the searching seat's reward its rating's by the share
        ``mix`` (0 to 1), the playout's by the rest."""
        row = self.row_of_view(empty, view)
        if network is None:
            return run(self.iterations[policy_of(playout), tree], row, view.seat, self.actions, iterations, c, scale,
                       seed, seconds)
        return run(self.valued[policy_of(playout), tree, mix is not None], row, view.seat, self.actions, iterations, c,
                   scale, seed, seconds, (*network.arrays(), 0.0 if mix is None else mix))

    def rate(self, empty: npt.NDArray[np.int16], view: Any, actions: list[int], worlds: int,
             seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each action's outcomes on ``worlds`` worlds drawn from ``view`` (:func:`rate`)."""
        return rate(self.rate_worlds, self.row_of_view(empty, view), view.seat, actions, worlds, seed)
