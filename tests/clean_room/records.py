"""The tests' side of the clean-room replay: records come from the package (seeded random play), the replay
(:mod:`clean_room.driver`) does not. The policies that steer the random play so that every ending is reached."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import dreizehn
from clean_room.driver import replay_record
from clean_room.kit import Replayed
from dreizehn.core.record import to_record

Policy = Callable[[Any, random.Random], str]


def random_policy(state: Any, rng: random.Random) -> str:
    texts: list[str] = state.legal_texts()
    return rng.choice(texts)


def eager_out_policy(state: Any, rng: random.Random) -> str:
    """Three Thirteen: go out whenever an ``out`` action is legal, else play at random."""
    texts: list[str] = state.legal_texts()
    outs = [text for text in texts if text.startswith("out ")]
    return rng.choice(outs or texts)


def careful_policy(state: Any, rng: random.Random) -> str:
    """Holzwurm: never take a row when another play is possible (so that players do play out, H14a)."""
    texts: list[str] = state.legal_texts()
    rows = state.view(state.current_player).rows
    safe = [text for text in texts if text.endswith(">new")
            or int(text.split(">")[0][1:]) > len(rows[int(text.split(">")[1]) - 1].cards)]
    return rng.choice(safe or texts)


def new_shuffle_stops(game_id: str, players: int, seed: int, options: dict[str, object],
                      policy: Policy) -> list[int]:
    """The numbers of actions after which the game has just shuffled (a new stage, or a reshuffle)."""
    state = dreizehn.new_game(game_id, players=players, seed=seed, **options)
    rng = random.Random(seed * 7919 + players)
    stops, count, shuffles = [], 0, len(to_record(state)["shuffles"])
    while not state.is_over:
        state.apply(policy(state, rng))
        count += 1
        now = len(to_record(state)["shuffles"])
        if now > shuffles:
            stops.append(count)
        shuffles = now
    return stops


def make_record(game_id: str, players: int, seed: int, options: dict[str, object],
                policy: Policy = random_policy, stop: int | None = None) -> tuple[dict[str, Any], Any]:
    """Play seeded random actions (``stop`` of them, or to the end) and return (the record, the state)."""
    state = dreizehn.new_game(game_id, players=players, seed=seed, **options)
    rng = random.Random(seed * 7919 + players)
    count = 0
    while not state.is_over and (stop is None or count < stop):
        state.apply(policy(state, rng))
        count += 1
    doc: dict[str, Any] = to_record(state)
    return doc, state


def check_replays(doc: dict[str, Any], state: Any) -> Replayed:
    result = replay_record(copy.deepcopy(doc))
    assert result.stage_scores == [list(stage) for stage in state.stage_scores]
    assert result.over == state.is_over == doc["over"]
    assert doc["winners"] == list(state.winners)
    return result
