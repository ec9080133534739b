"""Play the same deals through a game's compiled kernel and the reference engine, step by step, and compare
everything a seat or the rules can tell apart: the seat to move, the legal actions, every seat's observation (which
holds its hand, the table, the sizes and the totals: docs/envs.md), what each play did (its events), each stage's
scores, the totals and the winners; and that every refusal changes nothing and gives the engine's reason (its code,
rule and parameters).

The kernel deals from its own key; the engine is handed the kernel's deals as a record's shuffles are, so both play
the same cards. A kernel whose game also shuffles within a stage (Three Thirteen's reshuffle of the discard pile,
T10) says so by a method ``shuffle_count(states)``, the shuffles each game has made: a step that changes it made
one, whose order ``last_deal`` gives; without it, a step that ends a stage is the one that shuffles. Any
disagreement is the kernel's to fix: the engine and the rules specification decide.
"""

from __future__ import annotations

import numpy as np

from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import Game, State
from dreizehn.core.kernel import (
    FINISHED,
    GAME_OVER,
    ILLEGAL,
    OK,
    OUT_OF_RANGE,
    STAGE_OVER,
    Kernel,
    load_kernel,
    make_keys,
)
from dreizehn.core.registry import load_game
from dreizehn.study.vector import win_shares


class Pair:
    """One game in a kernel row and in the reference engine, kept in step."""

    def __init__(self, game: Game, seed: int) -> None:
        self.kernel: Kernel = load_kernel(game)
        self.states = self.kernel.new(1)
        self.keys = make_keys(seed, 1)
        self.kernel.reset(self.states, self.keys)
        self.row = self.states[0]
        options = self.kernel.resolved_options(self.row)
        self.game = load_game(game.id, game.players, options)
        self.engine: State = self.game.new_state(seed, shuffles=[self.kernel.last_deal(self.row)])
        self.encoder = encoder_of(self.game)
        self.mask = np.zeros((1, self.game.num_actions), np.bool_)
        self.obs = np.zeros((1, self.kernel.obs_size), np.float32)
        self.status = np.zeros(1, np.int8)
        self.shuffle_count = getattr(self.kernel, "shuffle_count", None)

    def legal(self) -> list[int]:
        self.kernel.legal(self.states, self.mask)
        return [int(a) for a in np.flatnonzero(self.mask[0])]

    def check(self, views: bool = True) -> None:
        """The kernel and the engine agree on everything a seat sees."""
        engine = self.engine
        assert int(self.kernel.current(self.states)[0]) == engine.current_player
        assert self.legal() == [int(a) for a in engine.legal_actions()]
        assert self.kernel.totals(self.states)[0].tolist() == list(engine.totals)
        if not views:
            return
        for seat in range(self.game.players):
            self.kernel.observe(self.states, np.array([seat]), self.obs)
            expected = self.encoder.observation(engine.view(seat))
            if not np.array_equal(self.obs[0], expected):
                layout = self.encoder.observation_layout
                wrong = [b.name for b in layout.blocks
                         if not np.array_equal(layout.block(self.obs[0], b.name), layout.block(expected, b.name))]
                raise AssertionError(f"seat {seat}'s observation differs in {wrong} after {len(engine.log)} actions")

    def refuse(self, action: int) -> None:
        """An action that is not legal changes nothing in either, for the same reason."""
        before = self.row.copy()
        key_before = self.keys.copy()
        self.kernel.step(self.states, self.keys, np.array([action]), self.status)
        assert int(self.status[0]) in (ILLEGAL, FINISHED, OUT_OF_RANGE)
        assert np.array_equal(self.row, before) and np.array_equal(self.keys, key_before)
        reason = self.kernel.why(self.row, action)
        try:
            self.engine.copy().apply(action)
        except DreizehnError as err:
            assert (type(err), err.to_json()) == (type(reason), reason.to_json())
        else:
            raise AssertionError(f"the engine took action {action}, which the kernel refused")

    def shuffles(self) -> int:
        """The shuffles the kernel's game has made, where the kernel tells (else 0)."""
        return int(self.shuffle_count(self.states)[0]) if self.shuffle_count else 0

    def play(self, action: int) -> list[str]:
        """Apply ``action`` to both; the keys of the engine's events."""
        engine = self.engine
        stage = engine.stage
        shuffles = self.shuffles()
        self.kernel.step(self.states, self.keys, np.array([action]), self.status)
        status = int(self.status[0])
        shuffled = self.shuffles() != shuffles if self.shuffle_count else status == STAGE_OVER
        if shuffled:
            engine.await_shuffles([self.kernel.last_deal(self.row)])
        made = len(engine.shuffles)
        events = engine.apply_with_events(action)
        assert len(engine.shuffles) - made == shuffled, "the kernel and the engine shuffled in different steps"
        expected = GAME_OVER if engine.is_over else STAGE_OVER if engine.stage != stage else OK
        assert status == expected, (status, expected)
        if status != OK:
            assert self.kernel.stage_scores(self.states)[0].tolist() == list(engine.stage_scores[-1])
        if status == GAME_OVER:
            shares = win_shares(self.kernel.totals(self.states), self.game.high_score_wins)[0]
            # the batched environment's shares are float32: a win shared by three is 1/3 rounded to float32
            assert shares.tolist() == np.array(engine.returns(), np.float32).tolist()
        return [event.key for event in events]


def play_games(game: Game, seeds: range, *, views_every: int = 1, refusals: bool = True,
               eager: float = 0.9) -> int:
    """Play one game per seed through both, uniformly at random from a generator seeded alike, taking one of the
    game's eager actions (Three Thirteen's ways out) with probability ``eager`` where one is legal, as the
    ``random`` bot always does, so that random games end; the actions played."""
    actions = 0
    for seed in seeds:
        pair = Pair(game, seed)
        rng = np.random.default_rng(seed)
        while True:
            pair.check(views=actions % views_every == 0)
            legal = pair.legal()
            if not legal:
                break
            if refusals and rng.random() < 0.05:
                outside = [a for a in range(game.num_actions) if a not in legal] + [-1, game.num_actions]
                pair.refuse(int(rng.choice(outside)))
            finishing = [a for a in legal if a in game.eager_actions]
            if finishing and rng.random() < eager:
                legal = finishing
            pair.play(int(rng.choice(legal)))
            actions += 1
        for action in (0, -1, game.num_actions):  # a finished game refuses any number, a wrong one first (A5, A6)
            pair.refuse(action)
    return actions
