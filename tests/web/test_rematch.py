"""A rematch asked of everyone (issue 49 item 2): the others see the offer over the final standings at once, the
asker hears each answer, the new table begins when everyone said yes, or when the asker starts it with a bot in the
seat of whoever said no."""

from __future__ import annotations

import httpx2
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .kit import PHONE, SCREENSHOTS, Server, Watched, create_table, invitation, join, new_context, play_out, watch


def _over(page: Page) -> None:
    page.wait_for_selector(".table-page[data-over=yes]")
    page.wait_for_selector("#rematch")  # the final standings (any stage's scoring closed before)


def test_a_rematch_waits_for_every_answer(browser: Browser, contexts: list[BrowserContext], server: Server,
                                          watched: list[Watched]) -> None:
    words = httpx2.get(f"{server.url}/api/words/de").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, server, "de"), "Anna").page
    bruno = watch(watched, new_context(browser, contexts, server), "Bruno").page
    clara = watch(watched, new_context(browser, contexts, server, "nl"), "Clara").page
    create_table(anna, "holzwurm", "Anna", ["me", "friend", "friend"], {"games": "1"})
    join(bruno, invitation(anna, 1), "Bruno")
    join(clara, invitation(anna, 2), "Clara")
    play_out([anna, bruno, clara])
    for page in (anna, bruno, clara):
        while not page.locator("#rematch").count():  # the stage's scoring closed: the final standings show
            page.click("#continue")
    old = anna.url
    anna.click("#rematch")
    # the others are asked at once, over their final standings (not after closing them)
    for page in (bruno, clara):
        expect(page.locator(".dialog.rematch h2")).to_contain_text("Anna")
    expect(anna.locator(".dialog.rematch h2")).to_have_text(words["web.rematch_asked"])
    expect(anna.locator(".rematch-answers li[data-answer=none]")).to_have_count(2)
    bruno.click("#continue")  # "Play again": Bruno waits for the others, still at the old table
    expect(anna.locator(".rematch-answers li[data-seat='1']")).to_have_attribute("data-answer", "yes")
    expect(anna.locator(".rematch-answers li[data-seat='1']")).to_contain_text(words["web.rematch_yes"])
    expect(bruno.locator(".rematch-answers li[data-seat='2']")).to_have_attribute("data-answer", "none")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    clara.set_viewport_size(PHONE)
    clara.screenshot(path=str(SCREENSHOTS / "rematch-offer-nl-phone.png"))
    clara.click("#decline")  # "No, thanks": the asker is told
    expect(anna.locator(".rematch-answers li[data-seat='2']")).to_have_attribute("data-answer", "no")
    expect(anna.locator("#log")).to_contain_text(words["web.rematch_declined"].replace("{player}", "Clara"))
    anna.click(".dialog.rematch #continue")  # closed: the standings again, whose "Rematch" shows the answers again
    anna.click("#rematch")
    expect(anna.locator(".rematch-answers li[data-answer=no]")).to_have_count(1)
    anna.reload()  # a page that comes back is told the offer and each answer again
    expect(anna.locator(".rematch-answers li[data-seat='1']")).to_have_attribute("data-answer", "yes")
    expect(anna.locator(".rematch-answers li[data-seat='2']")).to_have_attribute("data-answer", "no")
    start = anna.locator("#rematch-start")
    expect(start).to_have_text(words["web.rematch_start_bots"].replace("{players}", "Clara"))
    assert anna.url == old and "/play/" in bruno.url and bruno.url != anna.url  # nobody has gone yet
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    anna.screenshot(path=str(SCREENSHOTS / "rematch-asker-de.png"))
    bruno.screenshot(path=str(SCREENSHOTS / "rematch-waiting-en.png"))
    bruno_old = bruno.url
    start.click()  # the asker starts it, a bot in Clara's seat; Bruno, who said yes, goes there too
    anna.wait_for_url(lambda url: url != old)
    anna.wait_for_selector(".table-page[data-version]")
    bruno.wait_for_url(lambda url: url != bruno_old)
    bruno.wait_for_selector(".table-page[data-version]")
    assert anna.get_attribute(".table-page", "data-table") == bruno.get_attribute(".table-page", "data-table")
    expect(anna.locator("li.seat[data-seat='2'] .bot-level")).to_have_count(1)
    expect(anna.locator("li.seat[data-seat='2'] .name")).to_have_text("Clara")
