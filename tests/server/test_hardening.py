"""What an outside attacker found (issue 43), closed on SQLite and PostgreSQL: bot specifications bounded (item 1),
tables whose first move is a bot's started after a restart and by a hello (item 2), the bots' answers after a
take-back the same as before (item 3), control and invisible characters refused in every text a person sends, with
one refusal on both backends (items 4 and 5), and a process started at a killed one's address taking its homes back
at once (item 12). The worker processes' deadlines and ends are in test_workers.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dreizehn.play.table import Seat
from dreizehn.server.chat import lines as chat_lines
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Store, make_engine, migrate

from .kit import (
    NAMES,
    ServerProcess,
    connect,
    create_table,
    hub,
    quick,
    settle,
    store_table,
    stored,
    table_body,
    tokens,
)
from .test_ops import poll

BAD = {
    "NUL": "\x00", "BEL": "\x07", "ESC": "\x1b[31m", "CR": "\r", "LF": "\n", "TAB": "\t", "DEL": "\x7f",
    "C1": "\x85", "RLO": "\u202e", "ZWSP": "\u200b", "ZWJ": "\u200d", "BOM": "\ufeff", "LSEP": "\u2028",
    "HANGUL FILLER": "\u3164", "BRAILLE BLANK": "\u2800", "PRIVATE USE": "\ue000",
}
"""A character of each kind a person's text may not hold (S9), by name."""

GOOD_NAMES = ("Anna-Lena", "Zoë Müller", "Ĳsbrand", "李雷", "Jürgen 🎲", "O'Brien", "<b>Bruno</b>")
"""Names that are fine (markup is text like any other: every page shows it as text)."""


@pytest.fixture
def db_client(serve: Callable[[Settings], TestClient], db_settings: Settings) -> TestClient:
    """An in-process server on SQLite and on PostgreSQL."""
    return serve(db_settings)


def _refusal(response: Any, code: str) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    detail: dict[str, Any] = response.json()["detail"]
    assert detail["code"] == code, detail
    return detail


# -- item 1: bot specifications taken over the network are bounded ---------------------------------------------------


@pytest.mark.parametrize("spec", ["ismcts:time=600", "ismcts:iterations=1000000000", "ismcts:time=2.6",
                                  "ismcts:iterations=30001:playout=heuristic"])
def test_a_bot_that_would_think_too_long_is_refused(db_client: TestClient, spec: str) -> None:
    """``ismcts:time=600`` answered 201 and pinned a worker for ten minutes a move: a specification asking for more
    than half of ``DREIZEHN_BOT_TIMEOUT`` (5 s) or more than ``DREIZEHN_BOT_MAX_ITERATIONS`` (30,000) is refused,
    in the reader's language, and no table is made."""
    before = len(db_client.get("/api/tables?status=playing").json()) + len(db_client.get("/api/tables").json())
    response = db_client.post("/api/tables?lang=de", json=table_body("knizia13", ["person", spec, "medium"]))
    detail = _refusal(response, "server.bot_too_costly")
    assert detail["rule"] == "S2" and detail["params"] == {"bot": spec, "seconds": 2.5, "iterations": 30_000}
    assert detail["message"] == "Dieser Bot würde zu lange nachdenken: wähle eine der Stufen."
    after = len(db_client.get("/api/tables?status=playing").json()) + len(db_client.get("/api/tables").json())
    assert after == before


@pytest.mark.parametrize("spec", ["master", " Expert", "ismcts:time=2.5", "ismcts:iterations=30000", "random",
                                  "heuristic:blunder=0.5"])
def test_levels_and_bounded_specifications_are_taken(db_client: TestClient, spec: str) -> None:
    created = create_table(db_client, "holzwurm", ["person", spec])
    assert created["table"]["seats"][1]["kind"] == "bot"


# -- item 2: a table whose first move is a bot's moves after a restart, and when someone says hello ---------------


def _bot_first(store: Store) -> tuple[str, str]:
    """A Holzwurm table stored straight in ``store`` as the server stores a new one, whose first move is the bot's
    (seat 0 starts) and not yet made: as a server killed between creating it and that move left it. Its id and the
    person's token."""
    options = {**quick("holzwurm"), "starter": 0}
    row, made = store_table(store, "holzwurm", [Seat("Bruno", bot="random"), Seat("Anna")], options=options)
    token = made[1]
    assert token is not None and row.status == "open"
    return row.id, token


