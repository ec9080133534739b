"""Hints: every legal action of a view rated with its chance to win the game and the points it leads to.

:func:`analyse` sees only the view of the seat to move, as a bot does. For each legal action it plays the rest of
the **whole game** many times and averages:

* **Worlds.** A world is a complete state sampled from the view (``game.sample_state(view, rng)``: the unseen cards
  dealt uniformly at random, the future shuffles drawn from ``rng``; where the game infers, ``game.infer_state``:
  each deal in proportion to how likely it is given what the seat saw, ``infer``) together with a stream of random
  numbers for the players' choices. Every action rated in a round is played on the *same* worlds (common random
  numbers, as ``ismcts:root=paired`` does), so two actions are compared on the same hidden cards and the same luck.
* **Playouts.** After the action, every seat (the hinted one included) plays as the ``policy`` bot would
  (``heuristic``: each game's rulebook advice, :mod:`dreizehn.bots.heuristic`), each deciding from its own view of
  the world, to the end of the game: the end of the last 13 stage, the 11th Three Thirteen round, the last
  Holzwurm game of the match.
* **Win** is the seat's share of the win at the end (:meth:`~dreizehn.core.game.State.returns`: 1, 1/k for a win
  shared by k seats, 0), **points** the seat's final total (the points already banked included, so that the number
  means what it says: "you will end on about 57"; in 13 and Three Thirteen fewer points are better).
* **Allocation** (``allocation``). ``even`` (the default): every legal action is played on every world, so each
  gets the same number of playouts (at least :data:`MIN_SAMPLES`, whatever the budget). ``halving``: successive
  halving, ``ceil(log2(n))`` rounds for ``n`` legal actions, each round given an equal share of the budget spread
  evenly over the actions still in; after every round but the last the better half (by win chance, then by
  points, on the worlds they all played) stays in, and so does every action level with the last one kept. The
  best actions get more playouts, but the estimates of the actions dropped are biased: they were dropped *because*
  their first playouts went badly. Over 50 positions of 4-player 13 at 100 playouts, the chance given to the move
  then played was 0.055 too low on average where that move had been dropped, and its error (root mean square,
  against 300 playouts of that move alone) was 0.15, against 0.09 with ``even``; so ``even`` is the default.
* **Estimates**: the mean of the action's playouts, and as its **uncertainty** (``win_sd``, ``points_sd``) the
  standard error of that mean, the sampling error alone. The model's error is not in it: the chance assumes that
  everyone plays on like the policy bot and that the unseen cards lie as the deal assumes (uniformly, or by the
  game's model of what the others' play tells). With few playouts that all agree (all won, say) the standard error
  reads 0.
* **Order**, best first: the higher win chance, then the better points, then the lower action number (with
  ``halving``, the actions that stayed in longest come first).

:func:`hint` is what a player is shown: the move the game's hint level would play
(:attr:`~dreizehn.core.game.Game.hint_level`: ``master`` in 13 and Holzwurm, ``expert`` in Three
Thirteen) comes first, the rest by their chance. The playouts' heuristic players make the chances mean
what they say (they are calibrated against games of such players), not the best choice: in 13, the move a hint of
4,000 playouts rates best, played as a bot against two ``expert`` seats, won far less than a fair share
(docs/bots.md, "Hints"). So the choice is the search's and the numbers are the playouts'. Their playouts are spent
so that the two agree where they can: half of the budget on every move alike, the other half (:func:`_race`) on the
search's move and the moves rated above it, on the same new worlds, until each such lead is sure (:data:`SURE`
standard errors of the difference on the worlds both played) or the budget is spent; with no such move, on every
move alike. A move still rated above the search's is named (:attr:`Analysis.rival`) with the reason the search's
comes first (:attr:`Analysis.note`): ``level``, the playouts cannot tell the two apart; ``search``, they can, but the
search looks further ahead than their heuristic players.

The budget is ``playouts`` (playouts over all actions; deterministic for a given ``rng``; spent in whole worlds,
so a few more may be played) or ``seconds`` (checked after every world, each round given its share of the time;
at least one world a round), or both (whichever ends first); with neither, :data:`DEFAULT_SECONDS`. A playout
from the start of a game costs about 6-10 ms in 13, 7-17 ms in Holzwurm and 35-40 ms in Three Thirteen (heuristic
players on one core, in Python), less later in the game; the games' kernels play the ``heuristic`` policy's
playouts compiled (:func:`_compiled_rate`), 7 to 70 times faster.

How well the chances mean what they say is measured by ``benchmarks/hint_calibration.py`` (docs/bots.md, "Hints").

>>> import dreizehn
>>> state = dreizehn.new_game("holzwurm", players=2, seed=4)
>>> analysis = analyse(state.view(state.current_player), playouts=40, rng=1)
>>> sorted(r.action for r in analysis.ratings) == list(state.legal_actions())
True
>>> best = analysis.best
>>> 0.0 <= best.win <= 1.0 and best.samples >= MIN_SAMPLES
True
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from dreizehn.bots.base import Bot, make_bot
from dreizehn.bots.levels import level_name, level_spec
from dreizehn.core.errors import BotError, InvalidActionError, InvalidOptionError
from dreizehn.core.game import Game, State, View
from dreizehn.core.kernel import load_kernel
from dreizehn.core.registry import load_game

Rate = Callable[[View, list[int], int, int], "tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]"]
"""A kernel's hint playouts: view, actions, worlds, seed; the seat's win shares and final totals per action and
world."""

DEFAULT_SECONDS = 2.0
"""The budget of :func:`analyse` when neither ``playouts`` nor ``seconds`` is given."""
DEFAULT_POLICY = "heuristic"
"""The bot every seat plays as in the playouts."""
HINT_SEARCH = "auto"
"""The default search of :func:`hint`: the game's own hint level (:attr:`~dreizehn.core.game.Game.hint_level`, the
strongest level whose moves take well under a hint's time)."""
MIN_SAMPLES = 2
"""The fewest playouts of any action (so that every standard error is defined)."""
ALLOCATIONS = ("even", "halving")
"""How :func:`analyse` shares the playouts out among the actions (the module docstring says how)."""


