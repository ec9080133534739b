"""``dreizehn play``: the full-screen terminal game (Textual).

The screen shows the viewer's view (:class:`~dreizehn.tui.session.Session`) and nothing else: the stage and whose
turn it is, the table (drawn by :mod:`dreizehn.core.terminal`), the hand in colour, the score sheet, the last moves in
words, and the legal moves. A move is chosen with the arrow keys and Enter, by clicking it, or by typing its
notation. The bots play in a worker (the table's own loop, :meth:`~dreizehn.play.table.Table.play_bots_async`) with a
short pause, so the screen stays alive; a stage's scoring is explained on a screen of its own, and before another
person's turn a "pass the device" screen hides everything.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from dreizehn.core import terminal as render
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import say_view_head
from dreizehn.play.hints import Analysis
from dreizehn.play.table import Update
from dreizehn.tui.session import Session

SMALLEST = (80, 24)
"""The smallest terminal the screen is laid out for (columns, rows); below it a line says what to do."""
HINT_ROOM = 0.75
"""The share of the right pane's height the hint may take (its CSS ``max-height``)."""
NOT_ON_PHONES = ("f1", "f4")
"""The keys the key bar leaves out where the screen is narrow (:data:`NARROW`): help and take-back."""
LEAVING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that end the game the way Ctrl+Q does (saved first): being ended, the terminal closed."""
LOG_LINES = 500
"""How many lines of the game's course the log keeps (it scrolls: PageUp and PageDown)."""
NARROW = 72
"""Below this many columns (a phone's terminal) the course of the game goes below the table instead of beside it,
and the key bar and the typing prompt are shortened."""


class PassScreen(Screen[None]):
    """Between two people's turns: the whole screen says whose turn it is and hides everything else."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", show=False)]

    def __init__(self, message: str, prompt: str) -> None:
        super().__init__()
        self.message = message
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(self.message, id="pass-message")
            yield Static(self.prompt, id="pass-prompt")

    def action_ready(self) -> None:
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()


class ScoringScreen(ModalScreen[None]):
    """A stage's scoring explained and the running totals (and, at the end, the winners)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape", "close", show=False)]

    def __init__(self, lines: list[str], prompt: str) -> None:
        super().__init__()
        self.lines = lines
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="scoring"):
            with VerticalScroll():
                yield Static("\n".join(self.lines), id="scoring-text")
            yield Static(self.prompt, id="scoring-prompt")

    def action_close(self) -> None:
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()


class HelpScreen(ModalScreen[None]):
    """F1: the keys, how cards are typed and the rules in short; it scrolls (arrows, PageUp, PageDown)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,f1", "close", show=False)]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text("\n".join(self.lines)), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss()


class MoveInput(Input):
    """Where a move is typed; the arrow keys move through the list of moves, Enter on nothing typed plays the one
    highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_list(-1)", show=False),
        Binding("down", "move_list(1)", show=False),
    ]

    def action_move_list(self, step: int) -> None:
        moves = self.app.query_one("#moves", OptionList)
        if step < 0:
            moves.action_cursor_up()
        else:
            moves.action_cursor_down()


