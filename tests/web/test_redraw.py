"""The table page draws again only what changed (issue 22, item 5): a presence notice or an update leaves the parts
it does not touch as they are, so that the focus and the log's scroll stay where the person left them. A page that
draws everything again on each message fails each check: its elements are new ones (the focus lost or moved to a
copy, the log back at its top or never long enough to scroll)."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, BrowserContext, Page

from .kit import Server, Watched, create_table, invitation, join, move, new_context, version, watch

LOG = "document.getElementById('log')"


def _presence(watched: Watched) -> int:
    return sum(1 for frame in watched.frames if frame.get("type") == "presence")


def _wait_presence(watched: Watched, count: int) -> None:
    """Wait (a condition, checked) until the page has had ``count`` presence notices."""
    deadline = time.monotonic() + 60
    while _presence(watched) < count:
        assert time.monotonic() < deadline, "no presence notice came"
        watched.page.wait_for_timeout(50)


def _state(page: Page) -> tuple[int, int]:
    """The page's version and seat to move, read together: read one after the other, a bot's move between the two
    reads would leave a wait for the next version with nothing to come."""
    version_, current = page.evaluate(
        "() => { const d = document.querySelector('.table-page').dataset;"
        " return [Number(d.version ?? -1), Number(d.current ?? -1)]; }")
    return int(version_), int(current)


def _wait_past(page: Page, version_: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {version_}")


def _play_rounds(anna: Page, bruno: Page, rounds: int) -> None:
    """Each person moves on their turn (the bot on its own) until Anna has moved ``rounds`` times and it is her turn
    again: a dozen lines or more in the log. Anna sits in seat 0, Bruno in seat 1."""
    moved = 0
    while True:
        seen, current = _state(anna)
        if current == 0 and moved == rounds:
            return
        if current == 0:
            move(anna)
            moved += 1
        elif current == 1:
            bruno.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) >= {version(anna)}")
            move(bruno)
            anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) >= {version(bruno)}")
        else:
            _wait_past(anna, seen)


def test_focus_and_the_logs_scroll_stay_where_the_person_left_them(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    anna_w = watch(watched, new_context(browser, contexts, server), "Anna")
    bruno_w = watch(watched, new_context(browser, contexts, server), "Bruno")
    anna, bruno = anna_w.page, bruno_w.page
    create_table(anna, "knizia13", "Anna", ["me", "friend", "easy"])
    join(bruno, invitation(anna, 1), "Bruno")
    _play_rounds(anna, bruno, 4)
    assert anna.evaluate(f"{LOG}.scrollHeight > {LOG}.clientHeight + 40"), "the log keeps no more lines than it shows"

    # Anna reads back in the log (scrolled to its top) with a card of her hand focused
    anna.focus(".hand button.card")
    anna.evaluate(f"() => {{ window.kept = document.activeElement; {LOG}.scrollTop = 0;"
                  f" window.firstLine = {LOG}.firstElementChild; }}")
    # Bruno's page is reloaded: the server says he left and came back
    seen = _presence(anna_w)
    bruno.reload()
    bruno.wait_for_selector(".table-page[data-version]")
    _wait_presence(anna_w, seen + 2)
    assert anna.evaluate("document.activeElement === window.kept"), "the focused card was drawn again"
    assert anna.evaluate(f"{LOG}.scrollTop === 0 && {LOG}.firstElementChild === window.firstLine")

    # the hint button focused stays focused while Bruno comes and goes
    anna.focus("#hint")
    anna.evaluate("() => { window.kept = document.activeElement; }")
    seen = _presence(anna_w)
    bruno.reload()
    bruno.wait_for_selector(".table-page[data-version]")
    _wait_presence(anna_w, seen + 2)
    assert anna.evaluate("document.activeElement === window.kept && document.activeElement.id === 'hint'")

    # Anna moves and the others after her: new lines come, the log stays where she scrolled it
    lines = anna.locator("#log li").count()
    move(anna)
    anna.wait_for_function(f"document.querySelectorAll('#log li').length > {lines}")
    assert anna.evaluate(f"{LOG}.scrollTop === 0 && {LOG}.firstElementChild === window.firstLine")

    # scrolled to its end, the log follows the new lines
    anna.evaluate(f"() => {{ {LOG}.scrollTop = {LOG}.scrollHeight; }}")
    lines = anna.locator("#log li").count()
    while (shown := _state(anna))[1] != 1:
        _wait_past(anna, shown[0])
    bruno.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) >= {version(anna)}")
    move(bruno)
    anna.wait_for_function(f"document.querySelectorAll('#log li').length > {lines}")
    assert anna.evaluate(f"{LOG}.scrollHeight - {LOG}.scrollTop - {LOG}.clientHeight < 8")
