"""Play many games between bots: seats rotated, on several processes or a Ray cluster, reproducible whatever the
number of processes.

Game ``i`` of a run uses the seed ``seed + i`` for its deal and for every bot's random generator, and seats the bots
rotated by ``i`` places, so the same seed gives the same games for the same bots and budgets (in iteration mode),
whether they are played on one process, on many, or on a Ray cluster (``backend="ray"``, see
:mod:`dreizehn.study.distributed`).

What to play is one value, a :class:`RunSpec` (checked as it is made), which :func:`simulate`, :func:`tournament`,
:func:`run_games` and the command line share:

>>> result = simulate(RunSpec("knizia13", 3, ["heuristic", "random"], games=3, seed=1, jobs=1))
>>> [len(g.seats) for g in result.games], result.games[1].seats
([3, 3, 3], ('random', 'heuristic', 'random'))
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dreizehn.bots.base import make_bot
from dreizehn.core.errors import BackendError as BackendError  # re-exported: dreizehn.study.sim.BackendError
from dreizehn.core.errors import SimulationError, UsageError
from dreizehn.core.registry import game_class, load_game

# GameResult, play and seating are dreizehn.study.sim's too
from dreizehn.study.jobs import GameResult as GameResult
from dreizehn.study.jobs import Job, run_job, split
from dreizehn.study.jobs import play as play
from dreizehn.study.jobs import seating as seating
from dreizehn.study.saved import fingerprint, load_games, run_key, save_games
from dreizehn.study.stats import mean_sd, wilson_interval

BACKENDS = ("processes", "ray")
"""Where :func:`run_games` plays: on local processes (the default) or as tasks on a Ray cluster."""


@dataclass
class BotSummary:
    """The numbers of one bot over a run (every seat it held)."""

    bot: str
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    think: float = 0.0
    moves: int = 0
    worst: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_move(self) -> float:
        return self.think / self.moves if self.moves else 0.0

    def count_seat(self, game: GameResult, seat: int) -> None:
        """Add ``seat``'s total and its moves' times in ``game`` (its share of the win is the caller's to count)."""
        self.scores.append(game.totals[seat])
        think, moves, worst = game.move_times[seat]
        self.think += think
        self.moves += moves
        self.worst = max(self.worst, worst)


@dataclass
class Run:
    """The games of one simulation, in game order."""

    game_id: str
    players: int
    options: dict[str, object]
    bots: tuple[str, ...]
    seed: int
    games: list[GameResult]
    resumed: int = 0
    """Games of ``games`` read back from a file of saved games (:mod:`dreizehn.study.saved`) rather than played."""
    left_out: int = 0
    """Games of this run saved by other code: not counted."""

    def summaries(self) -> list[BotSummary]:
        """One summary per distinct bot, in the order the bots were named. A bot seated twice in a game counts once
        for that game's win (its best share) and with every seat for its scores."""
        table: dict[str, BotSummary] = {bot: BotSummary(bot) for bot in dict.fromkeys(self.bots)}
        for game in self.games:
            share: dict[str, float] = {}
            for seat, bot in enumerate(game.seats):
                table[bot].count_seat(game, seat)
                share[bot] = share.get(bot, 0.0) + game.shares[seat]
            for bot, won in share.items():
                table[bot].games += 1
                table[bot].wins += won
        return list(table.values())

    def to_json(self) -> dict[str, object]:
        """The run's numbers, ready for ``json.dump``."""
        out = []
        for s in self.summaries():
            mean, sd = mean_sd(s.scores)
            low, high = s.interval
            out.append({"bot": s.bot, "games": s.games, "wins": s.wins, "win_rate": s.win_rate,
                        "win_rate_95": [low, high], "score_mean": mean, "score_sd": sd,
                        "move_mean_s": s.mean_move, "move_worst_s": s.worst})
        return {
            "game": self.game_id, "players": self.players, "options": self.options, "bots": list(self.bots),
            "seed": self.seed, "games": len(self.games), "summary": out,
            "results": [{"seed": g.seed, "seats": list(g.seats), "totals": list(g.totals)} for g in self.games],
        }


def check_backend(backend: str, address: str | None = None) -> None:
    """Refuse a backend that does not exist, and an address given without the ray backend.

    >>> check_backend("threads")
    Traceback (most recent call last):
    ...
    dreizehn.core.errors.BackendError: unknown backend 'threads'; choose 'processes' or 'ray' (C4)
    """
    if backend not in BACKENDS:
        raise BackendError("backend.unknown", rule="C4", backend=backend, first=BACKENDS[0], second=BACKENDS[1])
    if address is not None and backend != "ray":
        raise BackendError("backend.address", rule="C4", address=address)


@dataclass(frozen=True)
class RunSpec:
    """What a simulation or tournament plays, and where: one value that :func:`simulate`, :func:`tournament`,
    :func:`run_games`, :func:`run_saved` and the commands ``dreizehn simulate`` and ``dreizehn tournament`` share.
    Every field is checked as the value is made (rules C2, C4 and C9 of docs/cli.md; an unknown game as
    :func:`~dreizehn.core.registry.game_class` refuses it), each refusal naming its field.

    >>> spec = RunSpec("holzwurm", 3, "heuristic, random", games=6, options={"games": 1})
    >>> spec.bots, spec.key()
    (('heuristic', 'random'), '["holzwurm", 3, {"games": 1}, ["heuristic", "random"], 0]')
    >>> RunSpec.from_json(spec.to_json()) == spec
    True
    >>> RunSpec("holzwurm", 3, ["random"], games=-1)
    Traceback (most recent call last):
    ...
    dreizehn.core.errors.SimulationError: a run's games must be a whole number of 0 or more, not -1 (C9)
    """

    game: str
    """The game's id."""
    players: int
    bots: Sequence[str]
    """The bots' specifications (a tuple once made), seat by seat (:func:`seating`) or the tournament's field
    (:func:`pairings`); text is read as the command line writes it, comma-separated."""
    games: int
    """How many games (game ``i`` with the seed ``seed + i``)."""
    seed: int = 0
    options: Mapping[str, object] = field(default_factory=dict)
    """The game's options, as :func:`~dreizehn.core.registry.load_game` takes them."""
    jobs: int | None = None
    """Processes (all cores where ``None``); with ``backend="ray"``, the most batches running at once."""
    records: Path | None = None
    """A folder to write one record per game into."""
    backend: str = "processes"
    """``processes`` or ``ray`` (:data:`BACKENDS`)."""
    address: str | None = None
    """The Ray cluster (``backend="ray"`` only)."""
    results: Path | None = None
    """A file that saves each game as it finishes and resumes the run (:func:`run_saved`)."""
    deadline: float | None = None
    """No new part starts after this :func:`time.time` (:func:`run_saved`)."""

    def __post_init__(self) -> None:
        game_class(str(self.game))
        self._set("players", _count("players", self.players, 1))
        bots = self.bots
        names = bots.split(",") if isinstance(bots, str) else bots
        if not all(isinstance(name, str) for name in names):
            raise SimulationError("sim.run_bots", rule="C2", value=bots)
        self._set("bots", tuple(name.strip() for name in names if name.strip()))
        if not self.bots:
            raise SimulationError("sim.no_bots", rule="C2")
        self._set("games", _count("games", self.games, 0))
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise SimulationError("sim.run_seed", rule="C9", value=self.seed)
        if not isinstance(self.options, Mapping):
            raise SimulationError("sim.run_options", rule="C9", value=self.options)
        self._set("options", dict(self.options))
        self._set("jobs", None if self.jobs is None else _count("jobs", self.jobs, 1))
        self._set("records", None if self.records is None else Path(self.records))
        self._set("results", None if self.results is None else Path(self.results))
        check_backend(self.backend, self.address)
        if self.deadline is not None:
            self._set("deadline", float(self.deadline))

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)  # a frozen value converts its own fields as it is made

    def key(self, *, tournament: bool = False) -> str:
        """The key the run's games are saved under (:func:`~dreizehn.study.saved.run_key`); a tournament's names each
        bot once."""
        bots = tuple(dict.fromkeys(self.bots)) if tournament else self.bots
        return run_key(self.game, self.players, self.options, bots, self.seed, tournament=tournament)

    def to_json(self) -> dict[str, Any]:
        """The value as JSON data (paths as text), which :meth:`from_json` reads back."""
        doc = {f.name: getattr(self, f.name) for f in fields(self)}
        doc.update(bots=list(self.bots), options=dict(self.options),
                   records=None if self.records is None else str(self.records),
                   results=None if self.results is None else str(self.results))
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> RunSpec:
        """The value that :meth:`to_json` wrote."""
        return cls(**doc)