@dataclass(frozen=True)
class ActionRating:
    """One legal action, rated: its chance to win the game and the seat's expected final total, each with its
    standard error, over ``samples`` playouts.

    >>> ActionRating(3, "B5", 0.25, 0.05, 41.5, 2.25, 60).to_json()["win"]
    0.25
    """

    action: int
    text: str
    win: float
    """The seat's expected share of the win, in [0, 1]."""
    win_sd: float
    """The standard error of :attr:`win` (the sampling error)."""
    points: float
    """The seat's expected total at the end of the game."""
    points_sd: float
    """The standard error of :attr:`points`."""
    samples: int
    """The playouts behind the numbers."""

    def to_json(self) -> dict[str, Any]:
        """The rating as a JSON-ready dict (the action in text notation)."""
        return {"action": self.text, "win": self.win, "win_sd": self.win_sd, "points": self.points,
                "points_sd": self.points_sd, "samples": self.samples}


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found: every legal action of ``seat``, rated, best first.

    ``playouts`` counts the playouts over all actions, ``worlds`` the sampled worlds, ``inferred`` whether they
    were dealt by what the seat saw; ``seconds`` (left out of comparisons) the time taken.
    """

    game_id: str
    seat: int
    ratings: tuple[ActionRating, ...]
    playouts: int
    worlds: int
    policy: str
    inferred: bool = False
    seconds: float = field(default=0.0, compare=False)
    search: str | None = None
    """The search whose move comes first (:func:`hint`), or ``None`` where the ratings are in the order of their
    chances."""
    choice: int | None = None
    """The move of :attr:`search`."""
    level: str | None = None
    """The level whose specification :attr:`search` is (the game's hint level, say ``expert``), or ``None`` where
    the search was named by its specification."""
    note: str | None = None
    """Why :attr:`choice` comes first although :attr:`rival` shows a better number (:data:`NOTES`): ``level``, the
    playouts are not sure of the rival's lead (under :data:`SURE` standard errors on the worlds both played);
    ``search``, they are, but the search looks further ahead than they do. ``None`` where the choice shows the best
    number (or there is no search)."""
    rival: int | None = None
    """The move showing the best number where :attr:`note` is set, else ``None``."""

    @property
    def best(self) -> ActionRating:
        """The first rating: the action the analysis thinks best (the search's move where there is one)."""
        return self.ratings[0]

    def rating(self, action: int) -> ActionRating:
        """The rating of ``action`` (an :class:`~dreizehn.core.errors.InvalidActionError` if it was not rated)."""
        for r in self.ratings:
            if r.action == action:
                return r
        raise InvalidActionError("hint.not_rated", rule="B6", action=action)

    def to_json(self) -> dict[str, Any]:
        """The analysis as a JSON-ready dict.

        >>> Analysis("knizia13", 0, (), 0, 0, "heuristic").to_json()["ratings"]
        []
        """
        choice = None if self.choice is None else self.rating(self.choice).text
        rival = None if self.rival is None else self.rating(self.rival).text
        return {"game": self.game_id, "seat": self.seat, "policy": self.policy, "playouts": self.playouts,
                "worlds": self.worlds, "inferred": self.inferred, "search": self.search, "choice": choice,
                "level": self.level, "note": self.note, "rival": rival, "seconds": round(self.seconds, 4),
                "ratings": [r.to_json() for r in self.ratings]}


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (the sample standard deviation over the square root of their
    number; 0 for a single value).

    >>> mean_se([1.0, 0.0, 0.0, 1.0])
    (0.5, 0.28867513459481287)
    """
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)


def play_out(state: State, policy: Bot, rng: random.Random) -> State:
    """Play ``state`` to the end of the game, every seat as ``policy`` decides from its own view; returns it."""
    while state.turn >= 0:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_legal(legal[0])
        else:
            state.apply_legal(policy.act(state.view(state.turn), rng))
    return state


def analyse(
    view: View,
    playouts: int | None = None,
    *,
    seconds: float | None = None,
    rng: random.Random | int | None = None,
    policy: str = DEFAULT_POLICY,
    allocation: str = "even",
    game: Game | None = None,
    infer: bool | None = None,
) -> Analysis:
    """Rate every legal action of ``view`` (whose seat is to move): its chance to win the game and the seat's expected
    final total, with their standard errors, best first (see the module docstring for the method).

    ``playouts``: the budget in playouts over all actions; ``seconds``: in seconds; both: whichever ends first;
    neither: :data:`DEFAULT_SECONDS`. ``rng``: a generator or a seed (``None``: seed 0), so that a budget in
    playouts gives the same analysis for the same view. ``policy``: the bot specification every seat plays as in
    the playouts. ``allocation``: ``even`` (every action on every world) or ``halving`` (successive halving).
    ``game``: the view's game (loaded from the view's id, players and options when not given). ``infer``: deal the
    worlds by what the seat saw (``game.infer_state``) rather than uniformly; ``None``: where the game has such a
    model (``game.infers``).

    >>> import dreizehn
    >>> state = dreizehn.new_game("knizia13", players=3, seed=2)
    >>> a = analyse(state.view(state.current_player), playouts=30, rng=7)
    >>> len(a.ratings) == len(state.legal_actions()), a.playouts >= 30
    (True, True)
    """
    legal = _legal(view, playouts, seconds, allocation)
    if playouts is None and seconds is None:
        seconds = DEFAULT_SECONDS
    if game is None:
        game = load_game(view.game_id, view.players, view.options)
    if not isinstance(rng, random.Random):
        rng = random.Random(0 if rng is None else rng)
    runs = _Playouts.start(view, game, rng, policy, infer, legal)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    dropped: dict[int, int] = {}  # action -> the round after which it was dropped
    alive = list(legal)
    rounds = max(1, math.ceil(math.log2(len(legal)))) if allocation == "halving" else 1
    for number in range(rounds):
        left = rounds - number
        least = MIN_SAMPLES if number == 0 else 1
        target = None if playouts is None else max(least, math.ceil((playouts - runs.spent) / left / len(alive)))
        round_end = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / left
        runs.even(alive, target, least, round_end)
        if number < rounds - 1:
            alive = _halve(alive, runs.wins, runs.points, runs.sign)
            dropped.update((action, number) for action in legal if action not in alive and action not in dropped)
    rated = runs.ratings(legal)
    rated.sort(key=lambda r: (-dropped.get(r.action, rounds), _key(r.win, runs.sign * r.points, r.action)))
    return Analysis(game.id, view.seat, tuple(rated), runs.spent, runs.worlds, policy, runs.infer,
                    time.perf_counter() - start)


def hint(
    view: View,
    playouts: int | None = None,
    *,
    seconds: float | None = None,
    rng: random.Random | int | None = None,
    game: Game | None = None,
    search: str | None = HINT_SEARCH,
) -> Analysis:
    """What a player is shown: the move the level or bot ``search`` plays in ``view`` first, then the other legal
    moves by their chance to win, each rated by playouts as :func:`analyse` rates them (``playouts``, ``seconds``,
    ``rng``, ``game`` as there). The search's time counts against ``seconds``; the playouts get what is left, and at
    least half. ``search="auto"`` (:data:`HINT_SEARCH`): the game's :attr:`~dreizehn.core.game.Game.hint_level`;
    ``search=None``: :func:`analyse` alone.

    The playouts rate every move on the same worlds, then spend the rest of the budget on the search's move and the
    moves rated above it (:func:`_race`), so that the numbers are surest where they decide the order. Where a move
    still shows a better number than the search's, :attr:`Analysis.note` says why the search's comes first anyway
    (``level`` or ``search``) and :attr:`Analysis.rival` names the move shown best.

    >>> import dreizehn
    >>> state = dreizehn.new_game("knizia13", players=3, seed=2)
    >>> h = hint(state.view(state.current_player), playouts=30, rng=7)
    >>> h.level, h.search, h.best.action == h.choice, len(h.ratings) == len(state.legal_actions())
    ('master', 'ismcts:iterations=30000:playout=heuristic:tree=on', True, True)
    """
    if game is None:
        game = load_game(view.game_id, view.players, view.options)
    if not isinstance(rng, random.Random):
        rng = random.Random(0 if rng is None else rng)
    if search is None:
        return analyse(view, playouts, seconds=seconds, rng=rng, game=game)
    if search == HINT_SEARCH:
        search = game.hint_level
    legal = _legal(view, playouts, seconds, "even")
    spec = level_spec(search, game.id, view.players, game.options)
    begun = time.perf_counter()
    choice = int(make_bot(spec, game).act(view, random.Random(rng.getrandbits(64))))
    spent = time.perf_counter() - begun
    if playouts is None and seconds is None:
        seconds = DEFAULT_SECONDS
    runs = _Playouts.start(view, game, rng, DEFAULT_POLICY, None, legal)
    start = time.perf_counter()
    end = None if seconds is None else start + max(seconds - spent, seconds / 2)
    first = None if playouts is None else max(MIN_SAMPLES, math.ceil(playouts * (1 - RACE_SHARE) / len(legal)))
    runs.even(legal, first, MIN_SAMPLES, None if end is None else start + (end - start) * (1 - RACE_SHARE))
    _race(runs, legal, choice, playouts, end)
    rated = runs.ratings(legal)
    rated.sort(key=lambda r: _key(r.win, runs.sign * r.points, r.action))
    note, rival = runs.note(rated[0].action, choice)
    ratings = (runs.rating(rated, choice), *(r for r in rated if r.action != choice))
    return Analysis(game.id, view.seat, ratings, runs.spent, runs.worlds, DEFAULT_POLICY, runs.infer,
                    time.perf_counter() - start + spent, spec, choice, level_name(search, game.id, view.players),
                    note, rival)


RACE_SHARE = 0.5
"""The share of a hint's playouts (or of their time) left for :func:`_race` once every move has had the rest."""
SURE = 2.0
"""Standard errors by which a move must lead the search's move, on the worlds both played, for a hint to call the lead
sure (about 98% one-sided)."""
NOTES = ("level", "search")
"""Why a hint puts the search's move first although another move shows a better number (:attr:`Analysis.note`)."""


def _race(runs: _Playouts, legal: list[int], choice: int, playouts: int | None, end: float | None) -> None:
    """Play new worlds until the budget is spent: on ``choice`` and every move rated above it whose lead is not yet
    sure, where there are such moves; on every legal move where there are none."""
    while (playouts is None or runs.spent < playouts) and (end is None or time.perf_counter() < end):
        rivals = [a for a in legal if a != choice and runs.ahead(a, choice) and not runs.sure(a, choice)]
        actions = [choice, *rivals] if rivals else legal
        count = 1 if runs.rate is None else WORLDS_AT_ONCE * max(1, len(legal) // len(actions))
        if playouts is not None:
            count = max(1, min(count, math.ceil((playouts - runs.spent) / len(actions))))
        runs.play(actions, count)


@dataclass
class _Playouts:
    """The playouts of one analysis: each action's outcomes on the worlds it was played on, and which worlds."""

    game: Game
    view: View
    bot: Bot
    rate: Rate | None
    rng: random.Random
    infer: bool
    sign: float
    """1 where more points are better, -1 where fewer are."""
    wins: dict[int, list[float]]
    points: dict[int, list[float]]
    played: dict[int, list[int]]
    """Per action, the numbers of the worlds it was played on, in the order of its outcomes."""
    worlds: int = 0
    spent: int = 0
    sums: dict[int, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def start(cls, view: View, game: Game, rng: random.Random, policy: str, infer: bool | None,
              legal: list[int]) -> _Playouts:
        """No playouts yet of ``legal``; the game's kernel made ready outside any hint's clock."""
        infer = game.infers if infer is None else infer and game.infers
        rate = _compiled_rate(game, policy, infer)
        if rate is not None:
            _warm(game, rate, view, legal[:1], infer)
        return cls(game, view, make_bot(policy, game), rate, rng, infer, 1.0 if game.high_score_wins else -1.0,
                   {a: [] for a in legal}, {a: [] for a in legal}, {a: [] for a in legal})

    def play(self, actions: list[int], count: int) -> None:
        """``count`` new worlds (one where the playouts are Python's), every action of ``actions`` played on each."""
        if self.rate is None:
            _play_world(self.game, self.view, self.bot, actions, self.rng, self.wins, self.points, self.infer)
            count = 1
        else:
            won, totals = self.rate(self.view, actions, count, self.rng.getrandbits(64))
            for i, action in enumerate(actions):
                self.wins[action].extend(won[i].tolist())
                self.points[action].extend(totals[i].tolist())
        for action in actions:
            self.played[action].extend(range(self.worlds, self.worlds + count))
            self.sums.pop(action, None)
        self.worlds += count
        self.spent += count * len(actions)

    def even(self, actions: list[int], target: int | None, least: int, end: float | None) -> None:
        """New worlds for every action of ``actions``: ``target`` of them, or (``None``) until ``end``; at least
        ``least`` either way."""
        done = 0
        while target is None or done < target:
            if done >= least and end is not None and time.perf_counter() >= end:
                break
            count = 1 if self.rate is None else WORLDS_AT_ONCE if target is None else min(WORLDS_AT_ONCE, target - done)
            self.play(actions, count)
            done += count

    def means(self, action: int) -> tuple[float, float]:
        """The mean win and the mean points (signed: higher is better) of ``action``."""
        if action not in self.sums:
            n = len(self.wins[action])
            self.sums[action] = (math.fsum(self.wins[action]) / n, self.sign * math.fsum(self.points[action]) / n)
        return self.sums[action]

    def ahead(self, action: int, choice: int) -> bool:
        """Whether ``action`` shows a better number than ``choice``: a higher chance, or the same and better points."""
        return self.means(action) > self.means(choice)

    def lead(self, action: int, choice: int) -> tuple[float, float]:
        """How far ``action`` leads ``choice`` on the worlds both were played on, with its standard error: in chance
        to win, or where the two won the same on every such world, in (signed) points."""
        at = np.full(self.worlds, -1)
        at[self.played[choice]] = np.arange(len(self.played[choice]))
        mine = np.flatnonzero(at[self.played[action]] >= 0)  # its outcomes on worlds the choice played too
        if not len(mine):
            return 0.0, 0.0
        theirs = at[np.asarray(self.played[action])[mine]]
        diff = np.asarray(self.wins[action])[mine] - np.asarray(self.wins[choice])[theirs]
        if not diff.any():
            diff = self.sign * (np.asarray(self.points[action])[mine] - np.asarray(self.points[choice])[theirs])
        if len(diff) < 2:
            return float(diff.mean()), 0.0
        return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff)))

    def sure(self, action: int, choice: int) -> bool:
        """Whether the lead of ``action`` over ``choice`` is sure: :data:`SURE` standard errors or more above 0."""
        lead, se = self.lead(action, choice)
        return lead > 0 and lead >= SURE * se

    def note(self, best: int, choice: int) -> tuple[str | None, int | None]:
        """Why ``choice`` comes first where ``best`` shows a better number, and ``best`` (``None, None`` where it
        does not): ``search`` where the playouts are sure of its lead, ``level`` where they are not."""
        if best == choice or not self.ahead(best, choice):
            return None, None
        return ("search" if self.sure(best, choice) else "level"), best

    def ratings(self, actions: list[int]) -> list[ActionRating]:
        """The ratings of ``actions``, in their order."""
        rated = []
        for action in actions:
            win, win_sd = mean_se(self.wins[action])
            mean_points, points_sd = mean_se(self.points[action])
            rated.append(ActionRating(action, self.game.action_to_text(action), win, win_sd, mean_points, points_sd,
                                len(self.wins[action])))
        return rated

    @staticmethod
    def rating(rated: list[ActionRating], action: int) -> ActionRating:
        """The rating of ``action`` among ``rated``."""
        return next(r for r in rated if r.action == action)


