"""The daily deal (issue 47 item 4; rules D1–D4, docs/ratings.md): every day (UTC) each game offers one deal per player
count against fixed bots. Everyone who plays it gets the same cards and the same bots at the same seats; an account
plays each deal once and is ranked among the accounts that finished it, a guest plays it unranked.

D1 The deal's seed is an HMAC-SHA256 of the day, the game and the player count under the server's key (made at its
first start, never sent): nobody can work it out before the day begins. The person sits at seat 0, the bots
(``DREIZEHN_DAILY_BOTS``, ``hard``) at the others.
D2 An account plays a deal once (``daily.played``, 409); only today's deals are started (the route takes no day).
D3 One's rank, the spread of the totals and the others' replays are shown once one's own game of the deal is over
(``daily.not_finished``, 403, before).
D4 No route shows a deal's cards before one has played it: its tables are not listed nor watched, and their records
and replays are refused to anyone who has not finished that deal (:meth:`Daily.may_see`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import secrets
import statistics
from dataclasses import dataclass

from dreizehn import __version__
from dreizehn.bots.levels import level_name, name_bot_seats
from dreizehn.core.registry import game_class, game_ids, load_game
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.daily.store import DailyStore, Deal, Play
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.state import build_table
from dreizehn.server.settings import Settings
from dreizehn.server.storage import DAILY_PREFIX, SeatRow, TableRow, Tables, hash_token, new_table_id, new_token, now


def deal_seed(key: bytes, deal: Deal) -> int:
    """The seed of a deal (rule D1): the first 63 bits of HMAC-SHA256(key, day|game|players)."""
    message = f"daily|{deal.day.isoformat()}|{deal.game_id}|{deal.players}".encode()
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big") >> 1


def today() -> dt.date:
    return now().date()


@dataclass(frozen=True)
class Standing:
    """Where one play of a deal stands among the finished ones."""

    play: Play
    rank: int | None
    """Among the accounts that finished the deal (1 the best; equal totals share it); ``None`` for a guest."""


class Daily:
    """The daily deals of one server process."""

    def __init__(self, store: DailyStore, tables: Tables, settings: Settings) -> None:
        self.store, self.tables = store, tables
        self.level = settings.daily_bots
        self._key: bytes | None = None

    def key(self) -> bytes:
        if self._key is None:
            self._key = self.store.key()
        return self._key

    @staticmethod
    def deals(day: dt.date) -> list[Deal]:
        """The day's deals: each game at each of its player counts."""
        return [Deal(day, game_id, players) for game_id in game_ids()
                for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)]

    def check(self, deal: Deal) -> None:
        """Refuse a deal that is no game's at that player count (``daily.no_deal``)."""
        if deal not in self.deals(deal.day):
            raise ServerError("daily.no_deal", rule="D1", status=404)

    def _table(self, deal: Deal, name: str) -> tuple[TableRow, list[SeatRow]]:
        game = load_game(deal.game_id, deal.players, {})
        level = level_name(self.level, deal.game_id, deal.players) or "medium"
        names = name_bot_seats([name] + [None] * (deal.players - 1), [False] + [True] * (deal.players - 1))
        row = TableRow(id=DAILY_PREFIX + new_table_id(), game_id=game.id, players=deal.players,
                       options=dict(game.options), seed=deal_seed(self.key(), deal), package_version=__version__,
                       status="open", clock=0.0, rematch_of=None, rematch=None, created_at=now(), finished_at=None)
        seat_rows = [SeatRow(0, name, None, True)] + [SeatRow(i, names[i] or level, level, True)
                                                       for i in range(1, deal.players)]
        return row, seat_rows

    async def start(self, deal: Deal, account: AccountRow | None, name: str) -> tuple[str, str]:
        """Start a play of ``deal`` (today's: the route makes it) for ``account`` (or a guest named ``name``): its
        table and the person's seat token (seat 0). Refused (``daily.played``, 409, naming the table) for an account
        that has one."""
        self.check(deal)
        row, seat_rows = await asyncio.to_thread(self._table, deal, account.name if account else name)
        token = new_token()
        hashes = [hash_token(token)] + [None] * (deal.players - 1)
        started = await asyncio.to_thread(self.store.start, deal, row, seat_rows, hashes,
                                          hash_token(secrets.token_urlsafe(24)), account.id if account else None)
        if not started:
            assert account is not None  # a guest's plays are never refused
            table = await asyncio.to_thread(self.store.play_of, deal, account.id)
            raise ServerError("daily.played", rule="D2", status=409, table=table or "")
        return row.id, token

    def settle(self, deal: Deal) -> None:
        """Store the person's total of every finished play of ``deal`` not settled yet (call from a thread)."""
        for table_id in self.store.unsettled(deal):
            stored = self.tables.load(table_id)
            if stored is None:
                continue
            self.store.settle(table_id, build_table(stored).state.totals[0], stored.row.finished_at)

    def standings(self, deal: Deal) -> list[Standing]:
        """The finished plays of a deal, the best first, the accounts ranked (call from a thread)."""
        self.settle(deal)
        high = game_class(deal.game_id).high_score_wins
        done = [p for p in self.store.plays(deal) if p.total is not None]
        done.sort(key=lambda p: (-p.total if high else p.total) if p.total is not None else 0)
        ranked = [p.total for p in done if p.account_id is not None and p.total is not None]

        def rank(total: int) -> int:
            return 1 + sum((other > total) if high else (other < total) for other in ranked)

        return [Standing(p, rank(p.total) if p.account_id is not None else None)
                for p in done if p.total is not None]

    def mine(self, deal: Deal, account: AccountRow | None, token: str | None) -> str | None:
        """The asker's finished play of ``deal`` (its table), by their account or their seat's token; ``None``
        (call from a thread)."""
        table_id = self.store.play_of(deal, account.id) if account is not None else None
        if table_id is None and token:
            found = self.tables.seat_of_token(token)
            if found is not None and found[1] == 0 and self.store.deal_of(found[0]) == deal:
                table_id = found[0]
        if table_id is None:
            return None
        stored = self.tables.load(table_id)
        return table_id if stored is not None and stored.row.status == "finished" else None

    def may_see(self, table_id: str, account: AccountRow | None, token: str | None) -> bool:
        """Whether the asker may see a table's record and replay (rule D4): any table that is no daily deal's; a
        daily deal's only once the asker finished that deal (call from a thread)."""
        if not table_id.startswith(DAILY_PREFIX):
            return True
        deal = self.store.deal_of(table_id)
        return deal is None or self.mine(deal, account, token) is not None


def spread(totals: list[int]) -> dict[str, float]:
    """The totals' spread: how many, the lowest, the quartiles and the highest."""
    ordered = sorted(totals)
    if len(ordered) == 1:
        only = float(ordered[0])
        return {"n": 1, "lowest": only, "quartile1": only, "median": only, "quartile3": only, "highest": only}
    q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return {"n": len(ordered), "lowest": ordered[0], "quartile1": q1, "median": median, "quartile3": q3,
            "highest": ordered[-1]}
