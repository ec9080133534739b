"""The replay's analysis of a seat, the table page when the connection drops and returns, and a game drawn without a
module of its own (issue 14 items 2 and 3): each checked as a person sees it, the numbers against the API."""

from __future__ import annotations

import math
import re
import time
from typing import Any

import httpx2
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from .kit import (
    SCREENSHOTS,
    Server,
    Watched,
    create_table,
    invitation,
    join,
    move,
    my_turn,
    new_context,
    start_server,
    version,
    watch,
)

COMMON = {"wire", "version", "game_id", "players", "options", "seat", "current_player", "is_over", "stage",
          "stage_scores", "history", "legal_actions", "hand"}
"""The view's fields every game has (docs/wire.md): the generic drawing lists the others."""


def _words(server: Server, lang: str = "en") -> dict[str, Any]:
    words: dict[str, Any] = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    return words


def _percent(chance: float) -> str:
    """A chance as the page writes it (JavaScript's Math.round, half up)."""
    return f"{math.floor(chance * 100 + 0.5)}%"


def _bot_game(server: Server, game: str, options: dict[str, Any]) -> str:
    """A game of two random bots, played out by the server; answers its table's id once it is finished."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = httpx2.post(f"{server.url}/api/tables", json={"game": game, "options": options, "seats": seats})
    assert created.status_code == 201, created.text
    table: str = created.json()["table"]["id"]
    deadline = time.monotonic() + 300  # bounds a failure only
    while httpx2.get(f"{server.url}/api/tables/{table}").json()["status"] != "finished":  # a condition, checked
        assert time.monotonic() < deadline, "the bots did not finish their game in 300 s"
        time.sleep(0.05)
    return table


def _analyse_in_page(page: Page, server: Server, table: str, words: dict[str, str]) -> dict[str, Any]:
    """Open the replay of ``table``, ask the analysis of seat 1 from the page, check the progress it shows, and answer
    the analysis done (the API's document in English)."""
    page.goto(f"/replay/{table}")
    page.wait_for_selector("#replay-position")
    names = httpx2.get(f"{server.url}/api/tables/{table}/replay").json()["names"]
    assert page.locator("#analysis-seat option").all_inner_texts() == names  # the players by name, not by seat
    page.select_option("#analysis-seat", "1")
    page.click("#analyse")
    # the progress, read at once while it is shown (it stays at least until the first poll, a second later)
    value, most, text = page.wait_for_function(
        "() => { const p = document.querySelector('#analysis progress');"
        " return p && [p.value, p.max, p.parentElement.textContent]; }").json_value()
    page.wait_for_selector("#analysis progress", state="detached")
    doc: dict[str, Any] = httpx2.get(f"{server.url}/api/tables/{table}/analysis/1?lang=en").json()
    assert doc["status"] == "done" and doc["seat"] == 1 and doc["done"] == doc["total"] == len(doc["decisions"]) > 0
    assert most == doc["total"] and 0 <= value <= doc["total"]
    assert words["web.analysing"].format(done=int(value), total=doc["total"]) in text
    return doc


def test_the_replay_marks_the_seats_costliest_moves(browser: Browser, contexts: list[BrowserContext],
                                                    server: Server, watched: list[Watched]) -> None:
    words = _words(server)
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    # A game of random bots where no decision of seat 1 lost more than WORST_LOSS (rare: none of 100 games tried, 4
    # playouts a move) names no costly move: then another game is played and analysed, up to three in all.
    for _ in range(3):
        table = _bot_game(server, "holzwurm", {"games": 1})
        doc = _analyse_in_page(page, server, table, words)
        if doc["worst"]:
            break
    assert doc["worst"], "in three games random play lost no win chance (4 playouts per move)"
    last = len(httpx2.get(f"{server.url}/api/tables/{table}/replay").json()["steps"])

    decisions = {d["version"]: d for d in doc["decisions"]}

    def said(d: dict[str, Any]) -> tuple[str, str]:
        played, best = d["played"], d["best"]
        return (words["web.decision"].format(played=played["text"], chance=_percent(played["chance"])),
                words["web.better"].format(best=best["text"], chance=_percent(best["chance"])))

    # the costliest moves, biggest loss first, each with the better move and both chances
    expect(page.locator("#analysis ol.worst li")).to_have_count(len(doc["worst"]))
    entries = page.locator("#analysis ol.worst li").all_inner_texts()
    for entry, v in zip(entries, doc["worst"], strict=True):
        assert entry.startswith(words["web.step"].format(n=v + 1, last=last)), entry
        for part in said(decisions[v]):
            assert part in entry, (part, entry)
    # the moves list marks the same moves (step v + 1 is the move chosen in position v), with the loss
    marked = page.eval_on_selector_all("#steps li.blunder", "els => els.map(e => Number(e.dataset.version))")
    assert marked == sorted(v + 1 for v in doc["worst"])
    losses = dict(page.eval_on_selector_all(
        "#steps li", "els => els.filter(e => e.querySelector('.loss'))"
                     ".map(e => [Number(e.dataset.version), e.querySelector('.loss').textContent.trim()])"))
    assert losses == {d["version"] + 1: f"−{_percent(d['loss'])}" for d in doc["decisions"] if d["loss"] > 0.05}
    # the worst decision: "move n" opens move n (it opened the position before it, move n - 1, issue 25), with what
    # was played and what was better
    worst = doc["worst"][0]
    button = page.locator("#analysis ol.worst li button").first
    expect(button).to_have_text(words["web.step"].format(n=worst + 1, last=last))
    button.click()
    expect(page.locator("#replay-position")).to_have_text(words["web.step"].format(n=worst + 1, last=last))
    assert page.get_attribute("#steps li.current", "data-version") == str(worst + 1)
    assert page.get_attribute("#steps li.decided", "data-version") == str(worst + 1)  # the move analysed
    note = page.inner_text("#replay-board .decision")
    assert all(part in note for part in said(decisions[worst])), note


def test_the_connection_drops_and_returns(browser: Browser, contexts: list[BrowserContext], server: Server,
                                          watched: list[Watched]) -> None:
    words = _words(server)
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    sockets: list[WebSocketRoute] = []
    network = {"up": True}

    def through(ws: WebSocketRoute) -> None:
        """The page's websockets pass to the server while the network is up, and are cut while it is down."""
        if not network["up"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws", through)
    create_table(page, "holzwurm", "Anna", ["me", "easy"], {"games": "1"})
    connection = page.locator("#connection")
    page.wait_for_selector("#turn[data-mine=yes]")
    move(page)
    network["up"] = False
    sockets[-1].close()  # the connection drops: the page tries again and again while the network is down
    expect(connection).to_have_text(words["web.reconnecting"])
    expect(connection).to_have_attribute("data-state", "lost")
    network["up"] = True
    expect(connection).to_have_text(words["web.back"])
    expect(connection).to_have_text("")  # the note goes after a while
    page.wait_for_selector("#turn[data-mine=yes]")  # the bot moved meanwhile, or moves now: play goes on
    before = version(page)
    move(page)
    assert version(page) > before


def test_a_game_without_its_own_drawing_is_playable(browser: Browser, contexts: list[BrowserContext],
                                                     server: Server, watched: list[Watched]) -> None:
    anna = watch(watched, new_context(browser, contexts, server), "Anna")
    page = anna.page
    # Holzwurm's drawing module cannot be found: the generic drawing stands in for it
    page.route("**/static/games/holzwurm.js", lambda route: route.fulfill(status=404, body="not found"))
    create_table(page, "holzwurm", "Anna", ["me", "easy"], {"games": "1"})
    page.wait_for_selector(".game.generic")
    assert page.locator(".rows, .fate").count() == 0
    page.wait_for_selector("#turn[data-mine=yes]")
    view = [f for f in anna.frames if f["type"] in ("welcome", "resync", "update")][-1]["view"]
    listed = page.eval_on_selector_all("dl.fields dt", "els => els.map(e => e.textContent)")
    assert listed == [key for key in view if key not in COMMON] and "rows" in listed and "fate" in listed
    assert page.inner_text("dd[data-field=hand_sizes]") == ", ".join(str(n) for n in view["hand_sizes"])
    hand = page.eval_on_selector_all(".hand button.card", "els => els.map(e => e.dataset.card)")
    assert hand == view["hand"]
    expect(page.locator("details.move-list")).to_have_attribute("open", "")  # the legal moves as buttons
    assert page.locator(".move-list button.move").count() == len(view["legal_actions"])
    for _ in range(3):  # moves by clicking a card and, when it has several moves, one of the buttons
        page.wait_for_selector("#turn[data-mine=yes]")
        move(page)
    missing = [e for e in anna.errors if "404" in e]
    assert missing, "the module's failed load is in the console"
    anna.errors[:] = [e for e in anna.errors if e not in missing]  # the one error expected: any other fails


def test_a_seat_opened_in_a_second_window_asks_before_taking_it_over(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """Issue 25: Anna's link opened in a second browser asks first ("open in another window", a button to play
    here); the first window plays on until she clicks it; then the second has the seat and the first says another
    window took it, and reconnects only when asked (then asking the other in turn), however long it waits (the first
    page's clock is moved on a minute). A reload keeps the seat without asking."""
    first_w = watch(watched, new_context(browser, contexts, server), "Anna")
    first = first_w.page
    first.clock.install()  # the page's timers on the test's clock (it runs as the machine's until moved on)
    url = create_table(first, "knizia13", "Anna", ["me", "easy", "easy"])
    first.reload()  # the same tab: not a second window
    first.wait_for_selector(".table-page[data-version]")
    expect(first.locator("#play-here")).to_have_count(0)

    second = watch(watched, new_context(browser, contexts, server), "Anna 2").page
    second.goto(url)
    expect(second.locator("#play-here")).to_be_visible()
    expect(second.locator("#takeover-text")).to_contain_text("another window")
    expect(second.locator(".table-page[data-version]")).to_have_count(0)
    expect(first.locator("#play-here")).to_have_count(0)  # the first window was told nothing
    before = version(first)
    if first.locator(".hand button.card.legal").count():
        move(first)
        assert version(first) > before

    second.click("#play-here")
    second.wait_for_selector(".table-page[data-version]")
    expect(first.locator("#takeover-text")).to_contain_text("another window")
    first.clock.run_for(60_000)  # a minute of the page's time: any reconnection it had planned (at most 5 s) runs
    expect(first.locator("#takeover-text")).to_be_visible()  # it did not take the seat back by itself
    expect(second.locator("#takeover-text")).to_have_count(0)  # and the second window still has it
    expect(second.locator(".table-page[data-version]")).to_have_count(1)
    first.click("#play-here")
    first.wait_for_selector("#takeover-text", state="detached")
    expect(second.locator("#takeover-text")).to_be_visible()


def test_chat_reaches_the_table_and_spectators_keep_theirs_apart(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """Issue 25, item 5: Anna's line reaches Bruno's log and the spectator's, with her name; the spectator's quick
    phrase reaches the spectators only, in each reader's language; a page that comes back shows the lines again."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "friend", "easy"])
    bruno = watch(watched, new_context(browser, contexts, server, lang="de"), "Bruno").page
    join(bruno, invitation(anna, 1), "Bruno")
    spectators = anna.input_value("#spectator-link")
    anna.fill("#chat-text", "good luck, Bruno")
    anna.press("#chat-text", "Enter")
    expect(bruno.locator("#log li.chat")).to_have_text(["Anna: good luck, Bruno"])
    assert anna.input_value("#chat-text") == ""
    carl = watch(watched, new_context(browser, contexts, server, lang="nl"), "Carl").page
    carl.goto(spectators)
    expect(carl.locator("#log li.chat")).to_have_text(["Anna: good luck, Bruno"])
    carl.select_option("#chat-phrase", "good_game")
    expect(carl.locator("#log li.chat").last).to_have_text("Toeschouwer: Mooi spel!")
    anna.fill("#chat-text", "thanks")
    anna.click("#chat-send")
    expect(carl.locator("#log li.chat")).to_have_count(3)
    bruno.reload()
    expect(bruno.locator("#log li.chat")).to_have_text(["Anna: good luck, Bruno", "Anna: thanks"])


def test_a_play_that_takes_cards_says_so_before_it_is_made(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """Issue 25, item 2: in 13 a play that pushes a target over 13 says in the move list what it takes ("takes 2
    cards: −3"), and so does its target (or its card, when every play of it takes) with the points on a badge; the
    plays that take nothing say nothing. Anna plays on (first legal move) until such a play is offered to her."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "easy", "easy"])
    for _ in range(60):
        anna.wait_for_function("['0'].includes(document.querySelector('.table-page').dataset.current)")
        if anna.locator("button.move.takes").count():
            break
        move(anna)
    costly = anna.locator("button.move.takes")
    assert costly.count(), "no play that takes cards came in 60 turns"
    words = costly.first.text_content() or ""  # the list may be folded (more than six moves)
    assert re.search(r"takes \d+ cards?: [−+±]\d+", words), words
    assert anna.locator("button.move:not(.takes) .cost").count() == 0
    marked = anna.locator("button.card.takes .cost-badge, button.target.takes .cost-badge")
    if not marked.count():  # a nasty four: the target shows it once the card is chosen
        text = costly.first.get_attribute("data-action") or ""
        anna.click(f".hand button.card[data-card='{text.split('>')[0]}']")
    expect(marked.first).to_be_visible()
    assert re.fullmatch(r"[−+±]\d+", marked.first.text_content() or "")


def test_the_table_says_when_a_bot_plays_for_someone_away_and_when_they_are_back(
        browser: Browser, contexts: list[BrowserContext], tmp_path: Any, watched: list[Watched]) -> None:
    """Issue 25, item 4: Bruno's page is closed past the grace period: Anna's log says a bot plays his seat until he
    is back; he opens his link again and takes his seat back, and her log says so."""
    with start_server(tmp_path, GRACE_PERIOD="1") as quick:
        anna = watch(watched, new_context(browser, contexts, quick), "Anna").page
        create_table(anna, "knizia13", "Anna", ["me", "friend", "easy"])
        link = invitation(anna, 1)
        bruno_context = new_context(browser, contexts, quick)
        bruno = watch(watched, bruno_context, "Bruno").page
        join(bruno, link, "Bruno")
        bruno.close()
        expect(anna.locator("#log li").filter(has_text="Bruno is away: a bot plays")).to_have_count(1, timeout=30_000)
        again = bruno_context.new_page()
        again.goto(link)
        again.wait_for_selector(".table-page[data-version]")
        anna.locator("#log li").filter(has_text="Bruno is back and plays again").first.wait_for(timeout=30_000)
        # What came after the return says nothing again: a line Bruno says (one connection's messages are answered
        # in order: a presence notice his return set going comes before it) and, where Anna is to move, her move's
        # update.
        again.fill("#chat-text", "back")
        again.press("#chat-text", "Enter")
        expect(anna.locator("#log li.chat")).to_have_text(["Bruno: back"])
        if my_turn(anna):
            move(anna)
        expect(anna.locator("#log li").filter(has_text="Bruno is back and plays again")).to_have_count(1)
        expect(anna.locator("#log li").filter(has_text="Bruno is away: a bot plays")).to_have_count(1)
        # issue 49 item 7: a reload, and a spectator who comes late, read both lines too
        carl = watch(watched, new_context(browser, contexts, quick), "Carl").page
        carl.goto(anna.input_value("#spectator-link"))
        anna.reload()
        for page in (anna, carl):
            page.wait_for_selector(".table-page[data-version]")
            for said in ("Bruno is away: a bot plays", "Bruno is back and plays again"):
                expect(page.locator("#log li").filter(has_text=said)).to_have_count(1)


def test_the_replay_says_who_won_and_no_known_cards_beside_the_open_hands(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 7: the replay's header says who won; Holzwurm's board there lists no "known cards", since every
    hand is shown open beside it."""
    for _ in range(3):  # a game in which seat 0's view knows cards of seat 1 (a row taken: nearly always)
        table = _bot_game(server, "holzwurm", {"games": 1})
        replay = httpx2.get(f"{server.url}/api/tables/{table}/replay").json()
        last = len(replay["steps"])
        end = httpx2.get(f"{server.url}/api/tables/{table}/replay/{last}").json()["views"][0]
        if end["known"][1]:
            break
    assert end["known"][1], "in three games seat 1 took no row"
    winners = [replay["names"][seat] for seat in replay["table"]["winners"]]
    page = watch(watched, new_context(browser, contexts, server, "de"), "Anna").page
    page.goto(f"/replay/{table}")
    page.wait_for_selector("#replay-position")
    expect(page.locator("#replay-winner")).to_contain_text(winners[0])
    expect(page.locator("#replay-winner")).to_contain_text("Gewonnen von")
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_contain_text(str(last))
    expect(page.locator("#replay-board .reveal")).to_have_count(2)
    expect(page.locator("#replay-board section.known")).to_have_count(0)


def test_three_thirteens_end_shows_the_last_rounds_hands(browser: Browser, contexts: list[BrowserContext],
                                                         server: Server, watched: list[Watched]) -> None:
    """Issue 49 item 7: at the game's end (the replay's last step, and the table) Three Thirteen's board shows the
    last round's hands as they were scored, each seat's melds and unmatched cards; it was empty."""
    table = _bot_game(server, "three-thirteen", {"turn_limit": 3})
    last = len(httpx2.get(f"{server.url}/api/tables/{table}/replay").json()["steps"])
    end = httpx2.get(f"{server.url}/api/tables/{table}/replay/{last}").json()["views"][0]
    cards = sorted(c for groups in end["previous_melds"] for m in groups for c in m) + sorted(
        c for rest in end["previous_deadwood"] for c in rest)
    assert cards
    page = watch(watched, new_context(browser, contexts, server), "Anna").page
    page.goto(f"/replay/{table}")
    page.wait_for_selector("#replay-position")
    page.keyboard.press("End")
    expect(page.locator("#last-round")).to_be_visible()
    shown = page.eval_on_selector_all("#last-round [data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(cards)
    page.screenshot(path=str(SCREENSHOTS / "three-thirteen-end-en.png"))
