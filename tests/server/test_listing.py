"""Issue 46 items 4 and 5 (the API part): the list of tables, ``GET /api/tables``, filtered by game, status and whose,
the caller's own tables first, paged by a cursor that new tables do not shift; private tables listed and counted to
their players alone; a finished game that bots finished said so wherever it is listed (the list, the table, its
replay, the home, a profile) and counted as left to bots on its player's statistics. On SQLite and PostgreSQL (one
server per module and database; every test has its own people)."""

from __future__ import annotations

import datetime as dt
import itertools
import threading
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.names import name_key
from dreizehn.server.accounts.schema import accounts
from dreizehn.server.storage import Store, actions, seats, tables
from dreizehn.server.storage.listing import TableQuery, list_tables

from .accounts.browsers import browser
from .accounts.people import sign_up
from .kit import create_table, wait_finished

_numbers = itertools.count()
ME = {"kind": "person", "name": "Me"}
FRIEND = {"kind": "person"}
BOT = {"kind": "bot", "bot": "random"}
STATUSES = ("open", "playing", "finished")


@pytest.fixture
def api(module_server: TestClient) -> TestClient:
    return module_server


def _store(api: TestClient) -> Store:
    store: Store = api.app.state.hub.store  # type: ignore[attr-defined]
    return store


def person(api: TestClient, base: str) -> tuple[TestClient, str]:
    new = browser(api)
    name = f"{base}{next(_numbers)}"
    new.headers["X-CSRF-Token"] = sign_up(new, name)
    return new, name


def account_id(api: TestClient, name: str) -> str:
    with _store(api).engine.connect() as c:
        return str(c.execute(sa.select(accounts.c.id).where(accounts.c.name_key == name_key(name))).scalar_one())


def table(browser: TestClient, seats_: list[dict[str, Any]], game: str = "holzwurm", **more: Any) -> str:
    options = {"games": 1} if game == "holzwurm" else {}
    answer = browser.post("/api/tables", json={"game": game, "options": options, "seats": seats_, **more})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def listed(reader: TestClient, **params: Any) -> list[str]:
    answer = reader.get("/api/tables", params=params)
    assert answer.status_code == 200, answer.text
    return [t["id"] for t in answer.json()]


def make_private(api: TestClient, *table_ids: str) -> None:
    """Set tables private as ``POST /api/tables`` with ``private: true`` stores them (the column of migration 0009)."""
    with _store(api).engine.begin() as c:
        c.execute(tables.update().where(tables.c.id.in_(table_ids)).values(private=True))


def bots_game(api: TestClient) -> str:
    """A game of two random bots played to its end."""
    table_id = str(create_table(api, "holzwurm", ["random", "random"], {"games": 1})["table"]["id"])
    wait_finished(api, table_id)
    return table_id


def seat_of(api: TestClient, table_id: str, account: str, *, last_by: str = "person",
            left: bool = False) -> None:
    """Make seat 0 of a finished table a person's, bound to ``account``, whose last move was chosen ``last_by``
    (the stand-in: the person was away at the end), or that a bot took for good (``left``: ``left_at`` set, the
    seat's bot the one that played it since), as the server stores these."""
    with _store(api).engine.begin() as c:
        c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == 0).values(
            account_id=account, name="Me", bot="random" if left else None,
            left_at=dt.datetime.now(dt.UTC) if left else None))
        c.execute(actions.update().where(actions.c.table_id == table_id, actions.c.seat == 0).values(by="person"))
        last = c.execute(sa.select(sa.func.max(actions.c.seq)).where(actions.c.table_id == table_id,
                                                                     actions.c.seat == 0)).scalar_one()
        c.execute(actions.update().where(actions.c.table_id == table_id, actions.c.seq == last).values(by=last_by))


def test_filters_by_game_status_and_whose_the_caller_s_own_first(api: TestClient) -> None:
    anna, _ = person(api, "Anna")
    bob, _ = person(api, "Bob")
    waiting = table(anna, [ME, FRIEND])
    other_game = table(anna, [ME, FRIEND], "three-thirteen")
    playing = table(anna, [ME, BOT])
    bobs = table(bob, [ME, FRIEND])  # the newest open table: Anna's own come first all the same
    assert listed(anna, status="open", whose="mine") == [other_game, waiting]  # the newest first
    assert listed(anna, status="open", whose="mine", game="holzwurm") == [waiting]
    assert listed(anna, status="playing", whose="mine") == [playing]
    assert listed(anna, status="finished", whose="mine") == []
    everyone = anna.get("/api/tables", params={"status": "open", "limit": 200}).json()
    assert [t["id"] for t in everyone[:2]] == [other_game, waiting] and bobs in [t["id"] for t in everyone]
    assert [t["my_seat"] for t in everyone[:2]] == [0, 0] and {t["my_seat"] for t in everyone[2:]} == {None}
    assert listed(bob, status="open", limit=200)[0] == bobs
    assert bobs not in listed(anna, status="open", whose="mine")
    for status in STATUSES:  # every table listed is of the status and game asked
        for t in anna.get("/api/tables", params={"status": status, "game": "holzwurm", "limit": 200}).json():
            assert t["game"] == "holzwurm" and (t["status"] == "finished") == (status == "finished")
            assert any(not s["joined"] for s in t["seats"]) == (status == "open")


