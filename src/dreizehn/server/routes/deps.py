"""Typed dependencies of the routes: the hub, the settings, the language of a request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Query, Request

from dreizehn.core.errors import DreizehnError
from dreizehn.core.language import pick_language
from dreizehn.server.rooms import Hub
from dreizehn.server.settings import Settings
from dreizehn.words import words


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_lang(request: Request, lang: Annotated[str | None, Query(max_length=8)] = None) -> str:
    """The language asked for (``?lang=``), else the browser's first one (Accept-Language), else English."""
    if lang:
        try:
            return pick_language(lang)
        except DreizehnError as err:
            raise HTTPException(422, detail=refusal(err, "en")) from None
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in ("en", "de", "nl"):
            return code
    return "en"


def refusal(err: DreizehnError, lang: str) -> dict[str, object]:
    """An error as the API answers it: code, rule, parameters and the message in the language asked for."""
    return {**err.to_json(), "message": words(lang).error(err)}


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LangDep = Annotated[str, Depends(get_lang)]
