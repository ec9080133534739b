"""The pages besides a whole game (issue 14 items 1, 2 and 4): each language shown, the rules, the new-table form,
moves by keyboard, an illegal attempt explained in words, and the hint."""

from __future__ import annotations

import re

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Route, expect

from .kit import (
    ANSWERS,
    LAPTOP,
    PHONE,
    SCREENSHOTS,
    Server,
    Watched,
    check_boxes_lead,
    create_table,
    move,
    new_context,
    shots,
    version,
    wait_answered,
    watch,
)

DRAWS = """
window.draws = 0;
new MutationObserver((changes) => {
  for (const c of changes) window.draws += [...c.addedNodes].filter((n) => n.classList?.contains("route")).length;
}).observe(document, { childList: true, subtree: true });
"""
"""Counts the pages drawn (each address, or language, draws a new ``div.route``)."""


def test_the_language_already_shown_draws_nothing_again(browser: Browser, contexts: list[BrowserContext],
                                                      server: Server, watched: list[Watched]) -> None:
    """Choosing the language already shown keeps the page as it is (what was filled in with it); another language
    draws it again once."""
    page = watch(watched, new_context(browser, contexts, server), "Lena").page
    page.add_init_script(DRAWS)
    page.goto("/new/knizia13")
    page.fill("#my-name", "Lena")
    drawn = page.evaluate("window.draws")
    page.select_option("#lang", "en")
    page.select_option("#lang", "de")
    expect(page.locator("label[for=players]")).to_have_text("Anzahl der Spieler")
    assert page.evaluate("window.draws") == drawn + 1


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


def test_a_page_still_loading_never_draws_over_the_next(browser: Browser, contexts: list[BrowserContext],
                                                       server: Server, watched: list[Watched]) -> None:
    """The language changed while the home page waits for the games in the first language: the page shows the games
    in the language chosen, and the late answer in the first language changes nothing."""
    words = httpx2.get(f"{server.url}/api/words/nl").json()["templates"]
    page = watch(watched, new_context(browser, contexts, server), "late").page
    held: list[Route] = []
    page.route("**/api/games?lang=en", lambda route: held.append(route))  # the English answer waits
    page.add_init_script(ANSWERS)
    page.goto("/?lang=en")
    page.wait_for_selector("#lang")
    page.select_option("#lang", "nl")
    dutch = [words["knizia13.title"], words["three-thirteen.title"], words["holzwurm.title"]]
    expect(page.locator(".game-card h2")).to_have_text(dutch)
    assert held, "the English list was not asked for"
    held[0].continue_()
    wait_answered(page, "/api/games?lang=en")  # the page has read the late answer and done what it does with it
    expect(page.locator(".game-card h2")).to_have_text(dutch)
    expect(page.locator("h1")).to_have_text(words["web.title"])


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
    assert "final total about" in page.inner_text("ol.hint")  # the total each rated move is expected to end on
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused
    before = version(page)
    page.keyboard.press("Enter")  # the focused card: discard it (or, if it can also go out, choose between the two)
    advanced = f"Number(document.querySelector('.table-page').dataset.version) > {before}"
    page.wait_for_function(f"{advanced} || document.querySelector('.hand button.card[aria-pressed=true]')")
    if version(page) == before:  # the card is selected and the moves with it are listed: the first of them
        page.keyboard.press("1")
    page.wait_for_function(advanced)


