"""Accounts in the browser (issue 45, docs/web.md "Accounts"): signing up, in and out (everywhere too), a refusal
said in the person's language, changing the password, deleting the account; the settings kept on the server and
applied on another device; a guest's seats kept at sign-up; two accounts and a guest at one table from sign-up to the
end of the game and each home page; and the screenshots of the account pages (laptop and phone, en/de/nl).

The account pages talk to routes that other parts of issue 45 bring (the home's ``/api/me``, friends, settings,
tokens, mail, the seats bound to accounts). Where the server does not serve one yet, a test that only needs the page
to load answers it with the contract's stand-in (accounts_kit.py), and a test that needs the real route is skipped,
saying which.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .accounts_kit import PASSWORD, sign_in, sign_up, stand_in
from .kit import (
    PHONE,
    SCREENSHOTS,
    Server,
    Watched,
    check_boxes_lead,
    dismiss,
    gaps_between,
    invitation,
    new_context,
    play_out,
    scroll_to,
    shoot,
    start_server,
    watch,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The module's server: every person here signs up and in from 127.0.0.1, so the limits per address are those
    of many people (the limits themselves are the server tests')."""
    with start_server(tmp_path_factory.mktemp("data"), SIGNUP_LIMIT_ADDRESS="1000 per hour",
                      SIGNIN_LIMIT_ADDRESS="1000 per 15 minutes") as running:
        yield running


LOAD_ERROR = re.compile(r"^Failed to load resource: the server responded with a status of (401|403) ")


def _words(server: Server, lang: str) -> dict[str, str]:
    templates: dict[str, str] = httpx2.get(f"{server.url}/api/words/{lang}").json()["templates"]
    return templates


def _refusal(server: Server, lang: str, path: str, body: dict[str, str]) -> str:
    """The message the server refuses ``body`` at ``path`` with, in ``lang`` (what the page must show)."""
    answer = httpx2.post(f"{server.url}{path}?lang={lang}", json=body)
    assert answer.status_code >= 400, answer.text
    message: str = answer.json()["detail"]["message"]
    return message


def _refusal_to(server: Server, name: str, password: str, method: str, path: str, body: dict[str, str],
                lang: str = "en") -> str:
    """The message the server refuses a signed-in request with, in ``lang`` (signed in as ``name`` on a client of
    its own)."""
    with httpx2.Client(base_url=server.url) as client:
        csrf = client.post("/api/session", json={"name": name, "password": password}).json()["csrf"]
        answer = client.request(method, f"{path}?lang={lang}", json=body, headers={"X-CSRF-Token": csrf})
        assert answer.status_code >= 400, answer.text
        message: str = answer.json()["detail"]["message"]
        return message


def _refused_loads(person: Watched, count: int) -> None:
    """The browser logs each refused request (401, 403) in its console: those the test caused are taken away, and
    nothing else may be there."""
    assert len(person.errors) == count and all(LOAD_ERROR.match(e) for e in person.errors), person.errors
    person.errors.clear()


def _person(browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched], name: str,
            lang: str = "en", phone: bool = False) -> Watched:
    context = new_context(browser, contexts, server, lang, phone=phone)
    return watch(watched, context, name)


