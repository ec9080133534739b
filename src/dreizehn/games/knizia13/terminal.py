"""13 in the terminal game: its cards in their colours, the three targets side by side
(:mod:`dreizehn.core.terminal`)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.core.terminal import BLUE, GREEN, RED, YELLOW, chips
from dreizehn.games.knizia13.rules import CARD_VALUE, colour_word
from dreizehn.words import Words

_STYLES = {"B": f"bold white on {BLUE}", "Y": f"bold black on {YELLOW}", "G": f"bold white on {GREEN}",
           "R": f"bold white on {RED}"}


def card_style(game: Game, card: int) -> str:
    """A card in its colour; a nasty four red."""
    return _STYLES.get(game.card_type.of(card).text[:1], "bold")


def table(game: Game, words: Words, view: View, lines: list[str]) -> RenderableType:
    """The three targets side by side with their sums, then the view's other lines."""
    targets: list[list[int]] = [list(t) for t in getattr(view, "targets", ())]
    if not targets:
        return Text("\n".join(lines))
    grid = Table(expand=True, show_edge=False, pad_edge=False, box=None, padding=(0, 1, 0, 0))
    for index, cards in enumerate(targets):
        colour = words.say(colour_word(index, noun=True))
        # on a phone a heading wraps, and a long target's cards go on below
        grid.add_column(words("knizia13.tui.target", colour=colour, sum=sum(CARD_VALUE[c] for c in cards)), ratio=1,
                        overflow="fold")
    grid.add_row(*(chips(game, cards, words=words) if cards else Text("·") for cards in targets))
    # say_view: the dealer, the three targets, the hand (when there is one), then the counts
    rest = lines[:1] + lines[4 + (1 if getattr(view, "hand", ()) else 0):]
    return Group(grid, Text(""), Text("\n".join(rest)))


def read_move(game: Game, text: str, words: Words, view: View | None = None) -> str:
    """A move as typed: ``R4`` alone names no target, which matters only to a player who holds a nasty four; to one
    who holds none it is read as ``R4>B``, so that they are told they hold none (K9) instead of asked for a target."""
    hand = getattr(view, "hand", None)
    if text.strip().upper() == "R4" and hand is not None and not any(game.card_type.of(c).text == "R4" for c in hand):
        return "R4>B"
    return text
