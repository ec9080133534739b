"""Taking back a move: at a table of one person and bots, the person may take back their latest action and every
bot action after it, so that it is their turn again at the position before it.

What may be taken back stops at chance: a move is never taken back once cards were dealt or a stage scored after it
(the next deal is drawn from the table's seed, so it would be known), nor once a card hidden from the person was
shown to them since (a card drawn from the stock: undone, the person would know the top of the stock). So the
person learns nothing by taking back that they had not seen already, and the bots' hands are those of the position
before the move.

It is asked on the person's own turn: the bots have answered their move, and no process of the server has a move of
theirs in flight that could be stored after the take-back."""

from __future__ import annotations

from collections.abc import Iterable, Reversible, Sequence
from dataclasses import dataclass

from dreizehn.core.errors import GameOverError
from dreizehn.server.errors import ServerError
from dreizehn.server.storage import SeatRow, TakenBack
from dreizehn.table import Update

CHANCE = frozenset(("stage.scored", "stage.dealt", "game.over"))
"""The events after which nothing before them is taken back: a stage ended, a new deal, the game's end."""


def undo_point(told: Reversible[Update], seats: Sequence[SeatRow], seat: int | None, current: int) -> int:
    """The sequence number of the action ``seat``'s person would take back (with every action after it), from the
    actions told (the whole game, in order) and the seat to move now (``current``, -1 once the game is over);
    raises the refusal when they may not: a spectator (``server.spectator_acts``), a table with other people
    (``server.undo_people``), a game over (``action.game_over``), not the person's turn (``server.undo_wait``: the
    bots' moves after theirs are taken back with it, once made), no action of theirs (``server.undo_nothing``), a
    deal or a scored stage since (``server.undo_dealt``), a hidden card shown to them since
    (``server.undo_drawn``)."""
    if seat is None:
        raise ServerError("server.spectator_acts", rule="S1")
    people = [row.seat for row in seats if row.bot is None]
    if people != [seat]:
        raise ServerError("server.undo_people", rule="S8")
    if current < 0:
        raise GameOverError("action.game_over", rule="A6")
    if current != seat:
        raise ServerError("server.undo_wait", rule="S8")
    since: list[Update] = []
    for update in reversed(told):
        since.append(update)
        if update.seat == seat:
            break
    else:
        raise ServerError("server.undo_nothing", rule="S8")
    for update in since:
        if any(event.key in CHANCE for event in update.events):
            raise ServerError("server.undo_dealt", rule="S8")
        if any(seat in event.private for event in update.events):
            raise ServerError("server.undo_drawn", rule="S8")
    return since[-1].version - 1


BLOCKED = frozenset(("server.undo_dealt", "server.undo_drawn"))
"""The refusals that say why a move the person made cannot be taken back (the page says so where Undo would be)."""


def undo_state(told: Reversible[Update], seats: Sequence[SeatRow], seat: int | None,
               current: int) -> tuple[bool, str | None]:
    """Whether ``seat``'s person may take back a move now (:func:`undo_point` would not refuse), and when they may
    not because of chance or a card seen since their move, that refusal's code (one of :data:`BLOCKED`)."""
    try:
        undo_point(told, seats, seat, current)
    except (ServerError, GameOverError) as err:
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
    """The take-backs of a table, in order, from its actions taken back (:meth:`~dreizehn.server.storage.Store.
    taken_back`, in the order of the take-backs and of the game)."""
    found: dict[int, TakeBack] = {}
    for row in rows:
        known = found.get(row.undo)
        found[row.undo] = TakeBack(row.seq, row.undo_seat, 1) if known is None else TakeBack(
            known.version, known.seat, known.count + 1)
    return [found[undo] for undo in sorted(found)]


def standing(backs: Sequence[TakeBack]) -> list[TakeBack]:
    """The take-backs that belong to the game as it stands: those no later take-back went back before (a later one
    that went further back took back the moves they were made among)."""
    return [back for i, back in enumerate(backs) if all(later.version >= back.version for later in backs[i + 1:])]