def test_sign_up_out_and_in_again(browser: Browser, contexts: list[BrowserContext], server: Server,
                                  watched: list[Watched]) -> None:
    words = _words(server, "en")
    anna = _person(browser, contexts, server, watched, "Anna_up")
    page = anna.page
    page.goto("/tables")
    expect(page.locator("#account")).to_have_text(words["web.account.sign_in"])  # a guest is offered to sign in
    page.click("#account")
    page.wait_for_url("**/signin?next=%2Ftables")
    page.click(f"text={words['web.account.sign_up']}")
    page.wait_for_url("**/signup?next=%2Ftables")
    page.fill("#signup-name", "Anna_up")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_url("**/tables")  # back where "Sign in" was clicked
    expect(page.locator("#account")).to_have_text(re.compile("Anna_up"))
    page.click("#account")
    expect(page.locator("h1")).to_have_text(words["web.me.hello"].format(name="Anna_up"))
    page.reload()  # the session is the cookie's: a reload is still Anna
    expect(page.locator("#account")).to_have_text(re.compile("Anna_up"))
    page.click("#sign-out")  # DELETE /api/session with its CSRF token (without it, the server refuses)
    expect(page.locator("#account")).to_have_text(words["web.account.sign_in"])
    page.goto("/seat/t-any/1")  # a seat by session: a guest is asked to sign in first, and comes back to it
    expect(page.locator("h1")).to_have_text(words["web.account.your_seat"])
    assert page.get_attribute(".sign-first a.primary", "href") == "/signin?next=%2Fseat%2Ft-any%2F1"
    page.goto("/me")  # a guest's /me asks to sign in, and comes back here after
    page.click(".sign-first a.primary")
    page.fill("#signin-name", "anna_up")  # any case
    page.fill("#signin-password", "not the password")
    page.click("#signin button[type=submit]")
    expect(page.locator("#signin-error")).to_have_text(
        _refusal(server, "en", "/api/session", {"name": "anna_up", "password": "not the password"}))
    _refused_loads(anna, 1)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin button[type=submit]")
    page.wait_for_url("**/me")
    expect(page.locator("#account")).to_have_text(re.compile("Anna_up"))


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_a_refusal_is_said_in_the_persons_language(lang: str, browser: Browser, contexts: list[BrowserContext],
                                                   server: Server, watched: list[Watched]) -> None:
    httpx2.post(f"{server.url}/api/accounts", json={"name": f"Taken_{lang}", "password": PASSWORD})
    person = _person(browser, contexts, server, watched, "x", lang)
    page = person.page
    page.goto("/signup")
    expect(page.locator("h1")).to_have_text(_words(server, lang)["web.account.sign_up"])
    page.fill("#signup-name", f"taken_{lang}")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    said = _refusal(server, lang, "/api/accounts", {"name": f"taken_{lang}", "password": PASSWORD})
    expect(page.locator("#signup-error")).to_have_text(said)
    assert f"taken_{lang}" in said or f"Taken_{lang}" in said
    person.errors[:] = [e for e in person.errors if "status of 409" not in e]  # the refused sign-up, logged


def test_change_the_password_and_delete_the_account(browser: Browser, contexts: list[BrowserContext], server: Server,
                                                    watched: list[Watched]) -> None:
    words = _words(server, "en")
    bea = _person(browser, contexts, server, watched, "Bea_pw")
    page = bea.page
    sign_up(page, "Bea_pw")
    page.click("#me-settings")
    page.wait_for_selector("#password")
    new = "a new horse battery"
    page.fill("#old-password", "wrong wrong wrong")
    page.fill("#new-password", new)
    page.click("#password button[type=submit]")
    wrong = {"password": "wrong wrong wrong", "new_password": new}
    expect(page.locator("#password-error")).to_have_text(
        _refusal_to(server, "Bea_pw", PASSWORD, "PUT", "/api/account/password", wrong))
    _refused_loads(bea, 1)
    page.fill("#old-password", PASSWORD)
    page.click("#password button[type=submit]")
    expect(page.locator("#password-status")).to_have_text(words["web.settings.password_changed"])
    page.goto("/me")
    page.click("#sign-out")
    expect(page.locator("#account")).to_have_text(words["web.account.sign_in"])
    sign_in(page, "Bea_pw", new)
    page.goto("/me/settings")
    page.fill("#delete-password", PASSWORD)  # the old one
    page.click("#delete button[type=submit]")
    expect(page.locator("#delete-error")).to_have_text(_refusal_to(
        server, "Bea_pw", new, "DELETE", "/api/account", {"password": PASSWORD}))
    _refused_loads(bea, 1)
    page.fill("#delete-password", new)
    page.click("#delete button[type=submit]")
    expect(page.locator("#deleted h1")).to_have_text(words["web.settings.deleted"])
    expect(page.locator("#account")).to_have_text(words["web.account.sign_in"])
    assert httpx2.post(f"{server.url}/api/session", json={"name": "Bea_pw", "password": new}).status_code == 401


