"""Every game's compiled kernel against the reference engine (tests/kernels/differential.py): the same deals, the
same random plays, every step compared, at every player count and with the options that change the rules or the
views. ``make test`` plays a few thousand games; ``make test-long`` many more."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreizehn.core.registry import load_game

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
