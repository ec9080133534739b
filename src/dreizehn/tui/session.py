"""The session behind ``dreizehn play``: one :class:`~dreizehn.play.table.Table` with its people and bots, what each
person
may see, their moves, hints, saving and resuming.

Both faces of the terminal game (the full-screen app, :mod:`dreizehn.tui.app`, and the line-by-line mode,
:mod:`dreizehn.tui.plain`) work through a :class:`Session`; neither holds a turn loop of its own or reads the state.
The session shows one seat at a time, the **viewer**: the person whose turn it is, or the last one who moved while
the bots play. When another person must move, the viewer changes only through a hand-over
(:meth:`Session.hand_over`), so that on one screen nobody sees another's hand.

A record names each person by name and each bot by its specification or level (``medium``, ``ismcts:time=1``), so
that ``dreizehn play --resume FILE`` seats the bots again and keeps the people people.

People read names, never seat numbers: a bot sits under a person's name, and where the seats are listed (the game's
first line, the score sheet) what it plays stands beside it (:attr:`Session.labels`); a sentence (the course of the
game, whose turn it is, the view in words, a refusal) names it alone (:attr:`Session.names`), as the browser does.

>>> session = Session.create("knizia13", people=["Ann"], bots=["random"], players=3, seed=3, lang="en")
>>> session.labels, session.names, session.person_seats
(['Ann', 'Ada (random)', 'Bruno (random)'], ['Ann', 'Ada', 'Bruno'], (0,))
>>> Session.create("knizia13", people=["Ada"], bots=["easy", "ismcts:iterations=50"], players=3, seed=3,
...                lang="de").labels
['Ada', 'Bruno (leicht)', 'Clara (ismcts:iterations=50)']
"""

from __future__ import annotations

import copy
import random
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.numbers import format_decimal, format_percent

