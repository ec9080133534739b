"""Rematches: a person of a finished table asks the others (``offer``), each answers (``accept``, ``decline``), and
once the rematch is made each person connected here is given their own invitation to it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from dreizehn.server import messages
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.storage import hash_token, new_token

IssueToken = Callable[[str, int, str], bool]
"""Give a seat of a table its token's hash if it has none yet; whether it was given now
(:meth:`~dreizehn.server.storage.Tables.issue_token`)."""


class Rematches:
    """The rematch asked for at a table, while its room is in memory. ``conns`` says the connections here,
    ``is_over`` whether the game is over, ``seats`` how many seats the table has."""

    def __init__(self, conns: Callable[[], list[Conn]], is_over: Callable[[], bool], seats: int,
                 issue_token: IssueToken) -> None:
        self._conns = conns
        self._is_over = is_over
        self._seats = seats
        self._issue_token = issue_token
        self._asked = False
        """Whether a rematch was asked for at this table."""
        self._offered_by: int | None = None
        """The seat whose person asked the others for a rematch (``offer``)."""
        self._answers: dict[int, bool] = {}
        """Each answer to that offer, by seat (``True``: they play again)."""

    def _tell(self, message: str) -> None:
        for conn in self._conns():
            conn.send(message)

    def made(self, table_id: str, tokens: list[str | None], by: int | None = None) -> None:
        """Tell each connected person of a rematch, with their own new invitation and the seat that asked; the offer
        is over (a page that comes later asks for its invitation, ``POST .../rematch``)."""
        self._asked = True
        self._offered_by, self._answers = None, {}
        for conn in self._conns():
            conn.send(messages.rematch(table_id, tokens[conn.seat] if conn.seat is not None else None, by))

    async def made_elsewhere(self, table_id: str, by: int) -> None:
        """A rematch (``table_id``) was asked by ``by`` through another process (PostgreSQL): each other person
        connected here is given an invitation to it (issued once: one asking later is refused) and told with it;
        the spectators and the asker's windows are told without one (the asker's answer holds theirs)."""
        seats = sorted({c.seat for c in self._conns() if c.seat is not None and c.seat != by and not c.closed})
        tokens: list[str | None] = [None] * self._seats
        for seat in seats:
            token = new_token()
            if await asyncio.to_thread(self._issue_token, table_id, seat, hash_token(token)):
                tokens[seat] = token
        self.made(table_id, tokens, by)

    def offer(self, conn: Conn) -> None:
        """A person of the finished table asks the others for a rematch: everyone at the table is told, once (a
        second offer, or one before the game's end or from a spectator, changes nothing)."""
        if conn.seat is None or not self._is_over() or self._offered_by is not None:
            return
        self._offered_by = conn.seat
        self._asked = True
        self._tell(messages.offered(conn.seat))

    def answer(self, conn: Conn, accept: bool) -> None:
        """A person answers the rematch asked for (``accept``: they want it): everyone at the table is told (not the
        asker's own answer, nor a spectator's, nor one with no rematch asked)."""
        if conn.seat is None or not self._asked or (accept and conn.seat == self._offered_by):
            return
        if self._offered_by is not None:
            self._answers[conn.seat] = accept
        self._tell(messages.accepted(conn.seat) if accept else messages.declined(conn.seat))

    def retell(self, conn: Conn) -> None:
        """A page that comes to a finished table after a rematch was offered there (a reload) is told the offer and
        each answer so far, after its welcome, as the others were told them."""
        if self._offered_by is None:
            return
        conn.send(messages.offered(self._offered_by))
        for seat, accept in self._answers.items():
            conn.send(messages.accepted(seat) if accept else messages.declined(seat))
