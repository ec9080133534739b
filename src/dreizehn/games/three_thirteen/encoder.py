"""Three Thirteen's observation tensors for the research adapters (docs/envs.md, :mod:`dreizehn.core.encoding`)."""

from __future__ import annotations

from typing import cast

from dreizehn.core.encoding import FLAG, BlockSpec, Encoder, Entries, Vector, counts, limits
from dreizehn.core.game import State, View
from dreizehn.games.three_thirteen.melds import card_value
from dreizehn.games.three_thirteen.rules import (
    ROUNDS,
    ThreeThirteenRules,
    ThreeThirteenState,
    ThreeThirteenView,
    deal_size,
)


def _fill(enc: Encoder, any_view: View, out: Vector) -> None:
    """Write what ``any_view`` shows into the observation blocks of ``out``."""
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
    limit = int(enc.game.options["turn_limit"])
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


def _fill_state(enc: Encoder, any_state: State, seat: int, out: Entries) -> None:
    """:func:`_fill` from the state, for the research adapters: what ``view`` (rules.py) shows ``seat``, read from
    the state's fields without making the view (tests/envs prove the two equal)."""
    state = cast(ThreeThirteenState, any_state)
    n, k, o = enc.players, enc.num_cards, enc.offsets
    out[o["dealer"] + (state.dealer - seat) % n] = 1.0
    out[o["wild_rank"] + deal_size(min(state.round_no, ROUNDS - 1) + 1) - 1] = 1.0
    at = o["hand"]
    for kind in state.hands[seat]:
        out[at + kind] += 1.0
    out[o["stock_size"]] = float(len(state.stock))
    pile = state.pile
    if pile:
        out[o["discard_top"] + pile[-1]] = 1.0
    at = o["discard_pile"]
    for kind in pile:
        out[at + kind] += 1.0
    out[o["drawn"]] = float(state.drawn)
    out[o["turns_left"]] = float(state.turns_left)
    limit = int(enc.game.options["turn_limit"])
    if limit:
        out[o["turns_to_limit"]] = float(limit - state.turns_played)
    candidates = state.stock_candidates(seat)
    if candidates is not None:
        at = o["stock_candidates"]
        for kind in candidates:
            out[at + kind] += 1.0
    sizes, known, laid, went_out = o["hand_sizes"], o["known"], o["out_melds"], o["out"]
    order = state.out_order
    for i in range(n):
        s = (seat + i) % n
        out[sizes + i] = float(len(state.hands[s]))
        at = known + i * k
        for kind in state.known[s]:
            out[at + kind] += 1.0
        at = laid + i * k
        for meld in state.laid[s]:
            for kind in meld:
                out[at + kind] += 1.0
        if s in order:
            out[went_out + i] = 1.0 + order.index(s)


def _blocks(game: ThreeThirteenRules) -> list[BlockSpec]:
    """The game's own observation blocks: name, shape, meaning, value range."""
    n, k = game.players, len(game.card_type.all())
    limit = int(game.options["turn_limit"])
    count, size = limits(game)
    return [
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


def encoder(game: ThreeThirteenRules) -> Encoder:
    """The observation layout of ``game`` for the research adapters (docs/envs.md)."""
    k = len(game.card_type.all())
    # T11: round r scores a hand of r + 2 cards, each unmatched card at most the dearest card's penalty
    dearest = max(card_value(kind, game.options["aces"] == "low-or-high") for kind in range(k))
    totals = (0.0, float(dearest * sum(r + 2 for r in range(1, 12))))
    return Encoder(game, _blocks(game), _fill, 11, totals, _fill_state)
