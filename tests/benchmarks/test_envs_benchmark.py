"""``benchmarks/bench_envs.py``: our OpenSpiel adapter and its anchors counted alike, a step a player's decision,
the deal played but not counted, each chance outcome drawn by its probability."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from benchmark_scripts import load

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("dreizehn.envs.openspiel")

bench = load("bench_envs")


class Kept:
    """A game whose states are kept, to read their histories after the benchmark played them."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.states: list[Any] = []

    def new_initial_state(self) -> Any:
        state = self.game.new_initial_state()
        self.states.append(state)
        return state


@pytest.mark.parametrize(("name", "params", "tensor"), [("dreizehn_knizia13", {"players": 3}, "observation"),
                                                        ("hearts", {}, "information_state")])
def test_a_step_is_a_decision_and_the_deal_is_not_counted(name: str, params: dict[str, Any], tensor: str) -> None:
    kept = Kept(pyspiel.load_game(name, params))
    decisions = bench.play_decisions(kept, random.Random(2), tensor)
    (state,) = kept.states
    players = [item.player for item in state.full_history()]
    assert state.is_terminal() and players.count(pyspiel.PlayerId.CHANCE) > 20
    assert decisions == len(players) - players.count(pyspiel.PlayerId.CHANCE)


def test_a_chance_outcome_is_drawn_by_its_probability() -> None:
    class Node:
        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(3, 0.25), (7, 0.75)]

    rng = random.Random(1)
    drawn = Counter(bench.draw_chance(Node(), rng) for _ in range(4000))
    assert set(drawn) == {3, 7} and 850 < drawn[3] < 1150
