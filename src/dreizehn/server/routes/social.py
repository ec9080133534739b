"""``/api/me/friends``, ``/api/me/blocks``, ``/api/me/settings``, ``/api/me/tokens``: a signed-in person's friends and
blocks (rule U8), the settings kept for every device (issue 45 item 4) and personal API tokens (U9); docs/server.md,
Accounts. Each route acts on the account of who asks, never on another's: a name or an id names the other end of a
relation or one of the account's own tokens."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Response

from dreizehn.server.accounts.names import LONGEST, name_key
from dreizehn.server.accounts.service import Accounts
from dreizehn.server.accounts.settings import full_settings
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.accounts.tokens import label
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import AccountsDep, HubDep, LangDep, SignedInDep, Who
from dreizehn.server.schemas import (
    ApiTokenIn,
    ApiTokenOut,
    FriendsOut,
    NewApiTokenOut,
    PersonOut,
    SettingsIn,
    SettingsOut,
    UserNameIn,
)

router = APIRouter(prefix="/api/me", tags=["accounts"])

NamePath = Annotated[str, Path(max_length=200)]
TokenIdPath = Annotated[str, Path(max_length=64)]


async def _other(accounts: Accounts, who: Who, name: str) -> AccountRow:
    """The account of another person's user name (without regard to case or look-alike letters); refused as
    ``account.no_player`` (404) when nobody has it, ``account.yourself`` (422) when it is the asker's own."""
    found = await asyncio.to_thread(accounts.store.by_key, name_key(name)) if len(name) <= 4 * LONGEST else None
    if found is None:
        raise ServerError("account.no_player", rule="U1", status=404, name=name[:40])
    if found[0].id == who.account.id:
        raise ServerError("account.yourself", rule="U8")
    return found[0]


async def _friends(accounts: Accounts, account: AccountRow) -> FriendsOut:
    found = await asyncio.to_thread(accounts.relations.listing, account.id)
    return FriendsOut(**{part: [PersonOut(name=name) for name in names] for part, names in found.items()})


@router.get("/friends")
async def friends(who: SignedInDep, accounts: AccountsDep, response: Response, lang: LangDep) -> FriendsOut:
    """The account's friends, those it asked, those asking it, and those it blocks (U8)."""
    response.headers["Cache-Control"] = "no-store"
    return await _friends(accounts, who.account)


@router.post("/friends")
async def ask_friend(body: UserNameIn, who: SignedInDep, accounts: AccountsDep, lang: LangDep) -> FriendsOut:
    """Ask someone to be friends; where they asked already, this accepts (both are friends). Refused: a name
    nobody has (``account.no_player``, 404), one's own (``account.yourself``), someone one blocks
    (``account.blocking``, 409: unblock first). The answer is the lists after it."""
    other = await _other(accounts, who, body.name)
    if await asyncio.to_thread(accounts.relations.is_blocking, who.account.id, other.id):
        raise ServerError("account.blocking", rule="U8", status=409, name=other.name)
    await asyncio.to_thread(accounts.relations.ask, who.account.id, other.id)
    return await _friends(accounts, who.account)


@router.delete("/friends/{name}", status_code=204)
async def remove_friend(name: NamePath, who: SignedInDep, accounts: AccountsDep, lang: LangDep) -> None:
    """End a friendship, withdraw one's ask or decline theirs; ``account.no_friend`` (404) where there is none of
    these between the two."""
    other = await _other(accounts, who, name)
    if not await asyncio.to_thread(accounts.relations.remove, who.account.id, other.id):
        raise ServerError("account.no_friend", rule="U8", status=404, name=other.name)


@router.post("/blocks")
async def block(body: UserNameIn, who: SignedInDep, accounts: AccountsDep, hub: HubDep, lang: LangDep) -> FriendsOut:
    """Block someone: the friendship and every ask between the two end; they send no invitation by name any more,
    and their lines of chat are no longer shown at any table (they are not told). The answer is the lists after
    it."""
    other = await _other(accounts, who, body.name)
    await asyncio.to_thread(accounts.relations.block, who.account.id, other.id)
    await hub.blocks_changed(who.account.id, other.id)
    return await _friends(accounts, who.account)


@router.delete("/blocks/{name}", status_code=204)
async def unblock(name: NamePath, who: SignedInDep, accounts: AccountsDep, hub: HubDep, lang: LangDep) -> None:
    """End a block; ``account.not_blocked`` (404) where there is none."""
    other = await _other(accounts, who, name)
    if not await asyncio.to_thread(accounts.relations.unblock, who.account.id, other.id):
        raise ServerError("account.not_blocked", rule="U8", status=404, name=other.name)
    await hub.blocks_changed(who.account.id, other.id)


@router.get("/settings")
async def get_settings(who: SignedInDep, response: Response, lang: LangDep) -> SettingsOut:
    """The settings kept for every device, each with its default where never set."""
    response.headers["Cache-Control"] = "no-store"
    return SettingsOut(**full_settings(who.account.settings))


@router.put("/settings")
async def put_settings(body: SettingsIn, who: SignedInDep, accounts: AccountsDep, lang: LangDep) -> SettingsOut:
    """Change settings: the fields given (checked strictly: an unknown field or a value not of the field's kind
    is refused, ``server.bad_request`` naming it), the others kept."""
    settings = full_settings(who.account.settings) | body.model_dump(include=body.model_fields_set)
    await asyncio.to_thread(accounts.store.set_settings, who.account.id, settings)
    return SettingsOut(**settings)


@router.get("/tokens")
async def tokens(who: SignedInDep, accounts: AccountsDep, response: Response, lang: LangDep) -> list[ApiTokenOut]:
    """The account's personal API tokens, the newest first: never the tokens themselves (U9)."""
    response.headers["Cache-Control"] = "no-store"
    found = await asyncio.to_thread(accounts.tokens.listing, who.account.id)
    return [ApiTokenOut(id=t.id, label=t.label, created_at=t.created_at.isoformat(),
                     used_at=None if t.used_at is None else t.used_at.isoformat()) for t in found]


@router.post("/tokens", status_code=201)
async def create_api_token(body: ApiTokenIn, who: SignedInDep, accounts: AccountsDep, response: Response,
                           lang: LangDep) -> NewApiTokenOut:
    """Make a personal API token (U9), shown this once: ``Authorization: Bearer <token>`` then acts as the account
    over HTTP and the websocket. Refused: a label of no or over 64 characters, or with markup or a control
    character (``account.token_label``); more than 20 tokens (``account.too_many_tokens``, 409); a request made
    with a token itself (``account.session_needed``, 403: a token that leaked must not make others that outlive
    it)."""
    if who.token:
        raise ServerError("account.session_needed", rule="U9", status=403)
    made = await asyncio.to_thread(accounts.tokens.create, who.account.id, label(body.label))
    if made is None:
        raise ServerError("account.too_many_tokens", rule="U9", status=409)
    row, token = made
    response.headers["Cache-Control"] = "no-store"
    return NewApiTokenOut(id=row.id, label=row.label, token=token)


@router.delete("/tokens/{token_id}", status_code=204)
async def revoke_token(token_id: TokenIdPath, who: SignedInDep, accounts: AccountsDep, lang: LangDep) -> None:
    """Revoke one of the account's tokens: it acts for nobody from now on. ``account.no_token`` (404) for an id
    that is none of the account's tokens (another's included)."""
    if not await asyncio.to_thread(accounts.tokens.revoke, who.account.id, token_id):
        raise ServerError("account.no_token", rule="U9", status=404)
    accounts.sessions_ended()  # a websocket acting by the token asks again at its next message
