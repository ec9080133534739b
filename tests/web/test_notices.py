"""Issue 46 item 2 in the browser (docs/notices.md, rules N1, N3): the header's live count of the games waiting for
the signed-in person, on every page; a notification for a game that starts waiting while the tab is hidden, which
opens the seat when clicked; and the screenshots of the count (laptop and phone, en/de/nl) and of a notice's mail.

The turn-based tables and their clocks are written straight into the server's database, as the turn-based core
writes them; the browser's clock is Playwright's (a minute's poll is moved on, not waited for), its Notification a
stand-in that records what is shown."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, BrowserContext, Page, expect

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.notices.service import Notices
from dreizehn.server.notices.store import Recipient
from dreizehn.server.settings import Settings
from dreizehn.server.storage import make_engine, migrate, now, seats, tables
from dreizehn.server.turns.hooks import TurnClock
from dreizehn.words import words

from .accounts_kit import PASSWORD, sign_up
from .kit import PHONE, SCREENSHOTS, Server, Watched, keep_small, new_context, watch

FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden, configurable: true });
class FakeNotification {
  constructor(title, options) {
    this.title = title; this.body = options.body; this.tag = options.tag; window.__notes.push(this);
  }
  close() {}
}
FakeNotification.permission = "granted";
FakeNotification.requestPermission = async () => "granted";
window.Notification = FakeNotification;
"""
"""A stand-in for the browser's notifications (permission granted) and a tab that can be hidden."""


@pytest.fixture
def database(server: Server) -> Iterator[sa.Engine]:
    """The engine of the server process's database (SQLite in its data folder)."""
    engine = sa.create_engine(f"sqlite:///{server.data_dir / 'dreizehn.sqlite3'}")
    yield engine
    engine.dispose()


def turn_table(database: sa.Engine, players: list[str], to_move: int, game: str = "three-thirteen",
               left: dt.timedelta = dt.timedelta(hours=5)) -> TurnClock:
    """A turn-based table of the accounts named (``"bot:Name"``: a bot's seat), ``to_move`` to move: its seats and
    clock written into the server's database as the turn-based core writes them."""
    from dreizehn.server.turns.schema import turn_clocks

    table_id = "t" + secrets.token_hex(8)
    stamp = now()
    with database.begin() as c:
        ids = [None if who.startswith("bot:") else c.execute(
            sa.select(accounts.c.id).where(accounts.c.name == who)).scalar_one() for who in players]
        c.execute(tables.insert().values(id=table_id, game_id=game, players=len(players), options={}, seed=7,
                                         package_version="test", status="playing", spectator_hash="x" * 64,
                                         clock=0.0, created_at=stamp, rated=False, pace="turn-based",
                                         move_time=int(left.total_seconds()), on_timeout="move"))
        c.execute(seats.insert(), [{"table_id": table_id, "seat": i, "name": who.removeprefix("bot:"),
                                    "bot": "medium" if ids[i] is None else None, "token_hash": None,
                                    "joined": True, "account_id": ids[i]} for i, who in enumerate(players)])
        c.execute(turn_clocks.insert().values(table_id=table_id, seat=to_move, version=3, account_id=ids[to_move],
                                              started_at=stamp, due_at=stamp + left, remind_at=None))
    return TurnClock(table_id, game, to_move, 3, ids[to_move], stamp, stamp + left, None)


def _account(server: Server, name: str) -> None:
    answer = httpx2.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def test_n1_n3_the_header_counts_my_games_and_a_hidden_tab_is_notified_of_a_new_one(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched],
        database: sa.Engine) -> None:
    context = new_context(browser, contexts, server)
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = watch(watched, context, "anna").page
    page.clock.install()
    sign_up(page, "Anna_n")
    _account(server, "Bert_n")
    badge = page.locator("#waiting")
    expect(badge).to_be_hidden()
    first = turn_table(database, ["Anna_n", "Bert_n"], 0, left=dt.timedelta(hours=20))
    turn_table(database, ["Anna_n", "Bert_n"], 1)  # Bert's move: not counted for Anna
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the tab is shown again: asked anew
    expect(badge).to_have_text("1 game waits for you")
    page.goto("/me/settings")
    page.check("#notify")
    expect(badge).to_have_text("1 game waits for you")  # on every page
    assert page.evaluate("localStorage.getItem('dreizehn.notify')") == "on"
    page.evaluate("window.__hidden = true")
    second = turn_table(database, ["Bert_n", "bot:Clara", "Anna_n"], 2, game="holzwurm")
    page.clock.run_for(61_000)  # the minute's poll
    expect(badge).to_have_text("2 games wait for you")
    notes = page.evaluate("window.__notes.map((n) => [n.title, n.body, n.tag])")
    assert notes == [["Your turn: Der dreizehnte Holzwurm", "Bert_n and Clara wait for your move.",
                      f"dreizehn-{second.table_id}"]]
    page.evaluate("window.__notes[0].onclick()")
    page.wait_for_url(f"**/seat/{second.table_id}/2")
    badge.click()
    page.wait_for_url("**/me")
    assert first.table_id != second.table_id


