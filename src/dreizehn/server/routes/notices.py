"""``/api/me/waiting``, ``/api/push/key``, ``/api/me/push``, ``/api/me/notices``, ``/api/notices/unsubscribe``: the
games waiting for the asker, Web Push subscriptions, the mail choice, and the mails' unsubscribe link (issue 46
item 2; docs/notices.md, rules N1…N8); ``/sw.js`` (the service worker that shows a push) and ``/unsubscribe/{token}``
(the page that asks to confirm)."""

from __future__ import annotations

import asyncio
import base64
import binascii
from typing import Annotated

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import FileResponse

from dreizehn.server.accounts.seats import seat_path
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.notices.models import (
    NoticesIn,
    NoticesOut,
    PushEndpointIn,
    PushIn,
    PushKeyOut,
    WaitingGame,
    WaitingOut,
)
from dreizehn.server.notices.push import endpoint_allowed
from dreizehn.server.notices.service import Notices
from dreizehn.server.notices.store import signed_account
from dreizehn.server.notices.wording import other_names
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import LangDep, SettingsDep, SignedInDep
from dreizehn.server.routes.web import _PAGE_HEADERS, WEB_DIR

router = APIRouter(tags=["notices"])

TokenPath = Annotated[str, Path(max_length=80)]


def get_notices(request: Request) -> Notices:
    notices: Notices = request.app.state.notices
    return notices


@router.get("/api/me/waiting")
async def waiting(request: Request, who: SignedInDep, response: Response, lang: LangDep) -> WaitingOut:
    """The turn-based games waiting for the asker's move, the soonest due first (N1): the asker's own only."""
    response.headers["Cache-Control"] = "no-store"
    store = get_notices(request).store
    games = await asyncio.to_thread(store.waiting, who.account.id)
    seated = await asyncio.to_thread(store.players_of, [g.table_id for g in games])
    return WaitingOut(count=len(games), games=[
        WaitingGame(table=g.table_id, game=g.game_id, seat=g.seat, due_at=g.due_at.isoformat(),
                    url=seat_path(g.table_id, g.seat),
                    players=other_names(lang, seated[g.table_id], g.seat))
        for g in games])


@router.get("/api/push/key")
def push_key(request: Request) -> PushKeyOut:
    """The server's VAPID public key, which a browser subscribes with (N4)."""
    return PushKeyOut(key=get_notices(request).pusher.public_key)


def _decoded(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return b""


def _keys_usable(p256dh: str, auth: str) -> bool:
    """Whether a subscription's keys are a point of the P-256 curve and a 16-byte secret."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _decoded(p256dh))
    except ValueError:
        return False
    return len(_decoded(auth)) == 16


@router.post("/api/me/push", status_code=204)
async def subscribe(body: PushIn, request: Request, who: SignedInDep, settings: SettingsDep, lang: LangDep) -> None:
    """Subscribe this browser to Web Push for the asker (N4): its endpoint must be an https address (``http``
    too where ``push_allow_http`` is set), its keys a P-256 public key and a 16-byte secret; else
    ``notices.push_endpoint`` (422). A browser subscribing again replaces its subscription."""
    if not endpoint_allowed(body.endpoint, settings.push_allow_http):
        raise ServerError("notices.push_endpoint", rule="N4", field="endpoint")
    if not _keys_usable(body.keys.p256dh, body.keys.auth):
        raise ServerError("notices.push_endpoint", rule="N4", field="keys")
    store = get_notices(request).store
    await asyncio.to_thread(store.subscribe, who.account.id, body.endpoint, body.keys.p256dh, body.keys.auth)


@router.delete("/api/me/push", status_code=204)
async def unsubscribe(body: PushEndpointIn, request: Request, who: SignedInDep, lang: LangDep) -> None:
    """Drop this browser's push subscription (N4); ``notices.no_subscription`` (404) where the asker has none with
    this endpoint."""
    if not await asyncio.to_thread(get_notices(request).store.unsubscribe, who.account.id, body.endpoint):
        raise ServerError("notices.no_subscription", rule="N4", status=404)


async def _notices_out(notices: Notices, account: AccountRow) -> NoticesOut:
    person = await asyncio.to_thread(notices.store.recipient, account.id)
    subscriptions = await asyncio.to_thread(notices.store.subscriptions, account.id)
    mail = person.mail if person is not None else "off"
    return NoticesOut(mail=mail, mail_configured=notices.settings.mail_configured,  # type: ignore[arg-type]
                      email_verified=bool(account.email and account.email_verified),
                      push_subscriptions=len(subscriptions))


@router.get("/api/me/notices")
async def get_notices_of(request: Request, who: SignedInDep, response: Response, lang: LangDep) -> NoticesOut:
    """What the asker is mailed, whether mail can be sent, and how many browsers are subscribed to push."""
    response.headers["Cache-Control"] = "no-store"
    return await _notices_out(get_notices(request), who.account)


@router.put("/api/me/notices")
async def put_notices(body: NoticesIn, request: Request, who: SignedInDep, lang: LangDep) -> NoticesOut:
    """Choose what the asker is mailed (N5): mail needs a verified address (``notices.no_address``, 409). ``off``
    also drops the mails still waiting in the outbox."""
    notices = get_notices(request)
    if body.mail != "off" and not (who.account.email and who.account.email_verified):
        raise ServerError("notices.no_address", rule="N5", status=409)
    await asyncio.to_thread(notices.store.set_mail, who.account.id, body.mail)
    if body.mail == "off":
        await asyncio.to_thread(notices.store.drop_unsent, who.account.id)
    return await _notices_out(notices, who.account)


@router.post("/api/notices/unsubscribe/{token}", status_code=204)
async def unsubscribe_mail(token: TokenPath, request: Request, lang: LangDep) -> None:
    """Stop the notices' mails of the account a mail's link names (N6), without signing in: the link's token is
    signed by the server. A POST only (the page's button, or a mail program's one-click unsubscribe, RFC 8058,
    which sends ``List-Unsubscribe=One-Click``); a link scanner's GET stops nothing. ``notices.bad_link`` (404) for
    a token the server did not sign."""
    notices = get_notices(request)
    account_id = signed_account(notices.link_key, token)
    if account_id is None:
        raise ServerError("notices.bad_link", rule="N6", status=404)
    await asyncio.to_thread(notices.store.set_mail, account_id, "off")
    await asyncio.to_thread(notices.store.drop_unsent, account_id)


@router.api_route("/unsubscribe/{token}", methods=["GET", "HEAD"], include_in_schema=False)
def unsubscribe_page(token: TokenPath) -> FileResponse:
    """The page of a mail's unsubscribe link: the app's page, which asks to confirm with a button, and names the
    token to nobody else (no ``Referer``)."""
    return FileResponse(WEB_DIR / "index.html", media_type="text/html",
                        headers={**_PAGE_HEADERS, "Referrer-Policy": "no-referrer"})


@router.api_route("/sw.js", methods=["GET", "HEAD"], include_in_schema=False)
def service_worker() -> FileResponse:
    """The service worker that shows a push and opens its seat when clicked (at the site's root: its scope is the
    whole site)."""
    return FileResponse(WEB_DIR / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