def test_a_table_whose_first_move_is_a_bots_starts_after_a_restart(serve: Callable[[Settings], TestClient],
                                                                    db_settings: Settings) -> None:
    """4 of 14 tables of the attacker's crash run stayed at version 0 after the restart: only tables being played
    were taken up. Now a table not begun whose first move is a bot's is taken up too: its bot moves with nobody
    connected."""
    engine = make_engine(db_settings.database, db_settings.data_dir)
    migrate(engine)
    table_id, _ = _bot_first(Store(engine))
    engine.dispose()
    client = serve(db_settings)  # the start after the crash
    assert poll(lambda: len(stored(client, table_id).actions) >= 1, timeout=30)
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_a_hello_wakes_a_table_that_should_move(db_client: TestClient) -> None:
    """A table stored while this server runs (by a process killed before its bot's first move) is woken by its
    person's hello: the bot moves, and the person is told."""
    table_id, token = _bot_first(hub(db_client).store)
    with connect(db_client, token=token) as anna:
        update = anna.until(lambda m: m["type"] == "update", timeout=30)
        assert update["version"] == 1 and update["seat"] == 0
    assert len(stored(db_client, table_id).actions) >= 1


# -- item 3: after a take-back the bots answer a move played again as before ------------------------------------------


def test_after_a_take_back_the_bots_answer_the_same_move_the_same_way(db_client: TestClient) -> None:
    """The attacker's undo showed a second hidden card of a bot's hand (Holzwurm: Y5 then N6): rebuilding the table
    restarted the bots' random numbers. Each decision's numbers come from the table's seed and the version now, so
    the same move played again gets the same answers, three times over."""
    created = create_table(db_client, "holzwurm", ["person", "random", "random"], quick("holzwurm"))
    with connect(db_client, token=tokens(created)[0]) as anna:
        for _ in range(2):  # the bots have drawn random numbers before the move taken back
            before = settle(anna, {0}, -1)
            anna.act(before["legal_actions"][-1]["index"])
            settle(anna, {0}, before["version"])
        anna.received.clear()
        answers = []
        for _ in range(3):
            before = settle(anna, {0}, -1)
            start = before["version"]
            anna.act(before["legal_actions"][0]["index"])
            settle(anna, {0}, start)
            told = [m for m in anna.received if m["type"] == "update" and m["version"] > start]
            answers.append([(m["seat"], m["action"]) for m in told[-2:]])
            anna.send({"type": "undo", "version": anna.view["version"] if anna.view else 0})
            anna.until(lambda m: m["type"] == "taken_back")
            anna.received.clear()
    assert answers[0] == answers[1] == answers[2], answers
    assert [seat for seat, _ in answers[0]] == [1, 2]


# -- items 4 and 5: control and invisible characters refused in every text a person sends --------------------------


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_name_with_a_control_or_invisible_character_is_refused_everywhere(db_client: TestClient, kind: str) -> None:
    """A name with NUL answered 500 on PostgreSQL and was stored on SQLite; BEL, ESC, CR/LF, U+202E and zero-width
    characters were stored and shown to everyone. Every route that takes a name refuses them alike, naming the
    field and the character, and changes nothing."""
    name = f"An{BAD[kind]}na"
    body = table_body("holzwurm", ["person", "person"])
    body["seats"][0]["name"] = name
    detail = _refusal(db_client.post("/api/tables", json=body), "server.control_character")
    assert detail["rule"] == "S9" and detail["params"]["field"] == "name"
    assert detail["params"]["char"] == f"U+{ord(BAD[kind][0]):04X}"
    assert "U+" not in detail["message"] and "S9" not in detail["message"]

    created = create_table(db_client, "holzwurm", ["person", "person"])
    free = created["invitations"][1]["token"]
    table_id = created["table"]["id"]
    db_client.post("/api/seats/join", json={"token": created["invitations"][0]["token"], "name": "Anna"})
    seats_before = db_client.get(f"/api/tables/{table_id}").json()["seats"]
    _refusal(db_client.post("/api/seats/join", json={"token": free, "name": name}), "server.control_character")
    _refusal(db_client.post(f"/api/tables/{table_id}/seats/1", json={"name": name}), "server.control_character")
    _refusal(db_client.post("/api/learn/knizia13", json={"name": name}), "server.control_character")
    assert db_client.get(f"/api/tables/{table_id}").json()["seats"] == seats_before


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_of_every_script_are_taken(db_client: TestClient, name: str) -> None:
    body = table_body("holzwurm", ["person", "person"])
    del body["seats"][1]["name"]  # a free seat, its person names themselves when they join
    created = db_client.post("/api/tables", json=body).json()
    joined = db_client.post("/api/seats/join", json={"token": created["invitations"][1]["token"], "name": name})
    assert joined.status_code == 200, joined.text
    seats = db_client.get(f"/api/tables/{created['table']['id']}").json()["seats"]
    assert seats[1]["name"] == name


