"""Issue 46 item 1: turn-based tables (rules P1–P3 of docs/turns.md). A table made turn-based gives each person a
time to move kept in the database (``turn_clocks``); no stand-in takes an away person's seat; when the time runs out
the table's rule applies once: a bot plays that move, a bot takes the seat for good, or the game ends with that
person last. Guests neither make nor join one, and nobody holds more than the limit. On SQLite and PostgreSQL (one
server per module and database); the sweep is run by the tests (its own interval is an hour here), each clock made
run out by moving its due time into the past."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.app import create_app
from dreizehn.server.rooms.state import said_names, sentence
from dreizehn.server.storage import actions, seats, tables
from dreizehn.server.storage.rows import SeatRow
from dreizehn.server.turns.hooks import TurnClock
from dreizehn.server.turns.schema import turn_clocks

from ..accounts.browsers import browser
from ..accounts.people import code, sign_up
from ..conftest import new_database
from ..kit import OPS_HEADERS, connect, eventually, make_settings, play_to_end

_numbers = itertools.count()
LIMIT = 3
"""The turn-based games a person may hold at once on this module's server."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = new_database(request.getfixturevalue("postgres_url")) if request.param == "postgres" else None
    settings = make_settings(tmp_path_factory.mktemp("data"), url, turn_sweep=3600.0, move_time_min=60,
                             turn_based_limit=LIMIT, grace_period=0.0)
    with TestClient(create_app(settings), headers=OPS_HEADERS) as started:
        yield started


class Heard:
    """A turn hook that records what it is told."""

    def __init__(self) -> None:
        self.turns: list[TurnClock] = []
        self.reminders: list[TurnClock] = []
        self.timeouts: list[tuple[TurnClock, str]] = []
        self.ends: list[str] = []

    def turn(self, clock: TurnClock) -> None:
        self.turns.append(clock)

    def reminder(self, clock: TurnClock) -> None:
        self.reminders.append(clock)

    def timed_out(self, clock: TurnClock, rule: str) -> None:
        self.timeouts.append((clock, rule))

    def ended(self, table_id: str) -> None:
        self.ends.append(table_id)


@pytest.fixture
def heard(api: TestClient) -> Iterator[Heard]:
    hooks = api.app.state.hub.turn_hooks  # type: ignore[attr-defined]
    recorder = Heard()
    hooks.append(recorder)
    yield recorder
    hooks.remove(recorder)


def person(api: TestClient, base: str) -> tuple[TestClient, str]:
    """A browser signed up as a new account, and its user name."""
    new = browser(api)
    name = f"{base}{next(_numbers)}"
    new.headers["X-CSRF-Token"] = sign_up(new, name)
    return new, name


def turn_based(creator: TestClient, friend: str | None, rule: str = "move", move_time: int = 3600,
               **more: Any) -> Any:
    seats_ = [{"kind": "person", "name": "Me"},
              {"kind": "person", "user": friend} if friend else {"kind": "bot", "bot": "random"}]
    return creator.post("/api/tables", json={"game": "holzwurm", "options": {"games": 1}, "seats": seats_,
                                             "pace": "turn-based", "move_time": move_time, "on_timeout": rule,
                                             **more})


def engine(api: TestClient) -> sa.Engine:
    found: sa.Engine = api.app.state.hub.store.engine  # type: ignore[attr-defined]
    return found


def clock_row(api: TestClient, table_id: str) -> Any:
    with engine(api).connect() as c:
        return c.execute(sa.select(turn_clocks).where(turn_clocks.c.table_id == table_id)).first()


def log(api: TestClient, table_id: str) -> list[tuple[int, int, str]]:
    with engine(api).connect() as c:
        return [(r.seq, r.seat, r.by) for r in c.execute(
            sa.select(actions).where(actions.c.table_id == table_id).order_by(actions.c.seq))]


def run_out(api: TestClient, table_id: str) -> None:
    """The table's clock runs out now: its due time moved an hour into the past."""
    with engine(api).begin() as c:
        c.execute(turn_clocks.update().where(turn_clocks.c.table_id == table_id)
                  .values(due_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)))


def sweep(api: TestClient) -> int:
    fired: int = api.portal.call(api.app.state.turns.once)  # type: ignore[union-attr, attr-defined, call-arg]
    return fired


def a_game(api: TestClient, rule: str = "move") -> tuple[str, TestClient, TestClient, int]:
    """A turn-based game of two accounts: its id, the two browsers, and the seat whose clock runs now."""
    anna, _ = person(api, "Anna")
    bob, bob_name = person(api, "Bob")
    created = turn_based(anna, bob_name, rule)
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    eventually(lambda: clock_row(api, table_id) is not None, "the first turn's clock is stored")
    return table_id, anna, bob, clock_row(api, table_id).seat


