"""The list of tables in the browser (issue 46 items 4 and 5, docs/server.md "The list of tables"): filters by status,
game and whose, the person's own tables first, a page at a time, the time a game finished and "finished by bots";
a profile's share of games left to bots; and the screenshots of the page (laptop and phone, en/de/nl)."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .accounts_kit import PASSWORD, sign_in
from .kit import LAPTOP, PHONE, Server, Watched, new_context, shoot, start_server, watch

ME = {"kind": "person", "name": "Anna"}
FRIEND = {"kind": "person"}


@dataclass
class Stage:
    """The tables the tests find: Anna's open and running ones, others' open ones, Anna's finished games (one she
    left to the stand-in, one a bot took from her for good, one she played to the end)."""

    server: Server
    mine_open: list[str]
    others_open: list[str]
    finished: dict[str, bool]


def _person(server: Server, name: str) -> httpx2.Client:
    client = httpx2.Client(base_url=server.url)
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def _table(client: httpx2.Client, game: str, seats: list[dict[str, Any]]) -> str:
    answer = client.post("/api/tables", json={"game": game, "options": {"games": 1} if game == "holzwurm" else {},
                                              "seats": seats})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"]["id"])


def _finished(server: Server) -> str:
    """A game of two random bots played to its end."""
    table_id = _table(httpx2.Client(base_url=server.url), "holzwurm",
                      [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    deadline = time.monotonic() + 300
    while httpx2.get(f"{server.url}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    return table_id


def _give_to(server: Server, table_id: str, name: str, last_by: str = "person", left: bool = False) -> None:
    """Seat 0 of a finished game made a person's, bound to ``name``'s account, whose last move was chosen ``last_by``
    or that a bot took for good (``left``), as the server stores these."""
    with sqlite3.connect(server.data_dir / "dreizehn.sqlite3") as db:
        (account,) = db.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
        db.execute("UPDATE seats SET account_id = ?, name = ?, bot = ?, left_at = ? WHERE table_id = ? AND seat = 0",
                   (account, name, "random" if left else None, "2026-11-28 20:00:00.000000" if left else None,
                    table_id))
        db.execute("UPDATE actions SET by = 'person' WHERE table_id = ? AND seat = 0", (table_id,))
        db.execute("UPDATE actions SET by = ? WHERE table_id = ? AND seq = (SELECT max(seq) FROM actions "
                   "WHERE table_id = ? AND seat = 0)", (last_by, table_id, table_id))


@pytest.fixture(scope="module")
def stage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stage]:
    with start_server(tmp_path_factory.mktemp("data")) as server:
        anna, bruno = _person(server, "Anna"), _person(server, "Bruno")
        finished = {_finished(server): by_bots for by_bots in (False, True, True)}
        hows: tuple[dict[str, Any], ...] = ({}, {"last_by": "stand-in"}, {"left": True})
        for (table_id, by_bots), how in zip(finished.items(), hows, strict=True):
            _give_to(server, table_id, "Anna", **how)
            assert httpx2.get(f"{server.url}/api/tables/{table_id}").json()["by_bots"] is by_bots
        guest = httpx2.Client(base_url=server.url)
        others = [_table(guest, "holzwurm", [{"kind": "person", "name": f"Gast{i}"}, FRIEND]) for i in range(21)]
        others.append(_table(bruno, "three-thirteen", [{"kind": "person", "name": "Bruno"}, FRIEND]))
        mine = [_table(anna, "holzwurm", [ME, FRIEND]), _table(anna, "knizia13", [ME, FRIEND, FRIEND])]
        _table(anna, "holzwurm", [ME, {"kind": "bot", "bot": "medium"}])  # being played
        yield Stage(server, mine, others, finished)


def _words(server: Server, lang: str) -> dict[str, Any]:
    templates: dict[str, Any] = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    return templates


def _page(browser: Browser, contexts: list[BrowserContext], watched: list[Watched], server: Server, lang: str = "en",
          phone: bool = False) -> Page:
    return watch(watched, new_context(browser, contexts, server, lang, phone=phone), f"{lang}-{phone}").page


def _listed(page: Page) -> list[str]:
    return [str(row.get_attribute("data-table")) for row in page.locator("#table-list > li").all()]


def test_the_tables_page_filters_pages_and_lists_mine_first(stage: Stage, browser: Browser,
                                                            contexts: list[BrowserContext],
                                                            watched: list[Watched]) -> None:
    words = _words(stage.server, "en")
    page = _page(browser, contexts, watched, stage.server)
    page.goto("/tables")
    expect(page.locator("#filter-status")).to_have_value("open")
    expect(page.locator("#filter-whose")).to_have_count(0)  # a guest has no tables of their own
    sign_in(page, "Anna")
    page.goto("/tables")
    total = len(stage.mine_open) + len(stage.others_open)
    expect(page.locator("#table-count")).to_have_text(words["web.list.count"][1].format(n=total))
    expect(page.locator("#table-list > li")).to_have_count(20)
    assert _listed(page)[:2] == stage.mine_open[::-1]  # her own first, the newest first
    expect(page.locator("#table-list > li.mine")).to_have_count(2)
    page.click("#more-tables")
    expect(page.locator("#table-list > li")).to_have_count(total)
    expect(page.locator("#more-tables")).to_be_hidden()
    assert sorted(_listed(page)) == sorted(stage.mine_open + stage.others_open)  # each once
    page.select_option("#filter-game", "knizia13")
    expect(page.locator("#table-list > li")).to_have_count(1)
    assert _listed(page) == [stage.mine_open[1]] and page.url.endswith("/tables?game=knizia13")
    page.select_option("#filter-game", "")
    page.select_option("#filter-status", "finished")
    expect(page.locator("#table-list > li")).to_have_count(3)
    assert set(_listed(page)) == set(stage.finished)
    for table_id, by_bots in stage.finished.items():
        row = page.locator(f"#table-list > li[data-table='{table_id}']")
        expect(row.locator(".by-bots")).to_have_count(1 if by_bots else 0)
        expect(row.locator("time")).to_contain_text(re.compile(r"^finished "))
        expect(row.locator("a")).to_have_attribute("href", f"/replay/{table_id}")
    for table_id, by_bots in stage.finished.items():  # the replay's heading says it too
        page.goto(f"/replay/{table_id}")
        expect(page.locator("#download")).to_be_visible()
        expect(page.locator(".replay-page .by-bots")).to_have_count(1 if by_bots else 0)
    page.goto("/tables?status=finished")
    page.select_option("#filter-whose", "mine")
    page.select_option("#filter-status", "open")
    expect(page.locator("#table-list > li")).to_have_count(2)
    assert page.url.endswith("/tables?whose=mine")
    page.reload()  # the filters are the address's
    expect(page.locator("#filter-whose")).to_have_value("mine")
    expect(page.locator("#table-list > li")).to_have_count(2)
    expect(page.locator("#table-list > li a").first).to_have_attribute("href", f"/seat/{stage.mine_open[1]}/0")


def _shoot(page: Page, name: str) -> None:
    shoot(page, "tables", name)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_screenshots_of_the_tables_page(lang: str, stage: Stage, browser: Browser, contexts: list[BrowserContext],
                                        watched: list[Watched]) -> None:
    """The list of open tables (hers first) and of finished games (when each ended, two finished by bots), and her
    profile's share of games left to bots, at a laptop's and a phone's size; nothing wider than the screen."""
    words = _words(stage.server, lang)
    for size in ("laptop", "phone"):
        page = _page(browser, contexts, watched, stage.server, lang, phone=size == "phone")
        sign_in(page, "Anna")
        for shot, path, ready in (("open", "/tables", "#table-list > li.mine"),
                                  ("finished", "/tables?status=finished", "#table-list .by-bots"),
                                  ("profile", "/players/Anna", "#left-share")):
            page.goto(path)
            page.wait_for_selector(ready)
            expect(page.locator("body")).not_to_contain_text(re.compile(r"\bweb\.[a-z_.]+"))  # a key unsaid
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= (PHONE if size == "phone" else LAPTOP)["width"], (shot, size, width)
            _shoot(page, f"{shot}-{lang}-{size}")
        expect(page.locator("#left-share")).to_have_text(words["web.profile.left_share"][1].format(left=2, n=3))
