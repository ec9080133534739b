"""Issue 47 item 1, the profile's plot: a player's page shows their rating in each game they played rated, with its
course over their games as a line (GET /api/ratings/{name}), in every language; screenshots of it at a laptop's and a
phone's size (DREIZEHN_SCREENSHOTS=docs/screenshots/ratings)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from dreizehn.server.ratings.model import Skill

from .kit import Server, Watched, new_context, shots, start_server, watch

GUEST_401 = "Failed to load resource: the server responded with a status of 401 (Unauthorized)"

COURSE = {"knizia13": [1000, 1062, 1031, 1118, 1190, 1164, 1247, 1301, 1286, 1352, 1398, 1377, 1431],
          "three-thirteen": [1000, 947, 1012, 1068]}
"""Ada's rating after each of her rated games, by game."""
LEVELS = (("easy", 3.93, 6.56), ("medium", 16.28, 6.29), ("hard", 27.93, 6.27), ("expert", 33.311, 6.365),
          ("master", 43.553, 6.747))
"""13's levels at 3 players: level, mu, sigma (benchmarks/results/calibrate_levels_master_knizia13.json)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with start_server(tmp_path_factory.mktemp("data"), SIGNUP_LIMIT_ADDRESS="1000 per hour") as running:
        answer = httpx2.post(f"{running.url}/api/accounts", json={"name": "Ada", "password": "a long password"})
        assert answer.status_code == 201, answer.text
        _history(running)
        yield running


def _history(server: Server) -> None:
    """Ada's ratings and their history, straight in the server's database: a game a day, ending today."""
    db = sqlite3.connect(server.data_dir / "dreizehn.sqlite3")
    today = dt.datetime.now(dt.UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    with db:
        (account,) = db.execute("SELECT id FROM accounts WHERE name = 'Ada'").fetchone()
        for game, course in COURSE.items():
            sigma = 8.33
            for i, shown in enumerate(course):
                at = (today - dt.timedelta(days=len(course) - 1 - i)).isoformat(sep=" ")
                table = f"{game[:4]}{i:04d}"
                db.execute("INSERT INTO tables (id, game_id, players, options, seed, package_version, status, "
                           "spectator_hash, clock, created_at, finished_at, rated) VALUES (?, ?, 3, '{}', ?, 'test', "
                           "'finished', 'x', 0, ?, ?, 1)", (table, game, i, at, at))
                sigma = max(2.0, sigma * 0.9)
                mu = (shown - 1500) / 25 + 20 + 3 * sigma  # docs/ratings.md G1
                db.execute("INSERT INTO rating_history (account_id, game_id, table_id, mu, sigma, shown, place, at) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (account, game, table, mu, sigma, shown, 1 + i % 3, at))
            db.execute("INSERT INTO ratings (account_id, game_id, mu, sigma, games, shown, played_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (account, game, mu, sigma, len(course), course[-1], at))
        for level, mu, sigma in LEVELS:  # 13's levels as calibrated (docs/bots.md)
            db.execute("INSERT INTO bot_ratings (game_id, players, level, mu, sigma, games, measured_at) "
                       "VALUES ('knizia13', 3, ?, ?, ?, 12, ?)", (level, mu, sigma, today.isoformat(sep=" ")))
    db.close()


def _shots(page: Page, name: str) -> None:
    shots(page, name)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_a_profile_shows_each_rating_with_its_course(lang: str, browser: Browser, contexts: list[BrowserContext],
                                                     server: Server, watched: list[Watched]) -> None:
    words = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    person = watch(watched, new_context(browser, contexts, server, lang), lang)
    page = person.page
    page.goto("/players/Ada")
    expect(page.locator("#ratings-title")).to_have_text(words["web.profile.ratings"])
    games = page.locator(".rating-game")
    expect(games).to_have_count(2)
    thirteen = page.locator(".rating-game[data-game=knizia13]")
    expect(thirteen.locator(".rating-now strong")).to_contain_text("1431 ±")
    expect(thirteen.locator(".provisional")).to_have_count(0)  # 13 games: settled
    master = Skill(*LEVELS[-1][1:]).shown  # the strongest last, beside the others
    expect(thirteen.locator(".rating-bots")).to_contain_text(f"\u00a0· {words['web.level.master']}\u00a0{master}")
    expect(page.locator(".rating-game[data-game=three-thirteen] .rating-bots")).to_have_count(0)
    expect(page.locator(".rating-game[data-game=three-thirteen] .provisional")).to_have_text(
        words["web.board.provisional"])
    points = thirteen.locator("svg.rating-plot polyline").get_attribute("points") or ""
    ys = [float(p.split(",")[1]) for p in points.split()]
    assert len(ys) == len(COURSE["knizia13"])
    assert ys.index(min(ys)) == len(ys) - 1 and ys.index(max(ys)) == 0  # the last the highest, the first the lowest
    assert "1431" in (thirteen.locator("svg.rating-plot").get_attribute("aria-label") or "")
    person.errors[:] = [e for e in person.errors if e != GUEST_401]
    _shots(page, f"profile-{lang}")
