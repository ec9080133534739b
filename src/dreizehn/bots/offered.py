"""The levels a table offers: a game's levels at its player count, and a level of its own (:data:`OWN_LEVELS`, the
``learned`` bot) only where its bot takes the game. Apart from :mod:`dreizehn.bots.levels`, which
:mod:`dreizehn.bots.base` reads, because it makes the bots to ask them."""

from __future__ import annotations

from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import OWN_LEVELS, level_order
from dreizehn.core.errors import BotError
from dreizehn.core.game import Game


def offered_levels(game: Game) -> tuple[str, ...]:
    """The levels ``game`` offers at its player count and options, weakest first: the game's levels there, an own
    level (:data:`OWN_LEVELS`) only where its bot takes the game (``learned``: the player count and options its
    network was fitted at).

    >>> import dreizehn
    >>> offered_levels(dreizehn.load_game("knizia13", 4))
    ('easy', 'medium', 'learned', 'hard', 'expert', 'master')
    >>> offered_levels(dreizehn.load_game("knizia13", 4, {"open_piles": True}))
    ('easy', 'medium', 'hard', 'expert', 'master')
    >>> offered_levels(dreizehn.load_game("knizia13", 3))
    ('easy', 'medium', 'hard', 'expert', 'master')
    """
    levels = {**game.levels, **game.levels_at.get(game.players, {})}
    out = []
    for level in level_order(game.id):
        if level not in levels:
            continue
        if level in OWN_LEVELS:
            try:
                make_bot(levels[level], game)
            except BotError:
                continue
        out.append(level)
    return tuple(out)
