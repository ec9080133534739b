"""Typed dependencies of the routes: the hub, the settings, the language of a request, the accounts and who asks;
and the one answer of the HTTP API to a refusal (:func:`refused`, the application's handler of
:class:`~dreizehn.core.errors.DreizehnError`)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Annotated

from babel.core import negotiate_locale
from fastapi import Depends, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from dreizehn.core.errors import DreizehnError
from dreizehn.core.language import pick_language
from dreizehn.server.accounts.service import Accounts, bearer, cookie_name, csrf_of
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.accounts.tokens import PREFIX
from dreizehn.server.daily.service import Daily
from dreizehn.server.messages import refusal_fields
from dreizehn.server.refusals import ServerError, http_status
from dreizehn.server.rooms import Hub
from dreizehn.server.settings import Settings
from dreizehn.server.storage import DAILY_PREFIX
from dreizehn.words import LANGUAGES


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_server_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def accepted_languages(header: str) -> list[str]:
    """The language tags of an Accept-Language header, the most wanted first (by their weights, ``q``; in the
    header's order among equals), those it refuses (``q=0``) and the wildcard left out.

    >>> accepted_languages("en;q=0.1, de"), accepted_languages("nl-BE, fr;q=0.9, *;q=0.5, en;q=0")
    (['de', 'en'], ['nl-BE', 'fr'])
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            ranked.append((-weight, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def browser_language(header: str) -> str:
    """The language the project speaks that the browser wants most (Accept-Language, as Babel negotiates it:
    ``de-AT`` is German), else English.

    >>> browser_language("en;q=0.1, de"), browser_language("fr, nl-BE;q=0.8"), browser_language("fr")
    ('de', 'nl', 'en')
    """
    found = negotiate_locale(accepted_languages(header), list(LANGUAGES), sep="-")
    return found.lower() if found else "en"


def _browser_lang(request: Request) -> str:
    return browser_language(request.headers.get("accept-language", ""))


def get_lang(request: Request, lang: Annotated[str | None, Query(max_length=8)] = None) -> str:
    """The language asked for (``?lang=``), else the browser's first one (Accept-Language), else English; a language
    the project does not speak is refused (422)."""
    return pick_language(lang) if lang else _browser_lang(request)


def request_lang(request: Request) -> str:
    """The language of a request's answer, as :func:`get_lang` finds it; English for one it refuses."""
    try:
        return get_lang(request, request.query_params.get("lang"))
    except DreizehnError:
        return "en"


async def refused(request: Request, err: Exception) -> JSONResponse:
    """A refusal as the HTTP API answers it: the status the error names (422 by default) and
    ``{"detail": {"code", "rule", "params", "message"}}``, the message in the request's language."""
    assert isinstance(err, DreizehnError)
    answer = JSONResponse({"detail": refusal_fields(err, request_lang(request))}, status_code=http_status(err))
    for name, value in getattr(err, "headers", ()):
        answer.headers.append(name, value)
    return answer


async def bad_request(request: Request, err: Exception) -> JSONResponse:
    """A request FastAPI's validation refuses (a body, path or query parameter not of its type, bounds or fields) as
    the API's one refusal: 422, ``server.bad_request`` naming the field (``body.clock``, ``query.status``). The value
    given is not echoed (it may be what JSON cannot carry, as NaN)."""
    assert isinstance(err, RequestValidationError)
    errors = err.errors()
    loc = errors[0]["loc"] if errors else ()
    field = ".".join(str(part) for part in loc)[:60] or "body"
    problem = str(errors[0]["type"])[:40] if errors else "invalid"
    refusal_ = ServerError("server.bad_request", rule="S6", field=field, problem=problem)
    return JSONResponse({"detail": refusal_fields(refusal_, request_lang(request))}, status_code=422)


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_server_settings)]
LangDep = Annotated[str, Depends(get_lang)]



# -- who asks: a session's cookie (rules U3, U4) ---------------------------------------------------------------------
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def session_cookie(settings: Settings) -> str:
    """The session cookie's name (:func:`~dreizehn.server.accounts.service.cookie_name`)."""
    return cookie_name(settings)


def get_accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def same_origin(request: Request, settings: Settings) -> None:
    """Refuse (``account.csrf``, U4, 403) a request whose ``Origin`` header names another site than the server's
    own (or one of ``allowed_origins``). A request without the header (a script, not a browser) passes: it carries
    no one's cookie unless its author gave it."""
    origin = request.headers.get("origin")
    if origin is None:
        return
    host = request.headers.get("host", "")
    if origin.split("://", 1)[-1] != host and origin not in settings.allowed_origins:
        raise ServerError("account.csrf", rule="U4", status=403)


@dataclass(frozen=True)
class Who:
    """The account a request acts for, and its session id (from the cookie; ``""`` for a personal API token,
    ``token`` then true)."""

    account: AccountRow
    session: str
    token: bool = False


async def get_who(request: Request, settings: SettingsDep) -> Who | None:
    """The account a request acts for, or ``None`` (a guest; a cookie of a session that ended counts for nothing).

    A personal API token (``Authorization: Bearer dzt_…``, U9) acts as its account, with no CSRF token (no browser
    sends it of its own: no other site can make one send it); one that is no account's is refused
    (``account.bad_token``, 401). Another bearer value (the operators' token) is no account's and is left to the
    operators' pages. Else the session cookie: a request that changes something with it must bring its CSRF token
    (``X-CSRF-Token``) and come from the server's own origin, else it is refused (``account.csrf``, U4, 403)."""
    given = bearer(request.headers.get("authorization", ""))
    if given is not None and given.startswith(PREFIX):
        return Who(await get_accounts(request).token_account(given), "", token=True)
    cookie = request.cookies.get(session_cookie(settings))
    if not cookie or len(cookie) > 64:
        return None
    account = await get_accounts(request).session(cookie)
    if account is None:
        return None
    if request.method not in SAFE_METHODS:
        same_origin(request, settings)
        if not secrets.compare_digest(request.headers.get("x-csrf-token", ""), csrf_of(cookie)):
            raise ServerError("account.csrf", rule="U4", status=403)
    return Who(account, cookie)


async def signed_in(who: Annotated[Who | None, Depends(get_who)]) -> Who:
    """The account a request acts for; refused (``account.signed_out``, U3, 401) for a guest."""
    if who is None:
        raise ServerError("account.signed_out", rule="U3", status=401)
    return who


async def socket_who(websocket: WebSocket) -> AccountRow | None:
    """The account a websocket's handshake acts for (its API token or session cookie, as :func:`get_who` reads them), or
    ``None``; asked again at every message of a connection that acts for an account's seat (rule U7). A websocket
    needs no CSRF token: a page of another site cannot open it (its ``Origin`` is refused)."""
    accounts: Accounts = websocket.app.state.accounts
    try:
        return await accounts.who(websocket.headers)
    except ServerError:  # a personal API token that is no account's (any more): the connection acts for nobody
        return None


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
WhoDep = Annotated[Who | None, Depends(get_who)]
SignedInDep = Annotated[Who, Depends(signed_in)]



async def daily_guard(table_id: str, request: Request, who: Annotated[Who | None, Depends(get_who)],
                      seat_token: Annotated[str | None, Header(alias="X-Seat-Token", max_length=64)] = None) -> None:
    """A daily deal's table shows its cards (record, replay, analysis) only to one who finished that deal, by their
    account or their seat's token (rule D4): ``daily.not_finished`` (403) to anyone else; any other table passes."""
    daily: Daily = request.app.state.daily
    if not table_id.startswith(DAILY_PREFIX):
        return
    if not await asyncio.to_thread(daily.may_see, table_id, who.account if who else None, seat_token):
        raise ServerError("daily.not_finished", rule="D4", status=403)


DailyGuard = Depends(daily_guard)

__all__ = [
    "AccountsDep", "DailyGuard", "HubDep", "LangDep", "SettingsDep", "SignedInDep", "Who", "WhoDep",
    "bad_request", "get_lang", "refusal_fields", "refused", "request_lang", "same_origin", "session_cookie",
    "socket_who",
]
