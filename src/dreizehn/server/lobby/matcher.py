"""Who sits at a table with whom (rule L3), as a pure function of the people waiting and the time: no database, no
clock of its own, so that a thousand people are matched in a test and in the benchmark as the server matches them.

>>> import datetime as dt
>>> t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
>>> key = QueueKey("knizia13", 3, "realtime", None, False)
>>> people = [Waiting(f"a{i}", key, t0 + dt.timedelta(seconds=i), 30, "medium") for i in range(4)]
>>> [(g.people, g.bots) for g in match(people, t0 + dt.timedelta(seconds=10))]
[(('a0', 'a1', 'a2'), 0)]
>>> [(g.people, g.bots) for g in match(people[3:], t0 + dt.timedelta(seconds=40))]
[(('a3',), 2)]
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class QueueKey:
    """What people must agree on to sit at one table: the game, the number of seats, the pace (with the time to
    move of a turn-based table) and whether it is rated."""

    game_id: str
    players: int
    pace: str
    move_time: int | None
    rated: bool


@dataclass(frozen=True)
class Waiting:
    """A person in the queue, free to be matched: their account, key, when they queued, how long they wait before
    bots fill the free seats (``None``: never) and at which level."""

    account_id: str
    key: QueueKey
    queued_at: dt.datetime
    bot_wait: int | None
    bot_level: str

    def bots_now(self, at: dt.datetime) -> bool:
        """Whether this person has waited long enough to take bots at ``at``."""
        return self.bot_wait is not None and self.queued_at + dt.timedelta(seconds=self.bot_wait) <= at


@dataclass(frozen=True)
class Group:
    """A table to be: the people (oldest first), the number of bots that fill the other seats, at ``bot_level``
    (the oldest person's)."""

    key: QueueKey
    people: tuple[str, ...]
    bots: int
    bot_level: str


def _order(person: Waiting) -> tuple[dt.datetime, str]:
    return person.queued_at, person.account_id


def match(waiting: Iterable[Waiting], at: dt.datetime) -> list[Group]:
    """The groups to seat now (rule L3). For each queue key, the people in the order they queued: every ``players``
    of them make a table. Of those left (fewer than ``players``), once one has waited their bot wait, all who take
    bots at all (not "never") sit at one table with bots in the other seats: a table with fewer bots, sooner, for
    those whose own wait has not run out. Each person is in one group at most, and afterwards no table could
    start: each key has fewer people left than its seats, none of them willing to take bots yet."""
    by_key: dict[QueueKey, list[Waiting]] = defaultdict(list)
    seen: set[str] = set()
    for person in waiting:
        if person.account_id in seen:  # one entry per account (rule L1): the store keeps no second one
            continue
        seen.add(person.account_id)
        by_key[person.key].append(person)
    groups: list[Group] = []
    for key in sorted(by_key):
        people = sorted(by_key[key], key=_order)
        full = len(people) - len(people) % key.players
        for i in range(0, full, key.players):
            chunk = people[i:i + key.players]
            groups.append(Group(key, tuple(p.account_id for p in chunk), 0, chunk[0].bot_level))
        willing = [p for p in people[full:] if p.bot_wait is not None]
        if any(p.bots_now(at) for p in willing):
            groups.append(Group(key, tuple(p.account_id for p in willing), key.players - len(willing),
                                willing[0].bot_level))
    return groups


def leftover(waiting: Iterable[Waiting], groups: Iterable[Group]) -> list[Waiting]:
    """The people of ``waiting`` in none of ``groups``."""
    placed = {a for g in groups for a in g.people}
    return [p for p in waiting if p.account_id not in placed]
