"""Telling: what each connection of a room is sent, its own part in its language, through the message writer
(:mod:`dreizehn.server.messages`). It knows the table (:class:`~.state.TableState`) and asks who is there of an
:class:`Audience` (the room's presence); of its own it keeps the latest lines of chat."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from dreizehn.core.errors import DreizehnError
from dreizehn.core.events import EVERYONE, Event
from dreizehn.core.game import Game
from dreizehn.play import say
from dreizehn.play.table import Update
from dreizehn.server import messages
from dreizehn.server.chat import RECENT_LINES, Line, readable
from dreizehn.server.protocol import SaidEvent
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.rooms.state import TableState, sentence
from dreizehn.server.takebacks import TakeBack, standing_take_backs, undo_state
from dreizehn.words import words


@dataclass
class Said:
    """What the receivers of one update share, said once: per language the action's sentence and the seats, and
    each event per :data:`EventKey`."""

    texts: dict[str, str] = field(default_factory=dict)
    seats: dict[str, messages.Seats] = field(default_factory=dict)
    events: dict[EventKey, dict[str, Any]] = field(default_factory=dict)
    checked: dict[EventKey, SaidEvent] = field(default_factory=dict)
    """Each event said, checked once by its model (:meth:`Telling.broadcast_update`)."""


EventKey = tuple[str, int, int | None]
"""An event of an update as a receiver is told it: (language, its number, the receiver who owns its private part or
``None``)."""


def stage_count(game: Game) -> int:
    """How many stages ``game`` has (:attr:`~dreizehn.core.game.Game.stages`)."""
    return game.stages


def told_event_keys(update: Update, seat: int | None, lang: str) -> list[EventKey]:
    """The keys of the events of ``update`` as ``seat`` is told them in ``lang``: a private part only for its
    owner."""
    return [(lang, i, seat if event.private and seat in event.private else None)
            for i, event in enumerate(update.events)]


def said_event(game: Any, w: Any, event: Event, names: list[str], seat: int | None, *,
               whole: bool = False) -> dict[str, Any]:
    """An event as a client receives it, in ``w``'s language: its key and parameters as ``seat`` may know them (all
    of them with ``whole``, a finished game's replay), told as ``seat`` is told it (:func:`dreizehn.play.say.tell`), and
    for a scored stage the lines of its explanation."""
    told = say.tell(game, w, event, names, seat)
    entry = {**event.for_seat(EVERYONE if whole else seat).to_json(), "text": told.text}
    if event.key == "stage.scored":
        entry["lines"] = list(told.lines)
    return entry


class Audience(Protocol):
    """Who is at a table, as the messages tell it (:class:`~dreizehn.server.rooms.presence.Presence`)."""

    def conns(self) -> list[Conn]:
        """Every connection of this process to the table."""

    def seats_connected(self) -> set[int]:
        """The seats a connection holds, here or in another process."""

    def seats_stand_in(self) -> set[int]:
        """The seats a stand-in plays, here or in another process."""

    def watching(self) -> int:
        """How many spectators' connections are open here."""

    def changes(self) -> list[dict[str, Any]]:
        """When a stand-in began to play for a person and when they came back, in order."""


