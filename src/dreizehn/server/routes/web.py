"""The browser app (docs/web.md): its static files under ``/static``, its one page (``index.html``) on every path the
app routes itself (``/``, ``/new/{game}``, ``/play/{token}``, ``/watch/{table}/{token}``, ``/watch/{table}``,
``/tables``, ``/games/{id}/rules``, ``/replay/{table}``, ``/learn/{game}``, ``/learn/{game}/{token}``, ``/daily``,
``/leaderboard``, ``/leaderboard/{game}``, ``/lobby``, and the accounts' pages: ``/signup``, ``/signin``, ``/forgot``,
``/reset/{token}``, ``/verify/{token}``, ``/me``, ``/me/friends``, ``/me/settings``, ``/players/{name}``,
``/seat/{table}/{seat}``), and one
small helper the page asks for: the best arrangement of a hand in a game that has one (``arranges`` in
``/api/games``; Three Thirteen's melds), from the person's own view, which touches no table.

Included after the API routers, so ``/api`` and ``/ws`` win. An address nobody serves answers a browser asking for a
page with the app's page and 404 (:func:`http_error`): the app shows its own "not found" view, in the person's
language, with the way back; any other client gets the API's refusal (``server.not_found``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from dreizehn.core.registry import game_class, game_ids
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import LangDep, refused

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
"""The static folder of the browser app (packaged with the wheel)."""

router = APIRouter(tags=["web"], include_in_schema=False)
_PAGE_HEADERS = {"Cache-Control": "no-cache"}
"""The page and its modules are revalidated on every load (ETag), so a new version is seen at once."""


class ArrangeView(BaseModel):
    """The seat's own view in its wire form (docs/wire.md): what the game reads of it to arrange its hand (its player
    count, options and hand, and its own fields: Three Thirteen's ``wild_rank``)."""

    model_config = ConfigDict(extra="allow")
    players: int = Field(ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict)
    hand: list[str] = Field(max_length=64)


class ArrangeIn(BaseModel):
    """A game and the view of the hand to arrange."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    view: ArrangeView


def _page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html", headers=_PAGE_HEADERS)


@router.post("/api/web/arrange")
def best_arrangement(body: ArrangeIn, lang: LangDep) -> dict[str, Any]:
    """The best arrangement of the view's hand by its game's rules (:meth:`~dreizehn.core.game.Game.arrange_hand`):
    its groups (``melds``), the cards left out (``deadwood``) and the ``penalty``. A game without one is refused
    (``server.no_arrangement``, 404)."""
    cls = game_class(body.game)
    if not cls.arranges:
        raise ServerError("server.no_arrangement", status=404, rule="A7", game=body.game)
    view = body.view
    game = cls(view.players, view.options)
    hand = [int(game.parse_card(text)) for text in view.hand]
    found = game.arrange_hand(hand, {**(view.model_extra or {}), "players": view.players, "options": game.options})
    text = game.card_type.of
    return {"melds": [[text(k).text for k in group] for group in found.groups],
            "deadwood": [text(k).text for k in found.rest], "penalty": found.penalty}


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
def static_file(path: str) -> FileResponse:
    """A file of the app's static folder (never outside it); 404 for any other path, one the file system cannot
    name too (a NUL byte, a name too long: issue 43 item 7)."""
    target = _static(path)
    if target is None:
        raise HTTPException(404)
    return FileResponse(target, headers=_PAGE_HEADERS)


def _static(path: str) -> Path | None:
    """The file of the static folder at ``path``; ``None`` when there is none (or none can be named so)."""
    if "\x00" in path:
        return None
    try:
        target = (WEB_DIR / path).resolve()
        return target if WEB_DIR in target.parents and target.is_file() else None
    except (OSError, ValueError):  # a name too long, or one the file system takes for none
        return None


@router.api_route("/favicon.ico", methods=["GET", "HEAD"])
def favicon() -> FileResponse:
    return FileResponse(WEB_DIR / "img" / "icon.svg", media_type="image/svg+xml", headers=_PAGE_HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
@router.api_route("/tables", methods=["GET", "HEAD"])
@router.api_route("/daily", methods=["GET", "HEAD"])
@router.api_route("/leaderboard", methods=["GET", "HEAD"])
@router.api_route("/lobby", methods=["GET", "HEAD"])
@router.api_route("/play/{token}", methods=["GET", "HEAD"])
@router.api_route("/watch/{table}/{token}", methods=["GET", "HEAD"])
@router.api_route("/watch/{table}", methods=["GET", "HEAD"])
@router.api_route("/replay/{table}", methods=["GET", "HEAD"])
@router.api_route("/seat/{table}/{seat}", methods=["GET", "HEAD"])
@router.api_route("/learn/{game}/{token}", methods=["GET", "HEAD"])
@router.api_route("/signup", methods=["GET", "HEAD"])
@router.api_route("/signin", methods=["GET", "HEAD"])
@router.api_route("/forgot", methods=["GET", "HEAD"])
@router.api_route("/me", methods=["GET", "HEAD"])
@router.api_route("/me/friends", methods=["GET", "HEAD"])
@router.api_route("/me/settings", methods=["GET", "HEAD"])
@router.api_route("/players/{name}", methods=["GET", "HEAD"])
@router.api_route("/seat/{table}/{seat}", methods=["GET", "HEAD"])
def page() -> FileResponse:
    """The app's one page; the app routes by the path itself."""
    return _page()


