"""The ratings' storage: what is rated, each account's skill per game, its history, and the update of one game's
ratings in one transaction that also marks the game applied (rule G3: exactly once)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.ratings import bands
from dreizehn.server.ratings.model import LevelRating, Skill, bot_level, skills_after
from dreizehn.server.ratings.schema import bot_ratings, rated_games, rating_history, ratings
from dreizehn.server.storage import now, seats, tables


@dataclass(frozen=True)
class Outcome:
    """A finished rated game as the ratings see it: its game, and per seat the account bound to it (``None``: a
    guest or a bot), its place (1 the best, rule G2) and the bot that sits there where no account does (its level
    rated at its calibrated rating, fixed, rule G5; a guest, or a bot of no calibrated level, is left out)."""

    table_id: str
    game_id: str
    accounts: tuple[str | None, ...]
    places: tuple[int, ...]
    bots: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Standing:
    """An account's rating in a game, and its place on the game's board of active players (``None``: not on it)."""

    name: str
    game_id: str
    skill: Skill
    played_at: dt.datetime


class RatingStore:
    """Ratings on the server's database engine; each method one short transaction (call them from a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    def pending(self, limit: int = 100) -> list[str]:
        """Finished rated games whose ratings are not updated yet, the oldest first."""
        applied = sa.select(rated_games.c.table_id).where(rated_games.c.table_id == tables.c.id)
        with self.engine.connect() as c:
            return list(c.execute(sa.select(tables.c.id).where(
                tables.c.rated.is_(True), tables.c.status == "finished", ~sa.exists(applied))
                .order_by(tables.c.finished_at).limit(limit)).scalars())

    def bound(self, table_id: str) -> tuple[str | None, ...]:
        """The account bound to each seat of a table (``None``: a guest, a bot, or a deleted account)."""
        return self.seated(table_id)[0]

    def seated(self, table_id: str) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
        """Per seat of a table: the account bound to it, and the bot that sits there where no account does."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(seats.c.account_id, seats.c.bot).where(seats.c.table_id == table_id)
                             .order_by(seats.c.seat)).all()
        return (tuple(r.account_id for r in rows),
                tuple(r.bot if r.account_id is None else None for r in rows))

    def apply(self, outcome: Outcome) -> bool:
        """Update the ratings of a game's accounts and mark the game applied, in one transaction; ``False`` where it
        was applied already (by this process or another: the mark's key is unique)."""
        try:
            with self.engine.begin() as c:
                c.execute(rated_games.insert().values(table_id=outcome.table_id, applied_at=now()))
                self._update(c, outcome)
        except sa.exc.IntegrityError:
            return False
        return True

    def _update(self, c: Connection, outcome: Outcome) -> None:
        rated = [(seat, account) for seat, account in enumerate(outcome.accounts) if account is not None]
        bots = self._bots(c, outcome)
        if not rated or len(rated) + len(bots) < 2:
            return  # one account among guests and uncalibrated bots has nobody rated to be measured against
        ids = [account for _, account in rated]
        query = sa.select(ratings).where(ratings.c.game_id == outcome.game_id, ratings.c.account_id.in_(ids))
        if self.postgres:  # two processes finishing games of one player at once: one waits for the other
            query = query.with_for_update()
        found = c.execute(query).all()
        known = {r.account_id: Skill(r.mu, r.sigma, r.games) for r in found}
        counted = {r.account_id: bands.key_of(r.shown, r.played_at) for r in found}
        before = [known.get(account, Skill()) for account in ids] + [skill for _, skill in bots]
        seat_places = [outcome.places[seat] for seat, _ in rated] + [outcome.places[seat] for seat, _ in bots]
        after = skills_after(before, seat_places, [False] * len(ids) + [True] * len(bots))
        at = now()
        moves = [(counted.get(account), bands.key_of(skill.shown, at))
                 for account, skill in zip(ids, after[:len(ids)], strict=True)]
        bands.change(c, outcome.game_id, bands.deltas(moves))
        for account, skill, place in zip(ids, after[:len(ids)], seat_places[:len(ids)], strict=True):
            values = {"mu": skill.mu, "sigma": skill.sigma, "games": skill.games, "shown": skill.shown,
                      "played_at": at}
            if account in known:
                c.execute(ratings.update().where(ratings.c.account_id == account,
                                                 ratings.c.game_id == outcome.game_id).values(**values))
            else:
                c.execute(ratings.insert().values(account_id=account, game_id=outcome.game_id, **values))
            c.execute(rating_history.insert().values(
                account_id=account, game_id=outcome.game_id, table_id=outcome.table_id, mu=skill.mu,
                sigma=skill.sigma, shown=skill.shown, place=place, at=at))

    def _bots(self, c: Connection, outcome: Outcome) -> list[tuple[int, Skill]]:
        """The bot seats of a game whose level has a calibrated rating in it (rule G5), with that rating: the one
        measured at the game's player count, else at the nearest count measured."""
        players = len(outcome.places)
        levels = {seat: bot_level(bot, outcome.game_id, players) for seat, bot in enumerate(outcome.bots)}
        wanted = {level for level in levels.values() if level is not None}
        if not wanted:
            return []
        rows = c.execute(sa.select(bot_ratings).where(bot_ratings.c.game_id == outcome.game_id,
                                                      bot_ratings.c.level.in_(wanted))).all()
        found: dict[str, Skill] = {}
        for r in sorted(rows, key=lambda r: (abs(r.players - players), r.players), reverse=True):
            found[r.level] = Skill(r.mu, r.sigma, r.games)  # the nearest count written last
        return [(seat, found[level]) for seat, level in levels.items() if level in found]

    def save_levels(self, measured: Sequence[LevelRating]) -> None:
        """Store calibrated levels, each in place of any earlier one of its game, player count and level."""
        with self.engine.begin() as c:
            for m in measured:
                c.execute(bot_ratings.delete().where(bot_ratings.c.game_id == m.game_id,
                                                     bot_ratings.c.players == m.players,
                                                     bot_ratings.c.level == m.level))
                c.execute(bot_ratings.insert().values(game_id=m.game_id, players=m.players, level=m.level,
                                                      mu=m.skill.mu, sigma=m.skill.sigma, games=m.skill.games,
                                                      measured_at=m.measured_at))

    def levels(self, game_id: str) -> list[LevelRating]:
        """A game's calibrated levels, by player count, the weakest first."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(bot_ratings).where(bot_ratings.c.game_id == game_id)).all()
        measured = [LevelRating(r.game_id, r.players, r.level, Skill(r.mu, r.sigma, r.games), r.measured_at)
                    for r in rows]
        return sorted(measured, key=lambda m: (m.players, m.skill.mu))

    def of_account(self, account_id: str) -> list[tuple[str, Skill]]:
        """An account's ratings, by game."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(ratings).where(ratings.c.account_id == account_id)
                             .order_by(ratings.c.game_id))
            return [(r.game_id, Skill(r.mu, r.sigma, r.games)) for r in rows]

    def history(self, account_id: str, game_id: str, limit: int = 500) -> list[tuple[dt.datetime, int, int]]:
        """An account's rating after each of its rated games of one game, the oldest first: (when, shown, place)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(rating_history.c.at, rating_history.c.shown, rating_history.c.place)
                             .where(rating_history.c.account_id == account_id,
                                    rating_history.c.game_id == game_id)
                             .order_by(rating_history.c.at.desc()).limit(limit)).all()
            return [(r.at, r.shown, r.place) for r in reversed(rows)]

    def board(self, game_id: str, since: dt.datetime, limit: int = 100) -> list[Standing]:
        """The game's leaderboard: accounts that played a rated game of it since ``since``, the highest shown rating
        first (equal ones by name)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(accounts.c.name, ratings)
                             .join(accounts, accounts.c.id == ratings.c.account_id)
                             .where(ratings.c.game_id == game_id, ratings.c.played_at >= since)
                             .order_by(ratings.c.shown.desc(), accounts.c.name_key).limit(limit)).all()
            return [Standing(r.name, game_id, Skill(r.mu, r.sigma, r.games), r.played_at) for r in rows]

    def standing(self, game_id: str, account_id: str, since: dt.datetime) -> tuple[Skill, int] | None:
        """An account's rating in a game and its place on the game's board of active players since ``since`` (a
        midnight: :func:`.bands.active_since`; 1 the highest, equal ratings sharing a place), or ``None`` when it is
        not on the board: one query (:data:`.bands.STANDING`)."""
        with self.engine.connect() as c:
            mine = c.execute(bands.STANDING, bands.standing_values(game_id, account_id, since)).first()
        return None if mine is None else (Skill(mine.mu, mine.sigma, mine.games), 1 + int(mine.above))

    def rank(self, game_id: str, account_id: str, since: dt.datetime) -> int | None:
        """An account's place on the game's board of active players (:meth:`standing`), or ``None``."""
        found = self.standing(game_id, account_id, since)
        return None if found is None else found[1]

    def prune(self, before: dt.date) -> int:
        """Delete the band counts of days before ``before`` (a board reads none); how many rows."""
        with self.engine.begin() as c:
            return bands.prune(c, before)