_WARM: set[tuple[str, bool]] = set()
"""The games (and ways of dealing) whose kernel playouts this process has run."""


def _warm(game: Game, rate: Rate, view: View, actions: list[int], infer: bool) -> None:
    """Run the kernel's playouts once in this process, on a seed of their own, so that their compilation (or loading
    from numba's cache, seconds) is not counted against the first hint's budget: with a budget in seconds, that first
    hint once rated every move on a single batch of worlds."""
    if (game.id, infer) not in _WARM:
        rate(view, actions, 1, 0)
        _WARM.add((game.id, infer))


WORLDS_AT_ONCE = 16
"""Worlds a game's kernel plays between two looks at the clock (with every move; :func:`_race`, playing fewer moves,
plays as many more worlds, so that a look comes after about as many playouts)."""


def _compiled_rate(game: Game, policy: str, infer: bool = False) -> Rate | None:
    """The game kernel's playouts (docs/vector.md), where it has them and the policy is the heuristic they play;
    with ``infer``, on worlds dealt by inference (a kernel's ``rate`` takes ``infer`` where its game infers)."""
    if policy != "heuristic" or not game.kernel:
        return None
    found = getattr(load_kernel(game), "rate", None)
    if found is None:
        return None
    rate: Rate = functools.partial(found, infer=True) if infer else found
    return rate


