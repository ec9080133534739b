"""The registry of games: find a game by its id.

>>> from dreizehn.core.registry import game_ids
>>> game_ids()
('knizia13', 'three-thirteen', 'holzwurm')
"""

from __future__ import annotations

from collections.abc import Mapping

from dreizehn.core.errors import UnknownGameError
from dreizehn.core.game import Game, State

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game findable by its id."""
    _GAMES[cls.id] = cls
    return cls


_BUILTIN = ("knizia13", "three_thirteen", "holzwurm")
_loaded = False


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        import importlib

        for name in _BUILTIN:
            importlib.import_module(f"dreizehn.games.{name}")
        _loaded = True


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game."""
    _load_builtin()
    order = {name.replace("_", "-"): i for i, name in enumerate(_BUILTIN)}
    return tuple(sorted(_GAMES, key=lambda game_id: order.get(game_id, len(order))))


def game_class(game_id: str) -> type[Game]:
    """The class of the game with this id."""
    _load_builtin()
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id, which is no game either
        raise UnknownGameError("game.unknown", rule="A1", game=game_id, games=", ".join(game_ids())) from None


def load_game(game_id: str, players: int, options: Mapping[str, object] | None = None) -> Game:
    """The game ``game_id`` for ``players`` players with ``options`` (validated; bad ones raise an
    :class:`~dreizehn.core.errors.InvalidOptionError` or :class:`~dreizehn.core.errors.UnknownGameError` naming the
    rule).

    >>> load_game("three-thirteen", players=2, options={"stock_out": "end-round"}).options["stock_out"]
    'end-round'
    """
    return game_class(game_id)(players, options)


def new_game(game_id: str, players: int, seed: int, **options: object) -> State:
    """A new game in its initial state: ``new_game("holzwurm", players=3, seed=1, games=1)``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        from dreizehn.core.errors import InvalidOptionError

        raise InvalidOptionError("seed.not_whole", rule="A3", seed=seed)
    return load_game(game_id, players, options).new_state(seed)
