"""Fixed-size tensors of what a seat may know, as the research adapters use them: the player counts and options of an
environment made without them, bounds on a game's length, and each game's encoder (:func:`encoder_of`). The
building blocks (:class:`Encoder`, :class:`Layout`) are :mod:`dreizehn.core.encoding`'s, named here too.

An :class:`Encoder` turns a seat's :class:`~dreizehn.core.game.View` (never a state) into a flat ``float32`` vector
made of named blocks. Seats are counted *relative to the observer*: index 0 of every per-seat block is the observing
seat, index 1 the next seat clockwise, and so on. Card multisets are counts per card kind (kinds in the order of the
game's card type, see docs/notation.md). ``docs/envs.md`` prints every layout; :meth:`Layout.describe` gives it as
data.

The *information state* adds to the observation the last ``HISTORY`` actions of the game, oldest first, each as a
one-hot seat (relative) and a one-hot action: everything before is summed up in the observation (the scores of the
finished stages, the cards known to be in each hand, the table).

>>> import dreizehn
>>> from dreizehn.envs.observations import encoder_of
>>> state = dreizehn.new_game("knizia13", players=4, seed=7)
>>> encoder = encoder_of(state.game)
>>> vector = encoder.observation(state.view(0))
>>> vector.shape == (encoder.observation_layout.size,)
True
>>> int(encoder.observation_layout.block(vector, "hand").sum())
5
"""

from __future__ import annotations

from collections.abc import Mapping

from dreizehn.core.encoding import FLAG, HISTORY, Block, BlockSpec, Encoder, Layout, Vector, counts, encoder_of, limits
from dreizehn.core.game import Game

__all__ = [
    "FLAG", "HISTORY", "Block", "BlockSpec", "Encoder", "Layout", "Vector", "counts", "encoder_of", "limits",
    "max_actions", "max_seat_actions", "research_options", "research_players", "with_defaults",
]


def research_players(game_id: str) -> int:
    """The player count of an environment or OpenSpiel game made without one (the game's
    :attr:`~dreizehn.core.game.Game.research_players`).

    >>> research_players("three-thirteen"), research_players("holzwurm")
    (2, 4)
    """
    from dreizehn.core.registry import game_class

    cls = game_class(game_id)
    return cls.research_players or cls.min_players


def research_options(game_id: str) -> dict[str, object]:
    """The options an environment or OpenSpiel game takes where it is not given them, when they differ from the
    engine's defaults (the game's :attr:`~dreizehn.core.game.Game.research_options`): so that every game made with
    default parameters ends, whoever plays it."""
    from dreizehn.core.registry import game_class

    return dict(game_class(game_id).research_options)


def with_defaults(game_id: str, options: Mapping[str, object]) -> dict[str, object]:
    """``options`` with :func:`research_options` for those not given.

    >>> with_defaults("three-thirteen", {"stock_out": "end-round"})
    {'turn_limit': 200, 'stock_out': 'end-round'}
    """
    return {**research_options(game_id), **options}


def max_actions(game: Game) -> int | None:
    """A bound on the number of player actions in a whole game, reached by some games; ``None`` where there is none
    (:meth:`~dreizehn.core.game.Game.max_actions`).

    >>> import dreizehn
    >>> max_actions(dreizehn.load_game("three-thirteen", 2, {"turn_limit": 200}))
    4400
    >>> max_actions(dreizehn.load_game("three-thirteen", 2)) is None
    True
    """
    return game.max_actions()


def max_seat_actions(game: Game) -> int | None:
    """A bound on the number of actions of one seat in a whole game; ``None`` where there is none
    (:meth:`~dreizehn.core.game.Game.max_seat_actions`).

    >>> import dreizehn
    >>> max_seat_actions(dreizehn.load_game("three-thirteen", 3, {"turn_limit": 200}))
    1474
    """
    return game.max_seat_actions()

