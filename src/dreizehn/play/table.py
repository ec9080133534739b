"""The table: the one turn loop of the package, shared by simulations, the research adapters and every interface.

A :class:`Table` seats people and bots at one game. On a bot's turn it asks that seat's bot (which sees only its
seat's view); on a person's turn it waits for :meth:`Table.submit`. Every applied action becomes an :class:`Update`:
the version it made (the number of actions applied), who did what, and the events (:mod:`dreizehn.core.events`),
which each receiver filters with :meth:`Update.for_seat`. The table keeps the record as it goes
(:meth:`Table.record`) and resumes from one (:meth:`Table.resume`).

>>> table = Table.create("knizia13", [Seat("Anna"), Seat("Ada", bot="heuristic"), Seat("Bruno", bot="random")],
...                      seed=3)
>>> table.current_player, table.waiting_for_person
(1, False)
>>> [update.seat for update in table.play_bots()]
[1, 2]
>>> update = table.submit(0, table.view(0).legal_actions[0], version=2)
>>> update.version, update.events[0].key
(3, 'knizia13.played')

From asyncio, :meth:`Table.play_bots_async` runs each bot's decision in an executor (a pool of worker processes, or
threads), so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dreizehn.bots.base import Bot, make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.core.errors import DreizehnError, GameOverError, IllegalActionError, InvalidOptionError
from dreizehn.core.events import Event
from dreizehn.core.game import Game, State, View
from dreizehn.core.record import replay, to_record
from dreizehn.core.registry import load_game


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person (``bot`` is ``None``) or a bot, named by its specification or level."""

    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.bot is not None


class Update(NamedTuple):
    """One applied action: ``version`` is the number of actions applied with it, ``action`` its text (a named
    tuple: a simulation makes one per action)."""

    version: int
    seat: int
    action: str
    events: tuple[Event, ...]

    def for_seat(self, seat: int | None) -> Update:
        """The update as ``seat`` may know it (``None``: a spectator)."""
        return Update(self.version, self.seat, self.action, tuple(e.for_seat(seat) for e in self.events))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (filter it with :meth:`for_seat` first)."""
        return {"version": self.version, "seat": self.seat, "action": self.action,
                "events": [event.to_json() for event in self.events]}


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not to move (or from a seat a bot plays)."""


class StaleVersionError(DreizehnError):
    """An action chosen in an earlier version of the game than the table's: it is refused, and the sender resyncs
    (W6). ``given`` is the version the action was chosen in, ``current`` the table's."""

    def __init__(self, code: str = "table.stale", /, *, given: int, current: int, rule: str | None = "W6",
                 **params: Any) -> None:
        super().__init__(code, rule=rule, given=given, current=current, **params)
        self.given = given
        self.current = current


Listener = Callable[[Update], None]


@dataclass
class MoveTimes:
    """Per seat: the seconds its bot spent deciding, its number of decisions and the longest one."""

    think: list[float]
    moves: list[int]
    worst: list[float]

    @classmethod
    def zero(cls, players: int) -> MoveTimes:
        return cls([0.0] * players, [0] * players, [0.0] * players)

    def add(self, seat: int, seconds: float) -> None:
        self.think[seat] += seconds
        self.moves[seat] += 1
        self.worst[seat] = max(self.worst[seat], seconds)


def bot_rng(seed: int, seat: int) -> random.Random:
    """The random generator of the bot at ``seat`` in the game with ``seed`` (the same in every interface, so a
    game between bots is the same game wherever it is played)."""
    return random.Random(f"{seed}:bot:{seat}")


def decision_rng(seed: int, seat: int, version: int) -> random.Random:
    """The random generator of one decision of the bot at ``seat``, taken after ``version`` actions of the game with
    ``seed``: the same whenever that position is reached again, so that a table rebuilt (after a take-back, S8, or
    a restart) has its bots answer a move played again exactly as before (the game server's bots)."""
    return random.Random(f"{seed}:bot:{seat}:{version}")


