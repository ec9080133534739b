"""Three Thirteen in the terminal game: cards with their suits' symbols, red or black (:mod:`dreizehn.tui.render`)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.words import Words

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_RED_SUIT = "bold red on white"
_BLACK_SUIT = "bold black on white"


def card_label(game: Game, card: int, words: Words | None = None) -> str:
    """A card's rank, in ``words``' language (the rulebooks' letters: a jack is ``B`` in German and Dutch), and its
    suit's symbol: ``10♥``, ``B♠``; without words, the notation's letters (``J♠``)."""
    if words is not None:
        face = game.card_face(words, card)
        return face["value"] + face["shape"]
    text = game.card_type.of(card).text
    return text[:-1] + SUITS[text[-1]] if text[-1:] in SUITS else text


def card_style(game: Game, card: int) -> str:
    """Hearts and diamonds red, clubs and spades black."""
    return _RED_SUIT if game.card_type.of(card).text[-1:] in ("H", "D") else _BLACK_SUIT


def table(game: Game, words: Words, view: View, lines: list[str]) -> RenderableType:
    """The view's lines but the hand, which the terminal game draws on its own while the game goes on."""
    if not view.is_over and len(getattr(view, "hand", ())) > 0:
        lines = lines[:1] + lines[2:]
    return Text("\n".join(lines))