def test_a_double_click_plays_once_and_says_nothing(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                     watched: list[Watched]) -> None:
    """Issue 25: the second click of a double click sends no second action for the same version (which the server
    would refuse as stale), and the page shows no refusal."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna")
    page = anna.page
    create_table(page, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "20"})
    page.wait_for_selector(".stock button.card.legal")  # the bot begins; then Anna draws
    before = version(page)
    page.locator(".stock button.card.legal").dblclick()  # draw: then Anna must still discard, so a second is stale
    page.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
    assert not page.inner_text("#alert").strip()
    # The next move's update comes after anything the server answered to what was sent before it (one connection's
    # messages are answered in order): a refusal of a second action, were one sent, would have come by then.
    move(page)
    actions = [f for f in anna.sent if f.get("type") == "action"]
    assert len(actions) == 2, actions  # the double click's, and the next move's
    assert not [f for f in anna.frames if f.get("type") == "refused"]


def test_markup_is_never_written_and_cards_wear_the_games_faces(browser: Browser, contexts: list[BrowserContext],
                                                               server: Server, watched: list[Watched]) -> None:
    """dom.js writes text as text, whatever its attributes are called; a card shows what /api/games says of it, in
    the page's language (no game's cards are written into the client)."""
    page = watch(watched, new_context(browser, contexts, server, lang="de"), "dom").page
    page.goto("/")
    page.wait_for_selector(".game-card h2")
    made = page.evaluate("""async () => {
        const { h } = await import('/static/dom.js');
        const el = h('div', { html: '<b>bold</b>' }, '<i>text</i>');
        return [el.children.length, el.textContent];
    }""")
    assert made == [0, "<i>text</i>"]
    faces = {game["id"]: game["faces"] for game in httpx2.get(f"{server.url}/api/games?lang=de").json()}
    drawn = page.evaluate("""async () => {
        const { games } = await import('/static/api.js');
        const { card } = await import('/static/cards.js');
        await games();
        return [['knizia13', 'R4'], ['three-thirteen', 'QH'], ['holzwurm', '13'], ['none', 'X1']].map(([g, c]) => {
            const el = card(g, c);
            return [el.getAttribute('aria-label'), el.className, el.querySelector('.v').textContent];
        });
    }""")
    assert drawn == [
        [faces["knizia13"]["R4"]["label"], "card c-red", "4"],
        [faces["three-thirteen"]["QH"]["label"], "card c-hearts", "D"],  # Dame: the German rulebook's letter
        [faces["holzwurm"]["13"]["label"], "card c-thirteen", "−13"],
        ["X1", "card c-plain", "X1"],
    ]


@pytest.mark.parametrize(("lang", "path", "title", "reason"), [
    ("de", "/play/no-such-invitation", "web.bad_link", "server.bad_token"),
    ("nl", "/watch/no-such-table/no-such-token", "web.bad_link", "server.bad_token"),
    ("en", "/no/such/page", "web.not_found", None),
    ("de", "/new/chess", "web.not_found", None),
    ("nl", "/games/chess/rules", "web.not_found", None),
])
def test_a_dead_end_says_what_went_wrong_and_leads_back(lang: str, path: str, title: str, reason: str | None,
                                                        browser: Browser, contexts: list[BrowserContext],
                                                        server: Server, watched: list[Watched]) -> None:
    """Issue 25: a wrong or expired invitation or spectators' link, and an unknown address, show what went wrong in
    the person's language (no empty board, no raw JSON) and a link back to the start page."""
    words = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    person = watch(watched, new_context(browser, contexts, server, lang), lang)
    page = person.page
    answer = page.goto(path)
    assert answer is not None and answer.headers["content-type"].startswith("text/html")
    expect(page.locator(".dead-end h1")).to_have_text(words[title])
    if reason is not None:  # the refusal's sentence for people: begun with a capital, no rule
        said = words[reason].split(":")[0]
        expect(page.locator(".dead-end p").first).to_contain_text(said[0].upper() + said[1:])
        expect(page.locator(".dead-end")).not_to_contain_text("(S1)")
    else:  # Chromium notes the page's own status 404 in the console: that one is the point here
        assert person.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
        person.errors.clear()
    assert not page.locator(".board").count()
    if path.startswith("/play/"):  # another language chosen: the dead end says it again in that one
        english = httpx2.get(f"{server.url}/api/words/en").json()["templates"]
        page.select_option("#lang", "en")
        expect(page.locator(".dead-end h1")).to_have_text(english[title])
        expect(page.locator(".dead-end p").first).to_contain_text("This link opens no seat")
        words = english
    page.click(f".dead-end a:text('{words['web.back_home']}')")
    expect(page.locator("h1")).to_have_text(words["web.title"])
    assert page.evaluate("location.pathname") == "/"


