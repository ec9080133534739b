"""Der dreizehnte Holzwurm's kernel beyond the generic differential test: the heuristic's scores against the Python
heuristic's on every position of many games, every refusal's reason (code, rule and words) against the engine's, and
the playouts and batch loops running matches to their end."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from kernels.differential import Pair

from dreizehn.core.errors import DreizehnError
from dreizehn.core.kernel import HEURISTIC, ILLEGAL, RANDOM, below, load_kernel, make_keys, pick_legal
from dreizehn.core.registry import load_game
from dreizehn.games.holzwurm import CARD_POINTS, CARD_VALUE, NEW, heuristic
from dreizehn.games.holzwurm import kernel as hk

GAMES: list[tuple[int, dict[str, object]]] = [
    (2, {}), (3, {"starter": "random"}), (4, {}), (5, {"games": 2}), (6, {"starter": "random"}),
]


def python_scores(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[float]]:
    """The Python heuristic's legal actions and their scores at the pair's position, as ``act`` hands them to
    ``pick_best``."""
    seen: list[tuple[list[int], list[float]]] = []

    def capture(actions: Sequence[int], scores: Sequence[float], rng: random.Random, eps: float = 1e-9) -> int:
        seen.append(([int(a) for a in actions], list(scores)))
        return int(actions[0])

    monkeypatch.setattr(heuristic, "pick_best", capture)
    heuristic.act(pair.engine.view(pair.engine.current_player), random.Random(0))
    return seen[0]


def test_heuristic_scores_equal_the_python_heuristic(monkeypatch: pytest.MonkeyPatch,
                                                     scale: Callable[[int, int], int]) -> None:
    """On every position of matches at every player count, where each seat plays at random or by the kernel's
    heuristic, the kernel scores every legal action exactly as the Python heuristic does (``-inf`` for the rest);
    the positions cover each kind of score (a take ending the game on the thirteen, "go out", "collect points", the
    last card)."""
    scores = np.empty(hk.ACTIONS, np.float64)
    covered = {"thirteen": 0, "go_out": 0, "collect": 0, "last": 0}
    positions = 0
    for players, options in GAMES:
        game = load_game("holzwurm", players, options)
        for seed in range(scale(12, 200)):
            pair = Pair(game, seed)
            rng = np.random.default_rng(seed)
            by_heuristic = rng.random(players) < 0.5
            while pair.engine.current_player >= 0:
                pair.check(views=len(pair.engine.log) % 5 == 0)  # heuristic play reaches its own positions
                legal, expected = python_scores(pair, monkeypatch)
                hk.heuristic_scores(pair.row, scores)
                assert [int(a) for a in np.flatnonzero(scores > -np.inf)] == legal
                assert scores[legal].tolist() == expected, f"{players}p seed {seed}, {len(pair.engine.log)} actions"
                _cover(pair, legal, expected, covered)
                positions += 1
                if by_heuristic[pair.engine.current_player]:
                    action = hk.heuristic_action(pair.row, pair.keys)
                else:
                    action = int(rng.choice(legal))
                pair.play(action)
    assert positions >= 1000
    assert all(covered.values()), covered


def _cover(pair: Pair, legal: list[int], expected: list[float], covered: dict[str, int]) -> None:
    """Count which of the heuristic's branches the position reaches: a take while only the thirteen is left, the
    last card, and a play scored by "go out" (value over length) or by "collect points" (minus the card's points)."""
    row = pair.row
    me = int(row[hk.TURN])
    if row[hk.HAND_SIZES + me] == 1:
        covered["last"] += 1
    for action, score in zip(legal, expected, strict=True):
        kind, dest = divmod(action, 6)
        if dest != NEW and CARD_VALUE[kind] <= row[hk.ROW_LEN + dest]:
            covered["thirteen"] += int(row[hk.FATE_N]) == 1
        elif row[hk.HAND_SIZES + me] > 1:
            covered["collect" if score == -CARD_POINTS[kind] else "go_out"] += 1


@pytest.mark.parametrize(("players", "options"), GAMES, ids=[f"{p}p" for p, _ in GAMES])
def test_every_refusal_gives_the_engines_reason(players: int, options: dict[str, object],
                                                scale: Callable[[int, int], int]) -> None:
    """Every action that is not legal, at every tenth position of random matches, is refused by the kernel's
    ``apply``, and its ``why`` gives the engine's code, rule and parameters (the colours and rows it names)."""
    game = load_game("holzwurm", players, options)
    checked = set()
    for seed in range(scale(6, 60)):
        pair = Pair(game, seed)
        rng = np.random.default_rng(seed)
        step = 0
        while (legal := pair.legal()):
            if step % 10 == 0:
                for action in sorted(set(range(game.num_actions)) - set(legal)):
                    assert hk.apply(pair.row.copy(), action, pair.keys.copy()) == ILLEGAL
                    reason = pair.kernel.why(pair.row, action)
                    try:
                        pair.engine.copy().apply(action)
                    except DreizehnError as err:
                        assert err.to_json() == reason.to_json() and type(err) is type(reason)
                        checked.add(reason.code)
                    else:
                        raise AssertionError(f"the engine took action {action}, which the kernel refused")
            pair.play(int(rng.choice(legal)))
            step += 1
    assert {"holzwurm.error.not_held", "holzwurm.error.five_rows", "holzwurm.error.own_row",
            "holzwurm.error.own_row_new", "holzwurm.error.other_colour", "holzwurm.error.no_row"} <= checked


def test_random_action_is_pick_legal_on_the_mask() -> None:
    """The random playouts' draw, made a colour at a time, is the action ``pick_legal`` draws from the legal mask
    with the same key, at every position of random matches of every player count."""
    positions = 0
    for players, options in GAMES:
        game = load_game("holzwurm", players, options)
        for seed in range(4):
            pair = Pair(game, seed)
            while (legal := pair.legal()):
                key = make_keys(seed * 1000 + positions, 1)
                drawn = hk.random_action(pair.row, key.copy())
                assert drawn == pick_legal(key.copy(), pair.mask[0])
                assert drawn in legal
                pair.play(drawn)
                positions += 1
    assert positions > 1000


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC])
def test_playouts_finish_every_match(policy: int) -> None:
    """Both playout policies and the batch of random matches play every row to the end of its match, with totals
    that are the sums of the games' points."""
    game = load_game("holzwurm", 4, {"games": 2})
    kernel = load_kernel(game)
    states = kernel.new(50)
    keys = make_keys(7, 50)
    kernel.reset(states, keys)
    kernel.playout(states, keys, policy)
    assert (kernel.current(states) == -1).all()
    assert (states[:, hk.STAGE] == 2).all()
    assert np.abs(kernel.totals(states)).max() > 0
    assert kernel.random_games(states, keys, 2) > 50 * 2 * 2 * 20
    assert (kernel.current(states) == -1).all()


def test_heuristic_beats_random() -> None:
    """The kernel's heuristic, in seat 0 against three random seats, wins more than its share of 4-player matches
    (a check that its scores drive its play the right way round)."""
    game = load_game("holzwurm", 4, {})
    kernel = load_kernel(game)
    wins = 0.0
    states = kernel.new(1)
    keys = make_keys(3, 1)
    mask = np.zeros((1, hk.ACTIONS), np.bool_)
    status = np.zeros(1, np.int8)
    for _ in range(200):
        kernel.reset(states, keys)
        while states[0, hk.TURN] >= 0:
            if states[0, hk.TURN] == 0:
                action = hk.heuristic_action(states[0], keys)
            else:
                kernel.legal(states, mask)
                action = int(np.flatnonzero(mask[0])[int(below(keys, int(mask[0].sum())))])
            kernel.step(states, keys, np.array([action]), status)
        totals = kernel.totals(states)[0]
        winners = np.flatnonzero(totals == totals.max())
        wins += 1.0 / len(winners) if 0 in winners else 0.0
    assert wins / 200 > 0.4
