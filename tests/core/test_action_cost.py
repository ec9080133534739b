"""What a play takes, told before it is made (issue 25, item 2): ``Game.action_cost`` of a legal action, from the
mover's view alone, is exactly what the play then takes: in 13 the cards of a target pushed over 13 (K11) and their
minus points (K14); in Holzwurm a row whose count the card does not beat, with the fate row's top card (H12): the
row's cards counted as the log counts them (the card played among them), and the points the hand changes by (H3). A
play it says nothing of takes nothing."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import dreizehn
from dreizehn.core.wire import to_wire
from dreizehn.games.holzwurm.rules import CARD_POINTS, HolzwurmState
from dreizehn.games.knizia13.rules import NASTY, Knizia13State


def _positions(game_id: str, players: int, count: int) -> list[dreizehn.State]:
    rng = random.Random(players)
    game = dreizehn.load_game(game_id, players)
    found: list[dreizehn.State] = []
    while len(found) < count:
        state = game.new_state(rng.randrange(10**6))
        while not state.is_over and len(found) < count:
            if rng.random() < 0.3:
                found.append(state.copy())
            state.apply(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("players", [3, 5])
def test_13s_costs_are_what_a_play_takes(players: int) -> None:
    takes = 0
    for state in _positions("knizia13", players, 150):
        assert isinstance(state, Knizia13State)
        seat, view = state.turn, state.view(state.turn)
        stage = state.stage
        for action in view.legal_actions:
            cost = state.game.action_cost(view, action)
            after = state.copy()
            after.apply(action)
            assert isinstance(after, Knizia13State)
            if after.stage != stage:
                continue  # the stage was scored: the taken piles start again
            new = after.taken[seat][len(state.taken[seat]):]
            got = (len(new), -sum(2 if c == NASTY else 1 for c in new)) if new else None
            assert cost == got, (view.targets, action)
            takes += cost is not None
    assert takes > 50


@pytest.mark.parametrize("players", [2, 4])
def test_holzwurms_costs_are_what_a_play_takes(players: int) -> None:
    takes = 0
    for state in _positions("holzwurm", players, 150):
        assert isinstance(state, HolzwurmState)
        seat, view = state.turn, state.view(state.turn)
        stage = state.stage
        for action in view.legal_actions:
            cost = state.game.action_cost(view, action)
            after = state.copy()
            events = after.apply_with_events(action)
            assert isinstance(after, HolzwurmState)
            if after.stage != stage:
                continue  # the game of the match ended: the hands were scored and dealt anew
            gained = Counter(after.hands[seat])
            gained.subtract(state.hands[seat])
            if gained[action // 6] < 0:
                gained[action // 6] += 1  # the card played left the hand (a row taken brings it back)
            cards = list(gained.elements())
            assert all(n >= 0 for n in gained.values())
            # the row's cards as the log counts them (the card played among them, issue 49 item 7), and the points
            # the hand changes by
            took = [event.params["cards"] for event in events if event.key == "holzwurm.took"]
            got = (len(took[0]), sum(CARD_POINTS[c] for c in cards)) if took else None
            assert cost == got, (view.rows, action)
            assert (cost is None) == (not cards)
            takes += cost is not None
    assert takes > 20


def test_the_wire_carries_a_plays_cost_and_only_where_it_takes() -> None:
    state = dreizehn.new_game("knizia13", players=3, seed=1)
    rng = random.Random(1)
    seen = 0
    for _ in range(200):
        if state.is_over:
            break
        view = state.view(state.turn)
        doc = to_wire(view)
        for entry in doc["legal_actions"]:
            cost = state.game.action_cost(view, entry["index"])
            assert entry.get("takes") == (None if cost is None else {"cards": cost[0], "points": cost[1]})
            seen += cost is not None
        state.apply(rng.choice(state.legal_actions()))
    assert seen
    three = dreizehn.new_game("three-thirteen", players=2, seed=1)
    assert all("takes" not in e for e in to_wire(three.view(three.turn))["legal_actions"])
