"""The session behind ``dreizehn play``: one :class:`~dreizehn.table.Table` with its people and bots, what each person
may see, their moves, hints, saving and resuming.

Both faces of the terminal game (the full-screen app, :mod:`dreizehn.tui.app`, and the line-by-line mode,
:mod:`dreizehn.tui.plain`) work through a :class:`Session`; neither holds a turn loop of its own or reads the state.
The session shows one seat at a time, the **viewer**: the person whose turn it is, or the last one who moved while
the bots play. When another person must move, the viewer changes only through a hand-over
(:meth:`Session.hand_over`), so that on one screen nobody sees another's hand.

A record names each person by name and each bot by its specification or level (``medium``, ``ismcts:time=1``), so
that ``dreizehn play --resume FILE`` seats the bots again and keeps the people people.

>>> session = Session.create("knizia13", people=["Ann"], bots=["random"], players=3, seed=3, lang="en")
>>> session.names, session.person_seats
(['Ann', 'Bot 2 (random)', 'Bot 3 (random)'], (0,))
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import LEVEL_NAMES, level_name
from dreizehn.core.errors import DreizehnError, UsageError
from dreizehn.core.events import Event
from dreizehn.core.game import Game, View
from dreizehn.core.record import dumps, load, parse
from dreizehn.core.registry import load_game
from dreizehn.hints import Analysis, hint
from dreizehn.say import tell
from dreizehn.table import Seat, Table, Update
from dreizehn.words import Words, words

DEFAULT_HINT_SECONDS = 1.0
"""How long a hint thinks, unless the command line says otherwise."""
HINT_LINES = 3
"""How many rated moves a hint shows."""
HINT_SHORT_WIDTH = 44
"""The columns of a short hint's lines (a phone's screen): its note is wrapped to them."""


def is_bot_name(name: str, game: Game) -> bool:
    """Whether a record's player name names a bot (a level or a bot specification): such a seat resumes as a bot."""
    if name.strip().lower() in LEVEL_NAMES:
        return True
    try:
        make_bot(name, game)
    except DreizehnError:
        return False
    return True


def default_save_path(game_id: str, seed: int) -> Path:
    """Where a game is saved unless told: ``dreizehn-GAME-SEED.json`` in the current folder."""
    return Path(f"dreizehn-{game_id}-{seed}.json")


@dataclass
class Line:
    """A line of the game's course as the viewer may know it: ``kind`` is ``event``, ``scored`` (a stage scored),
    ``scoring`` (a line of its scoring explained) or ``over``."""

    text: str
    kind: str = "event"