def test_p1_a_turn_based_table_keeps_the_clock_of_the_person_to_move(api: TestClient, heard: Heard) -> None:
    table_id, anna, bob, seat = a_game(api)
    shown = anna.get(f"/api/tables/{table_id}").json()
    assert (shown["pace"], shown["move_time"], shown["on_timeout"]) == ("turn-based", 3600, "move")
    row = clock_row(api, table_id)
    due = row.due_at if row.due_at.tzinfo else row.due_at.replace(tzinfo=dt.UTC)
    started = row.started_at if row.started_at.tzinfo else row.started_at.replace(tzinfo=dt.UTC)
    assert due - started == dt.timedelta(hours=1) and row.version == 0
    assert dt.datetime.fromisoformat(shown["deadline"]) == due
    assert row.remind_at is not None and started < (row.remind_at if row.remind_at.tzinfo
                                                     else row.remind_at.replace(tzinfo=dt.UTC)) < due
    assert [c.table_id for c in heard.turns] == [table_id]
    mover = (anna, bob)[seat]
    with connect(mover, table=table_id, seat=seat) as peer:  # the person moves: the clock is the other's now
        assert peer.view is not None
        peer.act(peer.view["legal_actions"][0]["index"])
        eventually(lambda: getattr(clock_row(api, table_id), "version", None) == 1, "the next turn's clock is stored")
    assert clock_row(api, table_id).seat == 1 - seat
    with engine(api).connect() as c:
        account = c.execute(sa.select(seats.c.account_id).where(seats.c.table_id == table_id,
                                                                seats.c.seat == 1 - seat)).scalar()
    assert clock_row(api, table_id).account_id == account
    assert [(c.table_id, c.version) for c in heard.turns] == [(table_id, 0), (table_id, 1)]


def test_p1_nobody_takes_an_away_person_s_seat_at_a_turn_based_table(api: TestClient) -> None:
    table_id, anna, bob, seat = a_game(api)
    room = api.portal.call(api.app.state.hub.room, table_id)  # type: ignore[union-attr, attr-defined]
    with connect((anna, bob)[seat], table=table_id, seat=seat):
        eventually(lambda: seat in room.presence.seats_connected(), "the person is connected")
    eventually(lambda: seat not in room.presence.seats_connected(), "the person left")
    assert not room.presence.away and not room.presence.seats_stand_in()  # the grace period (0 s) runs for none
    assert log(api, table_id) == []


def test_p1_a_table_s_pace_is_checked(api: TestClient) -> None:
    anna, _ = person(api, "Anna")
    short = turn_based(anna, None, move_time=59)
    assert short.status_code == 422 and code(short) == "turns.move_time"
    assert short.json()["detail"]["params"]["field"] == "body.move_time"
    assert turn_based(anna, None, move_time=604801).status_code == 422
    assert turn_based(anna, None, rule="forfeit").status_code == 422


def test_p2_guests_neither_make_nor_join_a_turn_based_table(api: TestClient) -> None:
    guest = browser(api)
    made = turn_based(guest, None)
    assert made.status_code == 401 and code(made) == "turns.sign_in"
    anna, _ = person(api, "Anna")
    created = anna.post("/api/tables", json={"game": "holzwurm", "options": {"games": 1}, "pace": "turn-based",
                                             "seats": [{"kind": "person", "name": "Me"}, {"kind": "person"}]})
    assert created.status_code == 201, created.text
    token = next(i["token"] for i in created.json()["invitations"] if i["seat"] == 1)
    join = guest.post("/api/seats/join", json={"token": token, "name": "Guest"})
    assert join.status_code == 401 and code(join) == "turns.sign_in"
    free = guest.post(f"/api/tables/{created.json()['table']['id']}/seats/1", json={"name": "Guest"})
    assert free.status_code == 401 and code(free) == "turns.sign_in"
    clara, _ = person(api, "Clara")
    assert clara.post("/api/seats/join", json={"token": token, "name": "Clara"}).status_code == 200


def test_p2_nobody_holds_more_turn_based_games_than_the_limit(api: TestClient) -> None:
    anna, anna_name = person(api, "Anna")
    for _ in range(LIMIT):
        assert turn_based(anna, None).status_code == 201
    refused = turn_based(anna, None)
    assert refused.status_code == 409 and code(refused) == "turns.too_many"
    assert refused.json()["detail"]["params"] == {"name": anna_name, "limit": LIMIT}
    bob, _ = person(api, "Bob")  # nor may another person seat them at one
    invited = turn_based(bob, anna_name)
    assert invited.status_code == 409 and code(invited) == "turns.too_many"
    realtime = anna.post("/api/tables", json={"game": "holzwurm", "options": {"games": 1},
                                              "seats": [{"kind": "person", "name": "Me"}, {"kind": "bot"}]})
    assert realtime.status_code == 201  # real-time tables are not counted