def _shoot(page: Page, name: str, part: str | None = None) -> None:
    """A screenshot of the page (or of its element ``part``)."""
    folder = SCREENSHOTS / "notices"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    if part:
        page.locator(part).screenshot(path=str(path), animations="disabled")
    else:
        page.screenshot(path=str(path), animations="disabled")
    keep_small(path)


WORDS = {"en": "2 games wait for you", "de": "2 Partien warten auf dich", "nl": "2 spellen wachten op je"}


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_screenshots_of_the_waiting_count_and_a_notice_mail(
        lang: str, browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched],
        database: sa.Engine, tmp_path: Path) -> None:
    name = f"Anna_w{lang}"
    _account(server, name)
    _account(server, f"Bruno_{lang}")
    turn_table(database, [name, f"Bruno_{lang}", "bot:Clara"], 0, game="knizia13", left=dt.timedelta(hours=30))
    turn_table(database, [f"Bruno_{lang}", "bot:Clara", name], 2, game="holzwurm", left=dt.timedelta(hours=3))
    for size in ("laptop", "phone"):
        context = new_context(browser, contexts, server, lang, phone=size == "phone")
        page = watch(watched, context, f"{lang}-{size}").page
        page.goto("/signin")
        page.fill("#signin-name", name)
        page.fill("#signin-password", PASSWORD)
        page.click("#signin button[type=submit]")
        page.wait_for_url("**/me")
        expect(page.locator("#waiting")).to_have_text(WORDS[lang])
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= (PHONE["width"] if size == "phone" else 1280), (size, width)
        _shoot(page, f"waiting-{lang}-{size}")
        page.goto("/me/settings")
        expect(page.locator("#notice-mail")).to_be_visible()
        expect(page.locator("#settings-notices")).not_to_contain_text("web.notices")  # no key left unsaid
        _shoot(page, f"settings-{lang}-{size}", "#settings-notices")
    _shoot_mail(browser, contexts, server, lang, tmp_path)


def _shoot_mail(browser: Browser, contexts: list[BrowserContext], server: Server, lang: str, tmp_path: Path) -> None:
    """A turn's mail as the notices write it (headers and text), shown as plain text."""
    settings = Settings(_env_file=None, data_dir=tmp_path, smtp_host="localhost",  # type: ignore[call-arg]
                        public_url="https://dreizehn.example.org", smtp_from="dreizehn <dreizehn@example.org>")
    engine = make_engine(settings.database, settings.data_dir)
    migrate(engine)
    notices = Notices(engine, settings)
    start = dt.datetime(2026, 11, 28, 21, 0, tzinfo=dt.UTC)
    told = TurnClock("t8f3a2c41d09e7b65", "holzwurm", 2, 17, "acct", start, start + dt.timedelta(hours=30), None)
    person = Recipient("acct", "Anna", "anna@example.org", {"language": lang}, "each")
    raw = notices._turn_mail(person, lang, "turn", told, words(lang).join(["Bruno", "Clara"]), dt.timedelta(hours=30))
    engine.dispose()
    mail = email.message_from_string(raw, policy=email.policy.default)
    heads = "\n".join(f"{key}: {mail[key]}" for key in ("From", "To", "Subject", "List-Unsubscribe",
                                                       "List-Unsubscribe-Post"))
    body = mail.get_body(("plain",))
    assert body is not None
    context = new_context(browser, contexts, server, lang)
    page = context.new_page()
    page.set_viewport_size({"width": 900, "height": 560})
    page.set_content("<pre style='font: 15px/1.45 monospace; white-space: pre-wrap; margin: 16px'></pre>")
    page.locator("pre").evaluate("(el, text) => { el.textContent = text; }", heads + "\n\n" + body.get_content())
    _shoot(page, f"mail-{lang}")


def test_n6_a_mails_unsubscribe_link_stops_the_mails_only_when_its_button_is_pressed(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched],
        database: sa.Engine) -> None:
    from dreizehn.server.daily.schema import server_secrets
    from dreizehn.server.notices.schema import notice_prefs
    from dreizehn.server.notices.store import LINK_KEY_NAME, sign

    _account(server, "Anna_u")
    with database.begin() as c:
        account = c.execute(sa.select(accounts.c.id).where(accounts.c.name == "Anna_u")).scalar_one()
        key = bytes.fromhex(c.execute(sa.select(server_secrets.c.value)
                                      .where(server_secrets.c.name == LINK_KEY_NAME)).scalar_one())
        c.execute(notice_prefs.insert().values(account_id=account, mail="each"))

    def mail_choice() -> str | None:
        with database.connect() as c:
            found = c.execute(sa.select(notice_prefs.c.mail).where(notice_prefs.c.account_id == account)).scalar()
        return None if found is None else str(found)

    page = watch(watched, new_context(browser, contexts, server, "de"), "stranger").page  # not signed in
    page.goto(f"/unsubscribe/{sign(key, account)}")
    expect(page.locator("#unsubscribe")).to_contain_text("Die Mails abbestellen")
    assert mail_choice() == "each"  # the link followed changes nothing
    page.click("#unsubscribe button[type=submit]")
    expect(page.locator("#unsubscribe-done")).to_contain_text("keine Mails mehr")
    assert mail_choice() is None  # off