def test_a_free_seat_is_taken_from_the_tables_page(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                   watched: list[Watched]) -> None:
    """Issue 25: an open table with a free seat has "Join" on the tables page: a name, and the person sits at the
    table (no invitation needed); the table's creator sees them arrive."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "friend", "easy"])
    table = anna.get_attribute(".table-page", "data-table")
    bruno = watch(watched, new_context(browser, contexts, server, "de"), "Bruno").page
    words = httpx2.get(f"{server.url}/api/words/de").json()["templates"]
    bruno.goto("/tables")
    row = bruno.locator(f"li[data-table='{table}']")
    row.locator("input").fill("Bruno")
    row.get_by_role("button", name=words["web.join_table"]).click()
    bruno.wait_for_selector(".table-page[data-seat='1']")
    assert "/play/" in bruno.url and not bruno.locator("#join-name").count()
    expect(anna.locator("ul.seats")).to_contain_text("Bruno")
    bruno.goto("/tables")  # no more among the open tables: among those being played, with no "Join"
    expect(bruno.locator("#table-count")).not_to_be_empty()
    expect(bruno.locator(f"li[data-table='{table}']")).to_have_count(0)
    bruno.goto("/tables?status=playing")
    expect(bruno.locator(f"li[data-table='{table}']")).to_have_count(1)
    assert not bruno.locator("form.take-seat").filter(has=bruno.locator(f"#join-{table}")).count()
    # and anyone may watch it from there: the spectator's page, public information only
    carl = watch(watched, new_context(browser, contexts, server, "nl"), "Carl").page
    carl.goto("/tables?status=playing")
    carl.locator(f"li[data-table='{table}']").get_by_role("link", name="Kijken").click()
    carl.wait_for_selector(".table-page[data-version]")
    assert carl.url.endswith(f"/watch/{table}") and carl.get_attribute(".table-page", "data-seat") == ""
    expect(carl.locator(".hand button.card")).to_have_count(0)


def test_a_double_click_on_create_makes_one_table(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                  watched: list[Watched]) -> None:
    """Issue 49 item 3: "Create the table" clicked twice (or more) before the answer comes makes exactly one table."""
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    posted: list[str] = []
    tables = re.compile(r"/api/tables(\?.*)?$")
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and tables.search(r.url) else None)
    held: list[Route] = []
    page.goto("/new/knizia13")
    page.fill("#my-name", "Anna")
    page.route(tables, lambda route: held.append(route))  # the answer waits while the person clicks on
    page.locator("#create").dblclick()
    page.locator("#create").click(force=True)
    expect(page.locator("#create")).to_be_disabled()
    assert len(held) == 1, posted
    held[0].continue_()
    page.wait_for_selector(".table-page[data-version]")
    assert len(posted) == 1, posted


def test_the_best_arrangement_is_kept_over_a_reload(browser: Browser, contexts: list[BrowserContext],
                                                    server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 7: the hand laid out in its best arrangement stays so after a reload of the tab."""
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(page, "three-thirteen", "Anna", ["me", "easy"], {"turn_limit": "20"})
    page.wait_for_selector("[data-do=arrange]")
    page.click("[data-do=arrange]")
    page.wait_for_selector(".penalty[data-penalty]")
    page.reload()
    page.wait_for_selector(".table-page[data-version]")
    page.wait_for_selector(".penalty[data-penalty]")
    expect(page.locator("[data-do=arrange]")).to_have_attribute("aria-pressed", "true")


