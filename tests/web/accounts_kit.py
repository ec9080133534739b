"""Tools of the accounts' browser tests (tests/web/test_accounts.py): signing people up through the page, and
stand-ins for the routes of the accounts' contract (docs/server.md, Accounts) that a server does not serve (yet).

A stand-in answers only where the server answers an address with ``server.not_found`` (:func:`missing`): where the
server serves it, the page talks to the server itself. The screenshots show fixed games, friends and tokens
(``force``), the same on every run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2
from playwright.sync_api import BrowserContext, Page, Route

PASSWORD = "correct horse battery"

PROBES: dict[str, tuple[str, str]] = {
    "me": ("GET", "/api/me"),
    "friends": ("GET", "/api/me/friends"),
    "settings": ("GET", "/api/me/settings"),
    "tokens": ("GET", "/api/me/tokens"),
    "mail": ("GET", "/api/account/mail"),
    "players": ("GET", "/api/players/nobody-here"),
    "ratings": ("GET", "/api/ratings/nobody-here"),
    "reset": ("POST", "/api/account/reset"),
    "verify": ("POST", "/api/account/verify"),
}
"""A route of each part of the contract the account pages use, asked to find whether the server serves it."""


def missing(url: str) -> set[str]:
    """The parts of the contract (keys of :data:`PROBES`) the server at ``url`` does not serve: it answers their
    address with ``server.not_found``."""
    out = set()
    for part, (method, path) in PROBES.items():
        answer = httpx2.request(method, url + path, json={} if method == "POST" else None)
        if answer.status_code in (404, 405) and answer.json().get("detail", {}).get("code") in (
                "server.not_found", "server.bad_method"):
            out.add(part)
    return out


def _game(table: str, game: str, players: list[tuple[str, str | None]], **more: Any) -> dict[str, Any]:
    seats = [{"name": name, "account": None if bot else name, "bot": bot, "former": name == ""}
             for name, bot in players]
    return {"table": table, "game": game, "seat": 0, "players": seats, "status": "playing", "your_turn": False,
            "invited": False, "totals": None, "won": None, "created_at": "2026-11-27T18:20:00Z", "finished_at": None,
            "url": f"/seat/{table}/0", **more}


def me_data(name: str, friend: str = "Bruno") -> dict[str, Any]:
    """A home with two games in progress (one the person's turn), three finished and statistics (GET /api/me)."""
    finished = {"status": "finished", "url": "", "finished_at": "2026-11-26T21:05:00Z"}
    return {"name": name, "playing": [
        _game("t-holz1", "holzwurm", [(name, None), (friend, None), ("Clara", "medium")], your_turn=True),
        _game("t-three1", "three-thirteen", [(name, None), ("Dora", None)], created_at="2026-11-25T09:00:00Z"),
    ], "finished": [
        {**_game("t-k13a", "knizia13", [(name, None), (friend, None), ("Ada", "easy")]), **finished,
         "totals": [-4, -11, -23], "won": True, "url": "/replay/t-k13a"},
        {**_game("t-k13b", "knizia13", [(name, None), (friend, None)]), **finished, "totals": [-19, -6],
         "won": False, "url": "/replay/t-k13b", "finished_at": "2026-11-24T20:00:00Z"},
        {**_game("t-three0", "three-thirteen", [(name, None), ("", None), ("Ada", "hard")]), **finished,
         "totals": [38, 52, 61], "won": True, "url": "/replay/t-three0", "finished_at": "2026-11-20T19:30:00Z"},
    ], "stats": [
        {"game": "knizia13", "games": 12, "wins": 5, "average": -9.25, "best": -1, "left_to_bots": 1},
        {"game": "three-thirteen", "games": 4, "wins": 2, "average": 51.5, "best": 38, "left_to_bots": 0},
        {"game": "holzwurm", "games": 0, "wins": 0, "average": None, "best": None, "left_to_bots": 0},
    ]}


def player_data(name: str) -> dict[str, Any]:
    """A profile (GET /api/players/{name}): the public part only."""
    me = me_data(name, friend="Anna" if name != "Anna" else "Bruno")
    finished = [{k: v for k, v in g.items() if k not in ("seat", "your_turn", "invited", "won")}
                for g in me["finished"]]
    return {"name": name, "since": "2026-10-03", "stats": me["stats"], "finished": finished}


def ratings_data(name: str) -> dict[str, Any]:
    """A player's ratings (GET /api/ratings/{name}): 13 with its course over twelve rated games."""
    course = [1000, 1048, 1013, 1096, 1151, 1122, 1190, 1243, 1226, 1288, 1321, 1364]
    history = [{"at": f"2026-11-{10 + i:02d}T20:00:00Z", "rating": r, "place": 1 + i % 3} for i, r in enumerate(course)]
    return {"name": name, "ratings": [{"game": "knizia13", "rating": course[-1], "spread": 96, "games": len(course),
                                       "provisional": False}], "history": {"knizia13": history},
            "levels": {"knizia13": [{"level": level, "players": 3, "rating": rating, "spread": spread}
                                    for level, rating, spread in (("easy", 606, 328), ("medium", 935, 314),
                                                                  ("hard", 1228, 313), ("expert", 1355, 318),
                                                                  ("master", 1583, 337))]}}


@dataclass
class Stand:
    """What the stand-ins keep between requests: friends, settings, tokens; and each request's body they took."""

    friends: dict[str, list[str]] = field(default_factory=lambda: {
        "friends": [], "asked": [], "asking": [], "blocked": []})
    settings: dict[str, Any] = field(default_factory=lambda: {
        "language": None, "sound": True, "reduced_motion": False, "bot_level": "medium"})
    tokens: list[dict[str, Any]] = field(default_factory=list)
    bodies: list[tuple[str, str, Any, str | None]] = field(default_factory=list)
    """(method, path, body, the X-CSRF-Token header) of each request a stand-in answered."""

    def friend_lists(self) -> dict[str, list[dict[str, str]]]:
        return {k: [{"name": n} for n in v] for k, v in self.friends.items()}

    def ask(self, name: str) -> None:
        lists = self.friends
        if name in lists["asking"]:
            lists["asking"].remove(name)
            lists["friends"].append(name)
        elif name not in lists["friends"] and name not in lists["asked"]:
            lists["asked"].append(name)

    def drop(self, name: str, *parts: str) -> None:
        for part in parts:
            if name in self.friends[part]:
                self.friends[part].remove(name)


def _answer(route: Route, status: int, body: Any = None) -> None:
    route.fulfill(status=status, content_type="application/json", body="" if body is None else json.dumps(body))


def _handlers(stand: Stand, name: Callable[[], str]) -> dict[str, Callable[[str, str, Any], tuple[int, Any]]]:
    """The stand-ins of each part: (method, path, body) -> (status, answer)."""

    def friends(method: str, path: str, body: Any) -> tuple[int, Any]:
        who = path.rsplit("/", 1)[-1]
        if path.startswith("/api/me/blocks"):
            if method == "POST":
                stand.drop(body["name"], "friends", "asked", "asking")
                stand.friends["blocked"].append(body["name"])
            else:
                stand.drop(who, "blocked")
            return 204, None
        if method == "POST":
            stand.ask(body["name"])
            return 204, None
        if method == "DELETE":
            stand.drop(who, "friends", "asked", "asking")
            return 204, None
        return 200, stand.friend_lists()

    def settings(method: str, path: str, body: Any) -> tuple[int, Any]:
        if method == "PUT":
            stand.settings.update(body)
        return 200, stand.settings

    def tokens(method: str, path: str, body: Any) -> tuple[int, Any]:
        if method == "POST":
            made = {"id": f"k{len(stand.tokens) + 1}", "label": body["label"], "created_at": "2026-11-28T18:00:00Z",
                    "used_at": None}
            stand.tokens.append(made)
            return 201, {"id": made["id"], "label": made["label"], "token": f"dzt_{'x' * 40}{made['id']}"}
        if method == "DELETE":
            stand.tokens[:] = [t for t in stand.tokens if t["id"] != path.rsplit("/", 1)[-1]]
            return 204, None
        return 200, stand.tokens

    def mail(method: str, path: str, body: Any) -> tuple[int, Any]:
        return (202, None) if method == "POST" else (200, {"configured": False})

    return {
        "me": lambda method, path, body: (200, me_data(name())),
        "players": lambda method, path, body: (200, player_data(path.rsplit("/", 1)[-1])),
        "ratings": lambda method, path, body: (200, ratings_data(path.rsplit("/", 1)[-1])),
        "friends": friends, "settings": settings, "tokens": tokens, "mail": mail,
        "reset": lambda method, path, body: (202 if path.endswith("/reset") else 204, None),
        "verify": lambda method, path, body: (200, {}),
    }


PATTERNS: dict[str, str] = {
    "me": r"/api/me$", "players": r"/api/players/[^/]+$", "friends": r"/api/me/(friends|blocks)(/[^/]+)?$",
    "ratings": r"/api/ratings/[^/]+$",
    "settings": r"/api/me/settings$", "tokens": r"/api/me/tokens(/[^/]+)?$",
    "mail": r"/api/account/(mail|email)$", "reset": r"/api/account/reset(/confirm)?$",
    "verify": r"/api/account/verify$",
}


def _handle(stand: Stand, handler: Callable[[str, str, Any], tuple[int, Any]],
            pattern: re.Pattern[str]) -> Callable[[Route], None]:
    """A route handler that answers requests to ``pattern`` with ``handler``, and lets others go on."""

    def handle(route: Route) -> None:
        request = route.request
        path = "/" + request.url.split("://", 1)[1].split("/", 1)[1].split("?", 1)[0]
        if not pattern.search(path):
            route.fallback()
            return
        body = request.post_data_json if request.post_data else None
        stand.bodies.append((request.method, path, body, request.headers.get("x-csrf-token")))
        status, answer = handler(request.method, path, body)
        _answer(route, status, answer)

    return handle


def stand_in(context: BrowserContext, parts: set[str], name: Callable[[], str] = lambda: "Anna") -> Stand:
    """Answer the requests of ``parts`` of the contract for every page of ``context`` (``name``: the person the
    home is of)."""
    stand = Stand()
    handlers = _handlers(stand, name)
    for part in parts:
        handle = _handle(stand, handlers[part], re.compile(PATTERNS[part]))
        context.route(re.compile(r"/api/(me|players|account|ratings)\b"), handle)
    return stand


def sign_up(page: Page, name: str, password: str = PASSWORD, email: str = "") -> None:
    """Make an account through the sign-up page; the page then shows the home."""
    page.goto("/signup")
    page.fill("#signup-name", name)
    page.fill("#signup-password", password)
    if email:
        page.fill("#signup-email", email)
    page.click("#signup button[type=submit]")
    page.wait_for_url("**/me")
    page.wait_for_selector("#account .account-name")


def sign_in(page: Page, name: str, password: str = PASSWORD) -> None:
    page.goto("/signin")
    page.fill("#signin-name", name)
    page.fill("#signin-password", password)
    page.click("#signin button[type=submit]")
    page.wait_for_url("**/me")
