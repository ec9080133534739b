"""One batch of a simulation, as a worker plays it: the games of the batch at tables of bots, their results and
records. The local processes of :mod:`dreizehn.study.sim` and the Ray tasks of :mod:`dreizehn.study.distributed` both
play
batches through here, so both give the same games for the same seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from dreizehn.core.errors import SimulationError
from dreizehn.core.game import Game, State
from dreizehn.core.record import save as save_record
from dreizehn.core.registry import load_game
from dreizehn.play.table import Seat, Table
from dreizehn.study.stats import ranks


@dataclass(frozen=True)
class GameResult:
    """One finished game: who sat where, the totals, each seat's share of the win and its move times."""

    index: int
    seed: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    shares: tuple[float, ...]
    ranks: tuple[float, ...]
    move_times: tuple[tuple[float, int, float], ...]
    """Per seat: total seconds spent deciding, number of moves, the longest move in seconds."""
    actions: int


def seating(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The bots of game ``index``: the list filled up to ``players`` seats by repeating its last bot, then rotated
    by ``index`` places.

    >>> seating(["ismcts", "heuristic"], 4, 1)
    ('heuristic', 'ismcts', 'heuristic', 'heuristic')
    """
    if not bots:
        raise SimulationError("sim.no_bots", rule="C2")
    if len(bots) > players:
        raise SimulationError("sim.too_many_bots", rule="C2", bots=len(bots), players=players)
    filled = list(bots) + [bots[-1]] * (players - len(bots))
    shift = index % players
    return tuple(filled[-shift:] + filled[:-shift]) if shift else tuple(filled)


def play(game: Game, seats: Sequence[str], seed: int, index: int = 0) -> tuple[GameResult, State]:
    """Play one game at a :class:`~dreizehn.play.table.Table` of bots; each seat's bot gets only its view and its own
    random generator."""
    table = Table(game, tuple(Seat(spec, bot=spec) for spec in seats), seed, game.new_state(seed), events=False)
    table.play_bots()
    state = table.state
    totals = state.totals
    times = table.times
    result = GameResult(
        index=index, seed=seed, seats=tuple(seats), totals=totals, shares=state.returns(),
        ranks=tuple(ranks(totals, game.high_score_wins)),
        move_times=tuple(zip(times.think, times.moves, times.worst, strict=True)), actions=len(state.history),
    )
    return result, state


@dataclass(frozen=True)
class Job:
    """A batch of games: the game, the seed of the run, where records go, and (index, seating) per game."""

    game_id: str
    players: int
    options: Mapping[str, object]
    seed: int
    records: str | None
    tasks: tuple[tuple[int, tuple[str, ...]], ...]


def record_file(records: str | Path, game_id: str, seed: int) -> Path:
    """Where the record of the game with ``seed`` goes in the directory ``records``.

    >>> record_file("out", "knizia13", 7).as_posix()
    'out/knizia13-000007.json'
    """
    return Path(records) / f"{game_id}-{seed:06d}.json"


def played(job: Job) -> Iterator[tuple[GameResult, State, tuple[str, ...]]]:
    """Play the games of a batch, in turn: each one's result, final state and seating."""
    game = load_game(job.game_id, job.players, job.options)
    for index, seats in job.tasks:
        result, state = play(game, seats, job.seed + index, index)
        yield result, state, seats


def run_job(job: Job) -> list[GameResult]:
    """Play a batch and save its records (where asked): the results in order."""
    out = []
    for result, state, seats in played(job):
        if job.records is not None:
            save_record(state, record_file(job.records, job.game_id, result.seed), names=list(seats))
        out.append(result)
    return out


def split(tasks: Sequence[tuple[int, tuple[str, ...]]], workers: int) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
    """The tasks in batches for ``workers`` workers: about four batches per worker, at most 8 games a batch.

    >>> [len(b) for b in split([(i, ("random",)) for i in range(10)], 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> [len(b) for b in split([(i, ("random",)) for i in range(100)], 2)]
    [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4]
    """
    chunk = max(1, min(8, len(tasks) // (workers * 4) or 1))
    return [tuple(tasks[i : i + chunk]) for i in range(0, len(tasks), chunk)]
