"""The ``ismcts`` bot's search for Three Thirteen in compiled code (:mod:`dreizehn.bots.tree`, docs/bots.md): the
same algorithm as :mod:`dreizehn.bots.ismcts` with Three Thirteen's defaults, at several times its speed.

* ``root=paired``: each determinization plays every root action searched, each followed by the same stream of
  random numbers (the selection's draws, the playout's and any reshuffle's); each counts as one iteration, and the
  budget is spent in whole determinizations.
* Eager actions: where going out is legal, only the ways out are searched (at every node, the root included).
* The root may be narrowed to the actions in ``keep`` (the bot's ``prune``: the heuristic's best discards, ranked in
  Python by :func:`.heuristic.rank`).
* Playouts by the greedy player (:func:`.kernel.heuristic_action`, ``playout=greedy``), at random
  (:func:`.kernel.random_action`, ``playout=random``), or with no tree below the root by the ``heuristic`` bot
  (:mod:`.kernel_heuristic`, ``playout=heuristic``) or the ``learned`` bot (:func:`.bot_kernel.learned_action`,
  ``playout=learned-bot``), to the end of the round; with ``cutoff`` > 0, after that many
  playout actions, at the next turn boundary (no card drawn), the round is scored as if it ended there: each hand at
  its fewest penalty points (:func:`.kernel.penalty`, the meld solver), 0 for a seat that went out.
* ``horizon=stage`` (the round), ``reward=margin``.

A view becomes a kernel row (:func:`row_of_view`): what the seat sees is copied (its hand, the discard pile, the
cards known in each hand, T13, the melds laid, the stock's size and, after a reshuffle, its stock candidates); the
cards it cannot see are in no hand and not in the stock. Each iteration deals them anew (:func:`determinize`) as
``ThreeThirteenRules.sample_state`` does: the known cards stay in their hands, the rest of the other hands and the
stock (in its order) are dealt uniformly from the unseen cards, the stock from the seat's stock candidates after a
reshuffle.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.bots.learned import shipped
from dreizehn.bots.learned_kernel import NetworkArrays, shipped_compiled
from dreizehn.bots.search_options import ROLLOUTS
from dreizehn.bots.tree import TREE_BYTES, backup, descent, grown, margin_rewards, new_tree, rating_loop
from dreizehn.bots.tree import rate as tree_rate
from dreizehn.core.kernel import HEURISTIC, RANDOM, Keys, below, next_u64, shuffle
from dreizehn.core.scaffold import specialise, unbound
from dreizehn.games.three_thirteen.bot_kernel import Scratch, learned_action, new_scratch
from dreizehn.games.three_thirteen.inference import SWEEPS, log_weights
from dreizehn.games.three_thirteen.kernel import (
    ACES_HIGH,
    ACTIONS,
    CANDIDATES,
    DEALER,
    DECKS,
    DRAWN,
    HAND_SIZES,
    HANDS,
    KNOWN,
    LAID,
    LAST,
    LAST_ACTION,
    LIMIT,
    MAX_SEATS,
    OUT_ORDER,
    OUTS_OK,
    OUTS_SEEN,
    PILE_N,
    PLAYED,
    PLAYERS,
    RESHUFFLED,
    ROUND,
    STOCK,
    STOCK_N,
    TAKEN,
    TOTALS,
    TURN,
    TURNS_LEFT,
    _get2,
    _set2,
    _uniform,
    apply,
    heuristic_action,
    legal,
    penalty,
    random_action,
)
from dreizehn.games.three_thirteen.kernel_heuristic import action as heuristic_rollout_action
from dreizehn.games.three_thirteen.kernel_heuristic import choices, potential, takes
from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, KINDS, OUT, TAKE, ThreeThirteenView
from dreizehn.games.three_thirteen.value import FEATURES, features, network, predict_flat

Stats = list[tuple[int, int, int, float]]
ROLLOUT = 2
"""The playout policy of ``playout=heuristic``: every seat plays as the ``heuristic`` bot does
(:mod:`.kernel_heuristic`), from the root action on (no tree below the root unless asked)."""
LEARNED = 3
"""The playout policy of ``playout=learned-bot``: every seat plays as the ``learned`` bot does
(:func:`.bot_kernel.learned_action`: the heuristic's advice unless its network rates another candidate higher by
its threshold), from the root action on (no tree below the root unless asked)."""
NO_NETWORK: NetworkArrays = (np.zeros((0, 0), np.float32), np.zeros(0, np.float32), np.zeros((0, 0), np.float32),
                       np.zeros(0, np.float32), np.zeros((0, 0), np.float32), np.zeros(0, np.float32),
                       np.zeros(0, np.float32), 0.0)
"""The network argument of the policies that read none."""


def row_of_view(empty: npt.NDArray[np.int16], view: ThreeThirteenView) -> npt.NDArray[np.int16]:
    """A kernel row (made from ``empty``, a new row of the game) that agrees with everything ``view`` shows; the
    cards the seat cannot see are nowhere in it until :func:`determinize` deals them."""
    s = empty.copy()
    seat = view.seat
    s[TURN], s[DEALER], s[ROUND], s[DRAWN] = view.current_player, view.dealer, view.stage, view.drawn
    s[TURNS_LEFT] = view.turns_left
    _set2(s, PLAYED, view.turns_played)
    for other, points in enumerate(view.totals):
        s[TOTALS + other] = points
    if view.stage_scores:
        for other, points in enumerate(view.stage_scores[-1]):
            s[LAST + other] = points
    for other in range(view.players):
        s[HAND_SIZES + other] = view.hand_sizes[other]
        for card in view.known[other]:
            s[KNOWN + other * KINDS + card] += 1
            if other != seat:
                s[HANDS + other * KINDS + card] += 1
        for meld in view.out_melds[other]:
            for card in meld:
                s[LAID + other * KINDS + card] += 1
    for card in view.hand:
        s[HANDS + seat * KINDS + card] += 1
    for order, other in enumerate(view.out_seats):
        s[OUT_ORDER + other] = order + 1
    s[OUTS_SEEN] = len(view.out_seats)
    s[STOCK_N] = view.stock_size
    pile = STOCK + KINDS * int(s[DECKS])
    for j, card in enumerate(view.discard_pile):
        s[pile + j] = card
    s[PILE_N] = len(view.discard_pile)
    if view.reshuffled is not None:
        assert view.stock_candidates is not None
        s[RESHUFFLED] = 1
        for other in range(view.players):  # the others' candidates: the whole reshuffle, until determinize
            for card in view.stock_candidates if other == seat else view.reshuffled:
                s[CANDIDATES + other * KINDS + card] += 1
    s[OUTS_OK] = 0
    history = view.history
    s[LAST_ACTION] = history[-1][1] if history else -1
    s[TAKEN] = -1
    if view.drawn and len(history) >= 2 and history[-1][1] == TAKE and history[-2][1] >= DISCARD:
        kind = (history[-2][1] - DISCARD) % KINDS  # the card taken, if the discard just before put it on top
        if kind in view.known[view.current_player]:
            s[TAKEN] = kind
    return s


@nb.njit(cache=True)
def unseen_by(s: npt.NDArray[np.int16], seat: int) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """How many cards of each kind ``seat`` cannot see in ``s``: the decks' less its hand, the melds laid, the cards
    known in other hands and the discard pile."""
    unseen = np.zeros(KINDS, np.int64)
    for k in range(KINDS):
        unseen[k] = s[DECKS] - s[HANDS + seat * KINDS + k]
        for other in range(s[PLAYERS]):
            unseen[k] -= s[LAID + other * KINDS + k]
            if other != seat:
                unseen[k] -= s[KNOWN + other * KINDS + k]
    pile = STOCK + KINDS * s[DECKS]
    for j in range(s[PILE_N]):
        unseen[s[pile + j]] -= 1
    return unseen


@nb.njit(cache=True)
def determinize(s: npt.NDArray[np.int16], seat: int, key: Keys) -> None:  # pragma: no cover - compiled
    """Deal the cards ``seat`` cannot see anew, uniformly at random: the unknown part of each other hand and the
    stock with its order, the stock from the seat's stock candidates after a reshuffle (as ``_redeal`` does). Each
    other seat's stock candidates become the reshuffled cards less those of its dealt cards that came from the
    reshuffle (a plausible history, as ``_redeal`` makes it)."""
    n = s[PLAYERS]
    unseen = unseen_by(s, seat)
    for other in range(n):
        if other != seat:
            for k in range(KINDS):
                s[HANDS + other * KINDS + k] = s[KNOWN + other * KINDS + k]
    reshuffled = s[RESHUFFLED] != 0
    inside = np.empty(KINDS * s[DECKS], np.int16)
    rest = np.empty(KINDS * s[DECKS], np.int16)
    leftover = np.zeros(KINDS, np.int64)  # reshuffled cards left out of the stock
    m = 0
    r = 0
    for k in range(KINDS):
        allowed = min(unseen[k], s[CANDIDATES + seat * KINDS + k]) if reshuffled else unseen[k]
        for _ in range(allowed):
            inside[m] = k
            m += 1
        for _ in range(unseen[k] - allowed):
            rest[r] = k
            r += 1
    shuffle(key, inside, m)
    stock_n = s[STOCK_N]
    for j in range(stock_n):
        s[STOCK + j] = inside[j]
    for j in range(stock_n, m):
        rest[r] = inside[j]
        leftover[inside[j]] += 1
        r += 1
    shuffle(key, rest, r)
    at = 0
    for other in range(n):
        if other == seat:
            continue
        known = 0
        for k in range(KINDS):
            known += s[KNOWN + other * KINDS + k]
        for _ in range(s[HAND_SIZES + other] - known):
            k = rest[at]
            at += 1
            s[HANDS + other * KINDS + k] += 1
            if reshuffled and leftover[k] > 0:
                leftover[k] -= 1
                s[CANDIDATES + other * KINDS + k] -= 1
    s[OUTS_OK] = 0


@nb.njit(cache=True)
def reweigh(s: npt.NDArray[np.int16], seat: int, weights: npt.NDArray[np.float64], sweeps: int,
            key: Keys) -> None:  # pragma: no cover - compiled
    """Move a uniform determinization of ``seat``'s (:func:`determinize`) toward the deals weighted by
    ``weights`` (per seat and kind, :mod:`.inference`): the probability of a deal becomes proportional to the product
    of the weights of the hidden cards each other hand holds (a stock card weighs 1). Metropolis swaps: ``sweeps``
    times the number of hidden hand cards, a hidden hand card and any other hidden card (another hand's or the
    stock's) chosen uniformly, their places swapped with probability ``min(1, ratio of the deals' weights)``; the
    proposal is symmetric, so the weighted deals are the chain's stationary distribution. Not after a reshuffle
    (the stock's cards are then bound to the seat's stock candidates): the deal stays uniform."""
    if s[RESHUFFLED]:
        return
    n = s[PLAYERS]
    stock_n = s[STOCK_N]
    total = stock_n
    for other in range(n):
        if other != seat:
            for k in range(KINDS):
                total += s[HANDS + other * KINDS + k] - s[KNOWN + other * KINDS + k]
    kinds = np.empty(total, np.int64)
    owners = np.empty(total, np.int64)
    m = 0
    for other in range(n):
        if other == seat:
            continue
        for k in range(KINDS):
            for _ in range(s[HANDS + other * KINDS + k] - s[KNOWN + other * KINDS + k]):
                kinds[m] = k
                owners[m] = other
                m += 1
    hand_cards = m
    if hand_cards == 0 or total < 2:
        return
    for j in range(stock_n):
        kinds[m + j] = s[STOCK + j]
        owners[m + j] = -1
    for _ in range(sweeps * hand_cards):
        i = below(key, hand_cards)
        j = below(key, total - 1)
        if j >= i:
            j += 1
        oi, oj = owners[i], owners[j]
        if oi == oj or kinds[i] == kinds[j]:
            continue
        ki, kj = kinds[i], kinds[j]
        ratio = weights[oi, kj] / weights[oi, ki]
        if oj >= 0:
            ratio *= weights[oj, ki] / weights[oj, kj]
        if ratio >= 1.0 or _uniform(key) < ratio:
            kinds[i], kinds[j] = kj, ki
    for other in range(n):
        if other != seat:
            for k in range(KINDS):
                s[HANDS + other * KINDS + k] = s[KNOWN + other * KINDS + k]
    for i in range(hand_cards):
        s[HANDS + owners[i] * KINDS + kinds[i]] += 1
    for j in range(stock_n):
        s[STOCK + j] = kinds[hand_cards + j]


REPLAY_TRIES = 16
"""With ``replay``: the deals a determinization may take to find one whose other hand replays that seat's latest
move (:func:`replays`); the last is kept either way."""


@nb.njit(cache=True)
def replays(s: npt.NDArray[np.int16], seat: int, let_go: int, taken: int,
            then: npt.NDArray[np.int16], mask: npt.NDArray[np.bool_]) -> bool:  # pragma: no cover - compiled
    """Whether the heuristic, holding the other seat's hand in the determinization ``s`` (2 players), would have made
    that seat's latest turn as the seat to move ``seat`` saw it: discarded the kind ``let_go`` (on top of the pile
    now; among its best discards, and not gone out instead), and where ``taken`` >= 0, taken that kind from the pile
    before (:func:`.kernel_heuristic.takes`). ``then`` is scratch for the row of that moment: the other hand with
    ``let_go`` back in it (and ``taken`` back on the pile), the rest as ``s``, which the heuristic's choice does not
    read (the seat's own hand) or which that turn did not change."""
    other = 1 - seat
    then[:] = s
    pile = STOCK + KINDS * int(s[DECKS])
    then[HANDS + other * KINDS + let_go] += 1
    then[PILE_N] -= 1
    then[TURN] = other
    then[DRAWN] = 1
    then[TAKEN] = taken
    then[OUTS_OK] = 0
    choices(then, mask)
    if not mask[DISCARD + let_go]:
        return False
    if taken < 0:
        return True
    then[HANDS + other * KINDS + taken] -= 1
    then[pile + then[PILE_N]] = taken
    then[PILE_N] += 1
    then[DRAWN] = 0
    then[TAKEN] = -1
    then[OUTS_OK] = 0
    return takes(then)


@nb.njit(cache=True)
def searched_into(s: npt.NDArray[np.int16], mask: npt.NDArray[np.bool_]) -> None:  # pragma: no cover - compiled
    """The actions searched in ``s`` into ``mask``: the ways out where one is legal (the game's eager actions),
    else every legal action."""
    legal(s, mask)
    for a in range(OUT, ACTIONS):
        if mask[a]:
            for other in range(OUT):
                mask[other] = False
            return


@nb.njit(cache=True)
def leaf_points(s: npt.NDArray[np.int16], seat: int, weight: float,
                net: npt.NDArray[np.float64]) -> float:  # pragma: no cover - compiled
    """What the hand of ``seat`` is worth in penalty points where a playout is cut off: 0 for a seat that went out;
    with a network ``net`` (not empty, :func:`.value.network`), the points it estimates the hand is left with at the
    round's end; else its fewest penalty points now, less ``weight`` per unit of its meld potential
    (:func:`.kernel_heuristic.potential`, pairs and near-runs: cards that may yet meld)."""
    if s[OUT_ORDER + seat]:
        return 0.0
    if net.shape[0]:
        x = np.empty(FEATURES, np.float64)
        features(s, seat, x)
        return predict_flat(x, net)
    points = float(penalty(s, seat))
    if weight:
        counts = np.zeros(KINDS, np.int64)
        for k in range(KINDS):
            counts[k] = s[HANDS + seat * KINDS + k]
        points -= weight * potential(counts, int(s[ROUND]) + 3, s[ACES_HIGH] != 0)
    return points


@nb.njit(cache=True)
def searched_legal(s: npt.NDArray[np.int16], mask: npt.NDArray[np.bool_],
                   buffer: npt.NDArray[np.int64]) -> None:  # pragma: no cover - compiled
    """:func:`searched_into` as the shared selection and expansion (:func:`dreizehn.bots.tree.descent`) calls a
    game's ``legal_into`` (``buffer``, scratch there, is not needed here)."""
    searched_into(s, mask)


DESCEND = descent("three-thirteen", True, legal_into=searched_legal, apply=apply, STAGE=ROUND, TURN=TURN)
"""The search's selection and expansion below a root action, while the round lasts (the shared template of
:mod:`dreizehn.bots.tree`, the searched actions by :func:`searched_legal`)."""


round_points = descend = unbound
"""The compiled ``playout_points`` of the same policy, bound per variant by :func:`_compiled`, and :data:`DESCEND`
(placeholders here)."""


def _playout_template(variant: str, policy: int) -> Callable[..., None]:
    """The template of the search's playouts, compiled per playout ``policy`` (``RANDOM``, ``HEURISTIC``: the greedy
    player, ``ROLLOUT``: the heuristic bot's) by :func:`dreizehn.core.scaffold.specialise` (:data:`ISMCTS`), so that
    a playout carries neither a test of the policy nor the other policies' code."""

    def playout_points(s: npt.NDArray[np.int16], stage: int, cutoff: int, key: Keys,
                       points: npt.NDArray[np.float64], weight: float, net: npt.NDArray[np.float64],
                       bot: NetworkArrays, candidates: int, scratch: Scratch,
                       bounded: bool) -> None:  # pragma: no cover - compiled
        """Play the round of ``stage`` on from ``s`` (every seat by the variant's ``policy``; ``LEARNED``: by the
        network ``bot``, among the heuristic's best ``candidates`` discards, ``scratch`` its scratch, the turn limit
        hidden from it where ``bounded``: :func:`.bot_kernel.learned_action`) and write its
        penalty points per seat into ``points``: as scored at its end (T11), or, with ``cutoff`` > 0, as each hand
        is valued (:func:`leaf_points`: by the network ``net``, or as it stands with ``weight`` per unit of meld
        potential) at the first turn boundary after ``cutoff`` actions."""
        variant  # noqa: B018 - the closure's value keys numba's cache (dreizehn.core.scaffold.specialise)
        n = s[PLAYERS]
        steps = 0
        while s[TURN] >= 0 and s[ROUND] == stage:
            if cutoff and steps >= cutoff and not s[DRAWN]:
                for seat in range(n):
                    points[seat] = leaf_points(s, seat, weight, net)
                return
            if policy == LEARNED:
                action = learned_action(s, key, bot, candidates, scratch, bounded)
            elif policy == ROLLOUT:
                action = heuristic_rollout_action(s, key)
            elif policy == HEURISTIC:
                action = heuristic_action(s, key)
            else:
                action = random_action(s, key)
            apply(s, action, key)
            steps += 1
        for seat in range(n):
            points[seat] = s[LAST + seat]

    return playout_points


def _ismcts_template(variant: str, policy: int) -> Callable[..., int]:
    """The template of the search's iterations, compiled per playout ``policy`` as :func:`_playout_template`."""

    def ismcts(root: npt.NDArray[np.int16], seat: int, keep: npt.NDArray[np.bool_], iterations: int, c: float,
               scale: float, cutoff: int, key: Keys, child: npt.NDArray[np.int32],
               visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32], total: npt.NDArray[np.float64],
               size: npt.NDArray[np.int64], weight: float, weights: npt.NDArray[np.float64],
               sweeps: int, net: npt.NDArray[np.float64], base: npt.NDArray[np.float64], bot: NetworkArrays,
               candidates: int, bounded: bool, grow: bool, let_go: int, taken: int) -> int:  # pragma: no cover
        """At least ``iterations`` more iterations (whole determinizations, ``root=paired``) from ``root`` (a row made
        by :func:`row_of_view` for ``seat``, who is to move), the root narrowed to ``keep`` where any is set, into the
        tree's arrays (``size[0]`` nodes in use; room for one more an iteration and the root's children); the number of
        iterations run. The tree grows below the root where ``grow``, as far as one new node an iteration, and the
        variant's ``policy`` plays on from there (``LEARNED``: the network ``bot``, among the heuristic's best
        ``candidates`` discards, the row's turn limit hidden from it where ``bounded``); else each root action is
        followed by the policy alone; ``weight`` counts meld potential in the hands
        of a playout cut off, or ``net`` values them where not empty (:func:`leaf_points`). With ``sweeps`` > 0 each
        determinization is weighted by ``weights`` (:func:`reweigh`); the playouts by ``round_points`` (the variant's
        ``playout_points``), each seat's points counted with its ``base`` (0, or the game's totals so far:
        :func:`standing`) in the margin reward. Where ``let_go`` >= 0 (``replay``, 2 players), a determinization is
        dealt again, up to :data:`REPLAY_TRIES` deals, until the other hand replays that seat's latest turn
        (:func:`replays`: it let ``let_go`` go, having taken ``taken`` where >= 0)."""
        variant  # noqa: B018
        policy  # noqa: B018 - keys the cache: ``round_points`` (bound by specialise) holds it
        n = root[PLAYERS]
        stage = root[ROUND]
        narrowed = keep.any()
        mask = np.zeros(ACTIONS, np.bool_)
        buffer = np.empty(ACTIONS, np.int64)
        roots = np.zeros(ACTIONS, np.bool_)
        path = np.empty(child.shape[0] + 1, np.int64)
        movers = np.empty(child.shape[0] + 1, np.int64)
        points = np.zeros(MAX_SEATS, np.float64)
        rewards = np.zeros(MAX_SEATS, np.float64)
        world = root.copy()
        s = root.copy()
        stream = np.empty(1, np.uint64)
        scratch = new_scratch(bot)
        done = 0
        while done < iterations:
            for _ in range(REPLAY_TRIES if let_go >= 0 else 1):
                world[:] = root
                determinize(world, seat, key)
                if sweeps:
                    reweigh(world, seat, weights, sweeps, key)
                if let_go < 0 or replays(world, seat, let_go, taken, s, mask):
                    break
            searched_into(world, roots)
            if narrowed:
                for action in range(ACTIONS):
                    roots[action] = roots[action] and keep[action]
            first = next_u64(key)
            for action in range(ACTIONS):
                if not roots[action]:
                    continue
                done += 1
                k = child[0, action]
                if k < 0:
                    k = size[0]
                    child[0, action] = k
                    size[0] += 1
                else:
                    avail[k] += 1
                s[:] = world
                stream[0] = first
                apply(s, action, stream)
                path[0] = k
                movers[0] = seat
                depth = 1
                if grow:
                    depth = descend(s, stage, k, 1, stream, child, visits, avail, total, size, c, mask, buffer,
                                    path, movers)
                round_points(s, stage, cutoff, stream, points, weight, net, bot, candidates, scratch,
                             bounded)
                for other in range(n):
                    points[other] += base[other]
                margin_rewards(points, n, scale, False, rewards)
                backup(visits, total, path, movers, depth, rewards)
        return done

    return ismcts


