"""Der dreizehnte Holzwurm in the terminal game: its cards in their colours, the rows and the fate row
(:mod:`dreizehn.core.terminal`)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.core.terminal import BLUE, GREEN, PURPLE, RED, YELLOW, chips
from dreizehn.words import Words

_STYLES = {"Y": f"bold black on {YELLOW}", "R": f"bold white on {RED}", "G": f"bold white on {GREEN}",
           "P": f"bold white on {PURPLE}", "B": f"bold white on {BLUE}", "N": "bold black on #b4b4b4"}
_POISON = "bold yellow on black"


def card_style(game: Game, card: int) -> str:
    """A card in its colour; the poisonous thirteen yellow on black."""
    return _STYLES.get(game.card_type.of(card).text[:1], _POISON)


def table(game: Game, words: Words, view: View, lines: list[str]) -> RenderableType:
    """The rows with their colours and cards, the fate row, then the view's other lines."""
    rows = [(slot, row) for slot, row in enumerate(getattr(view, "rows", ())) if row is not None]
    fate = list(reversed(getattr(view, "fate", ())))
    drawn: list[RenderableType] = []
    for slot, row in rows:
        colour = words(f"holzwurm.colour.{row.colour}") if row.colour else words("holzwurm.view.open")
        drawn.append(chips(game, row.cards, words=words,
                           lead=words("holzwurm.tui.row", row=slot + 1, colour=colour, n=len(row.cards))))
    if not rows:
        drawn.append(Text(words("holzwurm.view.no_rows")))
    drawn.append(chips(game, fate, words=words, lead=words("holzwurm.tui.fate", n=len(fate))))
    # say_view: a line per row (or one saying there is none), the fate row, the hand, then the rest
    rest = lines[max(1, len(rows)) + 1 + 1:]
    return Group(*drawn, Text(""), Text("\n".join(rest)))
