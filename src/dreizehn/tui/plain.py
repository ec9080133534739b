"""``dreizehn play --plain``: the game line by line, for screen readers and scripts.

No colours, boxes or redraws: every event is printed in words as it happens; on each of a person's turns the view
is printed, a line at a time, then a line that starts with ``legal:`` and lists the legal moves in notation,
separated by a comma and a space. One move is read per line from standard input; ``status`` prints the view again,
``hint`` the hint, ``quit`` (or the end of the input) saves the game and ends. An illegal move is answered in words
(a line that starts with ``!``), followed by the ``legal:`` line again. With several people, a line
``>> Pass the device to Ben.`` comes before the next person's view (docs/tui.md).
"""

from __future__ import annotations

from typing import TextIO

from dreizehn.core.errors import DreizehnError
from dreizehn.table import Update
from dreizehn.tui.session import Session


class PlainGame:
    """The line-by-line game of one session, reading moves from ``source`` and writing to ``sink``."""

    def __init__(self, session: Session, source: TextIO, sink: TextIO, *, hint: bool = False) -> None:
        self.session = session
        self.source = source
        self.sink = sink
        self.auto_hint = hint

    def say(self, text: str) -> None:
        self.sink.write(text + "\n")
        self.sink.flush()

    def tell(self, updates: list[Update]) -> None:
        for update in updates:
            for line in self.session.say_update(update):
                self.say(("  " if line.kind == "scoring" else "") + line.text)

    def run(self) -> int:
        """Play to the end of the game or of the input; the game is saved either way. Returns the exit status."""
        session = self.session
        for line in session.opening_lines():
            self.say(line.text)
        while True:
            self.tell(session.play_bots())
            if session.table.is_over:
                for total in session.totals_lines():
                    self.say(total)
                session.save()
                self.say(session.saved_line())
                return 0
            if session.needs_hand_over():
                self.say(">> " + session.words("tui.pass", player=session.hand_over()))
            self.status()
            if self.auto_hint:
                self.hint()
            if not self.turn():
                session.save()
                self.say(session.saved_line())
                return 0

    def status(self) -> None:
        for line in self.session.view_lines():
            self.say(line)
        for line in self.session.totals_lines():
            self.say(line)

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
            text = self.source.readline()
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
            else:
                try:
                    update = session.submit(move)
                except DreizehnError as err:
                    self.say("! " + session.words.error(err))
                else:
                    self.tell([update])
                    return True
            self.say(session.legal_line())
