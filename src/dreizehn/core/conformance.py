"""Conformance checks that every game must pass, whatever its rules (run by tests/core/test_conformance.py).

Each check plays random games through the public API and raises ``AssertionError`` with a readable message on the
first violation: every legal action applies; every other action is refused and changes nothing, with an
:class:`~dreizehn.core.errors.IllegalActionError` that names its rule and that every language says (and a number or
text that is no action at all with an :class:`~dreizehn.core.errors.InvalidActionError`); cards are conserved;
games end; views hide what their seat cannot see and sampled states agree with them; records replay to the same
scores; the text notation round-trips.

>>> from dreizehn.core.conformance import check_game
>>> report = check_game("knizia13", players=3, games=1, seed=1)
>>> report.games, report.actions > 0
(1, True)
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dreizehn.core.errors import DreizehnError, IllegalActionError, InvalidActionError
from dreizehn.core.game import Game, State
from dreizehn.core.record import dumps as record_dumps
from dreizehn.core.record import loads, to_record
from dreizehn.core.registry import load_game
from dreizehn.core.wire import to_wire
from dreizehn.words import LANGUAGES, Word, words

Policy = Callable[[State, random.Random], int]


def random_policy(state: State, rng: random.Random) -> int:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


@dataclass
class Report:
    """What a conformance run covered."""

    games: int = 0
    actions: int = 0
    refusals: int = 0
    views: int = 0
    samples: int = 0


def snapshot(state: State) -> tuple[object, ...]:
    """Everything observable of a state, the hidden cards' order included, to detect any change."""
    seats = range(state.game.players)
    return (tuple(state.view(s) for s in seats), tuple(state.all_cards()), tuple(state.log),
            tuple(state.shuffles), tuple(state.stage_scores))


_UNFILLED = re.compile(r"\{\w+(![rsa])?(:[^{}]*)?\}")
"""A template field left in a rendered sentence (a parameter the template names and the error lacks)."""

NOT_ACTIONS: tuple[object, ...] = (-1, "no such action", None, 1.5, True)
"""Inputs that are no action of any game (besides ``num_actions``): each is refused with an InvalidActionError."""


def check_error(err: BaseException, kind: type[DreizehnError], what: str) -> None:
    """``err`` is a refusal as data: a ``kind`` naming its rule, whose code the English catalogue has, said in every
    language with every field filled."""
    assert isinstance(err, kind), f"{what} was refused with {type(err).__name__} ({err}), not {kind.__name__}"
    assert err.rule, f"{what} was refused without a rule: {err}"
    shape = (err.code, err.rule, tuple(sorted((name, _kind(value)) for name, value in err.params.items())))
    if shape in _SAID:  # said well once with parameters of these kinds: saying it again gives nothing new
        return
    assert words("en").has(err.code), f"{what}: the code {err.code!r} has no English catalogue entry"
    for lang in LANGUAGES:
        said = words(lang).error(err)
        assert said.strip() and not _UNFILLED.search(said), f"{what}, said in {lang}, leaves a field: {said!r}"
    _SAID.add(shape)


_SAID: set[tuple[str, str, tuple[tuple[str, str], ...]]] = set()


def _kind(value: object) -> str:
    """What of a parameter decides how it is said: a word's key, a cause's code, else its type."""
    if isinstance(value, Word):
        return f"word {value.key}"
    if isinstance(value, DreizehnError):
        return f"error {value.code}"
    return type(value).__name__


def check_refusals(state: State, rng: random.Random, report: Report, limit: int = 8) -> None:
    """Actions that are not legal are refused with an IllegalActionError (naming a rule, said in every language) and
    change nothing; numbers and texts that are no action at all are refused with an InvalidActionError."""
    legal = set(state.legal_actions())
    illegal = [a for a in range(state.game.num_actions) if a not in legal]
    before = snapshot(state)
    for action in rng.sample(illegal, min(limit, len(illegal))):
        text = state.game.action_to_text(action)
        try:
            state.apply(action)
        except Exception as err:  # any refusal that is not a DreizehnError fails the check
            check_error(err, IllegalActionError, f"the illegal action {text}")
        else:
            raise AssertionError(f"illegal action {text} was accepted")
        report.refusals += 1
    for bad in (state.game.num_actions, *NOT_ACTIONS):
        try:
            state.apply(bad)  # type: ignore[arg-type]  # deliberately no action
        except Exception as err:
            check_error(err, InvalidActionError, f"the input {bad!r}")
        else:
            raise AssertionError(f"{bad!r}, which is no action, was accepted")
        report.refusals += 1
    assert snapshot(state) == before, "a refused action changed the state"


def check_views(state: State, rng: random.Random, report: Report) -> None:
    """Views hide what their seat cannot see; sampled states agree with the view they were sampled from."""
    game = state.game
    for seat in range(game.players):
        view = state.view(seat)
        report.views += 1
        hidden = state.resample_hidden(seat, rng)
        assert hidden.view(seat) == view, f"seat {seat}'s view changes when cards hidden from it are dealt anew"
        sampled = game.sample_state(view, rng)
        report.samples += 1
        assert sampled.view(seat) == view, f"a state sampled from seat {seat}'s view does not agree with the view"
        assert sorted(sampled.all_cards()) == sorted(state.all_cards()), "a sampled state has other cards"
        assert sampled.current_player == state.current_player
        assert sorted(sampled.legal_actions()) == sorted(state.legal_actions()) or seat != state.current_player
        json.dumps(to_wire(view))


def check_game(
    game_id: str,
    players: int,
    options: Mapping[str, object] | None = None,
    *,
    games: int = 10,
    seed: int = 0,
    policy: Policy = random_policy,
    max_actions: int = 100_000,
    every: int = 1,
) -> Report:
    """Play ``games`` random games and check every invariant; ``every`` checks views and refusals on every n-th
    action only (the other invariants are checked on every action)."""
    game = load_game(game_id, players, options)
    rng = random.Random(seed)
    report = Report()
    _check_notation(game)
    for _ in range(games):
        state = game.new_state(rng.getrandbits(32))
        deck = sorted(game.deck)
        steps = 0
        while not state.is_over:
            assert sorted(state.all_cards()) == deck, f"cards are not conserved after {steps} actions"
            legal = state.legal_actions()
            assert legal, "a player to move has no legal action"
            assert legal == sorted(legal), "legal actions are not in index order"
            assert state.current_player in range(players)
            if steps % every == 0:
                check_refusals(state, rng, report)
                check_views(state, rng, report)
                for action in legal:  # every legal action applies, as a number and as its text
                    trial = state.copy()
                    trial.apply(game.action_to_text(action))
            action = policy(state, rng)
            before = state.copy()
            state.apply(action)
            assert before.log != state.log
            steps += 1
            assert steps <= max_actions, f"the game did not end within {max_actions} actions"
        assert state.legal_actions() == [] and state.current_player == -1
        check_views(state, rng, report)  # the final table too
        assert len(state.stage_scores) == state.stage and state.winners
        _check_record(state)
        report.games += 1
        report.actions += steps
    return report


def _check_notation(game: Game) -> None:
    for action in game.action_type.all():
        assert game.parse_action(action.text) == action and str(action) == action.text
        assert game.action_to_text(game.parse_action(action.text)) == action.text
    for card in game.card_type.all():
        assert game.parse_card(card.text) == card


def _check_record(state: State) -> None:
    text = record_dumps(state)
    replayed = loads(text)
    assert replayed.stage_scores == state.stage_scores, "a record does not replay to the same scores"
    assert replayed.log == state.log and replayed.winners == state.winners
    assert to_record(replayed) == to_record(state)
