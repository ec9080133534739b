"""Tools of the browser tests: the server process, watched pages (console errors, websocket frames), and a person
who plays by clicking what the page marks as legal."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, WebSocket

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(os.environ.get("DREIZEHN_SCREENSHOTS") or Path(tempfile.gettempdir()) / "dreizehn-screenshots")
"""Where the browser tests save the screenshots: a temporary folder (a test run leaves the checkout as it was), or
``DREIZEHN_SCREENSHOTS`` (``DREIZEHN_SCREENSHOTS=docs/screenshots`` remakes the README's pictures)."""
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    data_dir: Path


@contextlib.contextmanager
def start_server(data_dir: Path, paths: Sequence[str] = (), **settings: str) -> Iterator[Server]:
    """``dreizehn serve`` on a free port with a temporary data folder, bots quick and in threads; ``settings`` (as
    ``GRACE_PERIOD="1"``) set other ``DREIZEHN_`` variables; ``paths`` go before ``PYTHONPATH`` (a game installed for
    the test only, tests/fourth_game)."""
    port = free_port()
    env = {**os.environ, "DREIZEHN_DATA_DIR": str(data_dir), "DREIZEHN_BOT_PAUSE": "0.05", "DREIZEHN_BOT_WORKERS": "0",
           "DREIZEHN_STAGE_HOLD": "0", "DREIZEHN_HELLO_TIMEOUT": "120",  # a busy machine welcomes slowly
           "DREIZEHN_HINT_SECONDS": "0.05", "DREIZEHN_GRACE_PERIOD": "600", "DREIZEHN_ANALYSIS_PLAYOUTS": "4",
           "DREIZEHN_ANALYSIS_SEARCH": "ismcts:iterations=300:playout=heuristic:tree=on"}  # master, a hundredth
    env.update({f"DREIZEHN_{name}": value for name, value in settings.items()})
    if paths:
        env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [os.environ.get("PYTHONPATH")])])
    env.pop("DATABASE_URL", None)
    command = [str(Path(sys.executable).parent / "dreizehn"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    log = (data_dir / "server.log").open("wb")
    process = subprocess.Popen(command, env=env, cwd=data_dir, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:  # wait for the server to answer (a condition, checked until it holds)
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {(data_dir / 'server.log').read_text()}")
            try:
                if httpx2.get(f"{url}/api/games", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.1)
        yield Server(url, data_dir)
    finally:
        process.terminate()
        process.wait(10)
        log.close()


@dataclass
class Watched:
    """A page whose console errors and websocket frames are kept."""

    name: str
    page: Page
    errors: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)


def watch(pages: list[Watched], context: BrowserContext, name: str) -> Watched:
    page = context.new_page()
    watched = Watched(name, page)

    def console(message: Any) -> None:
        if message.type == "error":
            watched.errors.append(message.text)

    def socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: watched.frames.append(json.loads(payload)))
        ws.on("framesent", lambda payload: watched.sent.append(json.loads(payload)))

    page.on("console", console)
    page.on("pageerror", lambda err: watched.errors.append(str(err)))
    page.on("websocket", socket)
    pages.append(watched)
    return watched


def new_context(browser: Browser, contexts: list[BrowserContext], server: Server, lang: str = "en",
                phone: bool = False) -> BrowserContext:
    # Cards lie still (reduced motion) unless a test looks at their movement: a click waits for its target to stop
    # moving, and the movements doubled the time of a whole game played in the browser.
    context = browser.new_context(base_url=server.url, locale=lang, viewport=PHONE if phone else LAPTOP,
                                  is_mobile=phone, has_touch=phone, reduced_motion="reduce")
    context.set_default_timeout(90_000)  # the machine may be loaded: waits are for conditions, not for time
    context.add_init_script(f"localStorage.setItem('dreizehn.lang', '{lang}')")
    contexts.append(context)
    return context


def create_table(page: Page, game: str, name: str, seats: list[str], options: dict[str, str] | None = None) -> str:
    """Fill the new-table form as a person does; answers the table page's address (the creator's seat)."""
    page.goto(f"/new/{game}")
    page.fill("#my-name", name)
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    for option, value in (options or {}).items():
        page.fill(f"#option-{option}", value)
    page.click("#create")
    page.wait_for_selector(".table-page[data-version]")
    return page.url


def invitation(page: Page, seat: int) -> str:
    """The invitation link of a seat, as the creator's page shows it."""
    return page.input_value(f"#invite-{seat}")


def join(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("form.dialog button[type=submit]")
    page.wait_for_selector("#join-name", state="detached")


ANSWERS = """(() => {
  window.answered = [];
  const fetched = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetched(...args);
    const json = response.json.bind(response);
    response.json = () => json().finally(() => setTimeout(() => window.answered.push(response.url), 0));
    return response;
  };
})();"""
"""A page script that notes each HTTP answer the page has read (its URL in ``window.answered``) once the page's own
code that waited for it has run: the note is a task queued when the body is read, after the promise callbacks that
the answer set going (:func:`wait_answered`)."""


def wait_answered(page: Page, part: str) -> None:
    """Wait (a condition, checked) until a page that runs :data:`ANSWERS` (``page.add_init_script(ANSWERS)`` before
    it is opened) has read an answer whose URL contains ``part``, and done what it does with it."""
    page.wait_for_function(f"() => (window.answered || []).some((url) => url.includes({json.dumps(part)}))")


def version(page: Page) -> int:
    return int(page.get_attribute(".table-page", "data-version") or -1)


def dismiss(page: Page) -> None:
    """Click "continue" on every dialog between stages."""
    while page.locator("#continue").count() and not page.locator("#rematch").count():
        page.click("#continue")


def move(page: Page) -> None:
    """Make one legal move as a person: click a marked card (or the stock), then a marked place if one is asked."""
    dismiss(page)
    before = version(page)
    stock = page.locator(".stock button.card.legal")
    if stock.count():
        stock.click()
    else:
        page.locator(".hand button.card.legal").first.click()
        place = page.locator("button.target.legal, button.row.legal, .move-list button.move")
        if page.locator(".hand button.card.selected").count():
            place.first.click()
    page.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}")


def my_turn(page: Page) -> bool:
    return page.locator("#turn[data-mine=yes]").count() > 0


def over(page: Page) -> bool:
    return page.get_attribute(".table-page", "data-over") == "yes"


def play_out(people: list[Page], on_move: Any = None) -> int:
    """Play until the game is over: each person moves when it is their turn; answers the moves made."""
    moves = 0
    seats = {int(p.get_attribute(".table-page", "data-seat") or -1): p for p in people}
    first = people[0]
    while not over(first):
        current, before = first.eval_on_selector(".table-page",
                                                 "e => [Number(e.dataset.current), Number(e.dataset.version)]")
        page = seats.get(current)
        if page is None:  # a bot's turn: wait for it to move
            first.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) > {before}"
                                    " || document.querySelector('.table-page').dataset.over === 'yes'")
            continue
        page.wait_for_function(f"document.querySelector('.table-page').dataset.version >= "
                               f"{version(first)}")
        page.wait_for_selector("#turn[data-mine=yes]")
        move(page)
        moves += 1
        if on_move is not None:
            on_move(moves)
        first.wait_for_function(f"Number(document.querySelector('.table-page').dataset.version) >= {version(page)}")
    for page in people:
        page.wait_for_selector(".table-page[data-over=yes]")
    return moves


