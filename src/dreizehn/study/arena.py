"""The arena: any agent against the bot levels, on published seeds with the seats rotated (docs/envs.md#the-arena).

An agent is a bot specification or level (``expert``), or Python code named ``module:attribute``: a function, or a
class (made with the game, or with nothing) whose ``act`` method decides. It decides from one of two things, told
apart by how many arguments it takes: ``act(view)`` gets the seat's view (:class:`~dreizehn.core.game.View`, what a
bot sees); ``act(observation, mask)`` gets the seat's observation tensor (docs/envs.md's layout, ``float32``) and
its legal actions as a ``bool`` vector. It returns an action number (or its text).

Game ``g`` against a level is the game's seed ``seed + g`` with the agent in seat ``g % players`` and the level in
every other seat, so every level meets the agent on the same deals, and the same seeds give the same games on any
machine. A fault (the agent raises, returns no legal action, or takes longer than ``time_limit`` seconds; its first
move of the run, where code loads and compiles, :data:`FIRST_MOVE` seconds or ``time_limit`` if longer) is
recorded and forfeits the game: from that move on the ``random`` bot plays the agent's seat, the game is finished
so that the levels' points count, and the agent is placed last in it for the ratings whatever it scored.

>>> import dreizehn
>>> result = play_arena("knizia13", 4, "random", levels=["easy"], games=4, seed=1)
>>> [(row.level, row.games) for row in result.rows], len(result.faults)
([('easy', 4)], 0)
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dreizehn.bots.base import Bot, bot_names, make_bot
from dreizehn.bots.levels import LEVEL_NAMES
from dreizehn.bots.offered import offered_levels
from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import UsageError
from dreizehn.core.game import Game, State
from dreizehn.core.registry import load_game
from dreizehn.study.stats import Z95, mean_sd, ranks

SEED = 480_000
"""The arena's published seeds start here: game ``g`` is the game's seed ``SEED + g``."""
TIME_LIMIT = 10.0
"""Seconds an agent may take for one move by default."""

FIRST_MOVE = 120.0
"""Seconds the agent's first move of a run may take (a search's compiled code loads then, on a busy machine 10 s)."""

Decide = Callable[[State, int, random.Random], object]


@dataclass
class Agent:
    """What plays the agent's seat: its name and how it decides (from the state, but seeing only its seat's)."""

    name: str
    decide: Decide


def load_agent(text: str, game: Game) -> Agent:
    """The agent written ``text``: a level or bot specification, or ``module:attribute`` (the module imported with
    the working folder first on the path). Refused as :class:`UsageError` (C10) where it is neither."""
    head = text.split(":", 1)[0].strip()
    if head.lower() in LEVEL_NAMES or head in bot_names():
        bot = make_bot(text, game)
        return Agent(text, lambda state, seat, rng: bot.act(state.view(seat), rng))
    module_name, sep, attribute = text.partition(":")
    if not sep or not module_name or not attribute:
        raise UsageError("arena.agent", rule="C10", agent=text, reason="not module:attribute")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as err:
        raise UsageError("arena.agent", rule="C10", agent=text, reason=str(err)) from None
    if isinstance(found, type):
        found = found(game) if _arguments(found) >= 1 else found()
        found = getattr(found, "act", None)
        if not callable(found):
            raise UsageError("arena.agent", rule="C10", agent=text, reason="its class has no act method")
    if not callable(found):
        raise UsageError("arena.agent", rule="C10", agent=text, reason="neither a function nor a class")
    return Agent(text, _decider(found, _arguments(found), game, text))


def _arguments(function: Callable[..., Any]) -> int:
    """How many arguments ``function`` takes without a default (a class: its ``__init__``, ``self`` left out)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(1 for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _decider(act: Callable[..., object], count: int, game: Game, text: str) -> Decide:
    """How an agent's ``act`` of ``count`` arguments is called: with the view, or with the observation and mask."""
    if count == 1:
        return lambda state, seat, rng: act(state.view(seat))
    if count != 2:
        raise UsageError("arena.agent_act", rule="C10", agent=text, count=count)
    encoder = encoder_of(game)

    def decide(state: State, seat: int, rng: random.Random) -> object:
        mask = np.zeros(game.num_actions, np.bool_)
        mask[[int(a) for a in state.legal_actions()]] = True
        return act(encoder.observation_of(state, seat), mask)

    return decide


@dataclass
class Fault:
    """A move the agent got wrong: the game (its index and seed), the level, what went wrong and its message."""

    game: int
    seed: int
    level: str
    kind: str
    """``raised``, ``illegal`` or ``time``."""
    message: str


@dataclass
class Row:
    """The agent against one level: its margin in each game (its total minus the mean of the level's seats',
    signed so that more is better) and its place (1 = first, shared places halved)."""

    level: str
    margins: list[float] = field(default_factory=list)
    wins: float = 0.0

    @property
    def games(self) -> int:
        return len(self.margins)

    def interval(self) -> tuple[float, float, float]:
        """The mean margin and its 95% interval."""
        mean, sd = mean_sd(self.margins)
        half = Z95 * sd / max(1, self.games) ** 0.5
        return mean, mean - half, mean + half


@dataclass
class Arena:
    """What :func:`play_arena` returns: a row per level, the faults, and every game's two places for the ratings."""

    game_id: str
    players: int
    agent: str
    seed: int
    rows: list[Row]
    faults: list[Fault]
    places: list[tuple[str, float, float]]
    """Per game: the level, the agent's place and the level's (the mean of its seats')."""
    moved: bool = False
    """Whether the agent has made its first move of the run."""

    def ratings(self) -> list[tuple[str, float, float]]:
        """openskill (Plackett-Luce) ratings of the agent and every level, from every game: (name, mu, sigma),
        best ordinal (mu - 3 sigma) first. The levels meet only the agent here, so they are rated through it."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        current = {name: model.rating(name=name) for name in [self.agent, *(row.level for row in self.rows)]}
        for level, mine, theirs in self.places:
            rated = model.rate([[current[self.agent]], [current[level]]], ranks=[mine, theirs])
            current[self.agent], current[level] = rated[0][0], rated[1][0]
        table = [(name, r.mu, r.sigma) for name, r in current.items()]
        return sorted(table, key=lambda t: -(t[1] - 3 * t[2]))


def play_arena(game_id: str, players: int | None, agent: str, *, levels: Sequence[str] | None = None,
               games: int = 40, seed: int = SEED, time_limit: float = TIME_LIMIT,
               options: dict[str, object] | None = None,
               progress: Callable[[int], None] | None = None) -> Arena:
    """``games`` games of ``agent`` against each of ``levels`` (the game's own by default), as the module says."""
    from dreizehn.core.registry import game_class

    game = load_game(game_id, players or game_class(game_id).min_players, options or {})
    loaded = load_agent(agent, game)
    chosen = list(levels) if levels else list(offered_levels(game))
    arena = Arena(game_id, game.players, agent, seed, [], [], [])
    for level in chosen:
        row = Row(level)
        bot = make_bot(level, game)
        for g in range(games):
            _one_game(game, loaded, bot, g, seed + g, time_limit, row, arena)
            if progress is not None:
                progress(1)
        arena.rows.append(row)
    return arena


def _one_game(game: Game, agent: Agent, bot: Bot, index: int, seed: int, time_limit: float, row: Row,
              arena: Arena) -> None:
    """Game ``index`` of ``agent`` against ``bot``'s level, added to ``row`` and ``arena``."""
    state = game.new_state(seed)
    seat = index % game.players
    rngs = [random.Random(seed * 31 + s) for s in range(game.players)]
    stand_in = make_bot("random", game)
    fault: Fault | None = None
    while not state.is_over:
        turn = state.current_player
        if turn == seat and fault is None:
            limit = time_limit if arena.moved else max(time_limit, FIRST_MOVE)
            arena.moved = True
            action, fault = _agent_move(agent, state, seat, rngs[seat], limit)
            if fault is not None:
                fault = Fault(index, seed, row.level, fault.kind, fault.message)
                arena.faults.append(fault)
                action = stand_in.act(state.view(seat), rngs[seat])
        elif turn == seat:
            action = stand_in.act(state.view(seat), rngs[seat])
        else:
            action = bot.act(state.view(turn), rngs[turn])
        state.apply(action)
    sign = 1.0 if game.high_score_wins else -1.0
    totals = state.totals
    others = [t for s, t in enumerate(totals) if s != seat]
    row.margins.append(sign * (totals[seat] - sum(others) / len(others)))
    places = ranks(totals, game.high_score_wins)
    mine = float(game.players) if fault is not None else places[seat]
    row.wins += 0.0 if fault is not None else float(state.returns()[seat])
    theirs = sum(p for s, p in enumerate(places) if s != seat) / len(others)
    arena.places.append((row.level, mine, theirs))


def _agent_move(agent: Agent, state: State, seat: int, rng: random.Random,
                time_limit: float) -> tuple[int, Fault | None]:
    """The agent's action, asked in a thread of its own and waited for ``time_limit`` seconds; or the fault."""
    answer: list[object] = []
    failure: list[BaseException] = []

    def ask() -> None:
        try:
            answer.append(agent.decide(state.copy(), seat, rng))
        except Exception as err:  # any error of the agent's is its fault, reported, and play goes on
            failure.append(err)

    worker = threading.Thread(target=ask, daemon=True)
    started = time.perf_counter()
    worker.start()
    worker.join(time_limit)
    if worker.is_alive() or (not failure and not answer):
        return -1, Fault(0, 0, "", "time", f"no answer within {time_limit:g} s "
                                         f"({time.perf_counter() - started:.2f} s waited)")
    if failure:
        return -1, Fault(0, 0, "", "raised", f"{type(failure[0]).__name__}: {failure[0]}")
    chosen = answer[0]
    legal = [int(a) for a in state.legal_actions()]
    try:
        number = int(state.game.parse_action(chosen)) if isinstance(chosen, str) else int(chosen)  # type: ignore[call-overload]
    except Exception:  # an answer that is no action is an illegal one
        number = None
    if number not in legal:
        return -1, Fault(0, 0, "", "illegal", f"{chosen!r} is not a legal action here")
    return number, None
