"""``/api/games``: the games, their options and rules, in the language asked for; ``/api/words``: the catalogues."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from dreizehn.bots.levels import game_levels
from dreizehn.bots.offered import offered_levels
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import Game
from dreizehn.core.language import pick_language
from dreizehn.core.registry import game_class, game_ids
from dreizehn.play.tutorial import tutorial_path
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import LangDep
from dreizehn.server.routes.web import WEB_DIR
from dreizehn.server.schemas import CardFace, GameOut, OptionOut
from dreizehn.words import words

router = APIRouter(prefix="/api/games", tags=["games"])
PICTURE = "picture.svg"
"""The name of the picture a game may bring in its own folder (docs/adding-a-game.md)."""
words_router = APIRouter(prefix="/api/words", tags=["words"])


@functools.cache
def describe(cls: type[Game], lang: str) -> GameOut:
    """A game with its words and the facts every interface draws it by (made once per game and language)."""
    w = words(lang)
    gid = cls.id
    options = []
    for spec in cls.option_specs:
        key = f"{gid}.option.{spec.name}"
        options.append(OptionOut(
            name=spec.name, label=w(key), help=w(f"{key}.help"), kind=spec.kind, default=spec.default,
            choices=[{"value": c, "label": w(f"{key}.{c}")} for c in spec.choices],
            low=spec.low if spec.kind == "int" else None, high=spec.high if spec.kind == "int" else None,
            rule=spec.rule,
        ))
    sample = cls(cls.min_players)
    faces = {card.text: CardFace(**sample.card_face(w, card)) for card in cls.card_type.all()}
    return GameOut(
        id=gid, title=w(f"{gid}.title"), description=w(f"{gid}.description"), rules=w(f"{gid}.rules"),
        min_players=cls.min_players, max_players=cls.max_players, options=options, levels=list(game_levels(gid)),
        levels_by_players={n: list(offered_levels(cls(n))) for n in range(cls.min_players, cls.max_players + 1)},
        high_score_wins=cls.high_score_wins, stage_name=cls.stage_name, faces=faces,
        drawing=(WEB_DIR / "games" / f"{gid}.js").is_file(), arranges=cls.arranges,
        tutorial=tutorial_path(gid).is_file(), picture=picture(cls),
    )


def picture(cls: type[Game]) -> str:
    """The address of the game's picture: the browser app's (``web/img/<id>.svg``), else the one in the game's own
    folder (``picture.svg``, served by :func:`folder_picture`), else the picture of a game in general."""
    if (WEB_DIR / "img" / f"{cls.id}.svg").is_file():
        return f"/static/img/{cls.id}.svg"
    if (cls.folder() / PICTURE).is_file():
        return f"/api/games/{cls.id}/{PICTURE}"
    return "/static/img/game.svg"


@router.get("")
def list_games(lang: LangDep) -> list[GameOut]:
    """Every game, with its options and rules summary."""
    return [describe(game_class(gid), lang) for gid in game_ids()]


@router.get(f"/{{game}}/{PICTURE}", response_class=FileResponse,
            responses={200: {"content": {"image/svg+xml": {}}, "description": "The picture (SVG)."}})
def folder_picture(game: str) -> FileResponse:
    """The picture a game brings in its own folder (``picture.svg``, docs/adding-a-game.md), as SVG; 404
    ``server.not_found`` for a game without one."""
    if game not in game_ids() or not (path := game_class(game).folder() / PICTURE).is_file():
        raise HTTPException(404)
    return FileResponse(path, media_type="image/svg+xml")


@words_router.get("/{lang}")
def get_words(lang: str) -> dict[str, Any]:
    """Every template of a language (``en``, ``de``, ``nl``): key -> template or plural forms, for clients that say
    events, errors and their own labels themselves (docs/words.md)."""
    try:
        code = pick_language(lang)
    except DreizehnError as err:  # a language not spoken is no page of this API: 404, with the same refusal
        raise ServerError("words.language", status=404, rule="C7", **err.params) from None
    return {"lang": code, "templates": words(code).catalogue()}