def test_p3_move_a_bot_plays_the_move_whose_time_ran_out_once(api: TestClient, heard: Heard) -> None:
    table_id, _, _, seat = a_game(api, "move")
    run_out(api, table_id)
    assert sweep(api) == 1
    assert sweep(api) == 0  # fired once: the next clock is not due
    assert log(api, table_id) == [(0, seat, "stand-in")]
    eventually(lambda: clock_row(api, table_id).version == 1, "the next person's clock is stored")
    assert [(c.table_id, c.seat, rule) for c, rule in heard.timeouts] == [(table_id, seat, "move")]
    with engine(api).connect() as c:  # the seat is still its person's
        assert c.execute(sa.select(seats.c.bot).where(seats.c.table_id == table_id, seats.c.seat == seat)
                         ).scalar() is None


def test_p3_seat_a_bot_takes_the_seat_for_the_rest_of_the_game(api: TestClient, heard: Heard) -> None:
    table_id, anna, bob, seat = a_game(api, "seat")
    other = (anna, bob)[1 - seat]
    run_out(api, table_id)
    assert sweep(api) == 1
    with engine(api).connect() as c:
        row = c.execute(sa.select(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)).one()
    assert row.bot is not None and row.left_at is not None and row.account_id is not None
    with connect(other, table=table_id, seat=1 - seat) as peer:  # the other person plays on to the end
        play_to_end({1 - seat: peer})
    assert other.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    bots = {by for _, s, by in log(api, table_id) if s == seat}
    assert bots == {"stand-in"}  # every move of the seat since is a bot's, counted as left to bots
    assert [rule for _, rule in heard.timeouts] == ["seat"]


def test_p3_end_the_game_ends_with_that_person_last(api: TestClient, heard: Heard) -> None:
    table_id, anna, bob, seat = a_game(api, "end")
    with connect((anna, bob)[1 - seat], table=table_id, seat=1 - seat) as peer:
        run_out(api, table_id)
        assert sweep(api) == 1
        told = peer.recv(skip=("presence",))
        assert told["type"] == "resync" and told["view"]["is_over"] and told["view"]["legal_actions"] == []
        said = peer.recv(skip=("presence",))
        name = anna.get(f"/api/tables/{table_id}").json()["seats"][seat]["name"]
        assert (said["type"], said["seat"], said["rule"]) == ("timed_out", seat, "end")
        assert said["text"] == f"{name}'s time ran out: the game ends, {name} last."
    shown = anna.get(f"/api/tables/{table_id}").json()
    assert shown["status"] == "finished" and shown["ended_seat"] == seat and shown["finished_at"]
    assert shown["winners"] == [1 - seat] and shown["deadline"] is None
    assert clock_row(api, table_id) is None and log(api, table_id) == []
    with connect((anna, bob)[seat], table=table_id, seat=seat) as late:  # too late: the game is over
        assert late.view is not None and late.view["is_over"]
        late.act(0, version=0)
        assert late.recv(skip=("presence",))["code"] == "action.game_over"
    assert sweep(api) == 0 and [rule for _, rule in heard.timeouts] == ["end"]
    with engine(api).connect() as c:
        assert c.execute(sa.select(tables.c.ended_seat).where(tables.c.id == table_id)).scalar() == seat


def test_p3_a_clock_behind_its_table_is_not_fired(api: TestClient) -> None:
    """A clock row of a version the table has passed (written before a crash) fires nothing: the room writes the
    table's own clock instead."""
    table_id, anna, bob, seat = a_game(api, "move")
    with connect((anna, bob)[seat], table=table_id, seat=seat) as peer:
        assert peer.view is not None
        with engine(api).begin() as c:  # the row written before the move is what a crash would have left
            c.execute(turn_clocks.update().where(turn_clocks.c.table_id == table_id).values(version=-1))
        peer.act(peer.view["legal_actions"][0]["index"])
        eventually(lambda: clock_row(api, table_id).version == 1, "the next clock is stored")
    with engine(api).begin() as c:
        c.execute(turn_clocks.update().where(turn_clocks.c.table_id == table_id).values(version=0, seat=seat))
    run_out(api, table_id)
    fired = sweep(api)
    assert log(api, table_id) == [(0, seat, "person")]
    assert fired == 0
    eventually(lambda: clock_row(api, table_id).version == 1, "the table's own clock is written again")


def test_p3_reminders_are_told_once(api: TestClient, heard: Heard) -> None:
    table_id, _, _, seat = a_game(api)
    with engine(api).begin() as c:
        c.execute(turn_clocks.update().where(turn_clocks.c.table_id == table_id)
                  .values(remind_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)))
    sweep(api)
    sweep(api)
    assert [(c.table_id, c.seat) for c in heard.reminders] == [(table_id, seat)]
    assert clock_row(api, table_id).remind_at is None