def test_pages_follow_a_cursor_that_new_tables_do_not_shift(api: TestClient) -> None:
    anna, _ = person(api, "Anna")
    made = [table(anna, [ME, FRIEND]) for _ in range(5)]
    seen: list[str] = []
    cursor = None
    totals = set()
    while True:
        params: dict[str, Any] = {"status": "open", "whose": "mine", "limit": 2}
        params |= {"cursor": cursor} if cursor else {}
        answer = anna.get("/api/tables", params=params)
        seen += [t["id"] for t in answer.json()]
        totals.add(int(answer.headers["x-total-count"]))
        table(anna, [ME, FRIEND])  # a new table between pages: it sorts before the cursor, never onto a later page
        cursor = answer.headers.get("x-next-cursor")
        if cursor is None:
            break
    assert seen == made[::-1]  # each once, the newest first, none of those made meanwhile
    assert totals == {5, 6, 7}  # the count is the whole list's as it stood at each page


def test_every_page_of_everyone_s_tables_lists_mine_first_and_each_table_once(api: TestClient) -> None:
    anna, _ = person(api, "Anna")
    bob, _ = person(api, "Bob")
    mine = [table(anna, [ME, FRIEND]) for _ in range(3)]
    theirs = [table(bob, [ME, FRIEND]) for _ in range(3)]
    seen: list[str] = []
    cursor = None
    for _ in range(500):
        params: dict[str, Any] = {"status": "open", "limit": 2} | ({"cursor": cursor} if cursor else {})
        answer = anna.get("/api/tables", params=params)
        seen += [t["id"] for t in answer.json()]
        if len(seen) == 2:
            table(anna, [ME, FRIEND])  # Anna's own new table, made while she reads: not listed again
        cursor = answer.headers.get("x-next-cursor")
        if cursor is None:
            break
    assert seen[:3] == mine[::-1] and len(seen) == len(set(seen)) and set(theirs) <= set(seen)
    assert len(seen) == int(answer.headers["x-total-count"]) - 1


def test_bad_filters_are_refused_naming_the_field(api: TestClient) -> None:
    guest = browser(api)
    for params, field in (({"game": "nope"}, "query.game"), ({"status": "running"}, "query.status"),
                          ({"whose": "yours"}, "query.whose"), ({"cursor": "not a cursor"}, "query.cursor"),
                          ({"cursor": "WzIsIngiLCJ5Il0"}, "query.cursor"), ({"limit": 0}, "query.limit")):
        answer = guest.get("/api/tables", params=params | {"lang": "de"})
        detail = answer.json()["detail"]
        assert answer.status_code == 422 and detail["code"] == "server.bad_request", params
        assert detail["params"]["field"] == field and field in detail["message"]
    answer = guest.get("/api/tables", params={"whose": "mine"})
    assert answer.status_code == 401 and answer.json()["detail"]["code"] == "account.signed_out"


def test_private_tables_are_listed_and_counted_to_their_players_alone(api: TestClient) -> None:
    bob, bob_name = person(api, "Bob")
    anna, anna_name = person(api, "Anna")
    carol, _ = person(api, "Carol")
    readers = {"Carol": carol, "a guest": browser(api)}
    games: tuple[dict[str, Any], ...] = ({}, {"game": "holzwurm"})
    filters: list[dict[str, Any]] = [{"status": s, "limit": 200} | g for s in STATUSES for g in games]

    def counts(reader: TestClient) -> list[int]:
        return [int(reader.get("/api/tables", params=f).headers["x-total-count"]) for f in filters]

    before = {who: counts(reader) for who, reader in readers.items()}
    invited = table(bob, [ME, {"kind": "person", "user": anna_name}])
    playing = table(bob, [ME, BOT])
    finished = bots_game(api)
    seat_of(api, finished, account_id(api, bob_name))
    make_private(api, invited, playing, finished)
    private = {invited, playing, finished}
    for who, reader in readers.items():
        for f in filters:
            shown = set(listed(reader, **f))
            assert not shown & private, (who, f)
        assert counts(reader) == before[who], who  # not counted either
    assert not set(listed(carol, status="open", whose="mine")) & private
    assert listed(anna, status="open", whose="mine") == [invited]  # invited by name: her seat, her table
    assert invited in listed(anna, status="open", limit=200) and playing not in listed(anna, status="playing",
                                                                                        limit=200)
    assert listed(bob, status="open")[0] == invited and listed(bob, status="playing")[0] == playing
    assert listed(bob, status="finished", whose="mine") == [finished]
    for reader in (carol, browser(api)):  # nor on Bob's profile, where his statistics count it
        profile = reader.get(f"/api/players/{bob_name}").json()
        assert finished not in [g["table"] for g in profile["finished"]] and profile["stats"][0]["games"] == 1
    assert [g["table"] for g in bob.get(f"/api/players/{bob_name}").json()["finished"]] == [finished]


