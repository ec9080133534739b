"""Der dreizehnte Holzwurm's observation tensors for the research adapters (docs/envs.md,
:mod:`dreizehn.core.encoding`)."""

from __future__ import annotations

from typing import cast

from dreizehn.core.encoding import FLAG, BlockSpec, Encoder, Entries, Vector, counts, limits
from dreizehn.core.game import State, View
from dreizehn.games.holzwurm.rules import (
    BONUS,
    CARD_POINTS,
    COLOURS,
    HolzwurmRules,
    HolzwurmState,
    HolzwurmView,
)

FATE_ROWS = 6
"""Rows of the fate block: the fate row's cards from the bottom, as many as it can hold."""


def _fill_state(enc: Encoder, any_state: State, seat: int, out: Entries) -> None:
    """The encoder's ``fill`` from the state, for the research adapters: what ``view`` (rules.py) shows ``seat``,
    read from the state's fields without making the view (tests/envs prove the two equal)."""
    state = cast(HolzwurmState, any_state)
    n, k, o = enc.players, enc.num_cards, enc.offsets
    out[o["starter"] + (state.starter - seat) % n] = 1.0
    at = o["hand"]
    for kind in state.hands[seat]:
        out[at + kind] += 1.0
    at = o["fate"]
    for card in state.fate[:FATE_ROWS]:
        out[at + card] = 1.0
        at += k
    at = o["rows"]
    for slot, row in enumerate(state.rows):
        if row:
            colour = state.row_colour[slot]
            out[at] = 1.0
            out[at + 1 + (colour if colour >= 0 else 5)] = 1.0
            for card in row:
                out[at + 7 + card] = 1.0
        at += 7 + k
    sizes, known = o["hand_sizes"], o["known"]
    for i in range(n):
        s = (seat + i) % n
        out[sizes + i] = float(len(state.hands[s]))
        mask, at = state.known[s], known + i * k
        while mask:
            low = mask & -mask
            out[at + low.bit_length() - 1] += 1.0
            mask ^= low
    out[o["removed"]] = float(len(state.removed))


def encoder(game: HolzwurmRules) -> Encoder:
    """The observation layout of ``game`` (its player count and options) for the research adapters (docs/envs.md)."""

    n, k = game.players, len(game.card_type.all())
    slots, fate_rows = 5, FATE_ROWS

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
    return Encoder(game, blocks, fill, games, (float(low * games), float(high * games)), _fill_state)
