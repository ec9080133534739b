"""The matcher as a pure function (rule L3): a thousand people queued at once are each at one table at most, and
afterwards no table could start that has not."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

from dreizehn.server.lobby.matcher import Group, QueueKey, Waiting, leftover, match

T0 = dt.datetime(2026, 11, 28, 20, 0, tzinfo=dt.UTC)
KEYS = [QueueKey("knizia13", 4, "realtime", None, False), QueueKey("knizia13", 3, "realtime", None, True),
        QueueKey("holzwurm", 5, "turn-based", 86400, False), QueueKey("three-thirteen", 2, "turn-based", 3600, False)]


def _crowd(n: int, seed: int) -> list[Waiting]:
    rng = random.Random(seed)
    return [Waiting(f"a{i}", rng.choice(KEYS), T0 + dt.timedelta(seconds=rng.randrange(600)),
                    rng.choice([None, 0, 30, 120, 900]), rng.choice(["easy", "medium", "hard"]))
            for i in range(n)]


def _check(people: list[Waiting], groups: list[Group], at: dt.datetime) -> None:
    keys = {p.account_id: p.key for p in people}
    seated = Counter(a for g in groups for a in g.people)
    assert all(n == 1 for n in seated.values()), "someone is at two tables"
    for group in groups:
        assert len(group.people) + group.bots == group.key.players
        assert all(keys[a] == group.key for a in group.people)  # everyone at a table asked for that table
        assert group.people
    left = leftover(people, groups)
    for key in KEYS:
        waiting = [p for p in left if p.key == key]
        assert len(waiting) < key.players, "a full table's people are left waiting"
        assert not any(p.bots_now(at) for p in waiting), "one who takes bots now is left waiting"


def test_a_thousand_people_queued_at_once_sit_at_one_table_each_and_none_waits_while_a_table_could_start() -> None:
    for seed in range(5):
        people = _crowd(1000, seed)
        for minutes in (0, 1, 5, 30):
            at = T0 + dt.timedelta(minutes=minutes)
            groups = match(people, at)
            _check(people, groups, at)
        assert sum(len(g.people) for g in match(people, T0 + dt.timedelta(hours=1))) >= 900


def test_the_oldest_sit_first_and_bots_come_only_after_the_wait_at_the_oldests_level() -> None:
    key = KEYS[0]
    people = [Waiting(f"a{i}", key, T0 + dt.timedelta(seconds=i), 60, level)
              for i, level in enumerate(["hard", "easy", "easy", "easy", "easy", "medium"])]
    groups = match(reversed(people), T0 + dt.timedelta(seconds=30))
    assert [(g.people, g.bots) for g in groups] == [(("a0", "a1", "a2", "a3"), 0)]
    assert match(people[4:], T0 + dt.timedelta(seconds=63)) == []
    later = match(people[4:], T0 + dt.timedelta(seconds=64))  # a4's wait is over: a5 (till 65) sits with her
    assert [(g.people, g.bots, g.bot_level) for g in later] == [(("a4", "a5"), 2, "easy")]
    never = [Waiting("n", key, T0, None, "medium"), Waiting("m", key, T0, 0, "hard")]
    assert [(g.people, g.bots) for g in match(never, T0 + dt.timedelta(days=9))] == [(("m",), 3)]


def test_an_account_given_twice_is_matched_once() -> None:
    key = QueueKey("three-thirteen", 2, "realtime", None, False)
    twice = [Waiting("a", key, T0, 0, "easy"), Waiting("a", key, T0, 0, "easy")]
    assert [(g.people, g.bots) for g in match(twice, T0)] == [(("a",), 1)]
