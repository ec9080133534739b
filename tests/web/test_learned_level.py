"""The learned level in the browser's new-table page (issue 48, "a level of its own"): offered in 13 and Holzwurm
at 4 players only, with a line that says what it is; a table of its bots plays a whole game, watched through the
spectators' link. The page is photographed at a laptop's and a phone's size with the level chosen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .kit import Server, Watched, new_context, shoot, watch


def _offered(page: Page, seat: int) -> list[str]:
    values: list[str] = page.eval_on_selector_all(f"#seat-{seat} option", "els => els.map((e) => e.value)")
    return values


@pytest.mark.parametrize(("lang", "word"), [("de", "trainiert")])
def test_the_learned_level_is_picked_where_it_plays_and_its_bots_play_a_game(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched], lang: str,
        word: str) -> None:
    page = watch(watched, new_context(browser, contexts, server, lang=lang), "Anna").page
    page.goto("/new/three-thirteen")
    page.select_option("#players", "4")
    assert "learned" not in _offered(page, 2)  # Three Thirteen has no network
    page.goto("/new/knizia13")
    assert "learned" not in _offered(page, 2)  # 3 players: not where it was fitted
    page.select_option("#players", "4")
    offered = _offered(page, 2)
    assert offered[offered.index("medium"):] == ["medium", "learned", "hard", "expert", "master"]
    page.fill("#my-name", "Anna")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "learned")
    assert word in page.inner_text("#seat-2 option[value=learned]")
    about = page.locator("#seat-1-about")  # said once, under the first seat it plays
    assert about.is_visible() and word in about.inner_text()
    assert not page.locator("#seat-0-about").is_visible()  # "me": no line
    assert [page.locator(f"#seat-{s}-about").is_visible() for s in (2, 3)] == [False, False]
    page.select_option("#seat-1", "friend")  # the line moves to the next seat that plays it
    assert page.locator("#seat-2-about").is_visible() and not page.locator("#seat-1-about").is_visible()
    page.select_option("#seat-1", "learned")
    for size, phone in (("laptop", False), ("phone", True)):
        if phone:
            page.set_viewport_size({"width": 390, "height": 844})
        shoot(page, "learned-level", f"new-table-{size}")
    page.select_option("#players", "3")  # a level not offered at the new count gives way to the default
    assert "learned" not in _offered(page, 2) and page.input_value("#seat-2") != "learned"
    page.select_option("#players", "4")
    page.select_option("#seat-0", "learned")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "learned")
    page.click("#create")  # four bots: the page shows the links, the spectators' among them
    page.wait_for_selector("#spectator-link")
    page.goto(page.input_value("#spectator-link"))
    page.wait_for_selector(".table-page[data-over=yes]")
    assert page.locator(".hand [data-card]").count() == 0