class SidePane(Vertical):
    """The right pane (the hint above the log): the hint is drawn anew for the pane's size once it is laid out."""

    def on_resize(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            app.draw_hint()


class PlayApp(App[None]):
    """The terminal game of one session."""

    CSS = """
    #small { display: none; height: auto; background: $warning; color: $background; padding: 0 1; }
    .-small #small { display: block; }
    #head { height: auto; max-height: 6; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 3fr; padding: 0 1; }
    #board { height: 1fr; scrollbar-size-vertical: 1; }
    #right { width: 2fr; border-left: solid $primary; padding: 0 1; }
    #table { height: auto; }
    #hand-title { height: 1; text-style: bold; }
    #hand { height: auto; max-height: 60%; }
    #sheet { height: auto; margin-top: 1; color: $text-muted; }
    #log { height: 1fr; scrollbar-size-vertical: 1; }
    #log-text { height: auto; }
    #hint { height: auto; max-height: 75%; color: $success; }
    #message { height: auto; color: $warning; padding: 0 1; }
    #moves { height: 5; border: none; padding: 0 1; scrollbar-gutter: stable; }
    #entry { border: none; height: 1; padding: 0 1; }
    #pass { align: center middle; height: 100%; }
    #pass-message { text-style: bold; content-align: center middle; width: 100%; }
    #pass-prompt { content-align: center middle; width: 100%; margin-top: 1; }
    ScoringScreen, HelpScreen { align: center middle; }
    #help { width: 95%; height: 95%; border: thick $primary; background: $surface; padding: 0 1; }
    #scoring { width: 90%; height: 80%; border: thick $primary; background: $surface; padding: 0 1; }
    #scoring-prompt { dock: bottom; text-style: bold; }
    .-narrow #main { layout: vertical; }
    .-narrow #left { width: 100%; height: 2fr; }
    .-narrow #right { width: 100%; height: 1fr; border-left: none; border-top: solid $primary; }
    .-narrow #moves { height: 4; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "tui.key.help"),
        Binding("f2", "hint", "tui.key.hint"),
        Binding("f3", "words", "tui.key.words"),
        Binding("f4", "undo", "tui.key.undo"),
        Binding("ctrl+z", "undo", show=False, priority=True),
        Binding("ctrl+q", "quit", "tui.key.quit", priority=True),
        Binding("ctrl+c", "quit", show=False, priority=True),
        Binding("pageup", "log(-1)", show=False),
        Binding("pagedown", "log(1)", show=False),
    ]

    def __init__(self, session: Session, *, hint: bool = False, pause: float = 0.6, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.auto_hint = hint
        self.pause = pause
        self.in_words = False
        self.hint_text = ""
        self.shown_hint: Analysis | None = None  # the hint shown, drawn anew for the screen's width
        self.scorings: list[list[str]] = []
        self.log_lines = [line.text for line in session.course()]
        self.log_told = 1  # how many times lines were added to the log
        self.log_drawn = 0  # the same when the log was last scrolled to its end
        self.title = session.words("tui.title")
        for key, bindings in self._bindings.key_to_bindings.items():  # the key bar in the person's language
            self._bindings.key_to_bindings[key] = [
                replace(b, description=session.words(b.description)) if b.description.startswith("tui.") else
                replace(b, description=session.words("tui.key.palette"), tooltip="") if b.action == "command_palette"
                else b for b in bindings]
        session.table.listen(self._heard)

    # -- layout --------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        w = self.session.words
        yield Static(id="small")
        yield Static(id="head")
        with Horizontal(id="main"):
            with Vertical(id="left"):  # the hand below the table, always in sight; the table scrolls above it
                with VerticalScroll(id="board", can_focus=False):
                    yield Static(id="table")
                    yield Static(id="sheet")
                yield Static(w("tui.your_hand"), id="hand-title")
                yield Static(id="hand")
            with SidePane(id="right"):
                yield Static(id="hint")
                yield VerticalScroll(Static(id="log-text"), id="log", can_focus=False)
        yield Static(id="message")
        yield OptionList(id="moves")
        yield MoveInput(placeholder=w("tui.type_move"), id="entry")
        yield Footer()

    def on_mount(self) -> None:
        self.say("")
        if not self.is_headless:  # closing the terminal (SIGHUP) or being ended (SIGTERM) saves too
            loop = asyncio.get_running_loop()
            for number in LEAVING_SIGNALS:
                loop.add_signal_handler(number, self._leave)
        self._fit(self.size.width)
        if self.session.handed:  # else nothing is drawn before the screen is handed to its first person
            self.redraw()
        self.query_one("#entry", MoveInput).focus()
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int | None = None) -> None:
        """Lay the screen out for ``width`` columns: the course below the table where it is narrow (:data:`NARROW`),
        the key bar compact and the prompt short, so that nothing is cut off; below :data:`SMALLEST` a line on top
        says what to do."""
        height = self.size.height if height is None else height
        narrow = width < NARROW
        small = width < SMALLEST[0] or height < SMALLEST[1]
        game_screen = self.screen_stack[0]  # the game's screen, even under a pass or scoring screen
        game_screen.set_class(narrow, "-narrow")
        game_screen.set_class(small, "-small")
        self.query_one("#small", Static).update(self.session.words(
            "tui.small", width=width, height=height, least=f"{SMALLEST[0]}×{SMALLEST[1]}"))
        footer = self.query_one(Footer)
        footer.compact = narrow
        for key in NOT_ON_PHONES:  # they still work; the key bar has no room for them
            self._bindings.key_to_bindings[key] = [replace(b, show=not narrow)
                                                   for b in self._bindings.key_to_bindings[key]]
        self.refresh_bindings()
        footer.show_command_palette = not narrow
        self.query_one("#entry", MoveInput).placeholder = self.session.words(
            "tui.type_move_short" if narrow else "tui.type_move")

    # -- drawing -------------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the viewer's view (and only it) anew."""
        session = self.session
        w, view, names, game = session.words, session.view(), session.names, session.game
        head = say_view_head(game, w, view, names)
        title = w(f"{game.id}.title")
        who = w("tui.viewer", player=names[session.viewer])
        self.query_one("#head", Static).update(Text(f"{title} · {who} · {head[0]}\n{head[1]}\n{head[2]}"))
        if self.in_words:
            self.query_one("#table", Static).update(Text("\n".join(session.view_lines())))
        else:
            self.query_one("#table", Static).update(render.table(game, w, view, names))
        self.query_one("#hand", Static).update(render.hand(game, view, w))
        self.query_one("#sheet", Static).update(Text("\n".join(session.totals_lines())))
        self._draw_log()
        self.query_one("#hint", Static).update(self.hint_text)
        self._fill_moves()

    def _draw_log(self) -> None:
        """The course of the game, its newest line at the bottom and in sight: a new line scrolls the log to its end,
        even where the person had scrolled back."""
        self.log_lines = self.log_lines[-LOG_LINES:]
        self.query_one("#log-text", Static).update(Text("\n".join(self.log_lines)))
        log = self.query_one("#log", VerticalScroll)
        if self.log_told != self.log_drawn:
            self.log_drawn = self.log_told
            log.anchor()
            self.call_after_refresh(log.scroll_end, animate=False, immediate=True)

    def action_log(self, pages: int) -> None:
        """PageUp and PageDown: the log a page back or on (back at its end, it follows the game again)."""
        log = self.query_one("#log", VerticalScroll)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def _fill_moves(self) -> None:
        session = self.session
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        if session.my_turn():
            moves.add_options([Option(self._move_text(a), id=str(int(a))) for a in session.view().legal_actions])
            moves.highlighted = 0
        elif session.table.is_over:
            moves.add_option(Option(session.words("tui.over_keys", over=session.over_line()), disabled=True))
        else:
            player = session.names[session.table.current_player]
            moves.add_option(Option(session.words("tui.waiting", player=player), disabled=True))

    def _move_text(self, action: int) -> Text:
        """A move of the list: its notation, its words, and what it takes (marked ▲, as the browser marks it)."""
        session = self.session
        text = Text(f"{session.game.action_to_text(action)}  {session.game.say_action(session.words, action)}")
        takes = session.takes(action)
        if takes:
            text.append(f"  ▲ {takes}", style="bold red")
        return text

    def say(self, text: str) -> None:
        """A line under the table (a refusal, where the game was saved); no line at all when there is nothing."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.display = bool(text)

    # -- turns ---------------------------------------------------------------------------------------------------

    def _heard(self, update: Update) -> None:
        """Each update as it happens: redraw, and keep a stage's scoring to explain."""
        lines = self.session.say_update(update)
        self.log_lines.extend(line.text for line in lines)
        self.log_told += 1
        if any(line.kind == "scored" for line in lines):
            self.scorings.append([line.text for line in lines if line.kind in ("scored", "scoring", "over")])
        if self.is_running and self.pause:  # people follow the bots move by move
            self.redraw()

    @work(exclusive=True, group="turns")
    async def advance(self) -> None:
        """Let the bots play until a person must move, explain any scoring, and hand over the screen if another
        person is to move (with several people, also before the first screen shows anyone's cards)."""
        session = self.session
        if not session.handed:
            await self._hand_over()
        await session.table.play_bots_async(pause=self.pause)
        while self.scorings:
            lines = self.scorings.pop(0) + [""] + session.totals_lines()
            await self.push_screen_wait(ScoringScreen(lines, session.words("tui.continue")))
        if session.table.is_over:
            session.save()
            self.say(session.saved_line())
            self.redraw()
            return
        if session.needs_hand_over():
            await self._hand_over()
        self.redraw()
        if self.auto_hint and session.my_turn():
            self.action_hint()

    async def _hand_over(self) -> None:
        """The "pass the device" screen, then the next person's view."""
        session = self.session
        name = session.names[session.next_viewer()]
        self.hint_text, self.shown_hint = "", None
        await self.push_screen_wait(PassScreen(session.words("tui.pass", player=name),
                                               session.words("tui.pass_ready", player=name)))
        session.hand_over()
        self.log_lines = [line.text for line in session.course()]
        self.log_told += 1
        self.redraw()

    def play(self, move: int | str) -> None:
        """The viewer's move: played, or refused in words."""
        session = self.session
        if not session.my_turn():
            self.say(session.words("tui.not_your_turn"))
            return
        try:
            session.submit(move)
        except DreizehnError as err:
            self.say(session.refusal(err))
            return
        self.say("")
        self.hint_text, self.shown_hint = "", None
        self.query_one("#entry", MoveInput).value = ""
        if self.pause:
            self.redraw()
        self.advance()

    @on(OptionList.OptionSelected, "#moves")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.play(int(event.option.id))

    @on(Input.Submitted, "#entry")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.play(text)
            return
        moves = self.query_one("#moves", OptionList)
        if moves.highlighted is not None:
            option = moves.get_option_at_index(moves.highlighted)
            if option.id is not None:
                self.play(int(option.id))

    # -- keys ----------------------------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.session.my_turn():
            return
        self.hint_text, self.shown_hint = self.session.words("tui.hint.thinking"), None
        self.query_one("#hint", Static).update(self.hint_text)
        self._think()

    @work(thread=True, exclusive=True, group="hint")
    def _think(self) -> None:
        session = self.session
        version = session.table.version
        self.call_from_thread(self._show_hint, version, session.hint(seed=version))

    def _show_hint(self, version: int, analysis: Analysis) -> None:
        if version == self.session.table.version:
            self.shown_hint = analysis
            self.draw_hint()

    def draw_hint(self) -> None:
        """The hint shown: each move with its words where they fit, else on one line each (in notation), so that
        every move of the hint is in sight."""
        if self.shown_hint is not None:
            right = self.query_one("#right")
            width, room = right.content_region.width, int(right.content_region.height * HINT_ROOM)
            text = "\n".join(self.session.hint_lines(self.shown_hint))
            if self.screen_stack[0].has_class("-narrow") or len(Text(text).wrap(self.console, max(1, width))) > room:
                text = "\n".join(self.session.hint_lines(self.shown_hint, short=True))
            self.hint_text = text
        self.query_one("#hint", Static).update(self.hint_text)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.session.help_lines()))

    def action_undo(self) -> None:
        """F4, Ctrl+Z: the viewer takes back their last move and the bots' after it (rule S8, as in the browser)."""
        session = self.session
        try:
            count = session.take_back()
        except DreizehnError as err:
            self.say(session.refusal(err))
            return
        self.hint_text, self.shown_hint = "", None
        self.log_lines = [line.text for line in session.course()]
        self.log_lines.append(session.words("tui.taken_back", player=session.names[session.viewer], n=count))
        self.log_told += 1
        self.say("")
        self.redraw()
        if self.auto_hint:
            self.action_hint()

    def action_words(self) -> None:
        self.in_words = not self.in_words
        self.redraw()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands, in the person's language: the keys' own, and the colours."""
        w = self.session.words
        for key, said, action in (("help", "f1", self.action_help), ("hint", "f2", self.action_hint),
                                  ("words", "f3", self.action_words), ("undo", "f4", self.action_undo)):
            yield SystemCommand(w(f"tui.key.{key}"), w(f"tui.help.{said}"), action)
        yield SystemCommand(w("tui.key.quit"), w("tui.help.quit"), self._leave)
        yield SystemCommand(w("tui.palette.theme"), w("tui.palette.theme_help"), self.action_change_theme)

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder=self.session.words("tui.palette.search"),
                                            id="--command-palette"))

    async def action_quit(self) -> None:
        """Every way out (Ctrl+Q, Ctrl+C, the command palette's Quit) saves first (when saving is on)."""
        self._leave()

    def _leave(self) -> None:
        self.session.save()
        self.exit()

    def on_unmount(self) -> None:
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for number in LEAVING_SIGNALS:
                loop.remove_signal_handler(number)
