"""The bot levels on the players' scale (rule G5, docs/ratings.md): ``dreizehn ratings calibrate`` plays the levels
of a game against each other and fits each level's rating with the model the server rates people with.

Game ``i`` of a calibration seats one combination of distinct levels (as many as the table has seats: every
combination in turn), rotated by one seat each time all combinations were played, and is played as
:func:`dreizehn.study.sim.run_games` plays (seed ``seed + i``, the same games on any number of processes). The fit
starts every level where a new player starts (mu 25, sigma 25/3) and applies the games in order with
:data:`~dreizehn.server.ratings.model.MODEL`, as the server applies people's games; then every mu is moved by one
amount so that the levels' mean is 25, where a new player starts: a newcomer is taken to be as strong as the
levels' average until their games say otherwise.

>>> plan(("a", "b", "c"), 2, 5)
[('a', 'b'), ('a', 'c'), ('b', 'c'), ('b', 'a'), ('c', 'a')]
>>> fitted = fit(("weak", "strong"), [(("weak", "strong"), (2.0, 1.0))] * 20)
>>> fitted["strong"].mu > 25 > fitted["weak"].mu, round(fitted["strong"].mu + fitted["weak"].mu, 6)
(True, 50.0)
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Sequence

from dreizehn.bots.levels import level_spec
from dreizehn.bots.offered import offered_levels
from dreizehn.core.errors import SimulationError
from dreizehn.core.registry import load_game
from dreizehn.server.ratings.model import MODEL, MU, SIGMA, LevelRating, Skill
from dreizehn.study.sim import RunSpec, run_games

EXPENSIVE = ("master",)
"""Levels a calibration leaves out unless they are named: a ``master`` seat costs about a minute of CPU a game of 13
or Holzwurm (58 and 67 s, docs/bots.md); ``dreizehn ratings store`` stores the repository's measurement instead."""


def plan(levels: Sequence[str], players: int, games: int) -> list[tuple[str, ...]]:
    """The seatings of ``games`` calibration games: each combination of ``players`` distinct levels in turn,
    rotated by one seat after every round of combinations."""
    combos = list(itertools.combinations(levels, players))
    seatings = []
    for i in range(games):
        seats = combos[i % len(combos)]
        shift = (i // len(combos)) % players
        seatings.append(seats[shift:] + seats[:shift])
    return seatings


def fit(levels: Sequence[str], games: Sequence[tuple[Sequence[str], Sequence[float]]]) -> dict[str, Skill]:
    """Each level's skill after ``games`` (per game: the level at each seat and each seat's place, 1 the best),
    applied in order with the server's model from a new player's rating; the mus then moved so that their mean is
    a new player's (the scale's anchor)."""
    current = {level: MODEL.create_rating([MU, SIGMA]) for level in levels}
    played = dict.fromkeys(levels, 0)
    for seats, ranks in games:
        after = MODEL.rate([[current[level]] for level in seats], ranks=[float(r) for r in ranks])
        for level, team in zip(seats, after, strict=True):
            current[level] = team[0]
            played[level] += 1
    shift = MU - sum(r.mu for r in current.values()) / len(current)
    return {level: Skill(r.mu + shift, r.sigma, played[level]) for level, r in current.items()}


def chosen_levels(game_id: str, players: int, names: Sequence[str] | None) -> list[str]:
    """The levels to calibrate: ``names`` (each a level the game offers at ``players`` seats with its usual options:
    ``learned`` only where it plays), else every level the game offers there but :data:`EXPENSIVE`; at least
    ``players`` of them, each seat one (refused naming the field ``levels``, rule G5)."""
    offered = offered_levels(load_game(game_id, players))
    levels = [n.strip().lower() for n in names] if names else [n for n in offered if n not in EXPENSIVE]
    for name in levels:
        if name not in offered:
            raise SimulationError("ratings.level", rule="G5", field="levels", level=name, game=game_id,
                                  offered=", ".join(offered))
    levels = list(dict.fromkeys(levels))
    if len(levels) < max(players, 2):
        raise SimulationError("ratings.too_few_levels", rule="G5", field="levels", players=players,
                              count=len(levels))
    return levels


def calibrate(game_id: str, players: int, games: int, *, levels: Sequence[str] | None = None, seed: int = 0,
              jobs: int | None = None, progress: Callable[[int], None] | None = None) -> list[LevelRating]:
    """Play ``games`` games between the levels of ``game_id`` at ``players`` seats and fit their ratings (weakest
    level first). A level whose specification at this count is another's (a game that offers no ``master`` there
    plays its ``expert``) shares that level's seat and rating."""
    names = chosen_levels(game_id, players, levels)
    spec_of = {name: level_spec(name, game_id, players) for name in names}
    specs = list(dict.fromkeys(spec_of.values()))
    if len(specs) < max(players, 2):
        raise SimulationError("ratings.too_few_levels", rule="G5", field="levels", players=players,
                              count=len(specs))
    seatings = plan(specs, players, games)
    run = RunSpec(game_id, players, specs, games=games, seed=seed, jobs=jobs)
    played = run_games(run, seatings, progress=progress)
    skills = fit(specs, [(r.seats, r.ranks) for r in played])
    at = dt.datetime.now(dt.UTC)
    return [LevelRating(game_id, players, name, skills[spec_of[name]], at) for name in names]