def _compiled(policy: int) -> Any:
    """The search's iterations compiled for one playout ``policy``, calling its playouts compiled for the same."""
    round_points = specialise(_playout_template("", policy), "three-thirteen", {}, policy=policy)
    return specialise(_ismcts_template("", policy), "three-thirteen", {"round_points": round_points,
                                                                      "descend": DESCEND}, policy=policy)


ISMCTS = {policy: _compiled(policy) for policy in (RANDOM, HEURISTIC, ROLLOUT, LEARNED)}
"""The search's compiled iterations by playout policy."""


POLICIES = {"random": RANDOM, "greedy": HEURISTIC, "heuristic": ROLLOUT, "learned-bot": LEARNED}
"""The playout policy of each value of the ``ismcts`` bot's option ``playout``."""


def learned_network() -> tuple[NetworkArrays, int]:
    """The shipped ``learned`` bot's network (:func:`dreizehn.bots.learned_kernel.shipped_compiled`) as
    ``playout=learned-bot`` plays it: its arrays and how many of the heuristic's best discards it chooses among."""
    compiled = shipped_compiled("three-thirteen")
    network = shipped("three-thirteen")
    assert compiled is not None and network is not None  # Three Thirteen ships one
    return compiled.arrays(), network.candidates


PLAYOUT_TURNS = 200
"""The turns a hint's playout lets a round last where the game sets no ``turn_limit`` (the research adapters'
``RESEARCH_TURN_LIMIT``): far more than rounds between heuristic players take, unless they hold each other's cards."""


