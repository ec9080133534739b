"""``/api/accounts``, ``/api/session``, ``/api/account``: signing up, in and out, changing the password, deleting the
account (rules U1–U5, U10; docs/server.md, Accounts)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from dreizehn.server.accounts.recovery import Recovery
from dreizehn.server.accounts.service import Signed, csrf_of
from dreizehn.server.accounts.settings import full_settings
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
from dreizehn.server.schemas import (
    EmailIn,
    LinkIn,
    MailOut,
    NewPasswordIn,
    PasswordIn,
    ResetConfirmIn,
    ResetIn,
    SessionOut,
    SignInIn,
    SignUpIn,
    VerifiedOut,
)
from dreizehn.server.settings import Settings
from dreizehn.server.storage import hash_token

router = APIRouter(prefix="/api", tags=["accounts"])


def _address(request: Request) -> str:
    """The address a request came from, as the rate limits count it."""
    return request.client.host if request.client else "unknown"


def session_out(account: AccountRow, session: str) -> SessionOut:
    return SessionOut(name=account.name, csrf=csrf_of(session) if session else "", email=account.email,
                      email_verified=account.email_verified, settings=full_settings(account.settings))


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
    that is none (``account.email``). Limited per address (``account.too_many``, 429). An address given is mailed
    the link that verifies it (stored before the answer). The guest seats of the browser (``seats``) become the
    account's (U7)."""
    same_origin(request, settings)
    signed = await accounts.sign_up(body.name, body.password, body.email, _address(request))
    await _claim(hub, body.seats, signed)
    await get_recovery(request).send_verify(signed.account, _base(request, settings), lang)
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


# -- mail: the address and a forgotten password (issue 45 item 5, rule U6) ----------------------------------------
def get_recovery(request: Request) -> Recovery:
    recovery: Recovery = request.app.state.recovery
    return recovery


RecoveryDep = Annotated[Recovery, Depends(get_recovery)]


def _base(request: Request, settings: Settings) -> str:
    """Where the links in mails point: ``DREIZEHN_PUBLIC_URL``, else the address the request was sent to."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


@router.get("/account/mail")
async def mail_configured(recovery: RecoveryDep) -> MailOut:
    """Whether the server sends mail (an SMTP server is set): a page that needs mail says plainly when it does
    not."""
    return MailOut(configured=recovery.mailer.configured)


@router.post("/account/email", status_code=202)
async def set_email(body: EmailIn, who: SignedInDep, request: Request, recovery: RecoveryDep,
                    settings: SettingsDep, lang: LangDep) -> MailOut:
    """A new e-mail address for the account (``null``: none), unverified until the link mailed to it
    (``<public>/verify/<token>``, 24 hours, once) is opened; the links sent to the one before stop working. An
    address that is none: ``account.email``. Limited per account (``account.too_many``, 429)."""
    await recovery.set_email(who.account, body.email, _base(request, settings), lang)
    return MailOut(configured=recovery.mailer.configured)


@router.post("/account/verify")
async def verify_email(body: LinkIn, request: Request, recovery: RecoveryDep, settings: SettingsDep,
                       lang: LangDep) -> VerifiedOut:
    """Open a link that verifies an address (U6; no session needed): it works once, for 24 hours, and only while
    the account still has that address. ``account.link_unknown`` (404), ``account.link_used`` (410),
    ``account.link_expired`` (410)."""
    same_origin(request, settings)
    account = await recovery.verify(body.token)
    assert account.email is not None
    return VerifiedOut(name=account.name, email=account.email, email_verified=True)


@router.post("/account/reset", status_code=202)
async def ask_reset(body: ResetIn, request: Request, recovery: RecoveryDep, settings: SettingsDep,
                    lang: LangDep) -> MailOut:
    """Ask for a link that sets a new password (U6), by user name or e-mail address: it is mailed
    (``<public>/reset/<token>``, one hour, once) to each account of that name or address whose address is verified.
    The answer is the same whether there is such an account or not. Limited per address asking and per name or
    address asked (``account.too_many``, 429, alike for both)."""
    same_origin(request, settings)
    await recovery.ask_reset(body.name, _address(request), _base(request, settings), lang)
    return MailOut(configured=recovery.mailer.configured)


@router.post("/account/reset/confirm", status_code=204)
async def reset_password(body: ResetConfirmIn, request: Request, response: Response, recovery: RecoveryDep,
                         settings: SettingsDep, lang: LangDep) -> None:
    """Set a new password with a reset link (U2, U6): every session of the account ends (sign in with the new
    password), and the link works no more. ``account.link_unknown`` (404), ``account.link_used`` (410),
    ``account.link_expired`` (410), then ``account.password_length``."""
    same_origin(request, settings)
    await recovery.reset(body.token, body.password)
    _forget(response, settings)
