"""Ratings per game (rules G1–G4, docs/ratings.md): openskill's Plackett-Luce model, free-for-all with ties, 2
to 8 players, shown as one number that reads like an Elo rating around 1500.

>>> shown(25.0, 25 / 3), shown(25.0, 5 / 3), shown(30.0, 1.5)
(1000, 1500, 1638)
>>> places((-12, -3, -3, 4), high_score_wins=True, left=(False, False, False, False))
[4, 2, 2, 1]
>>> places((10, 2, 7), high_score_wins=False, left=(False, True, False))
[2, 3, 1]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from dreizehn.bots.levels import level_name

MODEL = PlackettLuce()
"""The one model every game is rated with: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
MU, SIGMA = MODEL.mu, MODEL.sigma
"""A new player's rating."""
SCALE = 25.0
"""Rating points a unit of openskill's skill is worth."""
SETTLED = 20.0
"""The ordinal (mu - 3 sigma) shown as 1500: an average player (mu 25) whose sigma has settled to 5/3."""
PROVISIONAL_GAMES = 10
"""A rating is provisional until its player has this many rated games of that game."""


@dataclass(frozen=True)
class Skill:
    """A player's skill in one game: openskill's mean and uncertainty, and how many rated games made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def spread(self) -> int:
        """The uncertainty as shown beside the rating: two sigmas in rating points."""
        return round(2 * SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float) -> int:
    """The one number shown: the ordinal ``mu - 3 sigma`` (a rating one is very likely to have at least), scaled so
    that a settled average player reads 1500 and a new one 1000."""
    return round(1500 + SCALE * (mu - 3 * sigma - SETTLED))


def places(totals: Sequence[int], high_score_wins: bool, left: Sequence[bool]) -> list[int]:
    """Each seat's place (1 the best; equal totals share a place): by total, the best first as the game counts it,
    and every seat whose person left the game to the bots last, after all who stayed, sharing that place (rule
    G2)."""
    def key(seat: int) -> tuple[bool, int]:
        if left[seat]:
            return True, 0  # those who left share the last place, whatever their totals
        return False, -totals[seat] if high_score_wins else totals[seat]

    keys = [key(seat) for seat in range(len(totals))]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def skills_after(skills: Sequence[Skill], seat_places: Sequence[int], fixed: Sequence[bool]) -> list[Skill]:
    """Every seat's skill after a game it finished at ``seat_places``; a ``fixed`` seat (a bot, on its calibrated
    rating) takes part in the update but keeps its own skill."""
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    after = MODEL.rate(teams, ranks=[float(p) for p in seat_places])
    return [s if still else Skill(team[0].mu, team[0].sigma, s.games + 1)
            for s, team, still in zip(skills, after, fixed, strict=True)]


@dataclass(frozen=True)
class LevelRating:
    """A bot level's calibrated rating in a game at a player count: its skill (``games``: how many calibration games
    it played) and when it was measured."""

    game_id: str
    players: int
    level: str
    skill: Skill
    measured_at: dt.datetime

    @property
    def low(self) -> int:
        """The shown rating's interval: ``mu ± 2 sigma``'s ordinal in rating points."""
        return self.skill.shown - self.skill.spread

    @property
    def high(self) -> int:
        return self.skill.shown + self.skill.spread


def bot_level(bot: str | None, game_id: str, players: int) -> str | None:
    """The level a bot seat plays (its ``bot`` column: a level's name or a specification), or ``None`` where it
    names none (a specification such as ``random`` has no calibrated rating).

    >>> bot_level("Hard", "knizia13", 4), bot_level("random", "knizia13", 4), bot_level(None, "knizia13", 4)
    ('hard', None, None)
    """
    return None if bot is None else level_name(bot, game_id, players)

