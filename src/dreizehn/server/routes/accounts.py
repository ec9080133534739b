"""``/api/accounts``, ``/api/session``, ``/api/account``: signing up, in and out, changing the password, deleting the
account (rules U1–U5, U10; docs/server.md, Accounts)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response

from dreizehn.server.accounts.service import Signed, csrf_of
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.routes.deps import (
    AccountsDep,
    HubDep,
    LangDep,
    SettingsDep,
    SignedInDep,
    WhoDep,
    same_origin,
    session_cookie,
)
from dreizehn.server.schemas import NewPasswordIn, PasswordIn, SessionOut, SignInIn, SignUpIn
from dreizehn.server.settings import Settings
from dreizehn.server.storage import hash_token

router = APIRouter(prefix="/api", tags=["accounts"])


def _address(request: Request) -> str:
    """The address a request came from, as the rate limits count it."""
    return request.client.host if request.client else "unknown"


def session_out(account: AccountRow, session: str) -> SessionOut:
    return SessionOut(name=account.name, csrf=csrf_of(session), email=account.email,
                      email_verified=account.email_verified, settings=account.settings)


def _signed(response: Response, settings: Settings, signed: Signed) -> SessionOut:
    """Give the browser its session's cookie: HttpOnly (no script reads it), SameSite=Lax (no other site's form
    or script sends it), Secure behind https, for the whole site, as long as a sign-in lasts at most."""
    response.set_cookie(session_cookie(settings), signed.session, max_age=int(settings.session_days * 86400),
                        path="/", secure=settings.cookie_secure, httponly=True, samesite="lax")
    response.headers["Cache-Control"] = "no-store"
    return session_out(signed.account, signed.session)


async def _claim(hub: HubDep, tokens: list[str], signed: Signed) -> None:
    """A guest's seats become the account's (rule U7): those of ``tokens`` (the browser's invitations of the seats
    it played) that a person took and that are bound to nobody; stored before the answer is sent."""
    await asyncio.to_thread(hub.store.tables.claim, [hash_token(t) for t in tokens], signed.account.id)


def _forget(response: Response, settings: Settings) -> None:
    response.delete_cookie(session_cookie(settings), path="/", secure=settings.cookie_secure, httponly=True,
                           samesite="lax")


@router.post("/accounts", status_code=201)
async def sign_up(body: SignUpIn, request: Request, response: Response, accounts: AccountsDep,
                  settings: SettingsDep, hub: HubDep, lang: LangDep) -> SessionOut:
    """Make an account and sign this browser in to it (U1, U2). A name is refused for its length
    (``account.name_length``), its characters (``account.name_characters``), a mix of scripts
    (``account.name_scripts``) or as taken (``account.name_taken``, 409, also for a name that differs only in case
    or look-alike letters); a password for its length (``account.password_length``), before it is hashed; an address
    that is none (``account.email``). Limited per address (``account.too_many``, 429). The guest seats of the
    browser (``seats``) become the account's (U7)."""
    same_origin(request, settings)
    signed = await accounts.sign_up(body.name, body.password, body.email, _address(request))
    await _claim(hub, body.seats, signed)
    return _signed(response, settings, signed)


@router.post("/session")
async def sign_in(body: SignInIn, request: Request, response: Response, accounts: AccountsDep,
                  settings: SettingsDep, hub: HubDep, lang: LangDep) -> SessionOut:
    """Sign in (U3): a new session every time. A name nobody has and a wrong password get the same answer
    (``account.bad_signin``, 401) in the same time; a disabled account ``account.disabled`` (403). Limited per
    address and, for failed tries, per account (``account.too_many``, 429, ``Retry-After``). The guest seats of the
    browser (``seats``) become the account's (U7)."""
    same_origin(request, settings)
    signed = await accounts.sign_in(body.name, body.password, _address(request))
    await _claim(hub, body.seats, signed)
    return _signed(response, settings, signed)


@router.get("/session")
async def get_session(who: SignedInDep, response: Response, lang: LangDep) -> SessionOut:
    """Who is signed in on this browser, with the CSRF token its changing requests carry; ``account.signed_out``
    (401) for a guest."""
    response.headers["Cache-Control"] = "no-store"
    return session_out(who.account, who.session)


@router.delete("/session", status_code=204)
async def sign_out(who: WhoDep, response: Response, accounts: AccountsDep, settings: SettingsDep) -> None:
    """Sign this browser out: its session ends on the server, its cookie is dropped (a guest's request does
    nothing)."""
    if who is not None:
        await accounts.sign_out(who.session)
    _forget(response, settings)


@router.delete("/sessions", status_code=204)
async def sign_out_everywhere(who: SignedInDep, response: Response, accounts: AccountsDep,
                              settings: SettingsDep) -> None:
    """Sign out every browser and device signed in to the account, this one too."""
    await accounts.sign_out_everywhere(who.account)
    _forget(response, settings)


@router.put("/account/password")
async def change_password(body: NewPasswordIn, who: SignedInDep, response: Response, accounts: AccountsDep,
                          settings: SettingsDep, lang: LangDep) -> SessionOut:
    """A new password, given the one in use (``account.wrong_password``, 403): every other session ends, and this
    browser is signed in again with a new session id."""
    signed = await accounts.change_password(who.account, body.password, body.new_password)
    return _signed(response, settings, signed)


@router.delete("/account", status_code=204)
async def delete_account(body: PasswordIn, who: SignedInDep, response: Response, accounts: AccountsDep,
                         settings: SettingsDep, lang: LangDep) -> None:
    """Delete the account, given its password (U10): its name, e-mail address, password hash, friends and
    settings go; its finished games stay, its seats shown as a former player's."""
    await accounts.delete(who.account, body.password)
    _forget(response, settings)