def test_p1_the_home_lists_turn_based_games_with_whose_turn_and_until_when(api: TestClient) -> None:
    table_id, anna, bob, seat = a_game(api)
    due = clock_row(api, table_id).due_at
    for browser_, mine in ((anna, 0), (bob, 1)):
        game = next(g for g in browser_.get("/api/me").json()["playing"] if g["table"] == table_id)
        assert game["pace"] == "turn-based" and game["your_turn"] == (mine == seat)
        assert dt.datetime.fromisoformat(game["deadline"]).replace(tzinfo=None) == due.replace(tzinfo=None)


def _with_free_seats(api: TestClient, anna: TestClient, free: int, rule: str) -> str:
    """A turn-based table of Anna's and ``free`` seats for friends invited by a link, whom nobody joins; the first
    of them begins. Its id, once the first turn's clock is stored."""
    created = anna.post("/api/tables", json={
        "game": "holzwurm", "options": {"games": 1, "starter": 1}, "pace": "turn-based", "on_timeout": rule,
        "seats": [{"kind": "person", "name": "Anna"}] + [{"kind": "person"}] * free})
    assert created.status_code == 201, created.text
    table_id: str = created.json()["table"]["id"]
    eventually(lambda: clock_row(api, table_id) is not None, "the first turn's clock is stored")
    return table_id


def test_p3_a_seat_nobody_joined_is_said_in_words_never_blank_or_by_its_number(api: TestClient) -> None:
    """A friend invited by a link has no name until they join, and the table begins without them: their time runs
    out like anyone's and a bot plays their move. Every sentence about their seat names "the invited player" in
    the reader's language ("the first …", "the second …" where several are invited), never a blank or a seat
    number (the log read "Platz 2 spielt die grüne 1 …" and "Die Zeit von  ist abgelaufen"); the seat itself is
    still free and nameless (the page says "free seat")."""
    anna, _ = person(api, "Anna")
    table_id = _with_free_seats(api, anna, 2, "move")
    with connect(anna, table=table_id, seat=0, lang="de") as peer:
        peer.act(0, version=0)  # not Anna's turn
        assert peer.recv(skip=("presence",))["message"] == "Der erste eingeladene Mitspieler ist am Zug."
        for seat, nth in ((1, "erste"), (2, "zweite")):
            eventually(lambda: clock_row(api, table_id).seat == seat, "the seat's clock is stored")  # noqa: B023
            run_out(api, table_id)
            assert sweep(api) == 1
            update = peer.recv(skip=("presence",))
            said = f"Der {nth} eingeladene Mitspieler "
            assert update["seat"] == seat and update["text"].startswith(said + "spielt")
            assert [e["text"][:len(said)] for e in update["events"]] == [said]
            assert [(s["name"], s["joined"]) for s in update["seats"]][1:] == [("", False), ("", False)]
            timed = peer.recv(skip=("presence",))
            assert timed["text"] == said + "hat die Zeit für den Zug überschritten: Ein Bot hat den Zug gespielt."


def test_p3_a_game_ended_by_an_invited_player_who_never_came_says_so_in_words(api: TestClient) -> None:
    """The game ends when the time of an invited friend who never joined runs out (rule "end"): the notice and the
    replay (its opening, the seat's name) say "the invited player", in each language."""
    anna, _ = person(api, "Anna")
    table_id = _with_free_seats(api, anna, 1, "end")
    with connect(anna, table=table_id, seat=0, lang="en") as peer:
        run_out(api, table_id)
        assert sweep(api) == 1
        told = peer.until(lambda m: m["type"] == "timed_out")
        assert told["text"] == "The invited player's time ran out: the game ends, the invited player last."
    replay = anna.get(f"/api/tables/{table_id}/replay?lang=nl").json()
    assert replay["names"] == ["Anna", "de uitgenodigde speler"]
    assert "de uitgenodigde speler begint" in replay["opening"][0]["text"]
    assert anna.get(f"/api/tables/{table_id}/record?lang=de").json()["players"] == [
        "Anna", "der eingeladene Mitspieler"]


def test_a_persons_name_begins_a_sentence_as_they_wrote_it() -> None:
    """Only a seat said in words begins its sentence with a capital ("Der eingeladene Mitspieler spielt …"); a
    person's own name stays as they wrote it ("anna spielt …", not "Anna")."""
    seats = [SeatRow(0, "anna", None, True), SeatRow(1, "", None, False), SeatRow(2, "Ada", "easy", True)]
    assert sentence("anna spielt die grüne 1.", seats, 0) == "anna spielt die grüne 1."
    assert sentence("der eingeladene Mitspieler spielt.", seats, 1) == "Der eingeladene Mitspieler spielt."
    assert said_names(seats, "de")[:2] == ["anna", "der eingeladene Mitspieler"]