def shoot(page: Page, folder: str, name: str) -> None:
    """A screenshot of the whole page into ``SCREENSHOTS/folder/name.png`` (:func:`keep_small`)."""
    where = SCREENSHOTS / folder
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    keep_small(path)


def keep_small(path: Path) -> None:
    """A screenshot that is kept (``DREIZEHN_SCREENSHOTS``) saved again small, in a palette of 64 colours; one in the
    temporary folder stays as taken (its palette would only cost the test run time)."""
    if not os.environ.get("DREIZEHN_SCREENSHOTS"):
        return
    from PIL import Image  # Pillow: the kept screenshots' palette only

    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def scroll_to(page: Page, selector: str) -> None:
    """Bring the first element ``selector`` finds to the middle of the page, found and scrolled in one step of the
    page (a locator's scroll waits for the element to be stable, and a page that draws it again meanwhile (a language
    or a list coming in) detaches it)."""
    page.wait_for_selector(selector)
    page.evaluate("s => document.querySelector(s).scrollIntoView({block: 'center'})", selector)


def shots(page: Page, name: str) -> None:
    """The page at a laptop's size and, whole, at a phone's: ``SCREENSHOTS/name-laptop.png`` and ``-phone.png``; at
    neither size may it be wider than the screen."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"), full_page=size == "phone")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{name}: {wide} px wide on a {size} {viewport['width']} px wide"
    page.set_viewport_size(LAPTOP)


CHECK_BOXES = """() => [...document.querySelectorAll("input[type=checkbox]")].filter((box) => box.offsetParent)
.map((box) => {
  const label = document.querySelector(`label[for="${box.id}"]`);
  const words = document.createRange();
  words.selectNodeContents(label);
  const line = words.getClientRects()[0];  // the label's first line of text
  const b = box.getBoundingClientRect();
  const row = box.parentElement.getBoundingClientRect();
  return { id: box.id, box: [b.left, b.right, b.top, b.bottom], line: [line.left, line.top, line.bottom],
           row: row.left };
})"""
"""Each checkbox shown: its box, its label's first line of text and the left edge of its row."""


def check_boxes_lead(page: Page) -> list[str]:
    """Every checkbox shown on ``page`` as people expect it: the box first, at the start of its row (aligned with
    the fields above it), then its label beside it, the box level with the label's first line. Answers the
    checkboxes' ids (a test says which it expects)."""
    boxes = page.evaluate(CHECK_BOXES)
    for found in boxes:
        (left, right, top, bottom), (text, line_top, line_bottom), row = found["box"], found["line"], found["row"]
        where = f"{found['id']} on {page.url}: {found}"
        assert abs(left - row) <= 1, f"the box does not start its row: {where}"
        assert right <= text <= right + 16, f"the label's words do not follow the box: {where}"
        middle = (line_top + line_bottom) / 2
        assert abs((top + bottom) / 2 - middle) <= 2, f"the box is not level with the words: {where}"
    return [found["id"] for found in boxes]


def gaps_between(page: Page, selector: str) -> list[int]:
    """The vertical space between each element ``selector`` finds and the next (in px, rounded): in a column of
    cards, each should stand as far from the next."""
    spans = page.eval_on_selector_all(selector, "els => els.map(e => e.getBoundingClientRect())"
                                      ".map(r => [r.top, r.bottom])")
    return [round(top - bottom) for (_, bottom), (top, _) in itertools.pairwise(spans)]
