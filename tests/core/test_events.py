"""Events (issue 12 item 2): every applied action says what it did, and each seat receives only what its view allows."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import dreizehn
from dreizehn.core.events import EVERYONE, Event, EventError
from dreizehn.core.game import State, View
from dreizehn.core.wire import to_wire

CASES = [(game_id, players) for game_id in dreizehn.game_ids()
         for players in (dreizehn.game_class(game_id).min_players, dreizehn.game_class(game_id).max_players)]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _cards(state: State, value: Any) -> set[int]:
    """Every card named anywhere in a JSON value."""
    found = set()
    for text in _strings(value):
        with contextlib.suppress(dreizehn.DreizehnError):
            found.add(int(state.game.parse_card(text)))
    return found


def _visible(state: State, view: View) -> set[int]:
    return _cards(state, to_wire(view, history=False))


def _random_games(game_id: str, players: int, count: int) -> Iterator[tuple[State, State, int, list[Event]]]:
    """(state before, state after, seat, events) for every action of ``count`` random games."""
    game = dreizehn.load_game(game_id, players, dreizehn.game_class(game_id).quick_options)
    rng = random.Random(players)
    for _ in range(count):
        state = game.new_state(rng.getrandbits(32))
        while not state.is_over:
            before = state.copy()
            seat = state.current_player
            legal = state.legal_actions()
            eager = [a for a in legal if a in game.eager_actions]
            events = state.apply_with_events(rng.choice(eager or legal))
            yield before, state, seat, events


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_events_reveal_no_hidden_card(game_id: str, players: int, scale: Callable[[int, int], int]) -> None:
    """Each receiver's events name only cards its view showed before or after the action (the scoring of a finished
    stage reveals the hands, as scoring at a table does); a spectator gets no private part."""
    for before, after, _, events in _random_games(game_id, players, scale(3, 30)):
        played = after.game.action_type.of(after.log[-1][1]).card  # type: ignore[attr-defined]
        for receiver in range(players):
            allowed = _visible(before, before.view(receiver)) | _visible(after, after.view(receiver))
            allowed |= {int(played)} if played is not None else set()  # every play is public
            for event in events:
                if event.key == "stage.scored":
                    continue
                mine = event.for_seat(receiver)
                leaked = _cards(after, mine.to_json()) - allowed
                assert not leaked, f"{event.key} tells seat {receiver} of {leaked}: {mine}"
                assert not mine.private
        for event in events:
            public = event.for_seat(None)
            assert not public.private and "private" not in public.to_json()
            assert set(public.params) == set(event.params)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_stage_events_agree_with_the_scores(game_id: str, players: int) -> None:
    """``stage.scored`` carries the stage's scores and its explanation's points; ``game.over`` the winners; every
    other stage is dealt with each hand private to its seat."""
    scored = dealt = 0
    for before, after, _, events in _random_games(game_id, players, 2):
        keys = [e.key for e in events]
        if after.stage == before.stage:
            assert "stage.scored" not in keys and "stage.dealt" not in keys
            continue
        scoring = events[keys.index("stage.scored")]
        assert scoring.params["scores"] == list(after.stage_scores[-1])
        assert scoring.params["totals"] == list(after.totals)
        explanation = scoring.params["explanation"]
        if "points" in explanation:
            assert explanation["points"] == list(after.stage_scores[-1])
        scored += 1
        if after.is_over:
            assert events[-1] == Event("game.over", {"totals": list(after.totals), "winners": list(after.winners)})
        else:
            deal = events[-1]
            assert deal.key == "stage.dealt" and deal.params["stage"] == after.stage
            for seat in range(players):
                hand = [card.text for card in after.view(seat).hand]  # type: ignore[attr-defined]
                assert deal.for_seat(seat).params["hand"] == hand
            assert "hand" not in deal.for_seat(None).params
            dealt += 1
    assert scored and scored == dealt + 2


def test_knizia13_play_event_names_the_cards_taken() -> None:
    """K11: pushing a target over 13 takes the cards that lay there; the event names them and the new sum."""
    state = dreizehn.new_game("knizia13", players=3, seed=5)
    for _ in range(200):
        before = state.copy()
        action = state.legal_actions()[0]
        events = state.apply_with_events(action)
        played = events[0]
        target = ("blue", "yellow", "green").index(played.params["target"])
        cards = [c.text for c in before.view(0).targets[target]]  # type: ignore[attr-defined]
        now = [c.text for c in state.view(0).targets[target]] if state.stage == before.stage else None  # type: ignore[attr-defined]
        if played.params["took"]:
            assert played.params["took"] == cards
            assert now is None or now == [played.params["card"]]
        elif now is not None:
            assert now == [*cards, played.params["card"]]
        if state.is_over:
            break


def test_event_json_round_trip_and_refusals() -> None:
    event = Event("holzwurm.took", {"seat": 1, "cards": ["Y1", "13"]}, private={1: {"x": 1}})
    assert Event.from_json(event.to_json()) == event
    assert event.for_seat(EVERYONE) == event
    assert event.for_seat(0).to_json() == {"key": "holzwurm.took", "params": {"seat": 1, "cards": ["Y1", "13"]}}
    for bad in ({"key": 1, "params": {}}, {"key": "a"}, {"key": "a", "params": {}, "extra": 1},
                {"key": "a", "params": {}, "private": {"x": {}}}):
        with pytest.raises(EventError):
            Event.from_json(bad)