def test_chat_refuses_control_and_invisible_characters_and_tells_nobody(db_client: TestClient) -> None:
    """Chat relayed NUL, BEL, ESC sequences, CR/LF, U+202E and zero-width characters to everyone, and a line of
    invisible characters alone was accepted though a line of blanks was refused. Each is refused now with the same
    refusal as a name's (NUL no longer fails to store on PostgreSQL), nothing stored, nobody told."""
    created = create_table(db_client, "holzwurm", ["person", "person"])
    table_id = created["table"]["id"]
    with connect(db_client, token=tokens(created)[0], lang="nl") as anna, \
            connect(db_client, token=tokens(created)[1]) as bruno:
        for kind, char in BAD.items():
            anna.send({"type": "say", "text": f"hallo{char}daar"})
            refused = anna.until(lambda m: m["type"] == "refused")
            assert refused["code"] == "server.control_character", (kind, refused)
            assert refused["params"]["field"] == "text"
            assert refused["message"].startswith("Deze tekst bevat")
        for invisible in ("\u200b\u200b", "\u3164", "\u2800 \u2800"):
            anna.send({"type": "say", "text": invisible})
            assert anna.until(lambda m: m["type"] == "refused")["code"] == "server.control_character"
        anna.send({"type": "say", "text": "  zo   gaat het  "})
        said = bruno.until(lambda m: m["type"] == "said")
        assert said["text"] == "zo gaat het" and said["name"] == NAMES[0]
    assert [line.text for line in chat_lines(hub(db_client).store, table_id, True)] == ["zo gaat het"]


# -- item 12: a process started at a killed one's address takes its homes back at once -------------------------------


def test_a_process_started_at_a_killed_ones_address_serves_its_tables_at_once(
        processes: Callable[..., ServerProcess], pg_database: str, tmp_path: Path) -> None:
    """On PostgreSQL a killed process's tables were unreachable for 10-20 s (the home's lease), even when a new
    process started at once at the same address. The new process takes the homes held under its address back at
    once: the first hello after its start is welcomed (no 1012, no wait), and its bots play on."""
    env = {"DATABASE_URL": pg_database, "DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_PAUSE": 0,
           "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_PRESENCE_INTERVAL": 30}  # a lease of 90 s: nothing expires here
    first = processes(env)
    created = first.create("holzwurm", ["person", "random", "random"], quick("holzwurm"))
    table_id = created["table"]["id"]
    anna = first.connect(token=tokens(created)[0])
    before = settle(anna, {0}, -1)
    anna.act(before["legal_actions"][0]["index"])
    settle(anna, {0}, before["version"])
    first.kill()
    second = processes(env, port=first.port)
    again = second.connect(token=tokens(created)[0])  # no 1012: its home is this process's at once
    assert again.view is not None and again.view["version"] >= before["version"] + 3
    assert second.get(f"/api/tables/{table_id}").json()["status"] == "playing"


# -- the largest body read ------------------------------------------------------------------------------------------


def test_a_body_above_the_limit_is_refused_before_it_is_read_whole(db_client: TestClient) -> None:
    """No limit held a request's body: a client could make the server read and parse any amount. A body above
    ``DREIZEHN_MAX_BODY_BYTES`` (64 KiB) is refused with 413 ``server.body_too_large`` in the reader's language,
    whether it says its length or comes in chunks; nothing is made; a body within it is read as before."""
    body = table_body("holzwurm", ["person", "medium"])
    big = {**body, "padding": "x" * 70_000}
    before = len(db_client.get("/api/tables").json())
    response = db_client.post("/api/tables?lang=nl", json=big)
    assert response.status_code == 413, response.text
    detail = response.json()["detail"]
    assert detail["code"] == "server.body_too_large" and detail["params"] == {"limit": 65536}
    assert detail["message"] == "De inhoud van het verzoek is groter dan 65536 bytes."

    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 1000

    chunked = db_client.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
    assert chunked.status_code == 413 and chunked.json()["detail"]["code"] == "server.body_too_large"
    assert len(db_client.get("/api/tables").json()) == before
    assert db_client.post("/api/tables", json=body).status_code == 201


def test_every_registered_games_refusals_are_documented() -> None:
    """Issue 44 item 4: docs/server.md lists every refusal code of every registered game's rules."""
    from dreizehn.core.registry import game_ids
    from dreizehn.server.reference import engine_codes

    documented = (Path(__file__).parents[2] / "docs" / "server.md").read_text()
    codes = engine_codes()
    for game_id in game_ids():
        own = [code for code in codes if code.startswith(f"{game_id}.error.")]
        assert own, game_id
        assert all(f"| `{code}` |" in documented for code in own), game_id
