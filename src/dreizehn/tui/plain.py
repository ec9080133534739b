"""``dreizehn play --plain``: the game line by line, for screen readers and scripts.

No colours, boxes or redraws: every event is printed in words as it happens; on each of a person's turns the view
is printed, a line at a time, then a line that starts with ``legal:`` and lists the legal moves in notation,
separated by a comma and a space. One move is read per line from standard input; ``status`` prints the view again,
``hint`` the hint, ``help`` or ``?`` the help, ``undo`` takes back (rule S8), ``quit`` (or the end of the input,
Ctrl+C, SIGTERM, SIGHUP) saves the game and ends. An illegal move is answered in words (a line that starts with
``!``), followed by the ``legal:`` line again. With several people, a line ``>> Pass the device to Ben.`` comes
before the next person's view (docs/tui.md).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import TextIO

from dreizehn.core.errors import DreizehnError
from dreizehn.play.table import Update
from dreizehn.tui.session import Session

LEAVING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that end the game, saved: Ctrl+C, being ended, the terminal closed."""


class Leave(Exception):
    """A signal ends the game."""


class PlainGame:
    """The line-by-line game of one session, reading moves from ``source`` and writing to ``sink``."""

    def __init__(self, session: Session, source: TextIO, sink: TextIO, *, hint: bool = False) -> None:
        self.session = session
        self.source = source
        self.sink = sink
        self.auto_hint = hint
        self.leaving = 0
        """The number of the signal that ends the game, once one came."""
        self.reading = False
        """Whether a line is being awaited (a signal then ends the game at once)."""

    def say(self, text: str) -> None:
        self.sink.write(text + "\n")
        self.sink.flush()

    def tell(self, updates: list[Update]) -> None:
        for update in updates:
            for line in self.session.say_update(update):
                self.say(("  " if line.kind == "scoring" else "") + line.text)

    def run(self) -> int:
        """Play to the end of the game or of the input; the game is saved either way, and when Ctrl+C (SIGINT),
        SIGTERM or SIGHUP (the terminal closed) ends it. Returns the exit status (128 and the signal's number for a
        signal)."""
        with self.signals(), contextlib.suppress(Leave):
            self.play()
        self.session.save()
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP): the game is saved all the same
            self.say(self.session.saved_line())
        return 128 + self.leaving if self.leaving else 0

    def play(self) -> None:
        """The game, until its end, the end of the input, ``quit`` or a signal."""
        session = self.session
        if not session.handed:  # several people: the first to see the game is named before the deal is told
            self.say(">> " + session.words("tui.pass", player=session.hand_over()))
        for line in session.opening_lines():
            self.say(line.text)
        while True:
            while session.table.bot_to_move:  # a bot at a time, so that a signal leaves between two moves
                self.stop_if_leaving()
                self.tell([session.table.step()])
            if session.table.is_over:
                for total in session.totals_lines():
                    self.say(total)
                return
            if session.needs_hand_over():
                self.say(">> " + session.words("tui.pass", player=session.hand_over()))
            self.status()
            if self.auto_hint:
                self.hint()
            if not self.turn():
                return

    @contextlib.contextmanager
    def signals(self) -> Iterator[None]:
        """While the game runs (in the main thread): a signal that ends it is noted, and ends it at once while a
        line is awaited, else before the next move is made (never in the middle of one)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before = {number: signal.getsignal(number) for number in LEAVING}
        for number in LEAVING:
            signal.signal(number, self._signalled)
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)

    def _signalled(self, number: int, _frame: object) -> None:
        self.leaving = number
        if self.reading:
            raise Leave

    def stop_if_leaving(self) -> None:
        if self.leaving:
            raise Leave

    def status(self) -> None:
        for line in self.session.view_lines():
            self.say(line)
        for line in self.session.totals_lines():
            self.say(line)
        takes = self.session.takes_line()
        if takes:
            self.say(takes)

    def hint(self) -> None:
        session = self.session
        self.say(session.words("tui.hint.thinking"))
        for line in session.hint_lines(session.hint(seed=session.table.version)):
            self.say(line)

    def turn(self) -> bool:
        """Read lines until the viewer has moved (``True``) or the input ends or says ``quit`` (``False``)."""
        session = self.session
        self.say(session.legal_line())
        while True:
            self.stop_if_leaving()
            self.reading = True
            try:
                text = self.source.readline()
            finally:
                self.reading = False
            if not text:
                return False
            move = text.strip()
            command = move.lower()
            if not move:
                continue
            if command == "quit":
                return False
            if command == "status":
                self.status()
            elif command == "hint":
                self.hint()
            elif command in ("help", "?"):
                for line in session.help_lines(plain=True):
                    self.say(line)
            elif command == "undo":
                try:
                    count = session.take_back()
                except DreizehnError as err:
                    self.say("! " + session.refusal(err))
                else:
                    self.say(session.words("tui.taken_back", player=session.names[session.viewer], n=count))
                    self.status()
            else:
                try:
                    update = session.submit(move)
                except DreizehnError as err:
                    self.say("! " + session.refusal(err))
                else:
                    self.tell([update])
                    return True
            self.say(session.legal_line())