class Telling:
    """The messages of a room: welcomes, updates, presence, refusals, chat."""

    def __init__(self, state: TableState, audience: Audience, chat: list[Line] | None = None) -> None:
        self._state = state
        self._audience = audience
        self._chat: deque[Line] = deque(chat or (), maxlen=RECENT_LINES)
        """The latest lines of chat, every reader's."""
        self._mutes: dict[int, frozenset[int]] = {}
        """Per seat, the seats whose lines of chat it does not read: its account blocks theirs (rule U8,
        :func:`~dreizehn.server.accounts.relations.seat_mutes`)."""

    def set_mutes(self, mutes: dict[int, frozenset[int]]) -> None:
        """Who blocks whom at the table now, seat by seat (read from the database by the room)."""
        self._mutes = mutes

    def hidden(self, line: Line, seat: int | None) -> bool:
        """Whether ``seat``'s reader does not read ``line``: its account blocks the speaker's."""
        return seat is not None and line.seat is not None and line.seat in self._mutes.get(seat, ())

    def seats_info(self, lang: str) -> list[dict[str, Any]]:
        """Every seat as everyone sees it, names said in ``lang``: who sits there, who is connected here or in
        another process, and which seats a stand-in plays."""
        connected = self._audience.seats_connected()
        stand_in = self._audience.seats_stand_in()
        names = self._state.names(lang)
        return [
            {"seat": s.seat, "name": names[s.seat], "kind": "bot" if s.bot else "person", "bot": s.bot,
             "joined": s.joined, "connected": s.seat in connected, "stand_in": s.seat in stand_in}
            for s in self._state.seats
        ]

    def history_words(self, lang: str) -> list[str]:
        """The course so far, an action a line: public plays only (a card drawn by another seat stays unsaid)."""
        w, game, names = words(lang), self._state.table.game, self._state.said_names(lang)
        seats = self._state.seats
        return [sentence(game.say_action(w, action, names[s]), seats, s) if 0 <= s < len(names)
                else game.say_action(w, action) for s, action in self._state.table.state.history]

    def welcome(self, conn: Conn, kind: str = "welcome") -> str:
        """The whole of the table for ``conn``: a ``welcome`` after its hello, a ``resync`` later."""
        seat, lang = conn.seat, conn.lang
        state = self._state
        table = state.table
        chat = [line.to_json() for line in readable(self._chat, seat is None) if not self.hidden(line, seat)]
        return messages.welcome(kind, state.id, table.game.id, seat, lang,
                                state.view_doc(seat, lang, history=True), self.seats_info(lang),
                                self.history_words(lang), [self.said_update(u, seat, lang) for u in state.told],
                                chat, stage_count(table.game), self.undo_open(seat),
                                [messages.taken_back_fields(back.seat, back.version, back.count,
                                                            self.taken_back_words(back.seat, lang))
                                 for back in standing_take_backs(state.take_backs) if back.version <= table.version],
                                self._audience.watching(), [change for change in self._audience.changes()
                                                            if change["version"] <= table.version])

    def undo_open(self, seat: int | None) -> tuple[bool, str | None]:
        """Whether ``seat``'s person may take back a move now, and if not, why, when it is chance or a card seen
        (:func:`~dreizehn.server.takebacks.undo_state`)."""
        if seat is None:
            return False, None
        state = self._state
        return undo_state(state.told, state.seats, seat, state.table.current_player)

    def tell_line(self, line: Line) -> None:
        """Tell a line of chat (stored already) to every connection that may read it, once (a line heard twice, from
        this process and from the database's notice, is told once): a player reads no line of a seat whose account
        their own blocks."""
        if any(known.id == line.id for known in self._chat):
            return
        self._chat.append(line)
        message = messages.said(line.to_json())
        for conn in self._audience.conns():
            if (conn.seat is None or not line.spectators_only) and not self.hidden(line, conn.seat):
                conn.send(message)

    def refusal(self, conn: Conn, err: DreizehnError, with_view: bool = True) -> str:
        """A ``refused`` for ``conn``; for an action, with the current view."""
        state = self._state
        view = state.view_doc(conn.seat, conn.lang, history=True) if with_view else None
        return messages.refused(err, conn.lang, view, state.table.version, state.said_names(conn.lang))

    def said_update(self, update: Update, seat: int | None, lang: str, said: Said | None = None) -> dict[str, Any]:
        """An applied action as ``seat`` (``None``: a spectator) is told of it in ``lang``: its version, seat,
        notation, the action in words, and its events filtered for that receiver and said (``said`` keeps what the
        receivers of one update share)."""
        game, names = self._state.table.game, self._state.said_names(lang)
        w = words(lang)
        said = Said() if said is None else said
        text = said.texts.get(lang)
        if text is None:
            text = said.texts[lang] = sentence(game.say_action(w, game.action_type.parse(update.action),
                                                               names[update.seat]), self._state.seats, update.seat)
        events = []
        for key in told_event_keys(update, seat, lang):
            entry = said.events.get(key)
            if entry is None:
                entry = said.events[key] = said_event(game, w, update.events[key[1]], names, key[2])
            events.append(entry)
        return {"version": update.version, "seat": update.seat, "action": update.action, "text": text,
                "events": events}

    def broadcast_update(self, update: Update) -> None:
        """Tell every connection of an applied action, each its own part, in its language. What receivers share
        (the action in words, the public events, the seats) is said once per language."""
        per_seat: dict[tuple[int | None, str], str] = {}
        undo: dict[int | None, tuple[bool, str | None]] = {}
        said = Said()
        for conn in self._audience.conns():
            seat, lang = conn.seat, conn.lang
            message = per_seat.get((seat, lang))
            if message is None:
                seats = said.seats.get(lang)
                whole = seats is None  # the first receiver in this language: its update is checked whole
                if seats is None:
                    seats = said.seats[lang] = messages.seats(self.seats_info(lang))
                told = self.said_update(update, seat, lang, said)
                checked = [said.checked.get(key)
                           or said.checked.setdefault(key, messages.checked_event(said.events[key]))
                           for key in told_event_keys(update, seat, lang)]
                if seat not in undo:
                    undo[seat] = self.undo_open(seat)
                message = per_seat[(seat, lang)] = messages.update(
                    told, checked, self._state.view_doc(seat, lang, history=False), seats, whole, undo[seat])
            conn.send(message)

    def broadcast_presence(self) -> None:
        """Tell every connection who is at the table, and how many watch."""
        per_lang: dict[str, str] = {}
        watching = self._audience.watching()
        for conn in self._audience.conns():
            message = per_lang.get(conn.lang)
            if message is None:
                message = per_lang[conn.lang] = messages.presence(self.seats_info(conn.lang), watching)
            conn.send(message)

    def tell_taken_back(self, back: TakeBack) -> None:
        """Tell every connection of a take-back (after the resync that shows the position before it), each in its
        language."""
        for conn in self._audience.conns():
            conn.send(messages.taken_back(back.seat, back.version, back.count,
                                          self.taken_back_words(back.seat, conn.lang)))

    def taken_back_words(self, seat: int, lang: str) -> str:
        """A take-back by ``seat``'s person in words, said after the last move that stands (``Anna took back the move
        that came next: play went on from here.``)."""
        return sentence(str(words(lang)("server.taken_back", player=self._state.said_names(lang)[seat])),
                        self._state.seats, seat)

    def tell_timed_out(self, seat: int, rule: str) -> None:
        """Tell every connection that ``seat``'s time ran out at a turn-based table and ``rule`` was applied, each in
        its language (``Bruno's time ran out: a bot played the move.``)."""
        version = self._state.table.version
        for conn in self._audience.conns():
            player = self._state.said_names(conn.lang)[seat]
            conn.send(messages.timed_out(seat, rule, version, sentence(str(words(conn.lang)(
                f"turns.timed_out.{rule}", player=player)), self._state.seats, seat)))

    def resync_all(self) -> None:
        """Send every connection the whole table again (a ``resync``)."""
        for conn in self._audience.conns():
            conn.send(self.welcome(conn, "resync"))

    def tell_all(self, message: str) -> None:
        """Send every connection the same message."""
        for conn in self._audience.conns():
            conn.send(message)
