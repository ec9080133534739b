"""Der dreizehnte Holzwurm's observation tensors for the research adapters (docs/envs.md,
:mod:`dreizehn.core.encoding`)."""

from __future__ import annotations

from typing import cast

from dreizehn.core.encoding import FLAG, BlockSpec, Encoder, Vector, counts, limits
from dreizehn.core.game import View
from dreizehn.games.holzwurm.rules import (
    BONUS,
    CARD_POINTS,
    COLOURS,
    HolzwurmRules,
    HolzwurmView,
)


def encoder(game: HolzwurmRules) -> Encoder:
    """The observation layout of ``game`` (its player count and options) for the research adapters (docs/envs.md)."""

    n, k = game.players, len(game.card_type.all())
    slots, fate_rows = 5, 6

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(HolzwurmView, any_view)
        b = enc.observation_layout.block
        b(out, "starter")[enc.rel(view, view.starter)] = 1.0
        counts(b(out, "hand"), view.hand)
        fate = b(out, "fate")
        for i, card in enumerate(view.fate[:fate_rows]):
            fate[i, card] = 1.0
        rows = b(out, "rows")
        for slot, row in enumerate(view.rows):
            if row is None:
                continue
            rows[slot, 0] = 1.0
            rows[slot, 1 + (COLOURS.index(row.colour) if row.colour is not None else 5)] = 1.0
            for card in row.cards:
                rows[slot, 7 + card] = 1.0
        sizes, known = b(out, "hand_sizes"), b(out, "known")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            counts(known[i], view.known[s])
        b(out, "removed")[0] = view.removed

    count, size = limits(game)
    blocks: list[BlockSpec] = [
        ("starter", (n,), "1 at the seat that started this game of the match (relative)", FLAG),
        ("hand", (k,), "the observer's cards, 1 per card held", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("fate", (fate_rows, k), "the fate row, bottom (the thirteen) first: one card a row; rows past its end "
                                 "are 0", FLAG),
        ("rows", (slots, 7 + k), "slots 1..5: [occupied, colour yellow/red/green/purple/blue/open, then 1 per "
                                 "card in the row]", FLAG),
        ("known", (n, k), "cards known to be in each hand (relative seats)", count),
        ("removed", (1,), "cards removed unseen (H6)", size),
    ]
    games = int(game.options["games"])
    # H3, H15: a game gives a seat at most every plus card and the bonus, at least every minus card
    low = sum(p for p in CARD_POINTS if p < 0)
    high = sum(p for p in CARD_POINTS if p > 0) + BONUS
    return Encoder(game, blocks, fill, games, (float(low * games), float(high * games)))
