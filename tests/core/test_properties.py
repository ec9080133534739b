"""Property-based tests (hypothesis): over random player counts, options and seeds, whole games keep every invariant.

Hypothesis chooses the game's set-up (player count, every option, the seed) and the seed of the random players;
each example plays a whole game and checks: cards are conserved, illegal actions are refused without change, views
hide what their seat cannot see and sampled states agree with them, the record replays to the same scores, and the
same seed replays the same game. The ``long`` profile (make test-long) runs 2,000 examples per game.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import dreizehn
from dreizehn.core.conformance import Report, check_refusals, check_views
from dreizehn.core.record import dumps, loads


def _seat(players: int) -> st.SearchStrategy[object]:
    return st.one_of(st.integers(0, players - 1), st.just("random"))


@st.composite
def setups(draw: st.DrawFn, game_id: str) -> tuple[int, dict[str, object]]:
    cls = dreizehn.game_class(game_id)
    players = draw(st.integers(cls.min_players, cls.max_players))
    options: dict[str, object] = {}
    for spec in cls.option_specs:
        if spec.kind == "seat":
            options[spec.name] = draw(_seat(players))
        elif spec.kind == "choice":
            options[spec.name] = draw(st.sampled_from(spec.choices))
        elif spec.kind == "bool":
            options[spec.name] = draw(st.booleans())
    if game_id == "holzwurm":
        options["games"] = draw(st.integers(1, 3))
    if game_id == "three-thirteen":
        options["stock_out"] = "end-round"  # random play under reshuffle may never end a round
        minimum = dreizehn.load_game(game_id, players).options["decks"]
        options["decks"] = draw(st.integers(minimum, minimum + 1))
    return players, options


def play_and_check(game_id: str, players: int, options: dict[str, object], seed: int, policy_seed: int) -> None:
    game = dreizehn.load_game(game_id, players, options)
    state = game.new_state(seed)
    twin = game.new_state(seed)
    rng = random.Random(policy_seed)
    report = Report()
    deck = sorted(game.deck)
    checks = 0
    while not state.is_over:
        assert sorted(state.all_cards()) == deck
        if rng.random() < 0.02 and checks < 12:
            checks += 1
            check_refusals(state, rng, report, limit=4)
            check_views(state, rng, report)
        action = rng.choice(state.legal_actions())
        state.apply(action)
        twin.apply(action)
    assert twin.shuffles == state.shuffles and twin.stage_scores == state.stage_scores
    check_views(state, rng, report)
    again = loads(dumps(state))
    assert again.stage_scores == state.stage_scores and again.winners == state.winners


@given(setups("knizia13"), st.integers(0, 2**63), st.integers(0, 2**32))
def test_knizia13_random_games(setup: tuple[int, dict[str, object]], seed: int, policy_seed: int) -> None:
    play_and_check("knizia13", *setup, seed, policy_seed)


@given(setups("holzwurm"), st.integers(0, 2**63), st.integers(0, 2**32))
def test_holzwurm_random_games(setup: tuple[int, dict[str, object]], seed: int, policy_seed: int) -> None:
    play_and_check("holzwurm", *setup, seed, policy_seed)


@given(setups("three-thirteen"), st.integers(0, 2**63), st.integers(0, 2**32))
def test_three_thirteen_random_games(setup: tuple[int, dict[str, object]], seed: int, policy_seed: int) -> None:
    play_and_check("three-thirteen", *setup, seed, policy_seed)