def _count(name: str, value: object, least: int) -> int:
    """``value``, a whole number of ``least`` or more; anything else is refused naming the field ``name`` (C9)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SimulationError("sim.run_count", rule="C9", field=name, least=least, value=value)
    return value


def default_jobs() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_games(
    spec: RunSpec,
    plan: Sequence[tuple[str, ...]],
    *,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play one game per entry of ``plan`` (its seating) as ``spec`` says (its game, players, seed, options, jobs,
    records, backend and address; not its bots, games, results or deadline), the ``i``-th as game ``start + i`` with
    seed ``spec.seed + start + i``; results in game order. ``start`` lets a long run be played in parts that add up
    to the same games as one run.

    ``spec.backend`` is ``"processes"`` (``jobs`` local processes, all cores by default) or ``"ray"``: the games are
    played as tasks on the Ray cluster at ``address`` (a local Ray instance when no address is given), at most
    ``jobs`` batches at a time (all the cluster's CPUs by default); see :func:`dreizehn.study.distributed.run_on_ray`.
    Both give the same games for the same seed. ``progress`` is called with the number of games just finished."""
    game_id, players, seed, options, records = spec.game, spec.players, spec.seed, dict(spec.options), spec.records
    game = load_game(game_id, players, options)  # refuse bad input before starting processes
    for seats in plan:
        for bot in dict.fromkeys(seats):
            make_bot(bot, game)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError("cli.cannot_create", rule="C5", path=str(records), reason=str(err.strerror or err)) \
                from None
    tasks = list(enumerate(plan, start))
    if spec.backend == "ray":
        from dreizehn.study.distributed import run_on_ray

        return run_on_ray(game_id, players, options, seed, tasks, address=spec.address, jobs=spec.jobs,
                          records=records, progress=progress)
    jobs = max(1, min(spec.jobs or default_jobs(), len(tasks) or 1))
    record_dir = None if records is None else str(records)
    if jobs == 1:
        results = []
        for index, seats in tasks:
            results.extend(run_job(Job(game_id, players, options, seed, record_dir, ((index, seats),))))
            if progress:
                progress(1)
        return results
    batches = split(tasks, jobs)
    results = []
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        for batch in pool.map(run_job, (Job(game_id, players, options, seed, record_dir, b) for b in batches)):
            results.extend(batch)
            if progress:
                progress(len(batch))
    return sorted(results, key=lambda r: r.index)


