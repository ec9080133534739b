"""Bots that think a while (issue 49 item 6): the head says "Ada is thinking…" once a bot's move is a while in
coming, and says whose turn it is again once it came."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from .kit import SCREENSHOTS, Server, Watched, create_table, new_context, start_server, watch


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots take four seconds over each move (the bot pause)."""
    with start_server(Path(tmp_path_factory.mktemp("slow")), BOT_PAUSE="4") as running:
        yield running


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_bot_that_thinks_a_while_is_said_to_think(lang: str, browser: Browser, contexts: list[BrowserContext],
                                                    slow_bots: Server, watched: list[Watched]) -> None:
    words = httpx2.get(f"{slow_bots.url}/api/words/{lang}").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, slow_bots, lang), "Anna").page
    create_table(anna, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "20"})  # the bot begins
    turn = anna.locator("#turn")
    expect(turn).to_have_attribute("data-thinking", "yes")
    expect(turn).to_have_text(words["web.bot_thinking"].replace("{player}", "Ada"))
    anna.screenshot(path=str(SCREENSHOTS / f"bot-thinking-{lang}.png"))
    expect(turn).to_have_attribute("data-mine", "yes", timeout=90_000)  # its turn ended: Anna's, no thinking said
    expect(turn).to_have_attribute("data-thinking", "no")