@router.api_route("/reset/{token}", methods=["GET", "HEAD"])
@router.api_route("/verify/{token}", methods=["GET", "HEAD"])
def mail_link_page() -> FileResponse:
    """The page of a mailed link (a new password, an address proved): the app's page, which names its link's token
    to nobody else (no ``Referer``)."""
    return FileResponse(WEB_DIR / "index.html", media_type="text/html",
                        headers={**_PAGE_HEADERS, "Referrer-Policy": "no-referrer"})


@router.api_route("/new/{game}", methods=["GET", "HEAD"])
@router.api_route("/games/{game}/rules", methods=["GET", "HEAD"])
@router.api_route("/learn/{game}", methods=["GET", "HEAD"])
@router.api_route("/leaderboard/{game}", methods=["GET", "HEAD"])
def game_page(game: str) -> FileResponse:
    """The app's page of a game the server offers; a game it does not offer (``/new/chess``) is not found (404: a
    browser gets the app's page with the status, saying so and leading back)."""
    if game not in game_ids():
        raise HTTPException(404)
    return _page()


NOT_PAGES = ("/api", "/ws", "/static", "/health", "/metrics", "/favicon.ico")
"""Paths that are never the app's pages: an unknown one of them answers as any API does (JSON)."""


def _wants_page(request: Request) -> bool:
    path = request.url.path
    return (request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")
            and not any(path == p or path.startswith(p + "/") for p in NOT_PAGES))


async def http_error(request: Request, exc: Exception) -> Response:
    """An error the framework raises, answered as every refusal of the API is, ``{"detail": Refusal}`` in the
    reader's language (issue 43 item 8): an address nobody serves (404 ``server.not_found``; but a browser asking
    for a page, ``Accept: text/html`` and not under :data:`NOT_PAGES`, gets the app's page with the status 404,
    whose router shows the "not found" view in the person's language and the way back), a method the address does
    not take (405 ``server.bad_method``, with ``Allow``), and a body that could not be read at all (FastAPI's 400:
    JSON nested too deep, text that is no UTF-8, a broken form) as the body that is no JSON it is (422
    ``server.bad_request``)."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and _wants_page(request):
        return FileResponse(WEB_DIR / "index.html", status_code=404, media_type="text/html", headers=_PAGE_HEADERS)
    if exc.status_code == 404:
        err = ServerError("server.not_found", status=404, rule="S6")
    elif exc.status_code == 405:
        err = ServerError("server.bad_method", status=405, rule="S6", method=request.method[:10])
    else:
        err = ServerError("server.bad_request", status=422, rule="S6", field="body", problem="json_invalid")
    answer = await refused(request, err)
    answer.headers.update(exc.headers or {})
    return answer