def _play_world(game: Game, view: View, bot: Bot, alive: list[int], rng: random.Random,
                wins: dict[int, list[float]], points: dict[int, list[float]], infer: bool = False) -> None:
    """One world sampled from ``view`` (by inference with ``infer``), every action of ``alive`` played on it and
    the game played out by ``bot`` at every seat, each on the same stream of random numbers."""
    seat = view.seat
    world = game.infer_state(view, rng) if infer else game.sample_state(view, rng)
    stream = rng.getrandbits(64)
    last = len(alive) - 1
    for i, action in enumerate(alive):
        state = world if i == last else world.copy()
        state.apply_legal(action)
        play_out(state, bot, random.Random(stream))
        wins[action].append(state.returns()[seat])
        points[action].append(float(state.totals[seat]))


def _legal(view: View, playouts: int | None, seconds: float | None, allocation: str) -> list[int]:
    """The actions to rate, once the seat is seen to be the one to move and the budget to be one (B6, B7)."""
    legal = [int(a) for a in view.legal_actions]
    if view.seat != view.current_player or not legal:
        raise BotError("hint.not_to_move", rule="B6", seat=view.seat)
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
        raise InvalidOptionError("hint.playouts", rule="B7", value=playouts)
    if seconds is not None and not seconds > 0:
        raise InvalidOptionError("hint.seconds", rule="B7", value=seconds)
    if allocation not in ALLOCATIONS:
        raise InvalidOptionError("hint.allocation", rule="B7", choices=", ".join(ALLOCATIONS), value=allocation)
    return legal


def _halve(alive: list[int], wins: dict[int, list[float]], points: dict[int, list[float]], sign: float) -> list[int]:
    """The better half of the actions still in, best first (successive halving): they have played the same worlds,
    so their sums compare them; an action as good as the last one kept stays in."""
    keys = {a: _key(math.fsum(wins[a]), sign * math.fsum(points[a]), a) for a in alive}
    ranked = sorted(alive, key=keys.__getitem__)
    keep = math.ceil(len(ranked) / 2)
    while keep < len(ranked) and keys[ranked[keep]][:2] == keys[ranked[keep - 1]][:2]:
        keep += 1
    return ranked[:keep]


def _key(win: float, points: float, action: int) -> tuple[float, float, int]:
    """Sort key, best first: the higher win chance, then the better points (``points`` signed: higher is better),
    then the lower action number."""
    return (-win, -points, action)
