"""Every game's compiled kernel against the reference engine (tests/kernels/differential.py): the same deals, the
same random plays, every step compared, at every player count and with the options that change the rules or the
views. ``make test`` plays a few thousand games; ``make test-long`` many more."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen.rules import RESEARCH_TURN_LIMIT

from .differential import play_games

CASES: list[tuple[str, int, dict[str, object], int]] = [
    # game, players, options, games in the ci profile (the long profile plays 50 times as many)
    ("knizia13", 3, {}, 150),
    ("knizia13", 4, {}, 150),
    ("knizia13", 5, {"open_piles": True}, 100),
    ("knizia13", 6, {"dealer": "random"}, 100),
    ("knizia13", 4, {"dealer": "random", "open_piles": True}, 100),
    ("holzwurm", 2, {}, 60),
    ("holzwurm", 3, {"starter": "random"}, 60),
    ("holzwurm", 4, {}, 60),
    ("holzwurm", 5, {"starter": "random", "games": 2}, 60),
    ("holzwurm", 6, {"starter": 4}, 60),
    ("holzwurm", 2, {"starter": "random", "games": 5}, 40),
    # Three Thirteen with the research adapters' turn_limit (T10) or a shorter one, so that random rounds end; the
    # reshuffles of the discard pile (T10) come at 2 players, where one deck leaves the smallest stock.
    ("three-thirteen", 2, {"turn_limit": RESEARCH_TURN_LIMIT}, 12),
    ("three-thirteen", 3, {"turn_limit": 60}, 12),
    ("three-thirteen", 4, {"stock_out": "end-round"}, 12),
    ("three-thirteen", 8, {"turn_limit": 40, "dealer": "random"}, 8),
    ("three-thirteen", 2, {"aces": "low-or-high", "turn_limit": 120}, 12),
    ("three-thirteen", 2, {"all_wild_melds": "forbidden", "turn_limit": 120}, 12),
    ("three-thirteen", 3, {"decks": 1, "stock_out": "end-round", "aces": "low-or-high"}, 12),
    ("three-thirteen", 5, {"decks": 4, "all_wild_melds": "forbidden", "dealer": "random", "turn_limit": 150}, 6),
]


@pytest.mark.parametrize(("game_id", "players", "options", "games"), CASES,
                         ids=[f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for g, p, o, _ in CASES])
def test_kernel_plays_as_the_engine(game_id: str, players: int, options: dict[str, object], games: int,
                                    scale: Callable[[int, int], int]) -> None:
    game = load_game(game_id, players, options)
    count = scale(games, games * 50)
    # Every observation of every seat is compared in the first games, every seventh step after (the legal actions,
    # the seat to move, the scores and the events at every step of every game).
    actions = play_games(game, range(min(count, 20)))
    actions += play_games(game, range(20, count), views_every=7)
    assert actions >= count * 40
