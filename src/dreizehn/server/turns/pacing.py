"""What a table's pace asks of its people (rules P1, P2 of docs/turns.md): a turn-based table is made by a
signed-in person, its people's seats are taken by signed-in people alone, and nobody holds more than
``DREIZEHN_TURN_BASED_LIMIT`` turn-based games being played."""

from __future__ import annotations

import asyncio
from typing import Any

from dreizehn.server.refusals import ServerError
from dreizehn.server.schemas import TableIn
from dreizehn.server.settings import Settings
from dreizehn.server.turns.store import Clocks


def pace_of(body: TableIn, signed_in: bool, settings: Settings) -> dict[str, Any]:
    """The pace fields of a new table's row (``pace``, ``move_time``, ``on_timeout``, ``private``), checked."""
    if body.pace == "realtime":
        return {"private": body.private}
    if not signed_in:
        raise ServerError("turns.sign_in", rule="P2", status=401)
    if body.move_time < settings.move_time_min:
        raise ServerError("turns.move_time", rule="P1", field="body.move_time", least=settings.move_time_min)
    return {"pace": "turn-based", "move_time": body.move_time, "on_timeout": body.on_timeout,
            "private": body.private, "clock": 0.0}


async def check_room_for(clocks: Clocks, settings: Settings, accounts: dict[str, str]) -> None:
    """Refuse a new turn-based game to any of ``accounts`` (id to name) who holds the most already (P2)."""
    for account_id, name in accounts.items():
        if await asyncio.to_thread(clocks.held, account_id) >= settings.turn_based_limit:
            raise ServerError("turns.too_many", rule="P2", status=409, name=name, limit=settings.turn_based_limit)


async def check_seat(clocks: Clocks, settings: Settings, table_id: str, account: tuple[str, str] | None) -> None:
    """Refuse a person's seat of turn-based table ``table_id`` to a guest (``account`` ``None``) or to an account
    ``(id, name)`` that holds the most turn-based games already (P2); a real-time table's seat is anyone's."""
    if not await asyncio.to_thread(clocks.turn_based, table_id):
        return
    if account is None:
        raise ServerError("turns.sign_in", rule="P2", status=401)
    await check_room_for(clocks, settings, {account[0]: account[1]})