def test_a_table_made_private_through_the_api_is_listed_to_its_players_alone(api: TestClient) -> None:
    bob, _ = person(api, "Bob")
    anna, anna_name = person(api, "Anna")
    hidden = table(bob, [ME, {"kind": "person", "user": anna_name}], private=True)
    shown = table(bob, [ME, {"kind": "person", "user": anna_name}])
    assert bob.get(f"/api/tables/{hidden}").json()["private"] is True
    for reader in (person(api, "Carol")[0], browser(api)):
        open_tables = listed(reader, status="open", limit=200)
        assert shown in open_tables and hidden not in open_tables
    for player in (bob, anna):
        assert hidden in listed(player, status="open", limit=200)


def test_finished_by_bots_is_said_wherever_the_game_is_listed(api: TestClient) -> None:
    anna, anna_name = person(api, "Anna")
    anna_id = account_id(api, anna_name)
    away, left, played = bots_game(api), bots_game(api), bots_game(api)
    seat_of(api, away, anna_id, last_by="stand-in")  # Anna was away at the end: the stand-in played for her
    seat_of(api, left, anna_id, left=True)  # a bot took Anna's seat for good (her time ran out)
    seat_of(api, played, anna_id)  # Anna played to the end
    honest = {away: True, left: True, played: False}
    page = {t["id"]: t for t in anna.get("/api/tables", params={"status": "finished", "whose": "mine"}).json()}
    assert {k: t["by_bots"] for k, t in page.items()} == honest
    assert all(t["finished_at"] and t["totals"] for t in page.values())
    for table_id, by_bots in honest.items():
        assert api.get(f"/api/tables/{table_id}").json()["by_bots"] is by_bots
        assert api.get(f"/api/tables/{table_id}/replay").json()["table"]["by_bots"] is by_bots
    me = anna.get("/api/me").json()
    assert {g["table"]: g["by_bots"] for g in me["finished"]} == honest
    (stats,) = me["stats"]
    assert stats["games"] == 3 and stats["left_to_bots"] == 2
    public = api.get(f"/api/players/{anna_name}").json()
    assert {g["table"]: g["by_bots"] for g in public["finished"]} == honest and public["stats"] == me["stats"]
    for status in ("open", "playing"):  # a game being played is not said to be finished by anyone
        assert not any(t["by_bots"] for t in api.get("/api/tables", params={"status": status}).json())


def test_a_page_is_read_in_as_many_queries_whatever_its_length(api: TestClient) -> None:
    """The statements counted are this thread's alone: the server's own work in the background (its bots, its
    presence beats) shares the engine and may speak to the database meanwhile."""
    while len(listed(api, status="finished", limit=7)) < 7:
        bots_game(api)
    engine = _store(api).engine
    statements: list[str] = []
    here = threading.get_ident()

    def count(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if threading.get_ident() == here:
            statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        asked = []
        for limit in (2, 6):
            statements.clear()
            page = list_tables(engine, TableQuery("finished", limit=limit, account_id="nobody"))
            asked.append(len(statements))
            assert len(page.tables) == limit and page.next is not None
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert asked[0] == asked[1] <= 4


def test_pages_of_finished_games_follow_the_time_they_ended_ties_by_id(api: TestClient) -> None:
    _, name = person(api, "Anna")
    anna_id = account_id(api, name)
    ended = dt.datetime(2026, 11, 28, 21, 0, tzinfo=dt.UTC)
    made = [(f"end{next(_numbers)}x{i}", ended - dt.timedelta(minutes=i // 3)) for i in range(14)]  # threes at once
    with _store(api).engine.begin() as c:
        c.execute(tables.insert(), [
            {"id": table_id, "game_id": "holzwurm", "players": 2, "options": {}, "seed": 1, "package_version": "t",
             "status": "finished", "spectator_hash": table_id, "clock": 0, "created_at": at - dt.timedelta(hours=1),
             "finished_at": at, "private": True} for table_id, at in made])  # no other test lists them
        c.execute(seats.insert(), [{"table_id": table_id, "seat": 0, "name": "Me", "joined": True,
                                    "account_id": anna_id} for table_id, _ in made])
    seen: list[str] = []
    cursor = None
    while True:
        page = list_tables(_store(api).engine, TableQuery("finished", account_id=anna_id, mine=True, after=cursor,
                                                          limit=4))
        seen += [t.row.id for t in page.tables]
        assert page.total == len(made)
        cursor = page.next
        if cursor is None:
            break
    assert seen == [table_id for table_id, _ in sorted(made, key=lambda m: (m[1], m[0]), reverse=True)]
