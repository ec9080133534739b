"""The terminal's cards speak the reader's language: Three Thirteen's court cards carry the rulebooks' letters
(a jack is B in German and Dutch, a queen D or V), as in the sentences beside them and in the browser."""

from __future__ import annotations

import pytest

import dreizehn
from dreizehn.core import terminal as render
from dreizehn.games.three_thirteen.rules import ThreeThirteenCard, ThreeThirteenView
from dreizehn.games.three_thirteen.words import say_card
from dreizehn.words import words


@pytest.mark.parametrize(("lang", "jack", "queen", "king"), [("en", "J♠", "Q♥", "K♣"), ("de", "B♠", "D♥", "K♣"),
                                                             ("nl", "B♠", "V♥", "H♣")])
def test_a_hand_is_labelled_in_the_readers_language(lang: str, jack: str, queen: str, king: str) -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    for seed in range(500):  # a round-1 hand (three cards) with the ten of diamonds: a two-digit rank stays whole
        view = game.new_state(seed).view(0)
        assert isinstance(view, ThreeThirteenView)
        if any(ThreeThirteenCard.of(c).text == "10D" for c in view.hand):
            break
    court = [ThreeThirteenCard.parse(text) for text in ("JS", "QH", "KC")]
    chips = render.chips(game, court, words=words(lang)).plain.split()
    assert chips == [jack, queen, king]
    said = [say_card(words(lang), card, short=True) for card in court]
    assert [chip[:-1] for chip in chips] == [text[:-1] for text in said]  # as the sentences write them
    assert "10♦" in render.hand(game, view, words(lang)).plain.split()


@pytest.mark.parametrize("width", [12, 20, 46, 80])
def test_chips_wrap_between_cards_never_inside_one(width: int) -> None:
    from rich.console import Console

    game = dreizehn.load_game("holzwurm", 2)
    cards = list(range(0, 60, 3))
    drawn = render.chips(game, cards, lead="The fate row (20 cards, the top one first):")
    console = Console(width=width)
    lines = console.render_lines(drawn, console.options, pad=False)
    painted = []  # per line, the runs of text in a card's colours
    for line in lines:
        assert sum(len(segment.text) for segment in line) <= width
        painted += [segment.text for segment in line if segment.style and segment.style.bgcolor]
    assert painted == [f" {render.card_label(game, card)} " for card in cards]  # each chip whole, in order
    assert "".join(segment.text for segment in lines[0]).startswith("The")
