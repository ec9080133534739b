"""The toy fourth game in the browser (issue 44, item 5): Twenty (tests/fourth_game), installed only for this module's
server as another package would be, is offered on the home page, created from its form and played to its end by a
person against a bot through the generic drawing (src/dreizehn/web/games/generic.js), in the person's language."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .kit import (
    LAPTOP,
    PHONE,
    SCREENSHOTS,
    Server,
    Watched,
    create_table,
    dismiss,
    new_context,
    play_out,
    start_server,
    watch,
)

FOURTH_GAME = Path(__file__).parents[1] / "fourth_game"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The game server with Twenty installed beside the three games (this module's server only)."""
    sys.path.insert(0, str(FOURTH_GAME))
    try:
        from installed import install
    finally:
        sys.path.remove(str(FOURTH_GAME))
    paths = install(tmp_path_factory.mktemp("site"))
    with start_server(tmp_path_factory.mktemp("data"), paths) as running:
        yield running


def _screenshots(page: Page) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENSHOTS / f"twenty-{name}.png"), full_page=True)
    if size is not None:
        page.set_viewport_size(size)


@pytest.mark.parametrize("lang", ["de"])
def test_twenty_played_to_its_end_with_the_generic_drawing(lang: str, browser: Browser,
                                                           contexts: list[BrowserContext], server: Server,
                                                           watched: list[Watched]) -> None:
    words = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, server, lang=lang), "Anna").page
    anna.goto("/")
    expect(anna.locator(".game-card h2")).to_have_text(
        [words[f"{game}.title"] for game in ("knizia13", "three-thirteen", "holzwurm", "twenty")])
    lead = anna.inner_text("p.lead")  # the page's words name every game offered, the fourth too
    assert all(words[f"{game}.title"] in lead for game in ("knizia13", "three-thirteen", "holzwurm", "twenty")), lead
    anna.wait_for_function("[...document.querySelectorAll('img.picture')].every(e => e.complete)")  # loaded or not
    pictures = anna.eval_on_selector_all("img.picture", "els => els.map(e => [e.naturalWidth, e.src])")
    assert all(width > 0 for width, _ in pictures), pictures  # each loaded: Twenty's from its own folder
    assert pictures[-1][1].endswith("/api/games/twenty/picture.svg")
    create_table(anna, "twenty", "Anna", ["me", "easy", "medium"])
    anna.wait_for_selector(".game.generic[data-game=twenty]")
    expect(anna.locator("details.move-list")).to_have_attribute("open", "")
    # the view's fields named in the game's words, its cards drawn as cards with each seat's name
    expect(anna.locator("dl.fields dt")).to_have_text([words[f"twenty.field.{key}"] for key in
                                                       ("hand_sizes", "stock_size", "pile", "taken")])
    names = anna.locator("li.seat .name").all_inner_texts()
    assert len(names) == 3 and names[0] == "Anna"
    expect(anna.locator("dd[data-field=taken] .per-seat li .name")).to_have_text(names)
    moves = play_out([anna], lambda n: _screenshots(anna) if n == 2 else None)
    assert moves >= 5  # 20 cards among three players: Anna plays 6 or 7 of them
    dismiss(anna)
    standings = anna.locator(".dialog .standings tbody tr")
    expect(standings).to_have_count(3)
    totals = [int(cell.replace("−", "-")) for cell in
              anna.locator(".dialog .standings tbody tr td:last-child").all_inner_texts()]
    assert totals == sorted(totals, reverse=True)  # the highest total wins Twenty: it stands first
    assert standings.first.get_attribute("class") == "winner"
    taken = anna.eval_on_selector_all("dd[data-field=taken] .per-seat li",
                                      "els => els.map(e => e.querySelectorAll('[data-card]').length)")
    assert sum(taken) + anna.locator("dd[data-field=pile] [data-card]").count() == 20  # every card, as cards
    log = anna.inner_text("#log")
    assert "{" not in log and "twenty." not in log
    assert words["twenty.title"] in anna.inner_text("body")

