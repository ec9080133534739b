"""Taking back a move (rule S8), for every interface: a person alone with bots may take back their latest action and
every bot action after it, so that it is their turn again at the position before it.

What may be taken back stops at chance: a move is never taken back once cards were dealt or a stage scored after it
(the next deal is drawn from the table's seed, so it would be known), nor once a card hidden from the person was
shown to them since (a card drawn from the stock: undone, the person would know the top of the stock). So the
person learns nothing by taking back that they had not seen already, and the bots' hands are those of the position
before the move. It is asked on the person's own turn, once the bots have answered their move.

The server (:mod:`dreizehn.server.takebacks`) and the terminal game (:mod:`dreizehn.tui.session`) both ask
:func:`take_back_point`; each goes back in its own way (the server rebuilds its table from the actions stored, the
terminal from the state it kept before the move).
"""

from __future__ import annotations

from collections.abc import Reversible, Sequence

from dreizehn.core.errors import DreizehnError, GameOverError
from dreizehn.play.table import Update

CHANCE = frozenset(("stage.scored", "stage.dealt", "game.over"))
"""The events after which nothing before them is taken back: a stage ended, a new deal, the game's end."""


class TakeBackRefused(DreizehnError):
    """A take-back that may not be made (rule S8); its code is one of the server's ``server.undo_*`` (their words
    for people are ``server.person.undo_*``)."""


def take_back_point(told: Reversible[Update], people: Sequence[int], seat: int, current: int) -> int:
    """The version the game goes back to if ``seat``'s person takes back their latest action (with every action after
    it), from the updates told (in order; those before the first one told are out of reach), the seats of the people
    and the seat to move now (``current``, -1 once the game is over). Raises the refusal when they may not: a table
    with other people (``server.undo_people``), a game over (``action.game_over``), not the person's turn
    (``server.undo_wait``: the bots' moves after theirs are taken back with it, once made), no action of theirs
    (``server.undo_nothing``), a deal or a scored stage since (``server.undo_dealt``), a hidden card shown to them
    since (``server.undo_drawn``)."""
    if list(people) != [seat]:
        raise TakeBackRefused("server.undo_people", rule="S8")
    if current < 0:
        raise GameOverError("action.game_over", rule="A6")
    if current != seat:
        raise TakeBackRefused("server.undo_wait", rule="S8")
    since: list[Update] = []
    for update in reversed(told):
        since.append(update)
        if update.seat == seat:
            break
    else:
        raise TakeBackRefused("server.undo_nothing", rule="S8")
    for update in since:
        if any(event.key in CHANCE for event in update.events):
            raise TakeBackRefused("server.undo_dealt", rule="S8")
        if any(seat in event.private for event in update.events):
            raise TakeBackRefused("server.undo_drawn", rule="S8")
    return since[-1].version - 1
