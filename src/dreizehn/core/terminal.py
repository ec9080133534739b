"""Drawing a seat's view for the terminal: cards as coloured chips, the game's own drawing where it has one, and
the rest of the view in the game's own words.

Everything here is drawn from one :class:`~dreizehn.core.game.View` (the viewer's), never from the state. The
sentences come from the game's ``say_view``. A game's drawing is the module its class names as ``terminal``
(``games/<id>/terminal.py``), which may define ``card_label(game, card, words)``, ``card_style(game, card)`` and
``table(game, words, view, lines)``; a drawing replaces only the lines it shows (the targets, the rows, the hand), so
nothing the words say is lost. A game without one is drawn as its view in words, its cards as their notation.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from types import ModuleType

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.words import Words

HEAD_LINES = 3
"""The lines every game's ``say_view`` starts with (stage, turn, totals): shown in the app's header."""
# The printed cards' colours in true colour (themes draw the 16 named terminal colours as they like: blue as violet)
BLUE, YELLOW, GREEN, RED, PURPLE = "#1f5fbf", "#f0c020", "#2e9e3e", "#c8202c", "#7a2fa0"


@functools.cache
def drawing(game_cls: type[Game]) -> ModuleType | None:
    """The terminal drawing module a game names (``None`` for a game without one)."""
    name = game_cls.terminal
    return importlib.import_module(name) if name else None


def card_label(game: Game, card: int, words: Words | None = None) -> str:
    """A card's short label: the game's own (``10♥`` in Three Thirteen, ``B♠`` for a jack in German, in ``words``'
    language), else its notation."""
    own = drawing(type(game))
    if own is not None and hasattr(own, "card_label"):
        return str(own.card_label(game, card, words))
    return game.card_type.of(card).text


def card_style(game: Game, card: int) -> str:
    """A card's colours: the game's own, else bold."""
    own = drawing(type(game))
    if own is not None and hasattr(own, "card_style"):
        return str(own.card_style(game, card))
    return "bold"


class Chips:
    """Words, then cards as coloured chips side by side, wrapped to the width they are given: the words between
    words, the chips between chips, so that a chip is never broken at its padding (as a :class:`~rich.text.Text` of
    them would be, its padding being spaces)."""

    def __init__(self, chips: Sequence[Text], lead: str = "") -> None:
        self.chips = list(chips)
        self.lead = lead

    @property
    def plain(self) -> str:
        """The words and the chips as plain text, on one line."""
        return " ".join([self.lead] * bool(self.lead) + [chip.plain for chip in self.chips])

    def __str__(self) -> str:
        return self.plain  # as a Text of them gives its plain text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width)
        lines = list(Text(self.lead).wrap(console, width)) if self.lead else []
        line = lines.pop() if lines else Text()
        for chip in self.chips:
            if line.cell_len and line.cell_len + 1 + chip.cell_len > width:
                lines.append(line)
                line = Text()
            if line.cell_len:
                line.append(" ")
            line.append_text(chip)
        lines.append(line)
        for text in lines:
            text.end = "\n"
            yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((chip.cell_len for chip in self.chips), default=1)
        return Measurement(widest, max(widest, Text(self.plain).cell_len))


def chips(game: Game, cards: Sequence[int], *, sort: bool = False, words: Words | None = None,
          lead: str = "") -> Chips:
    """Cards as coloured chips, side by side (sorted for a hand), labelled in ``words``' language, after the words
    ``lead``."""
    return Chips([Text(f" {card_label(game, card, words)} ", style=card_style(game, card))
                  for card in (sorted(cards) if sort else cards)], lead)


def hand(game: Game, view: View, words: Words | None = None) -> Chips:
    """The viewer's hand, sorted, in colour, labelled in ``words``' language."""
    return chips(game, list(getattr(view, "hand", ())), sort=True, words=words)


def table(game: Game, words: Words, view: View, names: Sequence[str]) -> RenderableType:
    """The table as the viewer sees it: the game's drawing, then its other lines in words."""
    lines = game.say_view(words, view, names)[HEAD_LINES:]
    own = drawing(type(game))
    if own is not None and hasattr(own, "table"):
        drawn: RenderableType = own.table(game, words, view, lines)
        return drawn
    return Text("\n".join(lines))
