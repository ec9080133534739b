"""The table of a room: its stored row and seats, the table rebuilt from its log, every action told, and the
take-backs. The other parts of a room read it and change it through its methods alone."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from dreizehn.bots.levels import LEVEL_NAMES
from dreizehn.core.registry import load_game
from dreizehn.core.wire import ViewWriter
from dreizehn.play.table import Seat, Table, Update
from dreizehn.server.storage import SeatRow, Stored, TableRow, now
from dreizehn.server.takebacks import TakeBack
from dreizehn.words import words


def build_table(stored: Stored, told: deque[Update] | None = None) -> Table:
    """The table of a stored game, its actions replayed through the engine; with ``told``, every action is
    replayed with its events into it, and so is every action applied afterwards: a welcome's ``recent`` is the whole
    game as it was told (a client that comes back shows every move in the sentences it showed them in live), and a
    take-back looks in it for what was shown since the move (:mod:`dreizehn.server.takebacks`)."""
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    seats = tuple(Seat(s.name, bot=s.bot) for s in stored.seats)
    table = Table(game, seats, stored.row.seed, game.new_state(stored.row.seed))
    if told is None:
        state = table.state
        for _, action, _ in stored.actions:
            state.apply(action)
    else:
        told.clear()
        table.listen(told.append)
        for seat, action, _ in stored.actions:
            table.apply_as(seat, action)
    if stored.row.ended_seat is not None:  # a person's time ran out and ended the game (turn-based, rule "end")
        table.end(stored.row.ended_seat)
    return table


def totals_and_winners(table: Table) -> tuple[list[int], list[int]]:
    """A finished game's totals per seat and its winning seats: as its rules count them, or, for a game a person's
    time ended (:meth:`Table.end`), the others' best totals win and that person is last (rule P3)."""
    state = table.state
    totals = list(state.totals)
    ended = table.ended_by
    if ended is None:
        return totals, list(state.winners)
    others = [seat for seat in range(len(totals)) if seat != ended]
    best = (max if state.game.high_score_wins else min)(totals[seat] for seat in others)
    return totals, [seat for seat in others if totals[seat] == best]


def seat_names(seats: list[SeatRow], lang: str) -> list[str]:
    """The seats' names in ``lang``. A bot seat created without a name is stored under its level (``easy``), and is
    named by the level's word in each receiver's language (``leicht``, ``makkelijk``), with its seat number where the
    level sits twice, as the browser names the bots it creates. A seat whose account was deleted (``former``) is
    "a former player" (``account.former_player``)."""
    levels = [s.bot if s.bot is not None and s.name == s.bot and s.bot in LEVEL_NAMES else None for s in seats]
    w = words(lang)
    return [w("account.former_player") if s.former
            else s.name if level is None else w(f"web.level.{level}") + (f" {s.seat + 1}" if levels.count(level) > 1
                                                                         else "")
            for s, level in zip(seats, levels, strict=True)]


def said_names(seats: list[SeatRow], lang: str) -> list[str]:
    """The seats' names as sentences say them in ``lang`` (the game's course, whose turn it is, a refusal, a time
    run out, a replay): :func:`seat_names`, where a seat nobody has taken yet (a friend invited by a link, who has
    no name until they join) is "the invited player" (``seat.invited``), never a blank or a seat number. Several such
    seats are told apart by their order at the table, the order the page lists them and their invitations in:
    "the first invited player", "the second invited player" (``seat.invited.nth``)."""
    names = seat_names(seats, lang)
    free = [s.seat for s in seats if invited(s)]
    w = words(lang)
    for order, seat in enumerate(free, 1):
        names[seat] = (w("seat.invited") if len(free) == 1
                       else w("seat.invited.nth", nth=w(f"seat.nth.{order}")))
    return names


def invited(seat: SeatRow) -> bool:
    """Whether nobody has taken ``seat`` yet (a friend invited by a link, who has no name until they join)."""
    return not seat.joined and not seat.name


def sentence(text: str, seats: list[SeatRow], seat: int) -> str:
    """``text``, said of ``seat``, begun with a capital where it begins with the seat said in words ("The invited
    player plays …", :func:`said_names`); a person's name stays as they wrote it ("gus plays …")."""
    if 0 <= seat < len(seats) and invited(seats[seat]):
        return text[:1].upper() + text[1:]
    return text