PART = 10
"""Games a process plays between two saves of a run that saves its games (:func:`run_saved`)."""


def run_saved(
    spec: RunSpec,
    seats: Callable[[int], tuple[str, ...]],
    *,
    key: str,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[GameResult], int, int]:
    """Games ``0 .. spec.games - 1`` of a run, game ``i`` seated ``seats(i)``, saved to the file ``spec.results``
    under ``key`` as they finish (:mod:`dreizehn.study.saved`): those this code saved there before are read back, not
    played. No new part starts after ``spec.deadline`` (a :func:`time.time`). Returns the games so far in order, how
    many were read back, and how many other code saved under ``key`` (left out); played as for :func:`run_games`."""
    path, deadline, games = spec.results, spec.deadline, spec.games
    code = "" if path is None else fingerprint()  # the source is hashed only where games are saved
    done, left_out = load_games(path, key, code)
    # a game is named by this run's names for its seats, whatever names it was saved under with the same key
    done = {i: replace(r, seats=seats(i)) for i, r in done.items() if i < games}
    resumed = len(done)
    if progress and resumed:
        progress(resumed)
    missing = [i for i in range(games) if i not in done]
    part = len(missing) if path is None and deadline is None else PART * (spec.jobs or default_jobs())
    while missing and (deadline is None or time.time() < deadline):
        batch, missing = missing[:part], missing[part:]
        for indices in _consecutive(batch):
            played = run_games(spec, [seats(i) for i in indices], start=indices[0], progress=progress)
            if path is not None:
                save_games(path, key, code, played)
            done.update((r.index, r) for r in played)
    return [done[i] for i in sorted(done)], resumed, left_out