def test_sign_out_everywhere(browser: Browser, contexts: list[BrowserContext], server: Server,
                             watched: list[Watched]) -> None:
    words = _words(server, "en")
    laptop = _person(browser, contexts, server, watched, "Cleo_all")
    phone = _person(browser, contexts, server, watched, "Cleo_all", phone=True)
    sign_up(laptop.page, "Cleo_all")
    sign_in(phone.page, "Cleo_all")
    laptop.page.goto("/me/settings")
    # every part has asked the server: a part's request still on its way when the sessions end would be refused
    expect(laptop.page.locator(".settings-grid:not([aria-busy])")).to_be_visible()
    laptop.page.click("#everywhere button[type=submit]")
    expect(laptop.page.locator("#account")).to_have_text(words["web.account.sign_in"])
    phone.page.reload()  # its session ended too: the server says so once, and the phone is a guest's again
    expect(phone.page.locator("#account")).to_have_text(words["web.account.sign_in"])
    _refused_loads(phone, 1)
    phone.page.goto("/")
    expect(phone.page.locator("#account")).to_have_text(words["web.account.sign_in"])


def test_settings_are_kept_on_the_server_and_applied_on_another_device(
        browser: Browser, contexts: list[BrowserContext], server: Server, watched: list[Watched]) -> None:
    laptop = _person(browser, contexts, server, watched, "Dirk_set")
    sign_up(laptop.page, "Dirk_set")
    laptop.page.goto("/me/settings")
    laptop.page.select_option("#set-language", "nl")
    laptop.page.check("#set-motion")
    laptop.page.uncheck("#set-sound")
    laptop.page.select_option("#set-bot-level", "hard")
    laptop.page.click("#preferences button[type=submit]")
    expect(laptop.page.locator("h1")).to_have_text(_words(server, "nl")["web.account.settings"])
    phone = _person(browser, contexts, server, watched, "Dirk_set", "en", phone=True)
    sign_in(phone.page, "Dirk_set")
    phone.page.goto("/new/knizia13")
    phone.page.select_option("#players", "3")
    assert phone.page.evaluate("document.documentElement.lang") == "nl"
    assert phone.page.evaluate("document.documentElement.dataset.motion") == "reduce"
    assert phone.page.evaluate("localStorage.getItem('dreizehn.sound')") == "off"
    assert phone.page.input_value("#seat-2") == "hard"


def test_a_guests_seats_become_the_accounts(browser: Browser, contexts: list[BrowserContext], server: Server,
                                            watched: list[Watched]) -> None:
    guest = _person(browser, contexts, server, watched, "Emma_seat")
    page = guest.page
    page.goto("/new/knizia13")
    page.fill("#my-name", "Emma")
    page.select_option("#seat-1", "easy")
    page.click("#create")
    page.wait_for_selector(".table-page[data-version]")
    table = page.get_attribute(".table-page", "data-table")
    token = page.url.rsplit("/", 1)[1]
    sent: list[dict[str, object]] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}")) if r.url.split("?")[0].endswith(
        "/api/accounts") else None)
    page.goto("/signup")
    expect(page.locator("#seats-note")).to_be_visible()
    sign_up(page, "Emma_seat")
    assert sent and sent[0]["seats"] == [token]
    mine = page.locator(f"#playing li[data-table='{table}']")
    expect(mine).to_be_visible()
    mine.locator("a").click()
    page.wait_for_url(f"**/seat/{table}/0")
    page.wait_for_selector(".table-page[data-seat='0']")


def _join(page: Page, url: str, name: str) -> None:
    """Open an invitation and take the seat (a guest gives a name; a signed-in person may be asked for none)."""
    page.goto(url)
    page.wait_for_selector(".table-page[data-version]")
    if page.locator("#join-name").count():
        page.fill("#join-name", name)
        page.click("form.dialog button[type=submit]")
        page.wait_for_selector("#join-name", state="detached")