class TableState:
    """A table being played in this process: what is stored of it and the table rebuilt from that."""

    def __init__(self, stored: Stored, take_backs: Iterable[TakeBack] = ()) -> None:
        self._row = stored.row
        self._seats = list(stored.seats)
        self._told: deque[Update] = deque()
        """Every action of the game applied, each with all its events (filtered for each receiver when said)."""
        self._table = build_table(stored, self._told)
        self._take_backs = list(take_backs)
        """The moves taken back at this table, in order."""
        self._writers: dict[str, ViewWriter] = {}
        """Per language, what writes the views as documents: it keeps each legal action said as an offer and each
        field as last written (:class:`~dreizehn.core.wire.ViewWriter`)."""
        self._names: dict[str, list[str]] = {}
        self._said: dict[str, list[str]] = {}

    @property
    def id(self) -> str:
        return self._row.id

    @property
    def row(self) -> TableRow:
        return self._row

    @property
    def seats(self) -> list[SeatRow]:
        return self._seats

    @property
    def table(self) -> Table:
        return self._table

    @property
    def told(self) -> deque[Update]:
        return self._told

    @property
    def take_backs(self) -> list[TakeBack]:
        return self._take_backs

    def is_person(self, seat: int) -> bool:
        """Whether a person (not a bot) sits at ``seat``."""
        return self._seats[seat].bot is None

    def names(self, lang: str) -> list[str]:
        """The seats' names said in ``lang`` (:func:`seat_names`)."""
        found = self._names.get(lang)
        if found is None:
            found = self._names[lang] = seat_names(self._seats, lang)
        return found

    def said_names(self, lang: str) -> list[str]:
        """The seats' names as sentences say them in ``lang`` (:func:`said_names`)."""
        found = self._said.get(lang)
        if found is None:
            found = self._said[lang] = said_names(self._seats, lang)
        return found

    def rename(self, seat: int, name: str) -> None:
        """A person joined ``seat`` under ``name``."""
        seats = list(self._seats)
        seats[seat] = replace(seats[seat], name=name, joined=True)
        self._set_seats(seats)

    def _set_seats(self, seats: list[SeatRow]) -> None:
        self._seats = seats
        self._names.clear()
        self._said.clear()

    def finished(self) -> None:
        """The game is over (its last action stored)."""
        self._row = replace(self._row, status="finished", finished_at=now())

    def left(self, seat: int, bot: str) -> None:
        """A bot (``bot``) took the person's seat for the rest of the game (stored already)."""
        seats = list(self._seats)
        seats[seat] = replace(seats[seat], bot=bot, left_at=now())
        self._set_seats(seats)
        self._table.replace(seat, bot)

    def left_seats(self) -> frozenset[int]:
        """The seats a bot took for good from their people."""
        return frozenset(s.seat for s in self._seats if s.left_at is not None)

    def ended(self, seat: int) -> None:
        """The person of ``seat`` let their time run out and the game ended with them last (stored already)."""
        self._row = replace(self._row, status="finished", finished_at=now(), ended_seat=seat)
        self._table.end(seat)

    def kept(self, count: int) -> Stored:
        """The table with its first ``count`` actions alone, from the room's own log (no database needed)."""
        game = self._table.game
        log = tuple((seat, game.action_to_text(action), "") for seat, action in self._table.state.log[:count])
        return Stored(self._row, tuple(self._seats), log)

    def rebuild(self, stored: Stored, stand_in: Iterable[int], level: str) -> None:
        """The table of ``stored``; the seats of ``stand_in`` played by the stand-in (bot ``level``)."""
        self._row = stored.row
        self._set_seats(list(stored.seats))
        self._table = build_table(stored, self._told)
        for seat in stand_in:
            self._table.replace(seat, level)

    def taken_back(self, back: TakeBack) -> None:
        self._take_backs.append(back)

    def set_take_backs(self, backs: list[TakeBack]) -> None:
        self._take_backs = backs

    def view_doc(self, seat: int | None, lang: str, history: bool) -> dict[str, Any]:
        """``seat``'s view (a spectator's for ``None``) as the document of docs/wire.md, said in ``lang``."""
        table = self._table
        view = table.state.spectator_view() if seat is None else table.view(seat)
        write = self._writers.get(lang)
        if write is None:
            game, w = table.game, words(lang)
            said: dict[int, str] = {}

            def offer(action: int) -> str:
                text = said.get(action)
                if text is None:
                    text = said[action] = game.say_action(w, action)
                return text

            write = self._writers[lang] = ViewWriter(offer)
        doc = write(view, history=history)
        if table.ended_by is not None:  # ended by a person's time: over, with nothing more to play
            doc = {**doc, "is_over": True, "legal_actions": []}
        return doc
