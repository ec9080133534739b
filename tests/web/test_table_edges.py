"""The table's rough edges of a new player's evening (issue 25), each as a person meets it in Chromium: a bot named
so people tell it apart, with its level in the reader's language; the stage said with how many there are; the
dealer marked; Three Thirteen's best arrangement kept after each draw once chosen."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, expect

from .kit import Server, Watched, create_table, new_context, shoot, version, watch


def test_three_thirteen_keeps_the_hand_arranged_after_a_draw(browser: Browser, contexts: list[BrowserContext],
                                                             server: Server, watched: list[Watched]) -> None:
    """Once "Best arrangement" is chosen, the hand stays laid out in melds after a draw (it fell back to the dealt
    order with the button still lit, and took two clicks each turn)."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "three-thirteen", "Anna", ["me", "easy"])
    expect(anna.locator(".table-head .stage")).to_have_text("round 1 of 11")
    expect(anna.locator("li.seat[data-seat='1'] .name")).to_have_text("Ada")
    expect(anna.locator("li.seat[data-seat='1'] .bot-level")).to_have_text("bot: easy")
    expect(anna.locator("li.seat[data-seat='0'] .dealer")).to_have_text("dealer")
    expect(anna.locator("li.seat .dealer")).to_have_count(1)
    anna.wait_for_selector("#turn[data-mine=yes]")
    anna.click("[data-do=arrange]")
    expect(anna.locator(".arranged .card")).to_have_count(3)
    before = version(anna)
    anna.click(".stock button.card.legal")
    anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
    expect(anna.locator("[data-do=arrange]")).to_have_attribute("aria-pressed", "true")
    expect(anna.locator(".arranged .card")).to_have_count(4)
    expect(anna.locator(".hand")).to_have_count(0)


def test_the_last_card_played_is_marked_and_arrives_moving_unless_motion_is_reduced(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """The card the latest move played is marked on the table and arrives with a movement; a system that asks for
    reduced motion gets the mark without the movement."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    anna.emulate_media(reduced_motion="no-preference")
    create_table(anna, "knizia13", "Anna", ["me", "easy", "easy"])
    marked = anna.locator(".targets .card.last-played")
    expect(marked).to_have_count(1)  # the first bot's card (seat 1 begins: the dealer is seat 0)
    card = marked.get_attribute("data-card")
    said = anna.locator("#log li:not(.stage-head)").first.inner_text()
    assert card is not None and said.startswith("Ada")
    # The bots go on moving, each drawing the board again: the card marked is read at once, in one evaluation.
    style = ("(() => { const e = document.querySelector('.targets .card.last-played');"
             " return e && getComputedStyle(e).animationName + ' ' + getComputedStyle(e).outlineStyle; })()")
    anna.wait_for_function(f"{style} === 'arrive solid'")
    anna.emulate_media(reduced_motion="reduce")
    assert anna.evaluate(style) == "none solid"


def test_a_card_played_from_the_hand_glides_to_the_table_and_lies_still_when_motion_is_reduced(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    """Cards that move are seen moving (web/pages/table/motion.js): the card the person plays glides from its place
    in the hand to its place on the table; under reduced motion it is simply there.

    The bots answer within a tenth of a second and draw the board again, so a glide looked for afterwards may be
    over or on another card: each glide that starts on a card on the table is written down as it starts."""
    anna = watch(watched, new_context(browser, contexts, server), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "easy", "easy"])
    anna.evaluate(RECORD_GLIDES)
    for reduced in (False, True):
        anna.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
        anna.wait_for_selector("#turn[data-mine=yes]")
        if reduced:  # the cards that faded out before motion was reduced are gone once their fade ends
            anna.wait_for_function("document.querySelectorAll('.card.leaving').length === 0")
        hand = anna.evaluate("[...document.querySelectorAll('.hand [data-card]')].map((e) => e.dataset.card)")
        anna.evaluate("window.glides = []")
        before = version(anna)
        anna.locator("button.move").first.click() if anna.locator(".move-list[open]").count() else None
        if version(anna) == before:
            anna.keyboard.press("1")
        anna.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")
        from_hand = f"window.glides.some((card) => {hand!r}.includes(card))"
        if reduced:
            assert not anna.evaluate(from_hand)
            assert anna.evaluate("document.querySelectorAll('.card.leaving').length") == 0
        else:
            anna.wait_for_function(from_hand)  # the context's generous default: it bounds a failure only


# Each animation started on a card on the table that moves it (a translation), by the card's text, in window.glides.
RECORD_GLIDES = """() => {
  window.glides = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const moves = Array.isArray(frames) && frames.some((k) => String(k.transform).startsWith("translate"));
    if (moves && this.dataset && this.dataset.card && this.closest(".targets")) window.glides.push(this.dataset.card);
    return animate.call(this, frames, options);
  };
}"""


def test_whose_turn_at_a_seat_nobody_has_joined_is_said_in_words(browser: Browser, contexts: list[BrowserContext],
                                                                  server: Server, watched: list[Watched]) -> None:
    """The game begins before the friends invited by a link have joined: when a free seat's turn comes, the head
    says whose it is as the server's sentences do, "Der erste eingeladene Mitspieler ist am Zug" (two are invited
    here; one alone is "der eingeladene Mitspieler"), not "freier Platz ist am Zug"; the seats still say "freier
    Platz"."""
    anna = watch(watched, new_context(browser, contexts, server, "de", phone=True), "Anna").page
    create_table(anna, "knizia13", "Anna", ["me", "easy", "friend", "friend"])
    anna.wait_for_function("document.querySelector('.table-page').dataset.version === '1'")  # the bot played
    expect(anna.locator("#turn")).to_have_text("Der erste eingeladene Mitspieler ist am Zug")
    expect(anna.locator("ul.seats")).to_contain_text("freier Platz")
    expect(anna.locator("#log")).not_to_contain_text("Platz 3")
    shoot(anna, "invited", "whose-turn-de-phone")
