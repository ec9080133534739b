"""The daily deal and the leaderboard in the browser (issue 47): a guest plays a deal from /daily to its end and sees
the results with their own row marked and the spread drawn; a signed-in person starts one (its request carries the
CSRF token) and sees their streak; the leaderboard lists the rated players with the reader's row highlighted."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .accounts_kit import sign_in
from .kit import Server, Watched, new_context, play_out, scroll_to, shots, start_server, watch

GUEST_401 = "Failed to load resource: the server responded with a status of 401 (Unauthorized)"
"""Chromium notes a guest's GET /api/session (401: nobody signed in), which the pages ask to know who reads them."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose daily deals seat easy bots (quick), that lets one address make the test's accounts, and whose
    stand-in (easy) plays on a second after a person left (the other players of the deal leave at once)."""
    with start_server(tmp_path_factory.mktemp("data"), DAILY_BOTS="easy", SIGNUP_LIMIT_ADDRESS="1000 per hour",
                      GRACE_PERIOD="1", STAND_IN="easy") as running:
        yield running


def _guest_errors(person: Watched) -> None:
    """Drop the console's notes of a guest's 401 for /api/session (the point of asking); any other error stays."""
    person.errors[:] = [e for e in person.errors if e != GUEST_401]


def _shots(page: Page, name: str) -> None:
    shots(page, name)


def _others_play(browser: Browser, contexts: list[BrowserContext], server: Server, names: list[str]) -> None:
    """Accounts that start today's Holzwurm deal for two (their request with the CSRF token), open its table and
    leave at once: the stand-in plays their game to its end."""
    for name in names:
        _sign_up(server, name)
        context = new_context(browser, contexts, server)
        page = context.new_page()
        assert page.request.post("/api/session", data={"name": name, "password": "a long password"}).ok
        csrf = page.request.get("/api/session").json()["csrf"]
        start = page.request.post("/api/daily/holzwurm/2", data={"name": ""}, headers={"X-CSRF-Token": csrf})
        assert start.status == 201, start.text()
        page.goto(f"/play/{start.json()['token']}")
        page.wait_for_selector(".table-page[data-version]")
        context.close()
        contexts.remove(context)


def test_a_guest_plays_the_daily_deal_and_sees_the_results(browser: Browser, contexts: list[BrowserContext],
                                                           server: Server, watched: list[Watched]) -> None:
    """A guest starts Holzwurm's two-player deal under a name, plays it out on the table page, comes back to
    /daily and sees the results of all who finished it: their own row marked, the box plot with their total."""
    others = ["Ines", "Jonas", "Karla", "Lotte"]
    _others_play(browser, contexts, server, others)
    guest = watch(watched, new_context(browser, contexts, server), "Gita")
    page = guest.page
    page.goto("/daily")
    expect(page.locator(".daily-game[data-game=holzwurm]")).to_contain_text("against easy bots")
    page.fill("#daily-name", "Gita")
    page.click("#play-holzwurm-2")
    page.wait_for_selector(".table-page[data-version]")
    assert "/play/" in page.url
    token = page.url.rsplit("/", 1)[1]
    play_out([page])
    day = httpx2.get(f"{server.url}/api/daily").json()["day"]
    results = f"{server.url}/api/daily/{day}/holzwurm/2/results"
    deadline = time.monotonic() + 120
    while httpx2.get(results, headers={"X-Seat-Token": token}).json()["spread"]["n"] < len(others) + 1:
        assert time.monotonic() < deadline, "the stand-ins did not finish the others' games in 120 s"
        time.sleep(0.2)  # a condition polled until it holds: the others' games are over
    page.goto("/daily")
    deal = page.locator(".daily-deal[data-game=holzwurm][data-players='2']")
    mine = deal.locator("tr.mine")
    expect(mine.locator("td").nth(1)).to_have_text("a guestyou")  # a guest's play is shown without the name
    expect(mine.locator("td").first).to_have_text("–")  # a guest is not ranked
    expect(mine.locator("a")).to_have_attribute("href", re.compile(r"^/replay/.+"))
    expect(deal.locator("tbody tr")).to_have_count(len(others) + 1)
    expect(deal.locator("svg.box-plot circle.mine")).to_have_count(1)
    expect(deal.locator("h4")).to_have_text(f"Results of {len(others) + 1} games")
    # a deal not played yet shows no results, only its button
    expect(page.locator(".daily-deal[data-game=holzwurm][data-players='3']")).to_have_count(0)
    expect(page.locator("#play-holzwurm-3")).to_be_visible()
    for lang in ("en", "de", "nl"):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(deal.locator("svg.box-plot")).to_have_count(1)
        scroll_to(page, ".daily-deal[data-game=holzwurm][data-players='2']")
        _shots(page, f"daily-{lang}")
    _guest_errors(guest)


def _sign_up(server: Server, name: str) -> None:
    answer = httpx2.post(f"{server.url}/api/accounts", json={"name": name, "password": "a long password"})
    assert answer.status_code == 201, answer.text


def _rate(server: Server, game: str, shown: dict[str, tuple[int, int]]) -> None:
    """Give accounts a rating in a game straight in the server's database: name -> (rating shown, rated games)."""
    db = sqlite3.connect(server.data_dir / "dreizehn.sqlite3")
    at = dt.datetime.now(dt.UTC).isoformat(sep=" ")
    with db:
        for name, (rating, games) in shown.items():
            (account,) = db.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
            sigma = 1.5 + 40 / games  # the fewer games, the less certain
            mu = (rating - 1500) / 25 + 20 + 3 * sigma  # docs/ratings.md G1: shown = 1500 + 25 (mu - 3 sigma - 20)
            db.execute("INSERT INTO ratings (account_id, game_id, mu, sigma, games, shown, played_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (account, game, mu, sigma, games, rating, at))
    db.close()


def test_a_signed_in_person_plays_each_deal_once(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                watched: list[Watched]) -> None:
    """A signed-in person sees their streak and no name field; "Play" (its request with the CSRF token) opens the
    deal's table; back on /daily the deal leads back to that game; a second window still showing the button is
    refused in the person's language (daily.played)."""
    _sign_up(server, "Mara")
    context = new_context(browser, contexts, server, "de")
    first, second = watch(watched, context, "Mara"), watch(watched, context, "Mara 2")
    words = httpx2.get(f"{server.url}/api/words/de").json()["templates"]
    sign_in(first.page, "Mara", "a long password")  # through the page: the browser then knows it is signed in
    for person in (first, second):
        person.page.goto("/daily")
        expect(person.page.locator(".streak")).to_have_text("Deine Serie: 0 Tage in Folge")
    expect(first.page.locator("#daily-name")).to_have_count(0)
    first.page.click("#play-knizia13-3")
    first.page.wait_for_selector(".table-page[data-version]")
    assert "/play/" in first.page.url
    table_page = first.page.url.replace(server.url, "")
    second.page.click("#play-knizia13-3")
    expect(second.page.locator(".daily-game[data-game=knizia13] p.error")).to_contain_text(
        words["daily.played"][1:])
    # Chromium notes the refusal's status in the console: that one is the point here
    assert second.errors == ["Failed to load resource: the server responded with a status of 409 (Conflict)"]
    second.errors.clear()
    first.page.goto("/daily")
    game = first.page.locator(".daily-game[data-game=knizia13]")
    expect(game.locator("a", has_text=words["web.daily.continue"])).to_have_attribute("href", table_page)
    expect(game.locator("#play-knizia13-3")).to_have_count(0)
    expect(game.locator("#play-knizia13-4")).to_have_count(1)
    # Holzwurm's deal for two, left at once: the stand-in finishes it; back on /daily, the streak and the results
    first.page.click("#play-holzwurm-2")
    first.page.wait_for_selector(".table-page[data-version]")
    first.page.goto("/")
    deadline = time.monotonic() + 120
    while not _finished(first.page.request.get("/api/daily").json(), "holzwurm", 2):
        assert time.monotonic() < deadline, "the stand-in did not finish the game in 120 s"
        time.sleep(0.2)  # a condition polled until it holds: the game is over
    first.page.goto("/daily")
    expect(first.page.locator(".streak")).to_have_text("Deine Serie: 1 Tag in Folge")
    mine = first.page.locator(".daily-deal[data-game=holzwurm][data-players='2'] tr.mine")
    expect(mine.locator("td").nth(1)).to_have_text("Maradu")
    expect(mine.locator("td").first).to_have_text(re.compile(r"^(\d+|=)$"))  # an account is ranked
    scroll_to(first.page, ".daily-deal[data-game=holzwurm]")
    _shots(first.page, "daily-signed-in-de")


def _finished(daily: dict[str, Any], game: str, players: int) -> bool:
    return any(d["game"] == game and d["players"] == players and d["finished"] for d in daily["deals"])


RATED = {"Ada": (1612, 48), "Bruno": (1540, 31), "Clara": (1488, 12), "Dora": (1488, 22), "Emil": (1175, 4)}
"""The accounts the leaderboard's test rates in 13: name -> (rating shown, rated games)."""


@pytest.fixture(scope="module")
def rated(server: Server) -> dict[str, tuple[int, int]]:
    for name in RATED:
        _sign_up(server, name)
    _rate(server, "knizia13", RATED)
    return RATED


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_the_leaderboard_highlights_the_readers_row(lang: str, rated: dict[str, tuple[int, int]], browser: Browser,
                                                    contexts: list[BrowserContext], server: Server,
                                                    watched: list[Watched]) -> None:
    """A signed-in reader opens the leaderboard from the header, picks Holzwurm (nobody on its board), then 13: the
    players by rating, equal ratings sharing a place, each linked to their page, the provisional ones marked, the
    reader's own row highlighted."""
    words = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    person = watch(watched, new_context(browser, contexts, server, lang), lang)
    page = person.page
    answer = page.request.post("/api/session", data={"name": "Clara", "password": "a long password"})
    assert answer.ok, answer.text()
    page.goto("/")
    page.click("nav.top a[href='/leaderboard']")
    page.click(".game-picker a[href='/leaderboard/holzwurm']")  # a game nobody played rated: said so
    expect(page.locator(".empty-board")).to_have_text(words["web.board.empty"])
    page.click(".game-picker a[href='/leaderboard/knizia13']")
    expect(page.locator("table.board tr.mine")).to_have_attribute("data-name", "Clara")
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(len(rated))
    names = [rows.nth(i).get_attribute("data-name") for i in range(len(rated))]
    assert names[:2] == ["Ada", "Bruno"] and set(names[2:4]) == {"Clara", "Dora"} and names[4] == "Emil"
    expect(rows.nth(0).locator("td").nth(2)).to_contain_text("1612 ±")
    expect(rows.nth(3).locator("td").first).to_have_text("=")
    expect(page.locator("table.board tr[data-name=Emil] .provisional")).to_have_text(words["web.board.provisional"])
    expect(page.locator("table.board .provisional")).to_have_count(1)
    expect(page.locator("table.board tr[data-name=Ada] a")).to_have_attribute("href", "/players/Ada")
    expect(page.locator("h1")).to_contain_text(words["web.board.nav"])
    _shots(page, f"leaderboard-{lang}")


def test_two_accounts_play_the_same_daily_deal(browser: Browser, contexts: list[BrowserContext], server: Server,
                                              watched: list[Watched]) -> None:
    """Two accounts each play Holzwurm's deal for two from /daily to its end: they are dealt the same cards
    against the same bot, and each then sees both in the deal's results, their own row marked."""
    pages = []
    for name in ("Nina", "Otto"):
        _sign_up(server, name)
        person = watch(watched, new_context(browser, contexts, server), name)
        sign_in(person.page, name, "a long password")
        person.page.goto("/daily")
        person.page.click("#play-holzwurm-2")
        person.page.wait_for_selector(".table-page[data-version]")
        pages.append(person.page)
    hands = [sorted(p.locator(".hand button.card").all_inner_texts()) for p in pages]
    assert hands[0] and hands[0] == hands[1]  # the same deal: the same first hand
    for page in pages:
        play_out([page])
    for page, name in zip(pages, ("Nina", "Otto"), strict=True):
        page.goto("/daily")
        deal = page.locator(".daily-deal[data-game=holzwurm][data-players='2']")
        expect(deal.locator("tr.mine td").nth(1)).to_contain_text(name)
        expect(deal.locator("tbody")).to_contain_text("Nina")
        expect(deal.locator("tbody")).to_contain_text("Otto")