@dataclass
class Session:
    """A game at the terminal: the table, the names people read, the language, where it is saved."""

    table: Table
    lang: str
    path: Path
    hint_seconds: float = DEFAULT_HINT_SECONDS
    viewer: int = field(default=-1)
    updates: list[Update] = field(default_factory=list)
    opening: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.viewer < 0:
            self.viewer = self.first_person()
        self.opening = self.table.opening_events()
        self.table.listen(self.updates.append)

    # -- making sessions -----------------------------------------------------------------------------------------

    @classmethod
    def create(cls, game_id: str, people: Sequence[str], bots: Sequence[str], players: int, seed: int, *,
               options: Mapping[str, object] | None = None, lang: str = "en", path: Path | None = None,
               hint_seconds: float = DEFAULT_HINT_SECONDS) -> Session:
        """A new game: the people sit first, the bots after them (the last bot fills the seats left)."""
        game = load_game(game_id, players, options)
        if not people or len(people) > players:
            raise UsageError("tui.error.people", rule="C2", people=len(people), players=players)
        left = players - len(people)
        if left and not bots:
            raise UsageError("sim.no_bots", rule="C2")
        if len(bots) > left:
            raise UsageError("sim.too_many_bots", rule="C2", bots=len(bots), players=left)
        for name in people:
            if is_bot_name(name, game):
                raise UsageError("tui.error.name_is_bot", rule="C2", name=name)
        filled = list(bots) + [bots[-1]] * (left - len(bots)) if left else []
        seats = [Seat(name) for name in people] + [Seat(spec, bot=spec) for spec in filled]
        table = Table(game, tuple(seats), seed, game.new_state(seed))
        return cls(table, lang, path or default_save_path(game_id, seed), hint_seconds)

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None, lang: str = "en", save_to: Path | None = None,
               hint_seconds: float = DEFAULT_HINT_SECONDS) -> Session:
        """The game saved in ``path`` where it stopped: seats named by a bot stay bots, the others are people."""
        state = load(path)
        doc = parse(path.read_bytes())
        names = [str(name) for name in doc["players"]]
        seats = [Seat(name, bot=name if is_bot_name(name, state.game) else None) for name in names]
        if not any(not s.is_bot for s in seats):
            raise UsageError("tui.error.no_people", rule="C2", path=str(path))
        seed = random.SystemRandom().randrange(10**9) if seed is None else seed
        table = Table.resume(doc, seats, seed)
        return cls(table, lang, save_to or path, hint_seconds)

    # -- what the people see -------------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def words(self) -> Words:
        return words(self.lang)

    @property
    def person_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, who in enumerate(self.table.seats) if not who.is_bot)

    @property
    def names(self) -> list[str]:
        """The names people read: the people's own, and ``Bot 2 (medium)`` for a bot."""
        out = []
        for seat, who in enumerate(self.table.seats):
            if who.bot is None:
                out.append(who.name)
            else:
                level = level_name(who.bot, self.game.id, self.game.players)  # the level it plays
                bot = self.words(f"tui.level.{level}") if level is not None else who.bot
                out.append(self.words("tui.bot_name", number=seat + 1, bot=bot))
        return out

    def first_person(self) -> int:
        """The person who sees the table first: the person to move, else the first person."""
        if self.table.waiting_for_person:
            return self.table.current_player
        return self.person_seats[0]

    def view(self) -> View:
        """What the viewer may know now."""
        return self.table.view(self.viewer)

    def view_lines(self) -> list[str]:
        """The viewer's view in words, a line each."""
        return self.game.say_view(self.words, self.view(), self.names)

    def my_turn(self) -> bool:
        """Whether the viewer is to move."""
        return self.table.waiting_for_person and self.table.current_player == self.viewer

    def needs_hand_over(self) -> bool:
        """Whether a person other than the viewer must move: the screen must be handed over first."""
        return self.table.waiting_for_person and self.table.current_player != self.viewer

    def hand_over(self) -> str:
        """Make the person to move the viewer; returns their name."""
        self.viewer = self.table.current_player
        return self.names[self.viewer]

    def legal(self) -> list[str]:
        """The viewer's legal moves in notation (empty when it is not their turn)."""
        if not self.my_turn():
            return []
        return [self.game.action_to_text(a) for a in self.view().legal_actions]

    def legal_line(self) -> str:
        """``legal: A, B, C``: the line a script reads on each turn (never translated)."""
        return "legal: " + ", ".join(self.legal())

    def say_update(self, update: Update) -> list[Line]:
        """An update as the viewer may know it, in words: each event, and a stage's scoring explained."""
        return self.say_events(update.for_seat(self.viewer).events)

    def say_events(self, events: Sequence[Event]) -> list[Line]:
        out: list[Line] = []
        for event in events:
            told = tell(self.game, self.words, event, self.names, self.viewer)
            out.append(Line(told.text, {"game.over": "over", "stage.scored": "scored"}.get(event.key, "event")))
            out.extend(Line(line, "scoring") for line in told.lines)
        return out

    def opening_lines(self) -> list[Line]:
        """What the viewer is told as the session starts: the game and its players, then the deal."""
        title = self.words(f"{self.game.id}.title")
        head = Line(self.words("tui.playing", game=title, players=self.words.join(self.names)))
        return [head, *self.say_events(self.opening)]

    def course(self) -> list[Line]:
        """Every line told to the viewer so far (filtered for the current viewer)."""
        out = self.opening_lines()
        for update in self.updates:
            out.extend(self.say_update(update))
        return out

    def totals_lines(self) -> list[str]:
        """The score sheet: each finished stage's points, then the totals, one line each."""
        w, names = self.words, self.names
        view = self.view()
        stage = w(f"{self.game.id}.stage", n=1)
        lines = []
        for number, scores in enumerate(view.stage_scores, 1):
            points = ", ".join(str(p) for p in scores)
            line = w("tui.sheet.stage", stage_name=stage, stage=number, points=points)
            lines.append(line[:1].upper() + line[1:])
        lines.append(w("tui.sheet.totals", scores=w.join([w("score.of", player=names[s], points=p)
                                                            for s, p in enumerate(view.totals)])))
        return lines

    # -- acting --------------------------------------------------------------------------------------------------

    def parse_move(self, text: str) -> int:
        """The viewer's move written as ``text`` (its notation); refusals raise a :class:`DreizehnError`."""
        return int(self.game.parse_action(text.strip()))

    def submit(self, action: int | str) -> Update:
        """The viewer's move; an illegal one raises a :class:`DreizehnError` and changes nothing."""
        if isinstance(action, str):
            action = self.parse_move(action)
        return self.table.submit(self.viewer, action, version=self.table.version)

    def play_bots(self) -> list[Update]:
        """Let the bots play until a person must move (for the line-by-line mode; the app plays them in a worker)."""
        return self.table.play_bots()

    def hint(self, seed: int = 0) -> Analysis:
        """The hint for the viewer's move: the move of the game's hint level first, every legal move rated (win chance,
        expected final points)."""
        return hint(self.view(), seconds=self.hint_seconds, rng=seed, game=self.game)

    def hint_lines(self, analysis: Analysis, *, short: bool = False) -> list[str]:
        """The best moves of a hint in words, best first, and why the bot's move is first where another shows a better
        number (``Analysis.note``); ``short``: each move on one line of a phone's width, in notation only."""
        w = self.words
        if analysis.level is None:
            lines = [w("tui.hint.head", n=analysis.playouts)]
        else:
            lines = [w("tui.hint.head_search", n=analysis.playouts, level=w(f"tui.level.{analysis.level}"))]
        for rating in analysis.ratings[:HINT_LINES]:
            said = "" if short else self.game.say_action(w, rating.action)
            lines.append(w("tui.hint.line_short" if short else "tui.hint.line", move=rating.text, said=said,
                           win=f"{rating.win:.0%}", win_sd=f"{rating.win_sd:.0%}", points=f"{rating.points:.1f}"))
        if analysis.note and analysis.rival is not None and analysis.choice is not None:  # why the bot's move is first
            level = w(f"tui.level.{analysis.level}") if analysis.level else analysis.search
            note = w(f"tui.hint.note_{analysis.note}", choice=analysis.rating(analysis.choice).text,
                     rival=analysis.rating(analysis.rival).text, level=level)
            lines += textwrap.wrap(note, HINT_SHORT_WIDTH) if short else [note]
        return lines

    # -- saving --------------------------------------------------------------------------------------------------

    def save(self) -> Path:
        """Write the record (people by name, bots by specification) to :attr:`path`; returns it."""
        self.path.write_text(dumps(self.table.state, self.table.names()), encoding="utf-8")
        return self.path

    def saved_line(self) -> str:
        return self.words("tui.saved", path=str(self.path))
