"""Seats that belong to people (rule U7): a seat a signed-in person takes (creates, joins, takes from the list of
tables, or is invited to by user name) is bound to their account. Its invitation then opens it to that account alone:
anyone else who opens it is told the seat is taken and may watch (``account.seat_bound``); the owner opens it from
any device by signing in (``/seat/<table>/<seat>``, the websocket's hello with ``table`` and ``seat``). A guest who
signs up or in keeps the seats of that browser (:meth:`~dreizehn.server.storage.Tables.claim`)."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa

from dreizehn.server.accounts.names import name_key
from dreizehn.server.accounts.schema import accounts, relations
from dreizehn.server.refusals import ServerError
from dreizehn.server.storage import Store, seats
from dreizehn.server.storage.seating import TokenSeat


def seat_path(table_id: str, seat: int) -> str:
    """The page of an account's own seat (opened by signing in, no token)."""
    return f"/seat/{table_id}/{seat}"


async def bound_refusal(store: Store, table_id: str, seat: int, status: int = 403) -> ServerError:
    """``account.seat_bound`` (U7): the seat belongs to another person's account; ``name`` is its player's,
    ``watch`` the page where anyone may watch the table."""
    found = await asyncio.to_thread(store.tables.seat, table_id, seat)
    return ServerError("account.seat_bound", rule="U7", status=status, name=found.name if found else "",
                       watch=f"/watch/{table_id}")


async def check_token_seat(store: Store, found: TokenSeat, account_id: str | None, status: int = 403) -> None:
    """Refuse (``account.seat_bound``) a seat's invitation used by anyone but the account the seat is bound to (a
    guest, or another account); a seat bound to nobody opens to whoever holds its token, as ever."""
    if found.account_id is not None and found.account_id != account_id:
        raise await bound_refusal(store, found.table_id, found.seat, status)


def invitee(store: Store, user: str, creator_id: str | None) -> tuple[str, str]:
    """The account (id, name) a new table invites by ``user`` name (run in a thread): refused when the creator is a
    guest (``account.signed_out``, 401), no account has that name (``account.no_player``, 422) or its person blocked
    the creator (``account.invite_blocked``, 403)."""
    if creator_id is None:
        raise ServerError("account.signed_out", rule="U3", status=401)
    with store.engine.connect() as c:
        found = c.execute(sa.select(accounts.c.id, accounts.c.name)
                          .where(accounts.c.name_key == name_key(user[:64]))).first()
        if found is None:
            raise ServerError("account.no_player", rule="U1", name=user[:40])
        blocked = c.execute(sa.select(relations.c.kind).where(
            relations.c.account_id == found.id, relations.c.other_id == creator_id,
            relations.c.kind == "blocked")).first()
    if blocked is not None:
        raise ServerError("account.invite_blocked", rule="U8", status=403, name=found.name)
    return str(found.id), str(found.name)


def open_invited(store: Store, table_id: str, seat: int, account_id: str) -> bool:
    """The invited account opens its seat (run in a thread): the seat is taken under the name it was given; whether
    it was taken now."""
    with store.engine.begin() as c:
        done: Any = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                   seats.c.account_id == account_id, seats.c.joined.is_(False))
                              .values(joined=True))
        return bool(done.rowcount)
