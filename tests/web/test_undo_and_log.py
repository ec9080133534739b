"""Undo against bots and the whole game's log ("The table players would choose over Board Game Arena", items 6 and
3): a person alone with bots clicks Undo (or presses U) and has the position before their move back, the log saying
so; a page reloaded mid-game shows the whole game's log, a heading before each stage."""

from __future__ import annotations

import httpx2
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .kit import SCREENSHOTS, Server, Watched, create_table, dismiss, move, new_context, play_out, version, watch

TAKEN_BACK = "Anna took back the move that came next: play went on from here."
"""The log's line of a take-back, placed after the last move that stands (issue 49 item 7: "took back their last
move" there read as if that move, a take from the pile, had been taken back)."""


def _wait_my_turn(page: Page, after: int = -1) -> int:
    """Wait until it is the person's turn past version ``after``; the version."""
    page.wait_for_function(f"(() => {{ const p = document.querySelector('.table-page');"
                           f" return Number(p.dataset.version) > {after}"
                           " && p.dataset.current === p.dataset.seat; })()")
    page.wait_for_selector("#turn[data-mine=yes]")
    return version(page)


def _hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)")
    return cards


def test_undo_against_bots_gives_the_position_before_the_move_back(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "holzwurm", "Anna", ["me", "easy"], {"games": "1"})
    start = _wait_my_turn(anna)
    hand = _hand(anna)
    expect(anna.locator("#undo")).to_have_count(0)  # nothing of Anna's to take back yet
    move(anna)
    after = _wait_my_turn(anna, start)
    assert after >= start + 2  # her move and the bot's
    expect(anna.locator("#undo")).to_have_text("Undo")
    anna.click("#undo")
    anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) === {start}")
    _wait_my_turn(anna, start - 1)
    assert _hand(anna) == hand
    expect(anna.locator("#log li").last).to_have_text(TAKEN_BACK)
    expect(anna.locator("#undo")).to_have_count(0)  # nothing further back in this game: her first move
    anna.reload()  # the log that comes back says so too
    anna.wait_for_selector(".table-page[data-version]")
    expect(anna.locator("#log li").last).to_have_text(TAKEN_BACK)

    # the game goes on from there; the key U takes back as the button does
    move(anna)
    again = _wait_my_turn(anna, start)
    expect(anna.locator("#undo")).to_have_count(1)
    anna.keyboard.press("u")
    anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) === {start}")
    assert again > start

    # played to its end, the game's replay says that moves were taken back
    play_out([anna])
    anna.goto(f"/replay/{anna.get_attribute('.table-page', 'data-table')}")
    expect(anna.locator("#taken-back")).to_have_text("Moves taken back during play: 2")


def test_a_reload_mid_game_shows_the_whole_log_by_stage(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "10"})
    headings, lines = anna.locator("#log li.stage-head"), anna.locator("#log li:not(.chat)")
    while headings.count() < 3 or lines.count() <= 40:  # into the third round, more lines than the log used to keep
        now = version(anna)
        if anna.locator("#turn[data-mine=yes]").count():
            move(anna)
        else:
            dismiss(anna)
            anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {now}"
                                   " || document.querySelector('#turn[data-mine=yes]') !== null")
    dismiss(anna)
    _wait_my_turn(anna)
    said = lines.all_inner_texts()
    rounds = [f"Round {n} of 11" for n in range(1, headings.count() + 1)]

    anna.reload()
    anna.wait_for_selector(".table-page[data-version]")
    anna.wait_for_selector("#log li.stage-head")
    again = lines.all_inner_texts()
    assert again == said  # every line of the game, the first round's too, in the words it was said in
    expect(headings).to_have_text(rounds)
    first_round = anna.evaluate("""() => {
        const items = [...document.querySelectorAll('#log li')];
        const [one, two] = items.filter((li) => li.classList.contains('stage-head')).map((li) => items.indexOf(li));
        return items.slice(one + 1, two).map((li) => li.textContent);
    }""")
    # the first round's lines, as they were said while it was played: the log once kept only the last 40 lines
    said_first = said[said.index(rounds[0]) + 1:said.index(rounds[1])]
    assert first_round == said_first and any("Anna" in line for line in first_round)


def test_where_undo_is_not_offered_the_page_says_why(browser: Browser, contexts: list[BrowserContext],
                                                     server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 5: once a card drawn from the stock was seen, Undo is gone and the page says why where it was,
    in the person's language; before any move of theirs it says nothing."""
    words = httpx2.get(f"{server.url}/api/words/de").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, server, "de"), "Anna").page
    create_table(anna, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "20"})
    start = _wait_my_turn(anna)
    expect(anna.locator("#undo-blocked")).to_have_count(0)
    anna.locator(".stock button.card.legal").click()  # a card from the stock: now seen
    anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {start}")
    expect(anna.locator("#undo-blocked")).to_have_text(words["web.undo_drawn"])
    expect(anna.locator("#undo")).to_have_count(0)
    anna.screenshot(path=str(SCREENSHOTS / "undo-blocked-de.png"))