def test_two_accounts_and_a_guest_from_sign_up_to_each_home(browser: Browser, contexts: list[BrowserContext],
                                                             server: Server, watched: list[Watched]) -> None:
    anna = _person(browser, contexts, server, watched, "Anna_all")
    bruno = _person(browser, contexts, server, watched, "Bruno_all", "de", phone=True)
    carl = _person(browser, contexts, server, watched, "Carl", "nl")
    sign_up(anna.page, "Anna_all")
    sign_up(bruno.page, "Bruno_all")
    anna.page.goto("/new/holzwurm")
    anna.page.select_option("#players", "3")
    for seat, kind in ((1, "friend"), (2, "friend")):
        anna.page.select_option(f"#seat-{seat}", kind)
    anna.page.fill("#option-games", "1")
    anna.page.click("#create")
    anna.page.wait_for_selector(".table-page[data-version]")
    table = anna.page.get_attribute(".table-page", "data-table")
    _join(bruno.page, invitation(anna.page, 1), "Bruno_all")
    _join(carl.page, invitation(anna.page, 2), "Carl")
    pages = [anna.page, bruno.page, carl.page]
    assert play_out(pages) > 8
    dismiss(anna.page)
    for person in (anna, bruno):  # each home lists the game finished, linked to its replay
        person.page.goto("/me")
        done = person.page.locator(f"#finished li[data-table='{table}']")
        expect(done).to_be_visible()
        assert done.locator("a").get_attribute("href") == f"/replay/{table}"
    bruno.page.goto("/players/Anna_all")  # Anna's profile: the game among her last, the public part only
    expect(bruno.page.locator(f"#finished li[data-table='{table}']")).to_be_visible()
    carl.page.goto("/players/Bruno_all")  # a guest sees a profile too
    expect(carl.page.locator("h1")).to_have_text("Bruno_all")


PAGES = ("signup", "signin", "me", "profile", "friends", "settings")


def _shoot(page: Page, name: str) -> None:
    shoot(page, "accounts", name)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_screenshots_of_the_account_pages(lang: str, browser: Browser, contexts: list[BrowserContext], server: Server,
                                          watched: list[Watched]) -> None:
    """Each account page at a laptop's and a phone's size, with fixed games, friends and a token (the contract's
    stand-ins, whatever the server serves), looked at as a player would; nothing wider than the screen."""
    words = _words(server, lang)
    name = f"Anna_{lang}"
    httpx2.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD})
    for size in ("laptop", "phone"):
        context = new_context(browser, contexts, server, lang, phone=size == "phone")
        stand = stand_in(context, {"me", "players", "ratings", "friends", "settings", "tokens", "mail"},
                         lambda: name)
        stand.friends.update({"friends": ["Bruno", "Clara"], "asking": ["Dora"], "asked": ["Emil"],
                              "blocked": ["Troll42"]})
        stand.tokens.append({"id": "k0", "label": "my bot", "created_at": "2026-11-20T10:00:00Z",
                             "used_at": "2026-11-27T22:10:00Z"})
        page = watch(watched, context, f"{lang}-{size}").page
        page.goto("/signup")
        expect(page.locator("h1")).to_have_text(words["web.account.sign_up"])
        _shoot(page, f"signup-{lang}-{size}")
        page.goto("/signin")
        page.wait_for_selector("#signin")
        _shoot(page, f"signin-{lang}-{size}")
        sign_in(page, name)
        for shot, path, ready in (("me", "/me", "#friends-list"), ("profile", "/players/Bruno", "#stats"),
                                  ("friends", "/me/friends", "#friends-list"),
                                  ("settings", "/me/settings", "#token-list")):
            page.goto(path)
            page.wait_for_selector(ready)
            expect(page.locator("body")).not_to_contain_text(re.compile(r"\b(web|account)\.[a-z_]+"))  # a key unsaid
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= (PHONE["width"] if size == "phone" else 1280), (shot, size, width)
            if shot == "me":  # the head's buttons apart from the first card; on a phone, the cards evenly apart
                cards = ".me-main .panel" if size == "laptop" else ".me-grid .panel"  # the friends beside, or below
                gaps = gaps_between(page, f".me-head .buttons, {cards}")
                assert min(gaps) >= 8 and max(gaps[1:]) - min(gaps[1:]) <= 1, (size, gaps)
            if shot == "settings":  # its checkboxes as the new-table page's: the box first, its words beside it
                assert check_boxes_lead(page) == ["set-sound", "set-motion", "notify"]
            _shoot(page, f"{shot}-{lang}-{size}")


