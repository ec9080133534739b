"""The registry of games: find a game by its id.

A game is a module of :mod:`dreizehn.games` (or of another package, named under the entry-point group
``dreizehn.games``) whose :class:`~dreizehn.core.game.Game` subclass is decorated with :func:`register`; everything
else the package needs to know of it is declared on that class (docs/adding-a-game.md). Nothing lists the games.

>>> from dreizehn.core.registry import game_ids
>>> game_ids()
('knizia13', 'three-thirteen', 'holzwurm')
"""

from __future__ import annotations

from collections.abc import Mapping

from dreizehn.core.errors import UnknownGameError
from dreizehn.core.game import Game, State
from dreizehn.words import add_catalogues, find_catalogues_with

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game findable by its id, and its words sayable (its catalogues, ``locale/<lang>.po``
    in the folder of the module that defines it)."""
    _GAMES[cls.id] = cls
    add_catalogues(cls.id, cls.folder() / "locale")
    return cls


ENTRY_POINTS = "dreizehn.games"
"""The entry-point group under which other packages name their games' modules."""
_loaded = False
_entries: set[str] = set()
"""The modules named under :data:`ENTRY_POINTS` that were imported."""


def _load_builtin() -> None:
    """Import every module of :mod:`dreizehn.games` and every module named under :data:`ENTRY_POINTS`, once: their
    games register themselves."""
    global _loaded
    if not _loaded:
        import importlib
        import pkgutil

        _loaded = True  # the games are found by name, as a game's kernel, heuristic and drawing are: above the core
        for module in pkgutil.iter_modules(importlib.import_module("dreizehn.games").__path__):
            importlib.import_module(f"dreizehn.games.{module.name}")
        refresh()


find_catalogues_with(_load_builtin)


def refresh() -> tuple[str, ...]:
    """Look again for games named under :data:`ENTRY_POINTS` (a package installed since the first look) and import
    the modules not imported yet; the ids of every game then."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINTS):
        if entry.value not in _entries:
            _entries.add(entry.value)
            entry.load()
    return tuple(sorted(_GAMES, key=lambda game_id: (_GAMES[game_id].order, game_id)))


def unregister(game_id: str) -> None:
    """Forget a game registered by another package (the tests' fourth game, once its tests are done); its module
    stays imported, so :func:`refresh` does not find it again."""
    _GAMES.pop(game_id, None)


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, in the order of their classes' ``order`` (then by id)."""
    _load_builtin()
    return tuple(sorted(_GAMES, key=lambda game_id: (_GAMES[game_id].order, game_id)))


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
