"""13's observation tensors for the research adapters (docs/envs.md, :mod:`dreizehn.core.encoding`)."""

from __future__ import annotations

from typing import cast

from dreizehn.core.encoding import FLAG, BlockSpec, Encoder, Entries, Vector, counts, limits
from dreizehn.core.game import State, View
from dreizehn.games.knizia13.rules import NASTY, Knizia13Rules, Knizia13State, Knizia13View


def _fill_state(enc: Encoder, any_state: State, seat: int, out: Entries) -> None:
    """The encoder's ``fill`` from the state, for the research adapters: what ``view`` (rules.py) shows ``seat``,
    read from the state's fields without making the view (tests/envs prove the two equal)."""
    state = cast(Knizia13State, any_state)
    n, k, o = enc.players, enc.num_cards, enc.offsets
    out[o["dealer"] + (state.dealer - seat) % n] = 1.0
    at = o["hand"]
    for kind in state.hands[seat]:
        out[at + kind] += 1.0
    out[o["stock_size"]] = float(len(state.stock))
    at = o["targets"]
    for pile in state.targets:
        for kind in pile:
            out[at + kind] += 1.0
        at += k
    sizes, taken_sizes, taken = o["hand_sizes"], o["taken_sizes"], o["taken"]
    open_piles = state.options["open_piles"]
    for i in range(n):
        s = (seat + i) % n
        out[sizes + i] = float(len(state.hands[s]))
        out[taken_sizes + i] = float(len(state.taken[s]))
        if open_piles:
            at = taken + i * k
            for kind in state.taken[s]:
                out[at + kind] += 1.0


def encoder(game: Knizia13Rules) -> Encoder:
    """The observation layout of ``game`` (its player count and options) for the research adapters (docs/envs.md)."""

    n, k = game.players, len(game.card_type.all())

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(Knizia13View, any_view)
        b = enc.observation_layout.block
        b(out, "dealer")[enc.rel(view, view.dealer)] = 1.0
        counts(b(out, "hand"), view.hand)
        b(out, "stock_size")[0] = view.stock_size
        targets = b(out, "targets")
        for t, pile in enumerate(view.targets):
            counts(targets[t], pile)
        sizes, taken_sizes, taken = b(out, "hand_sizes"), b(out, "taken_sizes"), b(out, "taken")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            taken_sizes[i] = view.taken_sizes[s]
            if view.taken is not None:
                counts(taken[i], view.taken[s])

    count, size = limits(game)
    blocks: list[BlockSpec] = [
        ("dealer", (n,), "1 at the dealer of this stage (relative)", FLAG),
        ("hand", (k,), "the observer's cards, counts per card kind", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("stock_size", (1,), "cards left in the stock", size),
        ("targets", (3, k), "the blue, yellow and green targets: counts per card kind", count),
        ("taken_sizes", (n,), "cards in each seat's taken pile (relative seats)", size),
        ("taken", (n, k), "each taken pile's cards, counts per kind; all 0 unless the open_piles option is on "
                          "(K12 hides them)", count),
    ]
    stages = game.stages
    # K14: a stage costs a seat at most every card it could take, 1 a colour card and 2 a nasty four
    per_stage = sum(2 if kind == NASTY else 1 for kind in game.deck)
    return Encoder(game, blocks, fill, stages, (0.0, float(per_stage * stages)), _fill_state)
