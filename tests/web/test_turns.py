"""Turn-based tables in the browser (issue 46, docs/turns.md): two accounts play a turn-based game, each page
saying whose move it is and until when; one person lets the clock run out (its due time moved into the past, the
clock shortened) and the bot plays that move, and the other is to move again. The new-table page offers the pace to
a signed-in person. Screenshots of both (DREIZEHN_SCREENSHOTS=docs/screenshots/turns)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .accounts_kit import sign_in
from .kit import (
    Server,
    Watched,
    check_boxes_lead,
    move,
    new_context,
    scroll_to,
    shots,
    start_server,
    version,
    watch,
)

PASSWORD = "a long password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with start_server(tmp_path_factory.mktemp("data"), SIGNUP_LIMIT_ADDRESS="1000 per hour", TURN_SWEEP="0.2",
                      MOVE_TIME_MIN="60") as running:
        yield running


def _sign_up(server: Server, name: str) -> None:
    answer = httpx2.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def _shots(page: Page, name: str) -> None:
    shots(page, name)


def _person(browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched],
            name: str) -> Page:
    page = watch(watched, new_context(browser, contexts, server), name).page
    sign_in(page, name, PASSWORD)
    return page


def _run_out(server: Server, table_id: str) -> None:
    """The table's clock runs out now: its due time moved into the past in the server's database."""
    db = sqlite3.connect(server.data_dir / "dreizehn.sqlite3")
    past = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).isoformat(sep=" ")
    with db:
        assert db.execute("UPDATE turn_clocks SET due_at = ? WHERE table_id = ?", (past, table_id)).rowcount == 1
    db.close()


def test_two_accounts_play_turn_based_and_one_lets_the_clock_run_out(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    for name in ("Anna", "Bruno"):
        _sign_up(server, name)
    anna, bruno = (_person(browser, contexts, server, watched, name) for name in ("Anna", "Bruno"))
    csrf = anna.request.get("/api/session").json()["csrf"]
    made = anna.request.post("/api/tables", headers={"X-CSRF-Token": csrf}, data={
        "game": "holzwurm", "options": {"games": 1}, "pace": "turn-based", "move_time": 7200, "on_timeout": "move",
        "seats": [{"kind": "person", "name": "Anna"}, {"kind": "person", "user": "Bruno"}]})
    assert made.status == 201, made.text()
    table_id = made.json()["table"]["id"]
    pages = {0: anna, 1: bruno}
    for seat, page in pages.items():
        page.goto(f"/seat/{table_id}/{seat}")
        page.wait_for_selector(".table-page[data-version]")
    first = int(anna.get_attribute(".table-page", "data-current") or -1)
    mover, other = pages[first], pages[1 - first]
    mover_name = ("Anna", "Bruno")[first]
    for page in (mover, other):  # each page says whose move it is, and until when
        expect(page.locator("#deadline")).to_contain_text(f"{mover_name} has until")
    expect(mover.locator("#turn")).to_have_attribute("data-mine", "yes")
    expect(mover.locator("#waiting")).to_have_text("1 game waits for you")  # the header's count, every page
    move(mover)
    expect(other.locator("#turn")).to_have_attribute("data-mine", "yes")  # told of their turn
    expect(other.locator("#waiting")).to_have_text("1 game waits for you")
    expect(mover.locator("#waiting")).to_be_hidden()
    other_name = ("Anna", "Bruno")[1 - first]
    expect(mover.locator("#deadline")).to_contain_text(f"{other_name} has until")
    before = version(other)
    _run_out(server, table_id)  # the other lets their time run out: a bot plays that move for them
    other.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
    expect(mover.locator("#turn")).to_have_attribute("data-mine", "yes")
    expect(other.locator("#turn")).to_have_attribute("data-mine", "no")
    expect(mover.locator("#log")).to_contain_text(f"{other_name}'s time ran out: a bot played the move.")
    expect(other.locator("#deadline")).to_contain_text(f"{mover_name} has until")
    for lang in ("en", "de", "nl"):
        other.select_option("#lang", lang)
        expect(other.locator("html")).to_have_attribute("lang", lang)
        expect(other.locator("#deadline")).to_contain_text(mover_name)
        _shots(other, f"turn-based-table-{lang}")


def test_the_new_table_page_offers_the_pace_to_a_signed_in_person(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    _sign_up(server, "Clara")
    page = _person(browser, contexts, server, watched, "Clara")
    page.goto("/new/knizia13")
    expect(page.locator(".turn-based")).to_be_hidden()
    page.select_option("#pace", "turn-based")
    expect(page.locator("#move-time")).to_be_visible()
    page.select_option("#move-time", "259200")
    page.select_option("#on-timeout", "seat")
    for lang, label in (("en", "Play"), ("de", "Spielen"), ("nl", "Spelen")):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("label[for=pace]")).to_have_text(label)  # the page is drawn again in the new language
        page.select_option("#pace", "turn-based")
        page.select_option("#move-time", "259200")
        expect(page.locator("#move-time")).to_have_value("259200")
        scroll_to(page, ".pace-form")
        assert check_boxes_lead(page) == ["option-open_piles", "rated", "private"]
        _shots(page, f"new-turn-based-table-{lang}")
    page.select_option("#on-timeout", "seat")
    page.select_option("#seat-1", "easy")
    page.select_option("#seat-2", "easy")
    page.click("#create")
    page.wait_for_selector(".table-page[data-version]")
    table_id = page.get_attribute(".table-page", "data-table")
    shown = page.request.get(f"/api/tables/{table_id}").json()
    assert (shown["pace"], shown["move_time"], shown["on_timeout"]) == ("turn-based", 259200, "seat")
    guest = watch(watched, new_context(browser, contexts, server), "guest").page
    guest.goto("/new/knizia13")
    expect(guest.locator(".pace-form")).to_contain_text("Sign in to play turn-based")
    expect(guest.locator("#pace")).to_have_count(0)
