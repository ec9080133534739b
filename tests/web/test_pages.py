"""The pages besides a whole game (issue 14 items 1, 2 and 4): each language shown, the rules, the new-table form,
moves by keyboard, an illegal attempt explained in words, and the hint."""

from __future__ import annotations

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from .kit import Server, Watched, create_table, new_context, version, watch


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_home_and_rules_in_each_language(lang: str, browser: Browser, contexts: list[BrowserContext],
                                         server: Server, watched: list[Watched]) -> None:
    words = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    page = watch(watched, new_context(browser, contexts, server), lang).page
    page.goto("/")
    page.select_option("#lang", lang)  # the language switch
    expect(page.locator("h1")).to_have_text(words["web.title"])
    expect(page.locator(".game-card h2")).to_have_text(
        [words["knizia13.title"], words["three-thirteen.title"], words["holzwurm.title"]])
    assert page.evaluate("document.documentElement.lang") == lang
    page.click("[data-game=holzwurm] a[href$='/rules']")
    page.wait_for_selector("article.rules")
    assert words["holzwurm.rules"].split("\n\n")[0] in page.inner_text("article.rules")
    assert words["holzwurm.option.games.help"] in page.inner_text("dl.options")


def test_keyboard_an_illegal_attempt_and_the_hint(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                  watched: list[Watched]) -> None:
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(page, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "20"})
    page.wait_for_selector("#turn[data-mine=yes]")  # the bot begins; then Anna must draw or take
    page.locator(".hand button.card").first.click()  # discarding before drawing is refused, in words
    page.wait_for_selector("#alert:not(:empty)")
    assert page.inner_text("#alert").strip()
    before = version(page)
    page.keyboard.press("1")  # the first move in the list: draw from the stock
    page.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
    page.keyboard.press("h")
    page.wait_for_selector("ol.hint li")
    assert "%" in page.inner_text("ol.hint")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused
    before = version(page)
    page.keyboard.press("Enter")  # the focused card: discard it
    page.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
