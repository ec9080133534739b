"""The lobby in the browser (issue 46 item 3): "Play now" finds a real-time table for three accounts and a bot, each
confirming "ready" on their page and taken to their own seat; and the screenshots of the lobby (laptop and phone,
en/de/nl): a person waiting, the people waiting by game, an open table with a free seat, a table to watch."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .accounts_kit import sign_in
from .kit import LAPTOP, PHONE, Server, Watched, gaps_between, new_context, shoot, start_server, watch

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with start_server(tmp_path_factory.mktemp("data"), SIGNUP_LIMIT_ADDRESS="1000 per hour",
                      LOBBY_TICK="0.2", LOBBY_READY_WINDOW="90") as running:  # time to photograph the ready check
        yield running


def _person(browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched],
            name: str) -> Page:
    answer = httpx2.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    page = watch(watched, new_context(browser, contexts, server), name).page
    sign_in(page, name)
    return page


def _play_now(page: Page, wait: str) -> None:
    page.goto("/lobby")
    page.select_option("#lobby-game", "knizia13")
    page.select_option("#lobby-players", "4")
    page.select_option("#lobby-pace", "realtime")
    page.select_option("#lobby-wait", wait)
    page.click(".lobby-form button[type=submit]")
    expect(page.locator(".lobby-what")).to_contain_text("4 players")


def _shots(page: Page, name: str) -> None:
    """The page at a laptop's and a phone's size under ``lobby/`` (DREIZEHN_SCREENSHOTS=docs/screenshots remakes
    docs/screenshots/lobby)."""
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shoot(page, "lobby", f"{name}-{size}")
    page.set_viewport_size(LAPTOP)


def _even_gaps(page: Page) -> None:
    """On a phone the lobby's cards stand in one column, each as far from the next (a card's margin and a grid's gap
    added up to twice the space between some of them)."""
    page.set_viewport_size(PHONE)
    gaps = gaps_between(page, ".lobby .panel")
    page.set_viewport_size(LAPTOP)
    assert len(gaps) == 4 and max(gaps) - min(gaps) <= 1 and max(gaps) <= 20, gaps


def _tables(server: Server) -> None:
    """An open table with a free seat and a table being played (bots only to move: it plays on by itself)."""
    for seats in ([{"kind": "person", "name": "Dora"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}],
                  [{"kind": "person", "name": "Emil"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}]):
        answer = httpx2.post(f"{server.url}/api/tables", json={"game": "holzwurm", "seats": seats})
        assert answer.status_code == 201, answer.text


def test_play_now_finds_a_table_for_three_accounts_and_a_bot(browser: Browser, contexts: list[BrowserContext],
                                                             server: Server, watched: list[Watched]) -> None:
    _tables(server)
    ada, bruno, clara = (_person(browser, contexts, server, watched, n) for n in ("Ada", "Bruno", "Clara"))
    _play_now(ada, "60")
    _play_now(bruno, "60")
    expect(ada.locator(".lobby-waiting li")).to_contain_text("2 wait")
    _even_gaps(ada)
    for lang in ("en", "de", "nl"):
        ada.select_option("#lang", lang)
        expect(ada.locator("html")).to_have_attribute("lang", lang)
        expect(ada.locator(".lobby-what")).to_be_visible()
        _shots(ada, f"waiting-{lang}")
    ada.select_option("#lang", "en")
    clara.goto("/lobby")
    for lang in ("en", "de", "nl"):
        clara.select_option("#lang", lang)
        expect(clara.locator("html")).to_have_attribute("lang", lang)
        clara.select_option("#lobby-pace", "realtime")  # no time to move at a real-time table
        expect(clara.locator("#lobby-move")).to_be_hidden()
        clara.select_option("#lobby-pace", "turn-based")  # the time to move shown
        expect(clara.locator("#lobby-move")).to_be_visible()
        _shots(clara, f"play-now-{lang}")
    clara.select_option("#lang", "en")
    _play_now(clara, "0")  # Clara takes bots at once: Ada and Bruno, who take them too, sit with her
    for page in (ada, bruno, clara):
        expect(page.locator(".lobby-play h2")).to_have_text("A table is found: are you ready?")
    expect(ada.locator(".lobby-play")).to_contain_text("and 1 bot")
    _shots(ada, "ready-en")
    for lang in ("de", "nl"):  # the ready check in each language, drawn again with it
        found = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]["web.lobby.found"]
        ada.select_option("#lang", lang)
        expect(ada.locator(".lobby-play h2")).to_have_text(found)
        _shots(ada, f"ready-{lang}")
    ada.select_option("#lang", "en")
    expect(ada.locator(".lobby-play h2")).to_have_text("A table is found: are you ready?")
    for page in (ada, bruno, clara):
        page.click(".lobby-play button.primary")
    for page in (ada, bruno, clara):
        page.wait_for_url("**/seat/**")
        page.wait_for_selector(".table-page[data-version]")
    table, ada_seat = ada.url.split("/seat/", 1)[1].split("/")[:2]
    assert {p.url.split("/seat/", 1)[1].split("/")[0] for p in (bruno, clara)} == {table}
    seats = httpx2.get(f"{server.url}/api/tables/{table}").json()["seats"]
    assert sorted(s["kind"] for s in seats) == ["bot", "person", "person", "person"]
    assert {s["name"] for s in seats if s["kind"] == "person"} == {"Ada", "Bruno", "Clara"}
    ada.goto("/lobby")  # back in the lobby: her table is shown, she is not sent to it again
    expect(ada.locator(".lobby-play h2")).to_have_text("Your table is ready")
    expect(ada.locator(".lobby-play a.primary")).to_have_attribute("href", f"/seat/{table}/" + ada_seat)
    ada.click(".lobby-play .buttons button")
    expect(ada.locator(".lobby-form")).to_be_visible()


def test_one_who_misses_the_ready_check_is_told_so(browser: Browser, contexts: list[BrowserContext],
                                                   watched: list[Watched],
                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    """A ready check of one second, which nobody answers: both leave the queue, and each page says why."""
    with start_server(tmp_path_factory.mktemp("quick"), SIGNUP_LIMIT_ADDRESS="1000 per hour", LOBBY_TICK="0.2",
                      LOBBY_READY_WINDOW="1") as quick:
        dora, emil = (_person(browser, contexts, quick, watched, n) for n in ("Dora", "Emil"))
        for page in (dora, emil):
            page.goto("/lobby")
            page.select_option("#lobby-game", "holzwurm")
            page.select_option("#lobby-players", "2")
            page.select_option("#lobby-pace", "realtime")
            page.select_option("#lobby-wait", "never")
            page.click(".lobby-form button[type=submit]")
        for page in (dora, emil):
            expect(page.locator(".lobby-dropped")).to_have_text(
                "You are no longer in the queue: a table was found and you did not confirm in time, or this page "
                "was away too long.")
            expect(page.locator(".lobby-form")).to_be_visible()


def test_a_free_seat_is_taken_from_the_lobby(browser: Browser, contexts: list[BrowserContext], server: Server,
                                             watched: list[Watched]) -> None:
    """An open table's free seat is taken in the lobby itself, with a name, as on the tables page: the person is
    taken to that seat."""
    answer = httpx2.post(f"{server.url}/api/tables", json={"game": "holzwurm", "seats": [
        {"kind": "person", "name": "Greta"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}]})
    assert answer.status_code == 201, answer.text
    table = answer.json()["table"]["id"]
    page = watch(watched, new_context(browser, contexts, server), "Hanna").page
    page.goto("/lobby")
    item = page.locator(f".lobby-open li[data-table='{table}']")
    item.locator("input").fill("Hanna")
    item.locator("button[type=submit]").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector(".table-page[data-version]")
    seats = httpx2.get(f"{server.url}/api/tables/{table}").json()["seats"]
    assert [(s["name"], s["joined"]) for s in seats[:2]] == [("Greta", True), ("Hanna", True)]


def test_a_name_being_typed_in_the_lobbys_list_is_not_lost_to_its_refresh(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """The list of tables is drawn again every 10 seconds, but not while a name is being typed into a seat's field
    (the page's clock run on by the test: the heartbeat's requests show that the time passed)."""
    answer = httpx2.post(f"{server.url}/api/tables", json={"game": "knizia13", "seats": [
        {"kind": "person", "name": "Ines"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}]})
    assert answer.status_code == 201, answer.text
    table = answer.json()["table"]["id"]
    page = watch(watched, new_context(browser, contexts, server), "Jana").page
    page.add_init_script(ASKED)
    page.clock.install()
    page.goto("/lobby")
    field = page.locator(f".lobby-open li[data-table='{table}'] input")
    field.wait_for()
    page.clock.run_for(10_500)  # nothing typed: the list is asked for again
    page.wait_for_function("() => window.asked.tables >= 2")
    tables = page.evaluate("window.asked.tables")
    heartbeats = page.evaluate("window.asked.lobby")
    field.fill("Jana")
    page.clock.run_for(31_000)  # three of the list's turns, ten heartbeats
    page.wait_for_function(f"() => window.asked.lobby >= {heartbeats + 10}")
    assert page.evaluate("window.asked.tables") == tables
    assert field.input_value() == "Jana"
    field.press("Enter")
    page.wait_for_url("**/play/**")


ASKED = """
window.asked = { tables: 0, lobby: 0 };
const fetched = window.fetch;
window.fetch = (what, ...rest) => {
  const url = String(what instanceof Request ? what.url : what);
  if (url.includes("/api/tables?status=open")) window.asked.tables += 1;
  else if (url.includes("/api/lobby")) window.asked.lobby += 1;
  return fetched(what, ...rest);
};
"""
