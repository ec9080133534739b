"""The daily deal and the leaderboard in the browser (issue 47): a guest plays a deal from /daily to its end and sees
the results with their own row marked and the spread drawn; a signed-in person starts one (its request carries the
CSRF token) and sees their streak; the leaderboard lists the rated players with the reader's row highlighted."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .kit import LAPTOP, PHONE, SCREENSHOTS, Server, Watched, new_context, play_out, start_server, watch

GUEST_401 = "Failed to load resource: the server responded with a status of 401 (Unauthorized)"
"""Chromium notes a guest's GET /api/session (401: nobody signed in), which the pages ask to know who reads them."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose daily deals seat easy bots (quick), and that lets one address make the test's accounts."""
    with start_server(tmp_path_factory.mktemp("data"), DAILY_BOTS="easy",
                      SIGNUP_LIMIT_ADDRESS="1000 per hour") as running:
        yield running


def _guest_errors(person: Watched) -> None:
    """Drop the console's notes of a guest's 401 for /api/session (the point of asking); any other error stays."""
    person.errors[:] = [e for e in person.errors if e != GUEST_401]


def _shots(page: Page, name: str) -> None:
    """The page at a laptop's and a phone's size, saved (DREIZEHN_SCREENSHOTS=docs/screenshots/ratings)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"), full_page=size == "phone")
    page.set_viewport_size(LAPTOP)


def test_a_guest_plays_the_daily_deal_and_sees_the_results(browser: Browser, contexts: list[BrowserContext],
                                                           server: Server, watched: list[Watched]) -> None:
    """A guest starts Holzwurm's two-player deal under a name, plays it out on the table page, comes back to
    /daily (by the header's link) and sees the results: their row marked, the box plot with their total."""
    guest = watch(watched, new_context(browser, contexts, server), "Gita")
    page = guest.page
    page.goto("/daily")
    expect(page.locator(".daily-deal[data-game=holzwurm][data-players='2']")).to_contain_text("against easy bots")
    page.fill("#daily-name", "Gita")
    page.click("#play-holzwurm-2")
    page.wait_for_selector(".table-page[data-version]")
    assert "/play/" in page.url
    play_out([page])
    page.click("nav.top a[href='/daily']")
    deal = page.locator(".daily-deal[data-game=holzwurm][data-players='2']")
    mine = deal.locator("tr.mine")
    expect(mine).to_contain_text("Gita")
    expect(mine.locator("a")).to_have_attribute("href", r"/replay/.+")
    expect(deal.locator("svg.box-plot circle.mine")).to_have_count(1)
    expect(deal.locator("h3")).to_have_text("Results of 1 game")
    # another deal not played yet shows no results, only its button
    expect(page.locator(".daily-deal[data-game=holzwurm][data-players='3'] .daily-result")).to_have_count(0)
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
    """A signed-in reader opens the leaderboard from the header, picks Holzwurm (nobody on its board), then 13: the players by rating, equal ratings
    sharing a place, each linked to their page, the provisional ones marked, the reader's own row highlighted."""
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