def test_a_friend_invited_by_user_name(browser: Browser, contexts: list[BrowserContext], server: Server,
                                       watched: list[Watched]) -> None:
    """A signed-in person may invite a friend to a seat by user name: the name is asked for (the page says so when
    it is missing); the table's invitation names the friend, not the seat ("Einladung für Gus_friend", not "… Platz
    2"), the one seat nobody is named for yet is "the invitation", never a number; the friend finds the table on
    their home and takes the seat by their session."""
    words = _words(server, "en")
    httpx2.post(f"{server.url}/api/accounts", json={"name": "Gus_friend", "password": PASSWORD})
    fay = _person(browser, contexts, server, watched, "Fay_host")
    sign_up(fay.page, "Fay_host")
    page = fay.page
    page.goto("/new/knizia13")
    page.select_option("#players", "4")
    page.select_option("#seat-1", "user")
    page.select_option("#seat-2", "friend")
    page.select_option("#seat-3", "easy")
    page.click("#create")
    expect(page.locator(".create .error")).to_have_text(words["web.user_needed"].format(n=2))
    expect(page.locator("#seat-user-1")).to_be_focused()
    page.fill("#seat-user-1", "Gus_friend")
    page.click("#create")
    page.wait_for_selector(".table-page[data-version]")
    table = page.get_attribute(".table-page", "data-table")
    for lang in ("en", "de", "nl"):
        page.select_option("#lang", lang)
        said = _words(server, lang)
        expect(page.locator("label[for=invite-1]")).to_have_text(said["web.invite_for"].format(name="Gus_friend"))
        expect(page.locator("label[for=invite-2]")).to_have_text(said["web.invitation"])  # the one nobody named
    page.set_viewport_size(PHONE)  # the panel as the host reads it on a phone, in Dutch
    scroll_to(page, ".invites")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "invites-nl-phone.png"))
    gus = _person(browser, contexts, server, watched, "Gus_friend", "de")
    sign_in(gus.page, "Gus_friend")
    invited = gus.page.locator(f"#playing li[data-table='{table}']")
    expect(invited).to_be_visible()
    invited.locator("a").click()
    gus.page.wait_for_selector(".table-page[data-seat='1']")


def test_forgot_reset_and_verify_pages(browser: Browser, contexts: list[BrowserContext], server: Server,
                                       watched: list[Watched]) -> None:
    """The mail's pages as a person goes through them, against the contract's stand-ins (a server without mail):
    "Forgot your password?" says plainly that no mail is sent, asks for the link and says what comes; a reset link
    sets a new password and leads to signing in; a verify link says the address is proved."""
    words = _words(server, "de")
    context = new_context(browser, contexts, server, "de")
    stand = stand_in(context, {"mail", "reset", "verify"})
    person = watch(watched, context, "Hana")
    page = person.page
    page.goto("/signin")
    page.click("a.forgot")
    page.wait_for_url("**/forgot")
    expect(page.locator("#no-mail")).to_have_text(words["web.account.no_mail"])
    page.fill("#forgot-name", "hana@example.org")
    page.click("#forgot button[type=submit]")
    expect(page.locator("#forgot-status")).to_have_text(words["web.account.link_sent"])
    page.goto("/reset/tok-123")
    page.fill("#reset-password", "a brand new password")
    page.click("#reset button[type=submit]")
    expect(page.locator("h1")).to_have_text(words["web.account.reset_done"])
    page.goto("/verify/tok-456")
    expect(page.locator("#verified")).to_have_text(words["web.account.verified"])
    sent = [(method, path, body) for method, path, body, _ in stand.bodies if method == "POST"]
    assert sent == [("POST", "/api/account/reset", {"name": "hana@example.org"}),
                    ("POST", "/api/account/reset/confirm", {"token": "tok-123", "password": "a brand new password"}),
                    ("POST", "/api/account/verify", {"token": "tok-456"})]


def test_a_used_or_wrong_mail_link_is_refused_in_words(browser: Browser, contexts: list[BrowserContext],
                                                      server: Server, watched: list[Watched]) -> None:
    person = _person(browser, contexts, server, watched, "Ida", "nl")
    page = person.page
    page.goto("/verify/no-such-link")
    said = _refusal(server, "nl", "/api/account/verify", {"token": "no-such-link"})
    expect(page.locator(".sign .error")).to_have_text(said)
    page.goto("/reset/no-such-link")
    page.fill("#reset-password", "a brand new password")
    page.click("#reset button[type=submit]")
    body = {"token": "no-such-link", "password": "a brand new password"}
    said = _refusal(server, "nl", "/api/account/reset/confirm", body)
    expect(page.locator("#reset-error")).to_have_text(said)
    person.errors[:] = [e for e in person.errors if "Failed to load resource" not in e]  # the refused links, logged
