"""``benchmarks/three_thirteen_skill.py``: the draw by expectimax decides as the same look one card ahead written out
in Python from the view, with the heuristic's own discard scores."""

from __future__ import annotations

import random
from collections import Counter

from benchmark_scripts import load

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.heuristic import discard_scores
from dreizehn.games.three_thirteen.kernel import ThreeThirteenKernel
from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, KINDS, TAKE, ThreeThirteenRules
from dreizehn.games.three_thirteen.search import row_of_view

skill = load("three_thirteen_skill")


def best_score(hand: list[int], view: ThreeThirteenView) -> float:
    """The heuristic's best discard score of ``hand`` (one card more than the view's), as the Python heuristic
    scores discards."""
    legal = [DISCARD + k for k in sorted(set(hand))]
    _, scores = discard_scores(hand, view, legal, view.wild_rank, view.options.get("aces") == "low-or-high")
    return max(scores)


def takes(view: ThreeThirteenView, decks: int) -> bool:
    """The draw by expectimax, from the view alone."""
    top = int(view.discard_pile[-1])
    if top % 13 + 1 == view.wild_rank:
        return True
    hand = [int(c) for c in view.hand]
    seen = Counter(hand) + Counter(int(c) for c in view.discard_pile)
    for seat in range(view.players):
        seen += Counter(int(c) for meld in view.out_melds[seat] for c in meld)
        if seat != view.seat:
            seen += Counter(int(c) for c in view.known[seat])
    left = {k: decks - seen[k] for k in range(KINDS) if decks - seen[k] > 0}
    mean = sum(n * best_score([*hand, k], view) for k, n in left.items()) / sum(left.values())
    return best_score([*hand, top], view) > mean


def test_the_compiled_draw_by_expectimax_is_the_look_ahead_from_the_view() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    assert isinstance(game, ThreeThirteenRules)
    empty = ThreeThirteenKernel(game).new(1)[0]
    heuristic = make_bot("heuristic", game)
    rng = random.Random(4)
    decided = Counter[bool]()
    for index in range(12):
        state = game.new_state(index)
        while not state.is_over:
            view = state.view(state.current_player)
            assert isinstance(view, ThreeThirteenView)
            if not view.drawn and {TAKE, DRAW} <= set(view.legal_actions) and rng.random() < 0.2:
                compiled = bool(skill.expected_take(row_of_view(empty, view)))
                assert compiled == takes(view, game.decks), (index, view.stage)
                decided[compiled] += 1
            state.apply(heuristic.act(view, rng))
    assert decided[True] >= 10 and decided[False] >= 10, decided  # both decisions were checked


def test_the_bot_takes_as_the_look_ahead_says_and_discards_as_the_heuristic() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    assert isinstance(game, ThreeThirteenRules)
    bot, heuristic = make_bot("heuristic-expectimax-draws", game), make_bot("heuristic", game)
    state = game.new_state(9)
    rng = random.Random(1)
    seen = Counter[str]()
    while not state.is_over and sum(seen.values()) < 200:
        view = state.view(state.current_player)
        assert isinstance(view, ThreeThirteenView)
        action = bot.act(view, random.Random(2))
        if view.drawn:
            assert action == heuristic.act(view, random.Random(2))
            seen["discard"] += 1
        elif {TAKE, DRAW} <= set(view.legal_actions):
            assert action == (TAKE if takes(view, game.decks) else DRAW)
            seen["draw"] += 1
        state.apply(action if rng.random() < 0.5 else heuristic.act(view, rng))
    assert seen["draw"] and seen["discard"]


def test_the_pairing_takes_game_from_game_over_the_games_both_played() -> None:
    mine = ([1.0, 0.0, 1.0, 0.5], [-5.0, 2.0, -1.0, 0.0])
    other = ([0.0, 0.0, 1.0], [-3.0, 4.0, -1.0])
    said = skill.paired_line("x", mine, other)
    assert said.startswith("x, less the saved games over the same 3 seeds: margin -1.33 ± 1.31 points a game")
    assert said.endswith("wins +33.3% ± 65.3%")


def test_the_variants_of_expert_ask_each_player_for_its_kind_of_decision() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    expert = make_bot(level_spec("expert", "three-thirteen", 2), game)
    players = {"expert-expectimax-draws": (make_bot("heuristic-expectimax-draws", game), expert),
               "expert-wide-discards": (expert, make_bot(skill.WIDE_DISCARDS, game))}
    state = game.new_state(2)
    rng = random.Random(3)
    asked = Counter[str]()
    while len(asked) < 4:
        view = state.view(state.current_player)
        assert isinstance(view, ThreeThirteenView)
        if len(view.legal_actions) > 1 and rng.random() < 0.3:
            for name, (draws, discards) in players.items():
                chosen = make_bot(name, game).act(view, random.Random(5))
                assert chosen == (discards if view.drawn else draws).act(view, random.Random(5)), name
                asked[f"{name} {view.drawn}"] += 1
        state.apply(make_bot("heuristic", game).act(view, rng))
