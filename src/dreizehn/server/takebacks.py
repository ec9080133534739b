"""Taking back a move at the server: the rule (S8) is :mod:`dreizehn.play.undo`'s, shared with the terminal game; here
the refusals become the server's, and the take-backs of a table are read back from its store.

It is asked on the person's own turn: the bots have answered their move, and no process of the server has a move of
theirs in flight that could be stored after the take-back."""

from __future__ import annotations

from collections.abc import Iterable, Reversible, Sequence
from dataclasses import dataclass

from dreizehn.core.errors import GameOverError
from dreizehn.play.table import Update
from dreizehn.play.undo import CHANCE, TakeBackRefused, take_back_point
from dreizehn.server.refusals import ServerError
from dreizehn.server.storage import SeatRow, TakenBack

__all__ = ["CHANCE", "TakeBack", "may_undo", "standing_take_backs", "take_backs", "undo_point"]


def undo_point(told: Reversible[Update], seats: Sequence[SeatRow], seat: int | None, current: int) -> int:
    """The sequence number of the action ``seat``'s person would take back (with every action after it), from the
    actions told (the whole game, in order) and the seat to move now (``current``, -1 once the game is over);
    raises the refusal when they may not: a spectator (``server.spectator_acts``), else those of
    :func:`dreizehn.play.undo.take_back_point` (the rule shared with the terminal game: its
    :class:`~dreizehn.play.undo.TakeBackRefused` carries the server's codes, ``server.undo_*``)."""
    if seat is None:
        raise ServerError("server.spectator_acts", rule="S1")
    people = [row.seat for row in seats if row.bot is None]
    return take_back_point(told, people, seat, current)


BLOCKED = frozenset(("server.undo_dealt", "server.undo_drawn"))
"""The refusals that say why a move the person made cannot be taken back (the page says so where Undo would be)."""


def undo_state(told: Reversible[Update], seats: Sequence[SeatRow], seat: int | None,
               current: int) -> tuple[bool, str | None]:
    """Whether ``seat``'s person may take back a move now (:func:`undo_point` would not refuse), and when they may
    not because of chance or a card seen since their move, that refusal's code (one of :data:`BLOCKED`)."""
    try:
        undo_point(told, seats, seat, current)
    except (ServerError, TakeBackRefused, GameOverError) as err:
        return False, err.code if err.code in BLOCKED else None
    return True, None


def may_undo(told: Reversible[Update], seats: Sequence[SeatRow], seat: int | None, current: int) -> bool:
    """Whether ``seat``'s person may take back a move now (:func:`undo_point` would not refuse)."""
    return undo_state(told, seats, seat, current)[0]


@dataclass(frozen=True)
class TakeBack:
    """A take-back: the version the game went back to, the seat whose person took back, how many actions."""

    version: int
    seat: int
    count: int


def take_backs(rows: Iterable[TakenBack]) -> list[TakeBack]:
    """The take-backs of a table, in order, from its actions taken back (:meth:`~dreizehn.server.storage.Actions.
    taken_back`, in the order of the take-backs and of the game)."""
    found: dict[int, TakeBack] = {}
    for row in rows:
        known = found.get(row.undo)
        found[row.undo] = TakeBack(row.seq, row.undo_seat, 1) if known is None else TakeBack(
            known.version, known.seat, known.count + 1)
    return [found[undo] for undo in sorted(found)]


def standing_take_backs(backs: Sequence[TakeBack]) -> list[TakeBack]:
    """The take-backs that belong to the game as it stands: those no later take-back went back before (a later one
    that went further back took back the moves they were made among)."""
    return [back for i, back in enumerate(backs) if all(later.version >= back.version for later in backs[i + 1:])]