from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import LEVEL_NAMES, LEVELS_ABOUT, level_name, name_bot_seats
from dreizehn.bots.offered import offered_levels
from dreizehn.core.errors import DreizehnError, UsageError
from dreizehn.core.events import Event
from dreizehn.core.game import Game, State, View
from dreizehn.core.record import dumps, load, parse
from dreizehn.core.registry import load_game
from dreizehn.core.terminal import card_label, drawing
from dreizehn.play.hints import Analysis, hint
from dreizehn.play.say import tell
from dreizehn.play.table import Seat, Table, Update
from dreizehn.play.undo import take_back_point
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
class CourseLine:
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
    saving: bool = True
    """Whether the game is saved (``--no-save``: never)."""
    viewer: int = field(default=-1)
    updates: list[Update] = field(default_factory=list)
    opening: list[Event] = field(default_factory=list)
    saved_version: int | None = field(default=None, init=False)
    """The version last saved to :attr:`path` (``None``: not saved)."""
    before: dict[int, State] = field(default_factory=dict, init=False)
    """The state before each of the people's moves, by version: where a take-back goes back to."""
    handed: bool = field(default=False, init=False)
    """Whether the screen was handed to the viewer: at once with one person, after a "pass the device" with several
    (also as a game starts or resumes, so that nobody sees the first person's hand before they hold the device)."""
    save_problem: str = field(default="", init=False)
    """Why the last save failed (the system's words), or nothing."""

    def __post_init__(self) -> None:
        if self.viewer < 0:
            self.viewer = self.first_person()
        self.opening = self.table.opening_events()
        self.handed = len(self.person_seats) == 1
        self.table.listen(self.updates.append)

    # -- making sessions -----------------------------------------------------------------------------------------

    @classmethod
    def create(cls, game_id: str, people: Sequence[str], bots: Sequence[str], players: int, seed: int, *,
               options: Mapping[str, object] | None = None, lang: str = "en", path: Path | None = None,
               hint_seconds: float = DEFAULT_HINT_SECONDS, saving: bool = True) -> Session:
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
        try:
            table = Table(game, tuple(seats), seed, game.new_state(seed))
        except DreizehnError as err:
            if err.code != "bot.unknown":
                raise
            levels = offered_levels(game)
            raise UsageError("tui.error.unknown_bot", rule="B2", name=err.params["name"], levels=", ".join(levels),
                             bots=err.params["bots"]) from None
        return cls(table, lang, path or default_save_path(game_id, seed), hint_seconds, saving)

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None, lang: str = "en", save_to: Path | None = None,
               hint_seconds: float = DEFAULT_HINT_SECONDS, saving: bool = True) -> Session:
        """The game saved in ``path`` where it stopped: seats named by a bot stay bots, the others are people."""
        state = load(path)
        doc = parse(path.read_bytes())
        names = [str(name) for name in doc["players"]]
        seats = [Seat(name, bot=name if is_bot_name(name, state.game) else None) for name in names]
        if not any(not s.is_bot for s in seats):
            raise UsageError("tui.error.no_people", rule="C2", path=str(path))
        seed = random.SystemRandom().randrange(10**9) if seed is None else seed
        table = Table.resume(doc, seats, seed)
        return cls(table, lang, save_to or path, hint_seconds, saving)

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
        """The names sentences say (the course of the game, whose turn it is, the view in words, who won, a
        refusal): the people's own, and for a bot a person's name that no person at the table has
        (:func:`~dreizehn.bots.levels.name_bot_seats`, as the browser names them), alone, as the browser's sentences
        say it; what it plays is said where the seats are listed (:attr:`labels`). A record keeps the bot's
        specification (:meth:`resume`)."""
        seats = self.table.seats
        given = name_bot_seats([None if who.is_bot else who.name for who in seats], [who.is_bot for who in seats])
        return [who.name if who.bot is None else name or who.bot for who, name in zip(seats, given, strict=True)]

    @property
    def labels(self) -> list[str]:
        """The seats as listed where they are introduced and scored (the game's first line, the score sheet), as the
        browser shows them at the seats: each name of :attr:`names`, a bot's with what it plays beside it,
        ``Ada (medium)`` (:meth:`bot_word`)."""
        return [name if who.bot is None else self.words("tui.bot_name", name=name, bot=self.bot_word(who.bot))
                for who, name in zip(self.table.seats, self.names, strict=True)]

    def bot_word(self, spec: str) -> str:
        """What a bot plays, in the reader's language: the level it plays here (``master`` where the game's strongest
        is ``expert``), a level's name that no level offers here but its bot plays ("trainiert": the ``learned`` bot
        in Three Thirteen at 2 players), a kind of bot's word (``random``: "zufällig"), or a search's specification
        as it was typed (``ismcts:iterations=50``)."""
        level = level_name(spec, self.game.id, self.game.players)
        if level is None and spec.strip().lower() in LEVEL_NAMES:
            level = spec.strip().lower()  # no level here, so the bot of that name plays: the word is the same
        if level is not None:
            return self.words(f"tui.level.{level}")
        kind = f"tui.bot.{spec.strip().lower()}"
        return self.words(kind) if self.words.has(kind) else spec

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
        """Whether the screen must be handed over first: to the first person who sees it (as several people start or
        resume a game), or to a person other than the viewer who must move."""
        return not self.handed or (self.table.waiting_for_person and self.table.current_player != self.viewer)

    def next_viewer(self) -> int:
        """Who the screen is handed to: the person to move, else (the bots play first) the first person."""
        return self.first_person()

    def hand_over(self) -> str:
        """Make the next viewer (:meth:`next_viewer`) the viewer; returns their name."""
        self.viewer, self.handed = self.next_viewer(), True
        return self.names[self.viewer]

    def legal(self) -> list[str]:
        """The viewer's legal moves in notation (empty when it is not their turn)."""
        if not self.my_turn():
            return []
        return [self.game.action_to_text(a) for a in self.view().legal_actions]

    def legal_line(self) -> str:
        """``legal: A, B, C``: the line a script reads on each turn (never translated)."""
        return "legal: " + ", ".join(self.legal())

    def say_update(self, update: Update) -> list[CourseLine]:
        """An update as the viewer may know it, in words: each event, and a stage's scoring explained."""
        return self.say_events(update.for_seat(self.viewer).events)

    def say_events(self, events: Sequence[Event]) -> list[CourseLine]:
        out: list[CourseLine] = []
        for event in events:
            told = tell(self.game, self.words, event, self.names, self.viewer)
            out.append(CourseLine(told.text, {"game.over": "over", "stage.scored": "scored"}.get(event.key, "event")))
            out.extend(CourseLine(line, "scoring") for line in told.lines)
        return out

    def opening_lines(self) -> list[CourseLine]:
        """What the viewer is told as the session starts: the game and its players (a bot's level beside its name,
        :attr:`labels`), then the deal."""
        title = self.words(f"{self.game.id}.title")
        head = CourseLine(self.words("tui.playing", game=title, players=self.words.join(self.labels)))
        return [head, *self.say_events(self.opening)]

    def course(self) -> list[CourseLine]:
        """Every line told to the viewer so far (filtered for the current viewer)."""
        out = self.opening_lines()
        for update in self.updates:
            out.extend(self.say_update(update))
        return out

    def over_line(self) -> str:
        """Who won, once the game is over (``The game is over: Ann wins.``); nothing before."""
        if not self.table.is_over:
            return ""
        winners = [self.names[seat] for seat in self.table.state.winners]
        return self.words("game.over", n=len(winners), names=self.words.join(winners))

    def refusal(self, err: DreizehnError) -> str:
        """A refused move as the person reads it: in words, with names for seats (``Du hast B7 nicht auf der
        Hand.``), and no rule id (``K9`` is the specification's number, for developers: the error's ``rule``)."""
        return self.words.told(self._cards_as_shown(err), self.names)

    def _cards_as_shown(self, err: DreizehnError) -> DreizehnError:
        """The error with its ``card`` named as the screen shows it in the viewer's language (``B♦``, not ``JD``)."""
        card = err.params.get("card")
        if not isinstance(card, str):
            return err
        try:
            token = self.game.card_type.parse(card)
        except DreizehnError:
            return err
        shown = copy.copy(err)
        shown.params = {**err.params, "card": card_label(self.game, int(token), self.words)}
        return shown

    def totals_lines(self) -> list[str]:
        """The score sheet: each finished stage's points, then the totals, one line each (the seats as listed, a bot's
        level beside its name: :attr:`labels`)."""
        w, names = self.words, self.labels
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

    def takes(self, action: int) -> str:
        """What a legal move of the viewer takes, in words (``takes 4 cards: −9``, or the game's own sentence
        ``<id>.takes`` where its catalogue has one, as the browser marks it), or nothing for a move that takes no
        cards."""
        cost = self.game.action_cost(self.view(), action) if self.game.captures else None
        if cost is None:
            return ""
        cards, points = cost
        signed = f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "±0"
        own = f"{self.game.id}.takes"
        return self.words(own if self.words.has(own) else "tui.takes", n=cards, points=signed)

    def takes_line(self) -> str:
        """The viewer's moves that take cards, each with what it takes, on one line (``--plain``); nothing if none."""
        said = [f"{self.game.action_to_text(a)} {self.takes(a)}" for a in self.view().legal_actions if self.takes(a)]
        return self.words("tui.takes_line", moves=", ".join(said)) if said and self.my_turn() else ""

    def help_lines(self, *, plain: bool = False) -> list[str]:
        """The help (F1; ``help`` or ``?`` in ``--plain``): the keys (the commands in ``--plain``), how cards are
        typed, and the rules in short; a level at the table with a line of its own (``learned``) says what it is."""
        w = self.words
        lines = [w("tui.help.title", game=w(f"{self.game.id}.title")), ""]
        seated = {level_name(who.bot, self.game.id, self.game.players) for who in self.table.seats if who.bot}
        about = [w(f"tui.level_about.{level}") for level in LEVELS_ABOUT if level in seated]
        lines.extend([*about, ""] if about else [])
        lines.append(w("tui.help.keys"))
        if plain:
            lines.append(w("tui.help.plain"))
        else:
            lines.extend(w(f"tui.help.{key}") for key in ("move", "type", "f1", "f2", "f3", "f4", "log", "quit"))
            if self.game.captures:
                lines.append(w("tui.help.takes"))
        lines.extend(self.keys_help())
        lines.extend(["", w("tui.help.rules"), ""])
        for paragraph in w(f"{self.game.id}.rules").split("\n\n"):
            lines.extend([paragraph.strip(), ""])
        return lines[:-1]

    # -- acting --------------------------------------------------------------------------------------------------

    def parse_move(self, text: str) -> int:
        """The viewer's move written as ``text``: its notation, its cards also with the letters the screen shows in
        the viewer's language (the game's drawing's ``read_move``: ``discard BD`` in Dutch); refusals raise a
        :class:`DreizehnError`."""
        own = drawing(type(self.game))
        if own is not None and hasattr(own, "read_move"):
            text = str(own.read_move(self.game, text, self.words, self.view()))
        return int(self.game.parse_action(text.strip()))

    def keys_help(self) -> list[str]:
        """What the keys mean when a card is typed (the game's drawing's ``keys_help``), a line each; none for a
        game whose cards are typed as shown."""
        own = drawing(type(self.game))
        return list(own.keys_help(self.game, self.words)) if own is not None and hasattr(own, "keys_help") else []

    def submit(self, action: int | str) -> Update:
        """The viewer's move; an illegal one raises a :class:`DreizehnError` and changes nothing."""
        if isinstance(action, str):
            action = self.parse_move(action)
        version, state = self.table.version, self.table.state.copy()
        update = self.table.submit(self.viewer, action, version=version)
        self.before[version] = state
        return update

    def take_back(self) -> int:
        """The viewer takes back their latest move and the bots' moves after it (rule S8, as in the browser:
        :func:`dreizehn.play.undo.take_back_point`); returns how many actions were taken back. Refusals raise a
        :class:`DreizehnError` and change nothing."""
        version = take_back_point(self.updates, self.person_seats, self.viewer, self.table.current_player)
        count = self.table.version - version
        self.table.rewind(self.before[version].copy())
        self.updates[:] = [update for update in self.updates if update.version <= version]
        self.before = {v: state for v, state in self.before.items() if v < version}
        return count

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
                           win=format_percent(rating.win, "0%", locale=self.lang),
                           win_sd=format_percent(rating.win_sd, "0%", locale=self.lang),
                           points=format_decimal(rating.points, "0.0", locale=self.lang)))
        if analysis.note and analysis.rival is not None and analysis.choice is not None:  # why the bot's move is first
            level = w(f"tui.level.{analysis.level}") if analysis.level else analysis.search
            note = w(f"tui.hint.note_{analysis.note}", choice=analysis.rating(analysis.choice).text,
                     rival=analysis.rating(analysis.rival).text, level=level)
            lines += textwrap.wrap(note, HINT_SHORT_WIDTH) if short else [note]
        return lines

    # -- saving --------------------------------------------------------------------------------------------------

    def save(self) -> Path | None:
        """Write the record (people by name, bots by specification) to :attr:`path` when saving is on; returns the
        path, or ``None`` when nothing was written (saving off, or the file could not be written: :attr:`save_problem`
        says why). Every way out of the game calls it."""
        if not self.saving:
            return None
        try:
            self.path.write_text(dumps(self.table.state, self.table.names()), encoding="utf-8")
        except OSError as err:
            self.save_problem = err.strerror or str(err)
            return None
        self.saved_version, self.save_problem = self.table.version, ""
        return self.path

    @property
    def saved(self) -> bool:
        """Whether the game as it stands now is saved."""
        return self.saved_version == self.table.version

    def saved_line(self) -> str:
        """What the person reads as they leave: where the game was saved, only if it was saved as it stands;
        else that it was not, and why."""
        if self.saved:  # a finished game is not continued: it is told again
            return self.words("tui.saved_over" if self.table.is_over else "tui.saved", path=str(self.path))
        if not self.saving:
            return self.words("tui.not_saved_off")
        return self.words("tui.not_saved", path=str(self.path), problem=self.save_problem or "?")