def test_the_join_dialog_says_who_invited_and_with_whom(browser: Browser, contexts: list[BrowserContext],
                                                        server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 7: the invitation's page asks the name and says who invited the person and with whom they
    will play (a bot with its level in the reader's language)."""
    words = httpx2.get(f"{server.url}/api/words/de").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "friend", "easy"])
    bruno = watch(watched, new_context(browser, contexts, server, "de"), "Bruno").page
    bruno.goto(anna.input_value("#invite-1"))
    said = bruno.locator("#join-company")
    expect(said).to_contain_text(words["web.join_invited"].replace("{player}", "Anna"))
    expect(said).to_contain_text("Ada (Bot: leicht)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    bruno.set_viewport_size(PHONE)
    bruno.screenshot(path=str(SCREENSHOTS / "join-de-phone.png"))


def test_on_a_phone_the_players_bar_leaves_the_table_in_sight(browser: Browser, contexts: list[BrowserContext],
                                                               server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 7: with four players, the players' bar takes at most a fifth of a phone's first screen (it took
    40%)."""
    page = watch(watched, new_context(browser, contexts, server, "de", phone=True), "Anna").page
    create_table(page, "knizia13", "Anna", ["me", "easy", "medium", "hard"])
    box = page.locator("ul.seats").bounding_box()
    assert box is not None
    assert box["height"] <= 0.2 * PHONE["height"], box
    expect(page.locator("ul.seats li.seat")).to_have_count(4)
    page.screenshot(path=str(SCREENSHOTS / "seats-de-phone.png"))


def test_the_players_see_that_someone_watches(browser: Browser, contexts: list[BrowserContext], server: Server,
                                              watched: list[Watched]) -> None:
    """Issue 49 item 7: a spectator's window opened is told to the players ("1 person watches"), and its closing."""
    words = httpx2.get(f"{server.url}/api/words/nl").json()["templates"]
    anna = watch(watched, new_context(browser, contexts, server, "nl"), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "easy", "easy"])
    expect(anna.locator("#watchers")).to_have_count(0)
    carl = watch(watched, new_context(browser, contexts, server), "Carl").page
    carl.goto(anna.input_value("#spectator-link"))
    carl.wait_for_selector(".table-page[data-version]")
    expect(anna.locator("#watchers")).to_have_text(words["web.watchers"][0].replace("{n}", "1"))
    anna.screenshot(path=str(SCREENSHOTS / "watchers-nl.png"))
    carl.close()
    expect(anna.locator("#watchers")).to_have_count(0)


def test_an_empty_name_makes_no_table_and_says_so(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                 watched: list[Watched]) -> None:
    """Issue 49 item 4: an empty name was taken and shown to the others as "you". Now the form asks for a name,
    in the page's language, and makes no table until it has one."""
    page = watch(watched, new_context(browser, contexts, server, lang="de"), "Anna").page
    posted: list[str] = []
    tables = re.compile(r"/api/tables(\?.*)?$")
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and tables.search(r.url) else None)
    page.goto("/new/knizia13")
    page.fill("#my-name", "   ")
    page.locator("#create").click()
    expect(page.locator("form.create")).to_contain_text("Bitte gib deinen Namen ein")
    expect(page.locator("#my-name")).to_be_focused()
    assert posted == []
    page.fill("#my-name", "Anna")
    page.locator("#create").click()
    page.wait_for_selector(".table-page[data-version]")
    assert len(posted) == 1


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_every_checkbox_of_the_new_table_page_comes_before_its_words(
        lang: str, browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """The new-table page laid its checkboxes out two ways: a game's option (13's open piles) put its name first and
    the box far to the right, the pace's (private) the box first. Each is now a box at the start of its row, level
    with its words beside it, at a laptop's size and a phone's (screenshots: ``new-table-checkboxes-LANG``)."""
    page = watch(watched, new_context(browser, contexts, server, lang), lang).page
    page.goto("/new/knizia13")
    page.wait_for_selector("#option-open_piles")
    for viewport in (LAPTOP, PHONE):
        page.set_viewport_size(viewport)
        assert check_boxes_lead(page) == ["option-open_piles", "private"]
    shots(page, f"new-table-checkboxes-{lang}")
