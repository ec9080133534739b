"""The browser app (docs/web.md): its static files under ``/static``, its one page (``index.html``) on every path the
app routes itself (``/``, ``/new/{game}``, ``/play/{token}``, ``/watch/{table}/{token}``, ``/tables``,
``/games/{id}/rules``, ``/replay/{table}``), and one small helper the page asks for: the best arrangement of a Three
Thirteen hand, from the person's own hand, which touches no table.

Included after the API routers, so ``/api`` and ``/ws`` win.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen.melds import arrange
from dreizehn.server.routes.deps import LangDep

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
"""The static folder of the browser app (packaged with the wheel)."""

router = APIRouter(tags=["web"], include_in_schema=False)
_PAGE_HEADERS = {"Cache-Control": "no-cache"}
"""The page and its modules are revalidated on every load (ETag), so a new version is seen at once."""


class ArrangeIn(BaseModel):
    """A Three Thirteen hand (card notation), the round's wild rank and the game's options."""

    model_config = ConfigDict(extra="forbid")
    hand: list[str] = Field(max_length=14)  # the largest hand of the game: 13 cards and the one drawn (T3, T6)
    wild_rank: int = Field(ge=3, le=13)
    options: dict[str, Any] = Field(default_factory=dict)


def _page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html", headers=_PAGE_HEADERS)


@router.post("/api/web/arrange")
def best_arrangement(body: ArrangeIn, lang: LangDep) -> dict[str, Any]:
    """The best arrangement of a Three Thirteen hand (T11): melds, unmatched cards and the penalty."""
    game = load_game("three-thirteen", 2, body.options)
    cards = [int(game.parse_card(text)) for text in body.hand]
    options = game.options
    found = arrange(cards, body.wild_rank, options.get("aces") == "low-or-high",
                    options.get("all_wild_melds") != "forbidden")
    text = game.card_type.of
    return {"melds": [[text(k).text for k in meld] for meld in found.melds],
            "deadwood": [text(k).text for k in found.deadwood], "penalty": found.penalty}


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
def static_file(path: str) -> FileResponse:
    """A file of the app's static folder (never outside it)."""
    target = (WEB_DIR / path).resolve()
    if not target.is_file() or WEB_DIR not in target.parents:
        raise HTTPException(404)
    return FileResponse(target, headers=_PAGE_HEADERS)


@router.api_route("/favicon.ico", methods=["GET", "HEAD"])
def favicon() -> FileResponse:
    return FileResponse(WEB_DIR / "img" / "icon.svg", media_type="image/svg+xml", headers=_PAGE_HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
@router.api_route("/tables", methods=["GET", "HEAD"])
@router.api_route("/new/{game}", methods=["GET", "HEAD"])
@router.api_route("/play/{token}", methods=["GET", "HEAD"])
@router.api_route("/watch/{table}/{token}", methods=["GET", "HEAD"])
@router.api_route("/games/{game}/rules", methods=["GET", "HEAD"])
@router.api_route("/replay/{table}", methods=["GET", "HEAD"])
def page() -> FileResponse:
    """The app's one page; the app routes by the path itself."""
    return _page()
