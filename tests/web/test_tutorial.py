"""Each game's tutorial in the browser (issue "The table players would choose over Board Game Arena", item 7): from
the home page's "Learn to play", the real table page walks a person through the steps to the last, marking only the
move a step wants and answering any other with a friendly note (nothing sent); on a phone and in German and Dutch the
panel fits the screen. ``DREIZEHN_TUTORIAL_SHOTS=<folder>`` keeps a picture of every step."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import dreizehn
from dreizehn.play.tutorial import tutorial_path

from .kit import Server, Watched, dismiss, move, new_context, watch

GAMES = [game for game in dreizehn.game_ids() if tutorial_path(game).is_file()]
SHOTS = os.environ.get("DREIZEHN_TUTORIAL_SHOTS")


def _step(page: Page) -> int:
    return int(page.get_attribute("#tutorial", "data-step") or -1)


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def _wait_past(page: Page, index: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('#tutorial').dataset.step) > {index}")


def _wanted(page: Page, want: str, watched: Watched) -> None:
    """Make the wanted move as a person does: the one card marked, then its place when one is asked."""
    page.wait_for_selector("#turn[data-mine=yes]")
    marked = page.locator(".hand button.card.legal, .stock button.card.legal, .discard button.card.legal, "
                          "button.row.legal, button.target.legal")
    assert marked.count() >= 1
    other = page.locator(".hand button.card:not(.legal)").first
    if other.count():  # another card: a friendly note, and nothing sent
        sent = len(watched.sent)
        other.click()
        page.wait_for_selector("#tutorial .tutorial-note")
        assert not [m for m in watched.sent[sent:] if m.get("type") == "action"]
    page.locator(".move-list button.move").first.click() if page.locator(".move-list button.move").count() == 1 \
        else marked.first.click()


def walk(page: Page, game: str, watched: Watched, name: str) -> list[dict[str, Any]]:
    """Walk the tutorial to its last step, reloading the page once while the bots play toward a step's event (the
    actions made meanwhile are heard from the welcome); the steps."""
    steps: list[dict[str, Any]] = page.request.get(f"/api/learn/{game}").json()["steps"]
    reload_at = next(i for i, step in enumerate(steps) if isinstance(step.get("until"), dict))
    page.goto("/")
    page.click(f".game-card[data-game={game}] a[href='/learn/{game}']")
    page.wait_for_selector("#tutorial[data-step]")
    while (index := _step(page)) < len(steps) - 1:
        step = steps[index]
        if index == reload_at:
            reload_at = -1
            page.reload()
            page.wait_for_selector(f"#tutorial[data-step='{index}'], #tutorial[data-step='{index + 1}']")
            continue
        _shot(page, f"{name}-{index:02d}")
        assert page.locator("#undo").count() == 0  # a tutorial's steps go one way: no take-back offered
        if step.get("until") == "next":
            page.click("#tutorial-next")
        elif "want" in step:
            _wanted(page, step["want"], watched)
        elif step.get("free"):
            dismiss(page)
            if page.locator("#turn[data-mine=yes]").count():
                move(page)
            else:
                page.wait_for_function(f"document.querySelector('#turn').dataset.mine === 'yes'"
                                       f" || Number(document.querySelector('#tutorial').dataset.step) > {index}")
            continue
        _wait_past(page, index)
    _shot(page, f"{name}-{len(steps) - 1:02d}")
    return steps


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_to_its_end(browser: Browser, contexts: list[BrowserContext], server: Server,
                               watched: list[Watched], game: str) -> None:
    person = watch(watched, new_context(browser, contexts, server), "learner")
    page = person.page
    walk(page, game, person, f"{game}-en-laptop")
    assert page.url.startswith(f"{server.url}/learn/{game}/")
    assert page.locator(f"#tutorial a[href='/new/{game}']").count() == 1  # a real game offered
    page.reload()  # the step reached is kept
    page.wait_for_selector("#tutorial a[href]")


LEARN = {"en": "Learn to play", "de": "Spiel lernen", "nl": "Leer spelen"}


@pytest.mark.parametrize(("game", "lang"), [(game, lang) for game in GAMES for lang in ("de", "nl")])
def test_the_panel_fits_a_phone(browser: Browser, contexts: list[BrowserContext], server: Server,
                                watched: list[Watched], game: str, lang: str) -> None:
    person = watch(watched, new_context(browser, contexts, server, lang=lang, phone=True), "learner")
    page = person.page
    page.goto("/")
    learn = page.locator(f".game-card[data-game={game}] a[href='/learn/{game}']")
    assert learn.inner_text() == LEARN[lang]
    learn.click()
    page.wait_for_selector("#tutorial[data-step='0'] #tutorial-next")
    _shot(page, f"{game}-{lang}-phone-00")
    width = page.evaluate("document.documentElement.clientWidth")
    box = page.locator("#tutorial").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing cut off at the side
    page.click("#tutorial-next")
    page.wait_for_selector("#tutorial[data-step='1']")
    _shot(page, f"{game}-{lang}-phone-01")
    hand = page.locator(".hand").bounding_box()
    panel = page.locator("#tutorial").bounding_box()
    assert hand is not None and panel is not None and panel["y"] + panel["height"] <= hand["y"]  # above the cards
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("document.querySelector('.hand').scrollIntoView({block: 'end'})")  # the cards at the screen's foot
    height = page.evaluate("window.innerHeight")
    hand = page.locator(".hand").bounding_box()
    panel = page.locator("#tutorial").bounding_box()
    assert hand is not None and panel is not None
    assert panel["y"] >= 0 and panel["y"] + panel["height"] <= hand["y"] <= height  # the words still in sight
    _shot(page, f"{game}-{lang}-phone-01-scrolled")


def test_the_panel_follows_the_language_chosen(browser: Browser, contexts: list[BrowserContext], server: Server,
                                               watched: list[Watched]) -> None:
    person = watch(watched, new_context(browser, contexts, server), "learner")
    page = person.page
    page.goto(f"/learn/{GAMES[0]}")
    page.wait_for_selector("#tutorial-next")
    page.click("#tutorial-next")
    page.wait_for_selector("#tutorial[data-step='1']")
    english = page.inner_text("#tutorial .tutorial-say")
    page.select_option("#lang", "de")
    page.wait_for_function("document.querySelector('#tutorial .tutorial-say').textContent !== "
                           f"{english!r}")
    assert "Schritt 2" in page.inner_text("#tutorial .tutorial-head")
    assert page.get_attribute("#tutorial", "data-step") == "1"  # the same step, in German
