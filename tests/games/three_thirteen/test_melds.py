"""The Three Thirteen meld solver (rules T2, T7, T8, T11 of shared/rules/three-thirteen.md).

An independent brute force written from the literal rules decides: it lists every subset of the hand that is a meld
(a set or a run, wild cards standing for any card) and finds the best partition of the hand into melds and unmatched
cards by dynamic programming over subsets.  The solver's answers must equal it on many random hands.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreizehn.games.three_thirteen import melds
from dreizehn.games.three_thirteen.melds import (
    ACES_LOW,
    ACES_LOW_OR_HIGH,
    MeldArrangement,
    arrange,
    card_value,
    go_out_discards,
    is_meld,
    min_penalty,
    warm_up,
)

SUITS = "CDHS"
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def card(text: str) -> int:
    """``"10H"`` -> the kind of the ten of hearts."""
    rank_text, suit = text[:-1], text[-1]
    rank = RANKS[rank_text] if rank_text in RANKS else int(rank_text)
    return SUITS.index(suit) * 13 + rank - 1


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


# --------------------------------------------------------------------------------------------------------------
# Brute force from the literal rules.


def bf_value(kind: int, aces_high: bool) -> int:
    """T11: A 1 (15 with high aces), 2..10 face value, J Q K 10."""
    rank = kind % 13 + 1
    if rank == 1:
        return 15 if aces_high else 1
    return min(rank, 10)


@cache
def bf_is_meld(meld: tuple[int, ...], wild_rank: int, aces_high: bool, all_wild_melds: bool) -> bool:
    """T7 literally: the cards can stand for the cards of one set or of one run (T2), each natural card standing for
    itself, each wild card for any card; with ``all_wild_melds`` false (amended T7) some card must not be of the wild
    rank (a card of the wild rank standing for itself does not count)."""
    n = len(meld)
    if n < 3:
        return False
    natural = [k for k in meld if k % 13 + 1 != wild_rank]
    if not natural and not all_wild_melds:
        return False
    # Sets: every card stands for a card of rank r (the natural ones are all of rank r, whatever r).
    if len({k % 13 + 1 for k in natural}) <= 1:
        return True
    # Runs: suit s, positions start..start+n-1 inside 1..13, or inside 2..14 (14 = the ace above the king).
    windows = [(lo, hi) for lo, hi in ((1, 13), (2, 14)) if hi == 13 or aces_high]
    suits = {k // 13 for k in natural}
    for s in range(4):
        if suits - {s}:  # a natural card of another suit stands for itself: not of suit s
            continue
        for lo, hi in windows:
            for start in range(lo, hi - n + 2):
                places = range(start, start + n)
                free = set(places)
                ok = True
                for k in natural:
                    rank = k % 13 + 1
                    pos = 14 if (rank == 1 and 14 in places) else rank
                    if pos not in free:
                        ok = False
                        break
                    free.discard(pos)
                if ok:  # the wild cards take the free places (there are exactly as many)
                    return True
    return False


class Brute:
    """Best partitions of one hand into melds and unmatched cards, by DP over subsets of card indices."""

    def __init__(self, hand: Sequence[int], wild_rank: int, aces_high: bool, all_wild_melds: bool) -> None:
        self.hand = list(hand)
        self.aces_high = aces_high
        n = len(self.hand)
        self.melds: list[list[int]] = [[] for _ in range(n)]  # by lowest index
        ordered = sorted(range(n), key=self.hand.__getitem__)  # a subset's cards, read in this order, are sorted
        for mask in range(1, 1 << n):
            if mask.bit_count() >= 3:
                key = tuple(self.hand[i] for i in ordered if mask >> i & 1)
                if bf_is_meld(key, wild_rank, aces_high, all_wild_melds):
                    low = (mask & -mask).bit_length() - 1
                    self.melds[low].append(mask)
        self._best: dict[int, int] = {0: 0}
        self._full: dict[int, bool] = {0: True}

    def best(self, mask: int) -> int:
        """Fewest penalty of the cards in ``mask``."""
        got = self._best.get(mask)
        if got is not None:
            return got
        low = (mask & -mask).bit_length() - 1
        result = bf_value(self.hand[low], self.aces_high) + self.best(mask & ~(1 << low))
        for m in self.melds[low]:
            if m & mask == m:
                result = min(result, self.best(mask & ~m))
        self._best[mask] = result
        return result

    def full(self, mask: int) -> bool:
        """Whether the cards in ``mask`` can all be put in melds."""
        got = self._full.get(mask)
        if got is not None:
            return got
        low = (mask & -mask).bit_length() - 1
        result = any(m & mask == m and self.full(mask & ~m) for m in self.melds[low])
        self._full[mask] = result
        return result

    def min_penalty(self) -> int:
        return self.best((1 << len(self.hand)) - 1)

    def go_out(self) -> tuple[int, ...]:
        """T8: kinds whose discard leaves a hand that melds completely."""
        full = (1 << len(self.hand)) - 1
        out = {k for i, k in enumerate(self.hand) if self.full(full & ~(1 << i))}
        return tuple(sorted(out))


def check_arrangement(got: MeldArrangement, hand: Sequence[int], wild_rank: int, aces_high: bool,
                      all_wild_melds: bool, expected_penalty: int) -> None:
    """A valid arrangement (brute force's meld check, runs listed in rank order) of exactly the hand, with the
    fewest penalty."""
    assert got.penalty == expected_penalty
    assert sum(bf_value(k, aces_high) for k in got.deadwood) == got.penalty
    assert list(got.deadwood) == sorted(got.deadwood)
    used = Counter(got.deadwood)
    for meld in got.melds:
        used.update(meld)
        assert bf_is_meld(tuple(sorted(meld)), wild_rank, aces_high, all_wild_melds), (meld, got)
        assert is_meld(meld, wild_rank, aces_high, all_wild_melds)
        assert listed_in_order(meld, wild_rank, aces_high), meld
    assert used == Counter(hand)


def listed_in_order(meld: Sequence[int], wild_rank: int, aces_high: bool) -> bool:
    """A set, or a run whose i-th card stands for the card at position start + i."""
    naturals = [k for k in meld if k % 13 + 1 != wild_rank]
    if len({k % 13 for k in naturals}) <= 1:
        return True
    top = 14 if aces_high else 13
    for start in range(1, top - len(meld) + 2):
        if all((k % 13 + 1 == start + i) or (k % 13 == 0 and start + i == 14) or k % 13 + 1 == wild_rank
               for i, k in enumerate(meld)):
            return True
    return False


def compare(hand: Sequence[int], wild_rank: int, aces_high: bool, all_wild_melds: bool) -> None:
    brute = Brute(hand, wild_rank, aces_high, all_wild_melds)
    expected = brute.min_penalty()
    assert min_penalty(hand, wild_rank, aces_high, all_wild_melds) == expected, (hand, wild_rank, aces_high)
    check_arrangement(arrange(hand, wild_rank, aces_high, all_wild_melds), hand, wild_rank, aces_high,
                      all_wild_melds, expected)
    assert go_out_discards(hand, wild_rank, aces_high, all_wild_melds) == brute.go_out(), (hand, wild_rank, aces_high)


def random_hand(rng: random.Random, size: int, style: str) -> tuple[list[int], int]:
    """A random hand and wild rank: ``plain`` (1 or 2 decks), ``wild`` (many cards of the wild rank), ``wildonly``
    (at most two natural cards, the rest of the wild rank, from 3 decks), ``dup`` (2-3 decks drawn from few kinds),
    ``suit`` (mostly one suit, long runs)."""
    wild_rank = rng.randint(3, 13)
    if style == "plain":
        return rng.sample(list(range(52)) * rng.choice((1, 2)), size), wild_rank
    if style == "wildonly":
        n_natural = min(size, rng.choice((0, 0, 1, 1, 2)))
        naturals = rng.sample([k for k in range(52) if k % 13 + 1 != wild_rank], n_natural)
        return naturals + rng.choices([s * 13 + wild_rank - 1 for s in range(4)], k=size - n_natural), wild_rank
    if style == "wild":
        wilds = [s * 13 + wild_rank - 1 for s in range(4)] * 2
        n_wild = rng.randint(1, min(size, 6))
        rest = [k for k in range(52) if k % 13 + 1 != wild_rank] * 2
        return rng.sample(wilds, n_wild) + rng.sample(rest, size - n_wild), wild_rank
    if style == "dup":
        pool = rng.sample(range(52), rng.randint(3, 8))
        deck = pool * 3
        return rng.sample(deck, min(size, len(deck))), wild_rank
    suit = rng.randrange(4)
    deck = [suit * 13 + r for r in range(13)] * 2 + rng.sample(range(52), 6)
    return rng.sample(deck, size), wild_rank


# --------------------------------------------------------------------------------------------------------------
# T2: aces


def test_t2_a_2_3_is_a_run() -> None:
    """T2: A-2-3 is a run."""
    assert is_meld(cards("AC 2C 3C"), 13)
    assert min_penalty(cards("AC 2C 3C"), 13) == 0


def test_t2_q_k_a_only_with_high_aces() -> None:
    """T2: Q-K-A is not a run under aces=low, but is under low-or-high."""
    hand = cards("QD KD AD")
    assert not is_meld(hand, 5, ACES_LOW)
    assert is_meld(hand, 5, ACES_LOW_OR_HIGH)
    assert min_penalty(hand, 5) == 21
    assert min_penalty(hand, 5, aces_high=True) == 0
    assert arrange(hand, 5, aces_high=True).melds == (tuple(hand),)


def test_t2_no_wrap_around() -> None:
    """T2: K-A-2 is never a run, whatever the ace option."""
    hand = cards("KH AH 2H")
    for aces_high in (False, True):
        assert not is_meld(hand, 5, aces_high)
    assert min_penalty(hand, 5) == 13
    assert min_penalty(hand, 5, aces_high=True) == 27


def test_t2_one_run_never_holds_both_aces() -> None:
    """T2: a run is within 1..13 or within 2..14, never both aces; two decks give two aces of clubs."""
    hand = [*range(13), 0]  # A..K of clubs and a second ace of clubs; threes wild
    assert not is_meld(hand, 3, aces_high=True)
    assert min_penalty(hand, 3) == 1  # the spare ace is unmatched
    assert min_penalty(hand, 3, aces_high=True) == 0  # A-2-3 and 4..K-A
    assert not is_meld(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"), 3, aces_high=True)


def test_t2_unmatched_ace_costs_1_or_15() -> None:
    """T2/T11: an unmatched ace costs 1, or 15 under aces=low-or-high."""
    assert card_value(card("AS"), ACES_LOW) == 1
    assert card_value(card("AS"), ACES_LOW_OR_HIGH) == 15
    assert min_penalty(cards("AS 7D"), 5) == 8
    assert min_penalty(cards("AS 7D"), 5, aces_high=True) == 22
    assert ACES_LOW == 0 and ACES_LOW_OR_HIGH == 1


# --------------------------------------------------------------------------------------------------------------
# T7: melds


def test_t7_set_of_identical_cards_from_two_decks() -> None:
    """T7: with several decks, identical cards may be in one set."""
    assert is_meld(cards("8C 8C 8D"), 5)
    assert is_meld(cards("8C 8C 8C"), 5)
    assert not is_meld(cards("8C 8C 9C"), 5)  # a run needs distinct ranks
    assert min_penalty(cards("8C 8C 8D 8D"), 5) == 0


def test_t7_run_longer_than_three() -> None:
    """T7: a run may be longer than three cards."""
    hand = cards("4S 5S 6S 7S 8S 9S")
    assert is_meld(hand, 13)
    assert min_penalty(hand, 13) == 0
    assert not is_meld(cards("4S 5S 6S 8S"), 13)


def test_t7_wild_fills_a_gap_in_a_run() -> None:
    """T7: a wild card stands for the missing card of a run (the king of diamonds for the 4 of clubs)."""
    hand = cards("3C 5C KD")
    assert is_meld(hand, 13)
    assert arrange(hand, 13).melds == (tuple(cards("3C KD 5C")),)
    assert min_penalty(cards("3C 5C KD 9H"), 13) == 9


def test_t7_wild_completes_a_set() -> None:
    """T7: a wild card completes a set."""
    assert is_meld(cards("10C 10D KS"), 13)
    assert min_penalty(cards("10C 10D KS"), 13) == 0
    assert min_penalty(cards("10C 10D KS"), 12) == 30


def test_t7_card_of_wild_rank_as_itself() -> None:
    """T7: a card of the wild rank may be used as itself (a natural card), here in a run."""
    hand = cards("4C 5C 6C")
    assert is_meld(hand, 5, all_wild_melds=False)
    assert arrange(hand, 5).melds == (tuple(hand),)


def test_t7_all_wild_meld() -> None:
    """T7: a meld of wild cards only is allowed by default (all_wild_melds=allowed)."""
    hand = cards("7C 7D 7S")
    assert is_meld(hand, 7)
    assert min_penalty(hand, 7) == 0
    assert [sorted(m) for m in arrange(hand, 7).melds] == [sorted(hand)]
    assert go_out_discards(cards("7C 7D 7S 7H"), 7) == tuple(sorted(cards("7C 7D 7S 7H")))
    for all_wild in (True, False):
        assert min_penalty(cards("7C 7D 7S 7S KH"), 7, all_wild_melds=all_wild) == 0  # K and four wild cards
        got = arrange(cards("7C 7D 7S 2H"), 7, all_wild_melds=all_wild)  # the 2 of hearts, three wild cards: one meld
        assert got.penalty == 0 and len(got.melds) == 1


def test_t7_forbidden_is_meld_spec_examples() -> None:
    """T7 (amended), all_wild_melds=forbidden: each meld needs a card not of the wild rank.  Round 1 (3s wild): three
    3s are a meld only under allowed; the set 4C-4D-3S and the run 5H-3C-7H are melds under both (the 3 standing in)."""
    three_threes = cards("3C 3D 3H")
    assert is_meld(three_threes, 3, all_wild_melds=True)
    assert not is_meld(three_threes, 3, all_wild_melds=False)
    assert not is_meld(cards("3C 3D 3H 3S 3C"), 3, all_wild_melds=False)
    assert not is_meld(cards("5C 5D 5H"), 5, all_wild_melds=False)  # in round 3 too: wild cards used as themselves
    assert not is_meld(cards("5H 5H 5H"), 5, all_wild_melds=False)  # ... even as the run 5H-6H-7H or 3H-4H-5H
    for all_wild in (True, False):
        assert is_meld(cards("4C 4D 3S"), 3, all_wild_melds=all_wild)
        assert is_meld(cards("5H 3C 7H"), 3, all_wild_melds=all_wild)
        assert is_meld(cards("3C 3D 3H 9S"), 3, all_wild_melds=all_wild)  # one natural card is enough
        assert is_meld(cards("4C 5C 6C"), 5, all_wild_melds=all_wild)  # the 5 of clubs as itself, beside naturals


def test_t11_forbidden_scores_a_hand_of_wild_cards_only() -> None:
    """T7/T11: a hand of wild cards only melds under allowed and is all unmatched under forbidden: round 1, 3C 3D 3H
    scores 0 or 9; round 2 (4 cards, 4s wild), the four 4s score 0 or 16; round 4 with two decks, six 6s 0 or 36."""
    for hand, wild_rank, forbidden in (("3C 3D 3H", 3, 9), ("4C 4D 4H 4S", 4, 16), ("6C 6D 6H 6S 6C 6D", 6, 36)):
        kinds = cards(hand)
        for aces_high in (False, True):
            assert min_penalty(kinds, wild_rank, aces_high) == 0
            assert min_penalty(kinds, wild_rank, aces_high, all_wild_melds=False) == forbidden
            got = arrange(kinds, wild_rank, aces_high, all_wild_melds=False)
            assert got == MeldArrangement(melds=(), deadwood=tuple(sorted(kinds)), penalty=forbidden)
            check_arrangement(arrange(kinds, wild_rank, aces_high), kinds, wild_rank, aces_high, True, 0)
    assert min_penalty(cards("3C 3D"), 3, all_wild_melds=False) == min_penalty(cards("3C 3D"), 3) == 6


def test_t11_forbidden_same_penalty_with_a_natural_card() -> None:
    """T7/T11: with one natural card or more the fewest penalty is the same under both options (the module docstring
    of melds says why), but no meld of the arrangement is made of wild cards only."""
    for hand, wild_rank in (("3C 3D 3H KS", 3), ("7C 7D 7S 7H 2H", 7), ("QC QD QH QS QC QD AS 2S 9D", 12)):
        kinds = cards(hand)
        assert min_penalty(kinds, wild_rank, all_wild_melds=False) == min_penalty(kinds, wild_rank) == 0
        check_arrangement(arrange(kinds, wild_rank, all_wild_melds=False), kinds, wild_rank, False, False, 0)


def test_t7_forbidden_spare_wilds_join_a_run_card() -> None:
    """T7 forbidden: where the kernel's best arrangement leaves three spare wild cards with no set and no room in the
    runs (A..J of clubs as one run, three kings, kings wild), a natural card of the run heads them as a set and a
    king takes its place; under allowed they make a set of their own."""
    hand = [*range(11), *cards("KD KH KS")]
    arr = np.array(hand, np.int64)
    allowed = melds._replay(arr, 13, False, [[0, 0, 1, 11]], 0, True)
    assert tuple(sorted(cards("KD KH KS"))) in {tuple(sorted(m)) for m in allowed.melds}
    check_arrangement(allowed, hand, 13, False, True, 0)
    forbidden = melds._replay(arr, 13, False, [[0, 0, 1, 11]], 0, False)
    check_arrangement(forbidden, hand, 13, False, False, 0)
    assert len(forbidden.melds) == 2


def test_t7_card_in_at_most_one_meld() -> None:
    """T7: a card belongs to at most one meld: the 6 of clubs is in the run or in the set of sixes, not both."""
    hand = cards("4C 5C 6C 6D 6H")
    assert min_penalty(hand, 13) == 9  # three sixes; 4 and 5 of clubs unmatched
    assert arrange(hand, 13).deadwood == tuple(cards("4C 5C"))


def test_t7_melds_of_other_lengths() -> None:
    """T7: fewer than three cards are no meld; any number of cards of one rank is a set."""
    assert not is_meld(cards("5C 5D"), 13)
    assert not is_meld([], 13)
    assert is_meld(cards("5C 5D 5H 5S 5C 5D KC KD"), 13)
    assert not is_meld(cards("5C 6C 7C 8D"), 13)


# --------------------------------------------------------------------------------------------------------------
# T8: going out


def test_t8_go_out_example() -> None:
    """T8: round 5 (7 cards, 7s wild), 8 cards after drawing: A-2-3 of clubs, three nines and the king of hearts
    goes; with a 7 (wild) in the hand every card can go, the wild taking its place."""
    hand = cards("AC 2C 3C 9D 9H 9S KH")
    assert go_out_discards(hand, 4) == (card("KH"),)
    assert go_out_discards([*hand, card("5D")], 4) == ()
    assert go_out_discards([*hand, card("4D")], 4) == (card("KH"),)  # the wild 4 joins a meld
    with_wild = cards("AC 2C 3C 9D 9H 9S 7S")
    assert go_out_discards(with_wild, 7) == tuple(sorted(set(with_wild)))
    assert min_penalty(cards("AC 3C 9D 9H 9S 7S"), 7) == 0  # the wild 7 stands for the 2 of clubs


def test_t8_forbidden_no_way_out_leaving_wild_cards_only() -> None:
    """T7/T8: under forbidden a player may not go out leaving wild cards only (round 1 after drawing: 3C 3D 3H and
    the 2 of spades; the 2 must stay, heading the 3s); the other ways out are the same as under allowed."""
    hand = cards("3C 3D 3H 2S")
    assert go_out_discards(hand, 3) == tuple(sorted(hand))
    assert go_out_discards(hand, 3, all_wild_melds=False) == tuple(sorted(cards("3C 3D 3H")))
    fours = cards("4C 4D 4H 4S 4C")  # round 2 with two decks, five 4s after drawing
    assert go_out_discards(fours, 4) == tuple(sorted(set(fours)))
    assert go_out_discards(fours, 4, all_wild_melds=False) == ()
    assert go_out_discards(cards("4C"), 4, all_wild_melds=False) == (card("4C"),)  # nothing left: trivially melded
    longer = cards("AC 2C 3C 9D 9H 9S 7S")  # T8's example with a wild 7: every card may go either way
    assert go_out_discards(longer, 7, all_wild_melds=False) == go_out_discards(longer, 7) == tuple(sorted(longer))


def test_t8_no_discard_and_trivial_hands() -> None:
    """T8: exactly one card is left: a hand that melds completely with no spare card cannot go out."""
    assert go_out_discards(cards("AC 2C 3C"), 13) == ()
    assert go_out_discards(cards("AC 2C 3C 4C"), 13) == (card("AC"), card("4C"))
    assert go_out_discards([], 13) == ()
    assert go_out_discards(cards("9H"), 13) == (card("9H"),)  # nothing left: trivially melded
    assert go_out_discards(cards("9H 9D"), 13) == ()


# --------------------------------------------------------------------------------------------------------------
# T11: penalty


def test_t11_card_values() -> None:
    """T11: A 1, 2..10 face value, J Q K 10."""
    assert [card_value(card(f"{r}H")) for r in ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K")] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10
    ]
    assert min_penalty(cards("JC QD KH"), 5) == 30
    with pytest.raises(ValueError):
        card_value(52)


def test_t11_unmatched_wild_costs_its_rank() -> None:
    """T11: an unmatched wild card costs what its rank costs."""
    assert min_penalty(cards("7C"), 7) == 7
    assert min_penalty(cards("7C 7D"), 7) == 14
    assert min_penalty(cards("QC QD"), 12) == 20
    assert min_penalty(cards("7C 7D 7H"), 7) == 0
    assert arrange(cards("7C 2D"), 7) == MeldArrangement(melds=(), deadwood=tuple(sorted(cards("7C 2D"))), penalty=9)


def test_t11_fewest_points_not_most_cards() -> None:
    """T11: the fewest points, not the most cards melded (the 6 of clubs is worth more in the set)."""
    assert min_penalty(cards("2C 3C 4C 5C 4D 4H"), 13) == 8  # the run 2-3-4-5 (the 4 of clubs cannot be in both)
    assert min_penalty(cards("AC 2C 3C 3D 3H"), 13) == 3


def test_t11_empty_hand_and_bad_input() -> None:
    """T11: an empty hand costs nothing; kinds outside 0..51 and wild ranks outside 1..13 are errors."""
    assert min_penalty([], 5) == 0
    assert arrange([], 5) == MeldArrangement(melds=(), deadwood=(), penalty=0)
    for bad in ([52], [-1], [0, 1, 99]):
        with pytest.raises(ValueError):
            min_penalty(bad, 5)
        with pytest.raises(ValueError):
            arrange(bad, 5)
        with pytest.raises(ValueError):
            go_out_discards(bad, 5)
        with pytest.raises(ValueError):
            is_meld(bad, 5)
    for wild_rank in (0, 1, 2, 14):
        with pytest.raises(ValueError):
            min_penalty([0], wild_rank)


# --------------------------------------------------------------------------------------------------------------
# Corner cases of leftover wild cards (T7, T11)


def test_t7_spare_wild_beside_a_full_run() -> None:
    """T7/T11: a run of 13 has no room for a spare card; the brute force decides how best to split it (kings wild:
    A..Q of clubs and the king of clubs, plus one more card)."""
    full_clubs = list(range(13))
    for extra in (card("KD"), card("2C"), card("QC"), card("KC")):
        hand = [*full_clubs, extra]
        for aces_high in (False, True):
            compare(hand, 13, aces_high, True)


def test_t7_spare_wilds_in_arrangements() -> None:
    """T7: spare wild cards join a set, fill the room of runs, or make a set of the wild rank of their own; every
    arrangement is valid and costs min_penalty."""
    kings = cards("KD KH KS")
    cases = [
        (list(range(11)) + kings, 13, 0),  # A..J of clubs: three spare kings (run room 2) make their own set
        (list(range(12)) + kings[:2], 13, 0),  # A..Q and two kings: split the run to make room
        (list(range(12)) + kings[:1], 13, 0),
        (cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC") + cards("5D 5H"), 5, 0),
        (cards("9C 9D 9H") + kings, 13, 0),
        (kings[:2], 13, 20),
        (kings, 13, 0),
    ]
    for hand, wild_rank, expected in cases:
        for aces_high in (False, True):
            for all_wild in (True, False):
                got = arrange(hand, wild_rank, aces_high, all_wild)
                expected_here = expected if all_wild or hand != kings else 30
                assert got.penalty == expected_here == min_penalty(hand, wild_rank, aces_high, all_wild)
                check_arrangement(got, hand, wild_rank, aces_high, all_wild, expected_here)


def test_t11_spare_wild_replacing_a_run_card() -> None:
    """T11: a spare wild card with no room anywhere is unmatched, or takes the place of a cheaper natural card of a
    run (which is then unmatched).  Hands of up to 14 cards always find room another way, so this prices the rule
    directly: A..Q of clubs as one run, with the kings of clubs and diamonds spare (kings wild)."""
    assert melds._leftover_cost(2, 0, 1, 1, 2, 10) == 1  # one king fills the room, the other replaces the ace
    assert melds._leftover_cost(2, 0, 0, 1, 2, 10) == 3
    assert melds._leftover_cost(1, 0, 0, 12, 13, 10) == 10
    assert melds._leftover_cost(3, 0, 0, 1, 2, 10) == 0  # three spare wild cards make a set
    assert melds._leftover_cost(2, 1, 0, 1, 2, 10) == 0  # or join a set
    hand = [*range(12), card("KC"), card("KD")]
    for all_wild in (True, False):
        got = melds._replay(np.array(hand, np.int64), 13, False, [[0, 0, 1, 12]], 1, all_wild)
        assert got.deadwood == (card("AC"),)
        check_arrangement(got, hand, 13, False, all_wild, 1)


@pytest.mark.slow  # every corner against the brute force, about 10 s: make test runs it
def test_t7_long_run_corners_against_brute_force() -> None:
    """T7/T11: 13 and 14 card hands made of one suit and wild cards, checked against the brute force."""
    rng = random.Random(13)
    for _ in range(12):
        wild_rank = rng.randint(3, 13)
        suit = rng.randrange(4)
        run = [suit * 13 + r for r in range(13)]
        for _ in range(rng.randint(0, 2)):  # some cards replaced by wild cards
            run[rng.randrange(13)] = rng.randrange(4) * 13 + wild_rank - 1
        hand = run + [rng.choice([*range(52), suit * 13 + wild_rank - 1])]
        compare(hand, wild_rank, rng.random() < 0.5, rng.random() < 0.5)


# --------------------------------------------------------------------------------------------------------------
# Against the brute force


@pytest.mark.parametrize("style", ["plain", "wild", "wildonly", "dup", "suit"])
def test_t2_t7_t8_t11_random_hands_against_brute_force(style: str, scale: Callable[[int, int], int]) -> None:
    """T2, T7, T8, T11: min_penalty, arrange and go_out_discards equal the brute force on random hands (both ace
    options; both all_wild_melds options, each hand under both where it is rich in wild cards)."""
    rng = random.Random(f"melds-{style}")
    count = scale({"plain": 500, "wild": 500, "wildonly": 300, "dup": 300, "suit": 300}[style], 5000)
    for i in range(count):
        size = rng.randint(1, 9) if i % 5 else rng.randint(10, 11)
        hand, wild_rank = random_hand(rng, size, style)
        aces_high = rng.random() < 0.5
        if style in ("wild", "wildonly"):
            compare(hand, wild_rank, aces_high, True)
            compare(hand, wild_rank, aces_high, False)
        else:
            compare(hand, wild_rank, aces_high, rng.random() < 0.5)


def test_t7_t8_t11_forbidden_changes_only_hands_of_wild_cards() -> None:
    """T7 (amended), T8, T11: under the brute force, forbidding melds of wild cards only changes the fewest penalty
    only of a hand of wild cards only, and removes only the ways out that leave wild cards only; and it does change
    those (the random hands are rich in wild cards)."""
    rng = random.Random(7)
    changed = Counter[str]()
    for i in range(400):
        hand, wild_rank = random_hand(rng, rng.randint(3, 9), ("wild", "wildonly")[i % 2])
        aces_high = rng.random() < 0.5
        allowed = Brute(hand, wild_rank, aces_high, True)
        forbidden = Brute(hand, wild_rank, aces_high, False)
        naturals = [k for k in hand if k % 13 + 1 != wild_rank]
        if naturals:
            assert forbidden.min_penalty() == allowed.min_penalty()
        else:
            assert forbidden.min_penalty() == len(hand) * bf_value(hand[0], aces_high)
            changed["penalty"] += allowed.min_penalty() != forbidden.min_penalty()
        leave_wild_only = set(naturals) if len(naturals) == 1 else set(hand) if not naturals else set()
        assert forbidden.go_out() == tuple(k for k in allowed.go_out() if k not in leave_wild_only)
        changed["go out"] += allowed.go_out() != forbidden.go_out()
        assert min_penalty(hand, wild_rank, aces_high, False) == forbidden.min_penalty()
        assert go_out_discards(hand, wild_rank, aces_high, False) == forbidden.go_out()
    assert changed["penalty"] > 20 and changed["go out"] > 20, changed


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int, bool, bool]:
    wild_rank = draw(st.integers(3, 13))
    wild_kinds = [s * 13 + wild_rank - 1 for s in range(4)]
    pool = draw(st.sampled_from(["any", "wild", "few", "wildonly"]))
    if pool == "any":
        kind = st.integers(0, 51)
    elif pool == "wild":
        kind = st.one_of(st.sampled_from(wild_kinds), st.integers(0, 51))
    elif pool == "wildonly":  # wild cards and at most a few natural cards (T7 all_wild_melds)
        kind = st.one_of(st.sampled_from(wild_kinds), st.sampled_from(wild_kinds), st.integers(0, 51))
    else:
        kind = st.sampled_from(draw(st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True)) + wild_kinds[:1])
    hand = draw(st.lists(kind, max_size=10).filter(lambda h: max(Counter(h).values(), default=0) <= 3))
    return hand, wild_rank, draw(st.booleans()), draw(st.booleans())


@given(hands())
def test_t2_t7_t8_t11_hypothesis_against_brute_force(case: tuple[list[int], int, bool, bool]) -> None:
    """T2, T7, T8, T11: hypothesis-drawn hands of up to 10 cards from up to 3 decks, against the brute force."""
    compare(*case)


@given(st.lists(st.integers(0, 51), min_size=3, max_size=6), st.integers(3, 13), st.booleans(), st.booleans())
def test_t2_t7_is_meld_against_brute_force(meld: list[int], wild_rank: int, aces_high: bool, all_wild: bool) -> None:
    """T2, T7: is_meld equals the brute force's literal meld check."""
    assert is_meld(meld, wild_rank, aces_high, all_wild) == bf_is_meld(tuple(sorted(meld)), wild_rank, aces_high,
                                                                        all_wild)


def test_t2_t7_is_meld_random_small() -> None:
    """T2, T7: is_meld equals the brute force on random 3-5 card melds, mostly of one suit."""
    rng = random.Random(3)
    for _ in range(3000):
        meld = [rng.randrange(52) for _ in range(rng.randint(3, 5))]
        if rng.random() < 0.7:
            s = rng.randrange(4)
            meld = [s * 13 + k % 13 if rng.random() < 0.8 else k for k in meld]
        wild_rank = rng.randint(3, 13)
        for aces_high in (False, True):
            for all_wild in (False, True):
                assert is_meld(meld, wild_rank, aces_high, all_wild) == bf_is_meld(
                    tuple(sorted(meld)), wild_rank, aces_high, all_wild), meld


# --------------------------------------------------------------------------------------------------------------
# Consistency on full-size hands (too big for the brute force) and the compiled-kernel cache


def test_t8_t11_go_out_agrees_with_min_penalty_on_big_hands() -> None:
    """T7/T8/T11: on 10-14 card hands, under both all_wild_melds options, d is a discard iff min_penalty(hand less
    one d) == 0; and min_penalty equals the penalty of arrange's (valid) arrangement."""
    rng = random.Random(14)
    for i in range(400):
        hand, wild_rank = random_hand(rng, rng.randint(10, 14), ("plain", "wild", "dup", "suit", "wildonly")[i % 5])
        aces_high = rng.random() < 0.5
        for all_wild in (True, False):
            expected = tuple(sorted({d for d in hand
                                     if min_penalty(_without(hand, d), wild_rank, aces_high, all_wild) == 0}))
            assert go_out_discards(hand, wild_rank, aces_high, all_wild) == expected, (hand, wild_rank, aces_high)
            got = arrange(hand, wild_rank, aces_high, all_wild)
            assert got.penalty == min_penalty(hand, wild_rank, aces_high, all_wild)
            assert sum(bf_value(k, aces_high) for k in got.deadwood) == got.penalty
            for meld in got.melds:
                assert bf_is_meld(tuple(sorted(meld)), wild_rank, aces_high, all_wild), (meld, got)
            assert Counter(got.deadwood) + sum((Counter(m) for m in got.melds), Counter()) == Counter(hand)


def _without(hand: list[int], kind: int) -> list[int]:
    rest = list(hand)
    rest.remove(kind)
    return rest


def test_accepts_any_int_sequence() -> None:
    """Tuples, int subclasses and numpy-free sequences all work; hands may exceed 14 cards."""
    hand = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    assert min_penalty(hand, 13) == min_penalty(list(hand), 13)
    assert min_penalty([True, 2, 3], 13) == 0  # bool is an int: the 2-3-4 of clubs


@pytest.mark.slow  # a Python process of its own that loads the compiled kernels
def test_kernels_load_from_the_disk_cache() -> None:
    """The numba kernels compile once and load back from the disk cache in a fresh process (a literal-typed
    specialization of a recursive kernel would crash there)."""
    warm_up()
    for kernel in (melds._rec_min, melds._rec_out):
        assert not any("Literal" in str(sig) for sig in kernel.signatures)
    code = ("from dreizehn.games.three_thirteen import melds; melds.warm_up(); "
            "print(sum(len(k.stats.cache_misses) for k in (melds._solve_min, melds._solve_out)), "
            "sum(len(k.stats.cache_hits) for k in (melds._solve_min, melds._solve_out)))")
    src = str(Path(__file__).resolve().parents[3] / "src")
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr
    misses, hits = map(int, done.stdout.split()[-2:])
    assert misses == 0 and hits >= 2, done.stdout  # the solvers (and the kernels they call) loaded, none compiled
