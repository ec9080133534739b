"""Three Thirteen in the terminal game: cards with their suits' symbols, red or black
(:mod:`dreizehn.core.terminal`)."""

from __future__ import annotations

import re

from rich.console import RenderableType
from rich.text import Text

from dreizehn.core.game import Game, View
from dreizehn.words import Words

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_FACES = "AJQK"
_CARD = re.compile(r"^(10|[2-9]|[^\W\d_])(\S+)$")
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


def typed_letters(words: Words) -> tuple[dict[str, str], dict[str, str]]:
    """The letters a card may be typed with in ``words``' language, and the English ones, each with the notation's
    letter: the ranks as the cards show them (``B`` for a jack in German and Dutch), the suits by the language's own
    letters (``three-thirteen.suit.X.keys``: ``R`` for ruiten, ``Ka`` for Karo) and by their symbols. Upper case."""
    ranks = {letter: letter for letter in _FACES}
    suits = {suit: suit for suit in SUITS} | {symbol: suit for suit, symbol in SUITS.items()}
    for letter in _FACES:
        ranks[words(f"three-thirteen.rank.{letter}.short").upper()] = letter
    for suit in SUITS:
        for key in words(f"three-thirteen.suit.{suit}.keys").split(","):
            suits[key.strip().upper()] = suit
    return ranks, suits


def read_move(game: Game, text: str, words: Words, view: View | None = None) -> str:
    """A move as typed in ``words``' language, in notation: each card written with the letters the cards show or the
    English ones (``discard BD`` in Dutch is ``discard JD``); anything else is left as typed.

    >>> from dreizehn.words import words
    >>> read_move(None, "discard BR", words("nl")), read_move(None, "out 10Ka", words("de"))
    ('discard JD', 'out 10D')
    """
    ranks, suits = typed_letters(words)
    out = []
    for word in text.split():
        found = _CARD.match(word)
        rank = found and (found[1] if found[1].isdigit() else ranks.get(found[1].upper()))
        suit = found and suits.get(found[2].upper())
        out.append(f"{rank}{suit}" if found and rank and suit else word)
    return " ".join(out)


def keys_help(game: Game, words: Words) -> list[str]:
    """Which letters mean what when a card is typed, in ``words``' language (for the help)."""
    ranks = words.join([f"{words(f'three-thirteen.rank.{x}.short')} = {words(f'three-thirteen.rank.{x}')}"
                        for x in _FACES])
    suits = words.join([f"{words(f'three-thirteen.suit.{x}.keys').split(',')[0]} = {SUITS[x]} "
                        f"{words(f'three-thirteen.suit.{x}')}" for x in SUITS])
    return [words("three-thirteen.tui.keys", ranks=ranks, suits=suits)]
