"""Drawing a seat's view for the terminal: cards in their colours, 13's targets side by side, Holzwurm's rows and
fate row, and the rest of the view in the game's own words.

Everything here is drawn from one :class:`~dreizehn.core.game.View` (the viewer's), never from the state. The
sentences come from the game's ``say_view``; a drawing replaces only the lines it shows (the targets, the rows, the
hand), so nothing the words say is lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.words import Words

HEAD_LINES = 3
"""The lines every game's ``say_view`` starts with (stage, turn, totals): shown in the app's header."""
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# The printed cards' colours in true colour (themes draw the 16 named terminal colours as they like: blue as violet)
_BLUE, _YELLOW, _GREEN, _RED, _PURPLE = "#1f5fbf", "#f0c020", "#2e9e3e", "#c8202c", "#7a2fa0"
_KNIZIA = {"B": f"bold white on {_BLUE}", "Y": f"bold black on {_YELLOW}", "G": f"bold white on {_GREEN}",
           "R": f"bold white on {_RED}"}
_HOLZWURM = {"Y": f"bold black on {_YELLOW}", "R": f"bold white on {_RED}", "G": f"bold white on {_GREEN}",
             "P": f"bold white on {_PURPLE}", "B": f"bold white on {_BLUE}", "N": "bold black on #b4b4b4"}
_POISON = "bold yellow on black"
_RED_SUIT = "bold red on white"
_BLACK_SUIT = "bold black on white"


def card_label(game: Game, card: int) -> str:
    """A card's short label: its notation, with a suit symbol in Three Thirteen (``10♥``)."""
    text = game.card_type.of(card).text
    if game.id == "three-thirteen" and text[-1:] in SUITS:
        return text[:-1] + SUITS[text[-1]]
    return text


def card_style(game: Game, card: int) -> str:
    """A card's colours: its colour in 13 and Holzwurm, red or black suits in Three Thirteen."""
    text = game.card_type.of(card).text
    if game.id == "knizia13":
        return _KNIZIA.get(text[:1], "bold")
    if game.id == "holzwurm":
        return _HOLZWURM.get(text[:1], _POISON)
    return _RED_SUIT if text[-1:] in ("H", "D") else _BLACK_SUIT


def chips(game: Game, cards: Sequence[int], *, sort: bool = False) -> Text:
    """Cards as coloured chips, side by side (sorted for a hand)."""
    text = Text()
    for card in sorted(cards) if sort else cards:
        if text:
            text.append(" ")
        text.append(f" {card_label(game, card)} ", style=card_style(game, card))
    return text


def hand(game: Game, view: View) -> Text:
    """The viewer's hand, sorted, in colour."""
    return chips(game, list(getattr(view, "hand", ())), sort=True)


def table(game: Game, words: Words, view: View, names: Sequence[str]) -> RenderableType:
    """The table as the viewer sees it: the game's drawing, then its other lines in words."""
    lines = game.say_view(words, view, names)[HEAD_LINES:]
    if game.id == "knizia13":
        return _knizia13(game, words, view, lines)
    if game.id == "holzwurm":
        return _holzwurm(game, words, view, lines)
    if game.id == "three-thirteen" and not view.is_over and len(getattr(view, "hand", ())) > 0:
        lines = lines[:1] + lines[2:]  # the hand is drawn on its own
    return Text("\n".join(lines))


def _knizia13(game: Game, words: Words, view: View, lines: list[str]) -> RenderableType:
    from dreizehn.games.knizia13 import CARD_VALUE, colour_word

    targets: list[list[int]] = [list(t) for t in getattr(view, "targets", ())]
    if not targets:
        return Text("\n".join(lines))
    grid = Table(expand=True, show_edge=False, pad_edge=False, box=None, padding=(0, 1, 0, 0))
    for index, cards in enumerate(targets):
        colour = words.say(colour_word(index, noun=True))
        grid.add_column(words("tui.target", colour=colour, sum=sum(CARD_VALUE[c] for c in cards)), ratio=1,
                        no_wrap=True, overflow="ellipsis")
    grid.add_row(*(chips(game, cards) if cards else Text("·") for cards in targets))
    # say_view: the dealer, the three targets, the hand (when there is one), then the counts
    rest = lines[:1] + lines[4 + (1 if getattr(view, "hand", ()) else 0):]
    return Group(grid, Text(""), Text("\n".join(rest)))


def _holzwurm(game: Game, words: Words, view: View, lines: list[str]) -> RenderableType:
    rows = [(slot, row) for slot, row in enumerate(getattr(view, "rows", ())) if row is not None]
    fate = list(reversed(getattr(view, "fate", ())))
    drawn = Text()
    for slot, row in rows:
        colour = words(f"holzwurm.colour.{row.colour}") if row.colour else words("holzwurm.view.open")
        drawn.append(words("tui.row", row=slot + 1, colour=colour, n=len(row.cards)) + " ")
        drawn.append_text(chips(game, row.cards))
        drawn.append("\n")
    if not rows:
        drawn.append(words("holzwurm.view.no_rows") + "\n")
    drawn.append(words("tui.fate", n=len(fate)) + " ")
    drawn.append_text(chips(game, fate))
    # say_view: a line per row (or one saying there is none), the fate row, the hand, then the rest
    rest = lines[max(1, len(rows)) + 1 + 1:]
    return Group(drawn, Text(""), Text("\n".join(rest)))