@dataclass
class Table:
    """A game at a table: the engine's state, the seats and their bots, the listeners.

    Build one with :meth:`create` (a new game) or :meth:`resume` (from a record). ``events=False`` skips working out
    events (simulations, which need only the result): updates then carry none.
    """

    game: Game
    seats: tuple[Seat, ...]
    seed: int
    _state: State
    events: bool = True
    given_bots: Mapping[int, Bot] | None = None
    """Bots already made, by seat (an environment's opponents); the other bot seats' bots are made from their
    specifications."""
    times: MoveTimes = field(init=False)
    _bots: dict[int, Bot] = field(init=False, default_factory=dict)
    _rngs: dict[int, random.Random] = field(init=False, default_factory=dict)
    _listeners: list[Listener] = field(init=False, default_factory=list)
    ended_by: int | None = field(init=False, default=None)
    """The seat whose person's time ran out and ended the game before its rules did (:meth:`end`)."""

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.players:
            raise InvalidOptionError("table.seats", rule=self.game.player_rule, seats=len(self.seats),
                                     players=self.game.players)
        self.times = MoveTimes.zero(self.game.players)
        self._texts = self.game.action_type._texts
        given = self.given_bots or {}
        for seat, who in enumerate(self.seats):
            if who.bot is not None:
                spec = level_spec(who.bot, self.game.id, self.game.players, self.game.options)
                self._bots[seat] = given.get(seat) or make_bot(spec, self.game)
                self._rngs[seat] = bot_rng(self.seed, seat)

    # -- making tables ------------------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: Game | str,
        seats: Sequence[Seat | str],
        seed: int,
        *,
        options: Mapping[str, object] | None = None,
        events: bool = True,
    ) -> Table:
        """A new game at a table. ``game`` is a :class:`Game` or a game id (then the player count is the number of
        seats and ``options`` the game's options); a seat given as text is a person of that name."""
        filled = tuple(Seat(s) if isinstance(s, str) else s for s in seats)
        if isinstance(game, str):
            game = load_game(game, len(filled), options)
        return cls(game, filled, seed, game.new_state(seed), events)

    @classmethod
    def resume(cls, record: Mapping[str, Any], seats: Sequence[Seat | str], seed: int, *, events: bool = True) -> Table:
        """The table where ``record`` stops (replayed and checked); shuffles still to come are drawn from ``seed``,
        so a game resumed with its own seed goes on exactly as it would have."""
        state = replay(record)
        state.reseed(seed)
        filled = tuple(Seat(s) if isinstance(s, str) else s for s in seats)
        return cls(state.game, filled, seed, state, events)

    # -- what everyone may ask ----------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of actions applied: an action must name the version it was chosen in."""
        return len(self._state.log)

    @property
    def current_player(self) -> int:
        """The seat to move, -1 once the game is over."""
        return -1 if self.ended_by is not None else self._state.current_player

    @property
    def is_over(self) -> bool:
        """Whether the game is over: by its rules, or ended by a person's time (:meth:`end`)."""
        return self._state.is_over or self.ended_by is not None

    def end(self, seat: int) -> None:
        """End the game now, before its rules do: the person of ``seat`` let their time run out at a turn-based
        table whose rule ends the game with them last. Nothing can be played after."""
        self.ended_by = seat

    @property
    def waiting_for_person(self) -> bool:
        """Whether the game waits for a person's action."""
        return not self.is_over and not self.seats[self.current_player].is_bot

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is to move."""
        return not self.is_over and self.seats[self.current_player].is_bot

    @property
    def state(self) -> State:
        """The engine's state, for the engine's own tools (records, tests). Interfaces use :meth:`view` alone."""
        return self._state

    def view(self, seat: int) -> View:
        """What ``seat`` may know now."""
        return self._state.view(seat)

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def record(self) -> dict[str, Any]:
        """The game's record so far (docs/record-format.md)."""
        return to_record(self._state, self.names())

    def opening_events(self) -> list[Event]:
        """What a receiver is told when the game starts: the deal of the stage in progress."""
        return [self._state.deal_event()] if not self.is_over else []

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every update, as it happens (unfiltered: each listener filters for its receiver)."""
        self._listeners.append(listener)

    # -- acting -------------------------------------------------------------------------------------------------

    def submit(self, seat: int, action: int | str, version: int | None = None) -> Update:
        """A person's action for ``seat``; ``version`` is the version it was chosen in (checked when given).
        Refusals raise a :class:`DreizehnError` naming the rule and change nothing."""
        if self.is_over:
            raise GameOverError("action.game_over", rule="A6")
        if version is not None and version != self.version:
            raise StaleVersionError("table.stale", rule="W6", given=version, current=self.version)
        if seat != self.current_player:
            raise NotYourTurnError("table.not_your_turn", rule=self.game.turn_rule, current=self.current_player,
                                   seat=seat)
        if self.seats[seat].is_bot:
            raise NotYourTurnError("table.bot_seat", rule=self.game.turn_rule, seat=seat)
        return self._apply(seat, action)

    def apply_as(self, seat: int, action: int | str) -> Update:
        """Apply an action for ``seat``, which must be to move, whoever plays it (an action stored by another
        server process, or a stand-in's move when a person's clock ran out)."""
        if self.is_over:
            raise GameOverError("action.game_over", rule="A6")
        if seat != self.current_player:
            raise NotYourTurnError("table.not_your_turn", rule=self.game.turn_rule, current=self.current_player,
                                   seat=seat)
        return self._apply(seat, action)

    def decide(self) -> int:
        """The action the bot to move chooses (timed); call :meth:`apply_bot` with it, or use :meth:`step`."""
        seat = self.current_player
        bot = self._bots.get(seat)
        if bot is None:
            raise NotYourTurnError("table.person_seat", rule=self.game.turn_rule, seat=seat)
        start = time.perf_counter()
        action = bot.act(self._state.view(seat), self._rngs[seat])
        self.times.add(seat, time.perf_counter() - start)
        return action

    def apply_bot(self, action: int) -> Update:
        """Apply the bot's action at the seat to move."""
        return self._apply(self.current_player, action)

    def step(self) -> Update:
        """Let the bot to move play one action."""
        return self.apply_bot(self.decide())

    def play_bots(self) -> list[Update]:
        """Let the bots play until a person must act or the game is over (what :meth:`step` does, in a loop kept
        tight for simulations)."""
        updates = []
        state, seats, bots, rngs, times = self._state, self.seats, self._bots, self._rngs, self.times
        clock = time.perf_counter
        while state.turn >= 0 and seats[state.turn].bot is not None:
            seat = state.turn
            start = clock()
            action = bots[seat].act(state.view(seat), rngs[seat])
            times.add(seat, clock() - start)
            updates.append(self._apply(seat, action))
        return updates

    def bot_request(self, per_decision: bool = False) -> BotRequest:
        """What a worker needs to decide for the bot to move (:func:`decide_in_worker`); apply its answer with
        :meth:`apply_bot_answer`. The generator is the seat's stream (:func:`bot_rng`, as every decision of a
        simulation draws from), or with ``per_decision`` one of this decision alone (:func:`decision_rng`)."""
        seat = self.current_player
        bot = self._bots.get(seat)
        if bot is None:
            raise NotYourTurnError("table.person_seat", rule=self.game.turn_rule, seat=seat)
        rng = decision_rng(self.seed, seat, self.version) if per_decision else self._rngs[seat]
        return BotRequest(bot.spec, self.game.id, self.game.players, dict(self.game.options),
                          self._state.view(seat), rng)

    def apply_bot_answer(self, request: BotRequest, action: int, rng: random.Random, seconds: float) -> Update | None:
        """Apply a worker's answer to ``request``, unless the table moved on meanwhile (then ``None``)."""
        if self.version != len(request.view.history) or self.is_over:
            return None
        seat = self.current_player
        self.times.add(seat, seconds)
        self._rngs[seat] = rng
        return self.apply_bot(action)

    def replace(self, seat: int, bot: str | None) -> None:
        """Let a bot (a specification or level) play ``seat`` for a person who is away, or give the seat back to
        the person (``bot`` ``None``)."""
        who = self.seats[seat]
        seats = list(self.seats)
        seats[seat] = Seat(who.name, bot=bot)
        self.seats = tuple(seats)
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = make_bot(bot, self.game)
            self._rngs.setdefault(seat, bot_rng(self.seed, seat))

    def rewind(self, state: State) -> None:
        """Go back to ``state``, a state this game was in before (a take-back, :mod:`dreizehn.play.undo`): the game
        goes on
        from it, with the same seats, bots and listeners."""
        self._state = state

    async def play_bots_async(self, executor: Executor | None = None, pause: float = 0.0) -> list[Update]:
        """The same from asyncio: each decision runs in ``executor`` (the loop's default one if ``None``), after
        ``pause`` seconds, so people can follow."""
        loop = asyncio.get_running_loop()
        updates = []
        while self.bot_to_move:
            if pause:
                await asyncio.sleep(pause)
                if not self.bot_to_move:
                    break
            request = self.bot_request()
            start = time.perf_counter()
            action, rng = await loop.run_in_executor(executor, decide_in_worker, request)
            update = self.apply_bot_answer(request, action, rng, time.perf_counter() - start)
            if update is not None:
                updates.append(update)
        return updates

    def _apply(self, seat: int, action: int | str) -> Update:
        state = self._state
        if self.events:
            events = tuple(state.apply_with_events(action))
        else:
            state.apply(action)
            events = ()
        update = Update(len(state.log), seat, self._texts[state.log[-1][1]], events)
        for listener in self._listeners:
            listener(update)
        return update


@dataclass(frozen=True)
class BotRequest:
    """What a worker process needs to decide for a bot: its specification, the game, the view and its generator."""

    spec: str
    game_id: str
    players: int
    options: dict[str, Any]
    view: View
    rng: random.Random


_WORKER_BOTS: dict[tuple[str, str, int, str], Bot] = {}


def decide_in_worker(request: BotRequest) -> tuple[int, random.Random]:
    """A bot's decision in a worker (process or thread): the action and the generator as it was left."""
    key = (request.spec, request.game_id, request.players, repr(sorted(request.options.items())))
    bot = _WORKER_BOTS.get(key)
    if bot is None:
        bot = _WORKER_BOTS[key] = make_bot(request.spec, load_game(request.game_id, request.players, request.options))
    action = bot.act(request.view, request.rng)
    return int(action), request.rng
