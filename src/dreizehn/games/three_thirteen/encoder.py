"""Three Thirteen's observation tensors for the research adapters (docs/envs.md, :mod:`dreizehn.core.encoding`)."""

from __future__ import annotations

from typing import cast

from dreizehn.core.encoding import FLAG, BlockSpec, Encoder, Vector, counts, limits
from dreizehn.core.game import View
from dreizehn.games.three_thirteen.melds import card_value
from dreizehn.games.three_thirteen.rules import (
    ThreeThirteenRules,
    ThreeThirteenView,
)


def encoder(game: ThreeThirteenRules) -> Encoder:
    """The observation layout of ``game`` for the research adapters (docs/envs.md)."""
    n, k = game.players, len(game.card_type.all())
    limit = int(game.options["turn_limit"])

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(ThreeThirteenView, any_view)
        b = enc.observation_layout.block
        b(out, "dealer")[enc.rel(view, view.dealer)] = 1.0
        b(out, "wild_rank")[view.wild_rank - 1] = 1.0
        counts(b(out, "hand"), view.hand)
        b(out, "stock_size")[0] = view.stock_size
        pile = view.discard_pile
        if pile:
            b(out, "discard_top")[pile[-1]] = 1.0
        counts(b(out, "discard_pile"), pile)
        b(out, "drawn")[0] = float(view.drawn)
        b(out, "turns_left")[0] = view.turns_left
        if limit:
            b(out, "turns_to_limit")[0] = limit - view.turns_played
        if view.stock_candidates is not None:
            counts(b(out, "stock_candidates"), view.stock_candidates)
        sizes, known = b(out, "hand_sizes"), b(out, "known")
        out_melds, went_out = b(out, "out_melds"), b(out, "out")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            counts(known[i], view.known[s])
            for meld in view.out_melds[s]:
                counts(out_melds[i], meld)
            if s in view.out_seats:
                went_out[i] = 1.0 + view.out_seats.index(s)

    count, size = limits(game)
    blocks: list[BlockSpec] = [
        ("dealer", (n,), "1 at the dealer of this round (relative)", FLAG),
        ("wild_rank", (13,), "the round's wild rank, ace .. king (T3)", FLAG),
        ("hand", (k,), "the observer's cards, counts per card kind", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("stock_size", (1,), "cards in the stock", size),
        ("discard_top", (k,), "1 at the top card of the discard pile", FLAG),
        ("discard_pile", (k,), "the whole discard pile, counts per card kind", count),
        ("drawn", (1,), "1 when the seat to move has drawn this turn", FLAG),
        ("known", (n, k), "cards known to be in each hand (taken from the discard pile, T13)", count),
        ("out", (n,), "0, or the order (1, 2, ...) in which each seat went out this round", (0.0, float(n))),
        ("out_melds", (n, k), "the cards each seat laid when going out", count),
        ("turns_left", (1,), "turns still to play once someone went out, -1 before", (-1.0, float(n))),
        ("turns_to_limit", (1,), "turns the round may still last under turn_limit (T10), the current one included; "
                                 "0 without a limit", (0.0, float(limit))),
        ("stock_candidates", (k,), "after a reshuffle: the cards that may still be in the stock; all 0 before",
         count),
    ]
    # T11: round r scores a hand of r + 2 cards, each unmatched card at most the dearest card's penalty
    dearest = max(card_value(kind, game.options["aces"] == "low-or-high") for kind in range(k))
    return Encoder(game, blocks, fill, 11, (0.0, float(dearest * sum(r + 2 for r in range(1, 12)))))