@nb.njit(cache=True)
def prepare(s: npt.NDArray[np.int16], seat: int, key: Keys, weights: npt.NDArray[np.float64],
            sweeps: int) -> None:  # pragma: no cover - compiled
    """A world for the hints: the unseen cards dealt uniformly, as the game's ``sample_state`` deals them, then,
    with ``sweeps``, moved toward ``weights`` by :func:`reweigh`, as ``infer_state`` deals them."""
    determinize(s, seat, key)
    if sweeps:
        reweigh(s, seat, weights, sweeps, key)


@nb.njit(cache=True)
def finish(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """The rest of the game, every seat playing as the heuristic bot (compiled, :mod:`.kernel_heuristic`)."""
    while s[TURN] >= 0:
        apply(s, heuristic_rollout_action(s, key), key)


RATE_WORLDS = rating_loop("three-thirteen", prepare=prepare, apply=apply, finish=finish, PLAYERS=PLAYERS,
                          TOTALS=TOTALS, HIGH_WINS=False)
"""Hints (:mod:`dreizehn.play.hints`, :func:`dreizehn.bots.tree.rating_loop`): every action on each world dealt by
:func:`prepare`, followed by the rest of the game by :func:`finish`, all actions of a world on the same stream of
random numbers (the shuffles to come and the heuristic's tie-breaks); the fewest points win (T12). The row is made by
:func:`bounded_row`: where the game sets no ``turn_limit``, a playout's round ends after :data:`PLAYOUT_TURNS` turns
as that limit would end it (T10): two heuristic players may hold the cards each other needs and draw and discard for
ever (in a round of five cards, each with two wild cards and a pair of the same rank)."""


def rate(empty: npt.NDArray[np.int16], view: ThreeThirteenView, actions: list[int], worlds: int,
         seed: int, infer: bool = False) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each action's outcomes on ``worlds`` worlds drawn from ``view`` (:func:`dreizehn.bots.tree.rate`), dealt by
    inference with ``infer``."""
    weights, sweeps = inferred(view, infer)
    return tree_rate(RATE_WORLDS, bounded_row(empty, view), view.seat, actions, worlds, seed, weights, sweeps)


def bounded_row(empty: npt.NDArray[np.int16], view: ThreeThirteenView) -> npt.NDArray[np.int16]:
    """The row of ``view`` (:func:`row_of_view`) for playouts: where the game sets no ``turn_limit``, its rounds end
    after :data:`PLAYOUT_TURNS` turns as that limit would end them (T10), so that a playout to a round's end ends
    (:data:`RATE_WORLDS` says why it might not)."""
    row = row_of_view(empty, view)
    bound(row)
    return row


def bound(row: npt.NDArray[np.int16]) -> bool:
    """Where the game of ``row`` sets no ``turn_limit``, end its round after :data:`PLAYOUT_TURNS` more turns
    (:func:`bounded_row`), and say whether it did: the limit is then the search's, not the game's."""
    if _get2(row, LIMIT):
        return False
    _set2(row, LIMIT, _get2(row, PLAYED) + PLAYOUT_TURNS)
    return True


def inferred(view: ThreeThirteenView, infer: bool = True) -> tuple[npt.NDArray[np.float64], int]:
    """The weights of a determinization of ``view`` (per seat, :data:`MAX_SEATS` rows, and kind) and the sweeps to
    draw it with; without ``infer``, even weights and no sweeps (a uniform deal)."""
    weights = np.ones((MAX_SEATS, KINDS))
    if not infer:
        return weights, 0
    weights[: view.players] = np.exp(log_weights(view))
    return weights, SWEEPS


STAGE_SPREAD = (12.3, 10.6, 8.6, 15.2, 13.5, 11.1, 14.2, 14.2, 11.8, 15.3, 15.0)
"""The spread (standard deviation, points) of the margin of each round, 3 to 13 cards, between two heuristic players
over 600 games (seeds 90000 on; their totals' spread 43.0, the rounds' variances added 43.3): how far the rounds
still to play may move the game's totals (:func:`standing`)."""


def replayed(view: ThreeThirteenView) -> tuple[int, int]:
    """The other seat's latest turn as :func:`replays` checks it, at 2 players: the kind it let go (on top of the
    pile still: the seat to move has not drawn, or drew from the stock) and the kind it took from the pile before
    (-1: it drew from the stock, or took the round's first card, which no discard showed); (-1, -1) where there is
    no such turn to replay (its latest action was no discard, or in another round, after a reshuffle, or once
    someone went out)."""
    if view.players != 2 or view.turns_played == 0 or view.turns_left >= 0 or view.reshuffled is not None:
        return -1, -1
    history = view.history
    at = len(history) - 1
    if view.drawn:
        if at < 0 or history[at] != (view.seat, DRAW):
            return -1, -1
        at -= 1
    if at < 1 or history[at][0] == view.seat or not DISCARD <= history[at][1] < OUT:
        return -1, -1
    let_go = history[at][1] - DISCARD
    if not view.discard_pile or int(view.discard_pile[-1]) != let_go:
        return -1, -1
    drew = history[at - 1]
    if drew[0] == view.seat or drew[1] != TAKE or at < 2 or not DISCARD <= history[at - 2][1] < OUT:
        return let_go, -1
    return let_go, history[at - 2][1] - DISCARD


def standing(view: ThreeThirteenView, scale: float) -> tuple[npt.NDArray[np.float64], float]:
    """The margin reward's base and scale with ``standing=on``: each seat's points so far this game, and ``scale``
    narrowed by the share of the game's spread left in the rounds from this one on (:data:`STAGE_SPREAD`, their
    variances added), so that the logistic of a seat's total margin stands for its chance to win the game: in the
    first round as the round's own reward, in the last nearer a win or a loss."""
    base = np.zeros(MAX_SEATS, np.float64)
    base[: view.players] = view.totals
    whole = sum(spread * spread for spread in STAGE_SPREAD)
    left = sum(spread * spread for spread in STAGE_SPREAD[view.stage:])
    return base, scale * math.sqrt(left / whole)


def search(empty: npt.NDArray[np.int16], view: ThreeThirteenView, iterations: int, c: float, scale: float, seed: int,
           seconds: float | None = None, *, keep: frozenset[int] = frozenset(), cutoff: int = 4,
           playout: str = "greedy", weight: float = 0.0, infer: bool = False, value: str = "points",
           standing_on: bool = False, grow: bool | None = None, replay: bool = False) -> tuple[Stats, int]:
    """The root statistics of a search from ``view`` (per action searched: visits, availability, mean reward) and
    the iterations run: at least ``iterations`` (whole determinizations), or as many as ``seconds`` allow (checked
    after 1, 2, 4, … and then every 256 iterations); the root narrowed to ``keep`` where not empty; playouts by the
    ``playout`` policy (:data:`POLICIES`: the greedy player, at random, or from the root action on by the heuristic
    or the ``learned`` bot), cut off hands counting ``weight`` points per unit of meld potential; with ``infer``,
    the determinizations weighted by what the seat saw (:mod:`.inference`); cut-off hands valued by ``value``:
    ``points``, as they stand, else by the network of :mod:`.value` of that name (``learned``, ``learned-large``);
    with ``standing_on``, the reward counts the game's totals so far at a narrower scale (:func:`standing`); a tree
    grown below the root where ``grow`` says so (``None``: only below the greedy player's and random playouts, not
    below those of a bot, which play from the root action on); with ``replay``, each determinization dealt again
    until its other hand replays that seat's latest turn as the heuristic would have played it (:func:`replays`,
    2 players)."""
    if standing_on:
        base, scale = standing(view, scale)
    else:
        base = np.zeros(MAX_SEATS, np.float64)
    net = np.empty(0, np.float64) if value == "points" else network(value)
    row = row_of_view(empty, view)
    bounded = bound(row)  # playouts to the round's end (cutoff 0) end, as the hints' do
    weights, sweeps = inferred(view, infer)
    let_go, taken = replayed(view) if replay else (-1, -1)
    mask = np.zeros(ACTIONS, np.bool_)
    mask[sorted(keep)] = True
    key = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
    size = np.ones(1, np.int64)
    policy = POLICIES[playout]
    if grow is None:
        grow = playout not in ROLLOUTS  # tree=auto, as the bot's options resolve it
    bot, candidates = learned_network() if policy == LEARNED else (NO_NETWORK, 0)
    room = 2 * ACTIONS + 1  # the root's children and a determinization's overrun
    if seconds is None:
        tree = new_tree(iterations + room, ACTIONS)
        done = int(ISMCTS[policy](row, view.seat, mask, iterations, c, scale, cutoff, key, *tree, size, weight,
                                  weights, sweeps, net, base, bot, candidates, bounded, grow, let_go, taken))
    else:
        deadline = time.perf_counter() + seconds
        tree = new_tree(4096 + room, ACTIONS)
        most = max(4096 + room, TREE_BYTES // (4 * ACTIONS))
        done = 0
        while not done or time.perf_counter() < deadline:
            chunk = min(256, max(1, done))
            while size[0] + chunk + room > len(tree[1]) and 2 * len(tree[1]) <= most:
                tree = grown(tree)
            if size[0] + chunk + room > len(tree[1]):
                break  # the tree is as large as a search by time may make it
            done += int(ISMCTS[policy](row, view.seat, mask, chunk, c, scale, cutoff, key, *tree, size, weight,
                                       weights, sweeps, net, base, bot, candidates, bounded, grow, let_go, taken))
    child, visits, avail, total = tree
    stats = [(a, int(visits[k]), int(avail[k]), float(total[k] / visits[k]) if visits[k] else 0.0)
             for a, k in enumerate(child[0]) if k >= 0]
    return stats, done
