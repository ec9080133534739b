"""The conformance suite over every game and player count (docs/api.md's promises, checked by random play).

Two tiers: many random games with the cheap invariants checked on every action (cards conserved, legal actions
apply, games end, records replay to the same scores), and fewer games with the expensive checks (every refusal
leaves the state unchanged, views hide what their seat cannot see, sampled states agree with their view) on a share
of the positions. The ``long`` profile (make test-long) plays many more.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import dreizehn
from dreizehn.core.conformance import check_game
from dreizehn.core.game import State
from dreizehn.core.record import dumps, loads

END_ROUND: dict[str, object] = {"stock_out": "end-round"}
NONE: dict[str, object] = {}

CASES: list[tuple[str, int, dict[str, object]]] = (
    [("knizia13", p, NONE) for p in range(3, 7)]
    + [("holzwurm", p, NONE) for p in range(2, 7)]
    + [("three-thirteen", p, END_ROUND) for p in range(2, 9)]
)
# Games per case in the cheap tier: (ci, long).
VOLUME = {"knizia13": (2000, 20000), "holzwurm": (2000, 20000), "three-thirteen": (150, 2000)}
# Games per case in the expensive tier, and how often (every n-th action) it checks.
DEEP = {"knizia13": (3, 40, 5), "holzwurm": (4, 40, 3), "three-thirteen": (1, 10, 13)}


def _id(case: tuple[str, int, dict[str, object]]) -> str:
    return f"{case[0]}-{case[1]}p"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_many_random_games(case: tuple[str, int, dict[str, object]], scale: Callable[[int, int], int]) -> None:
    """Cards are conserved, every chosen action applies, games end, records replay to the same scores."""
    game_id, players, options = case
    game = dreizehn.load_game(game_id, players, options)
    deck = sorted(game.deck)
    rng = random.Random(players)
    count = scale(*VOLUME[game_id])
    for g in range(count):
        state = game.new_state(rng.getrandbits(32))
        steps = 0
        while not state.is_over:
            if steps % 16 == 0:
                assert sorted(state.all_cards()) == deck, f"game {g}: cards not conserved after {steps} actions"
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < 200_000
        assert len(state.stage_scores) == state.stage and state.winners
        if g % 50 == 0:
            _replays(state)


def _replays(state: State) -> None:
    again = loads(dumps(state))
    assert again.stage_scores == state.stage_scores and again.winners == state.winners


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_deep_checks(case: tuple[str, int, dict[str, object]], scale: Callable[[int, int], int],
                     profile: str) -> None:
    """Refusals change nothing; views leak nothing; samples agree with views; text notation round-trips (the quick
    profile checks a fifth as often: one game is the fewest)."""
    game_id, players, options = case
    ci, long, every = DEEP[game_id]
    every *= 5 if profile == "quick" else 1
    report = check_game(game_id, players, options, games=scale(ci, long), seed=players, every=every)
    assert report.games == scale(ci, long) and report.samples > 0 and report.refusals > 0