def _consecutive(indices: Sequence[int]) -> list[list[int]]:
    """``indices`` (ascending) cut where one is not the last plus one.

    >>> _consecutive([0, 1, 2, 5, 6, 9])
    [[0, 1, 2], [5, 6], [9]]
    """
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][-1] + 1 == i:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def simulate(spec: RunSpec, *, progress: Callable[[int], None] | None = None) -> Run:
    """Play ``spec.games`` games between ``spec.bots`` (seats filled and rotated by :func:`seating`), as
    :func:`run_games` plays and :func:`run_saved` saves and resumes them; ``progress`` is called with the number of
    games just finished (or read back)."""
    bots, players = spec.bots, spec.players
    seating(bots, players, 0)  # refuse a list of bots that does not fit before reading any file
    played, resumed, left_out = run_saved(spec, lambda i: seating(bots, players, i), key=spec.key(),
                                          progress=progress)
    return Run(spec.game, players, dict(spec.options), tuple(bots), spec.seed, played, resumed, left_out)


def pairings(bots: Sequence[str], players: int, games: int) -> Iterator[tuple[str, ...]]:
    """The seatings of a round-robin tournament: every pair of bots in turn, the seats alternating between the two
    and rotated, until ``games`` games.

    >>> list(pairings(["a", "b", "c"], 2, 6))
    [('a', 'b'), ('a', 'c'), ('b', 'c'), ('b', 'a'), ('c', 'a'), ('c', 'b')]
    """
    distinct = list(dict.fromkeys(bots))
    if len(distinct) < 2:
        raise SimulationError("sim.two_bots", rule="C3")
    pairs = [(a, b) for i, a in enumerate(distinct) for b in distinct[i + 1 :]]
    produced = 0
    rotation = 0
    while produced < games:
        for a, b in pairs:
            if produced == games:
                return
            seats = tuple(a if s % 2 == 0 else b for s in range(players))
            shift = rotation % players
            yield seats[shift:] + seats[:shift] if shift else seats
            produced += 1
        rotation += 1



@dataclass
class Rating:
    """A bot's openskill rating: ``mu`` with uncertainty ``sigma``; ``ordinal`` = mu - 3 sigma ranks the table."""

    bot: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass
class Tournament:
    """A round-robin between bots: the games, the ratings and the head-to-head results."""

    run: Run

    def _bot_ranks(self, game: GameResult) -> dict[str, float]:
        """Each bot's mean place (1 = best) over the seats it held in a game."""
        places: dict[str, list[float]] = {}
        for seat, bot in enumerate(game.seats):
            places.setdefault(bot, []).append(game.ranks[seat])
        return {bot: sum(p) / len(p) for bot, p in places.items()}

    def ratings(self) -> list[Rating]:
        """openskill (Plackett-Luce) ratings from every game, best first."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        bots = list(dict.fromkeys(self.run.bots))
        current = {bot: model.rating(name=bot) for bot in bots}
        for game in self.run.games:
            placed = self._bot_ranks(game)
            names = list(placed)
            teams = [[current[name]] for name in names]
            rated = model.rate(teams, ranks=[placed[name] for name in names])
            for name, team in zip(names, rated, strict=True):
                current[name] = team[0]
        table = [Rating(bot, current[bot].mu, current[bot].sigma) for bot in bots]
        return sorted(table, key=lambda r: -r.ordinal)

    def head_to_head(self) -> dict[tuple[str, str], tuple[float, int]]:
        """For each ordered pair (a, b) that met: a's score against b (1 per game a finished ahead, 1/2 per tie) and
        the number of games they met in."""
        out: dict[tuple[str, str], tuple[float, int]] = {}
        for game in self.run.games:
            placed = self._bot_ranks(game)
            for a, ra in placed.items():
                for b, rb in placed.items():
                    if a == b:
                        continue
                    score, count = out.get((a, b), (0.0, 0))
                    out[(a, b)] = (score + (1.0 if ra < rb else 0.5 if ra == rb else 0.0), count + 1)
        return out


def tournament(spec: RunSpec, *, progress: Callable[[int], None] | None = None) -> Tournament:
    """Every bot of ``spec.bots`` meets every other in rotated seatings (:func:`pairings`), ``spec.games`` games in
    all, played, saved and resumed as for :func:`simulate`."""
    plan = list(pairings(spec.bots, spec.players, spec.games))
    played, resumed, left_out = run_saved(spec, plan.__getitem__, key=spec.key(tournament=True), progress=progress)
    distinct = tuple(dict.fromkeys(spec.bots))
    return Tournament(Run(spec.game, spec.players, dict(spec.options), distinct, spec.seed, played, resumed, left_out))
