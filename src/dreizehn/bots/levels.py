"""Bot levels: ``easy``, ``medium``, ``hard``, ``expert`` and ``master``, names that every command and interface
accepts; a game that lacks one at a player count plays its strongest level there under that name. ``learned`` (a
network fitted on the compiled kernels, docs/learned.md) is a level only where a game offers it (:data:`OWN_LEVELS`):
elsewhere its name is no level but the bot's, which refuses a game it cannot play (B5).

Each level is a bot specification per game, declared on the game's class
(:attr:`~dreizehn.core.game.Game.levels`) and chosen so that each level beats the one below it; ``docs/bots.md``
gives the measured ratings and times per move. Without a game, :data:`LEVELS` gives the specification most games use.

>>> level_spec("medium", "knizia13")
'heuristic'
>>> level_spec("easy", "three-thirteen")
'heuristic:blunder=0.6'
>>> level_spec("hard", "three-thirteen"), level_spec("hard", "three-thirteen", players=2)
('heuristic:blunder=0.1', 'heuristic')
>>> level_spec("ismcts:iterations=50", "holzwurm")
'ismcts:iterations=50'
>>> game_levels("knizia13"), game_levels("three-thirteen")
(('easy', 'medium', 'learned', 'hard', 'expert', 'master'), ('easy', 'medium', 'hard', 'expert'))
>>> level_spec("master", "three-thirteen", players=2) == level_spec("expert", "three-thirteen", players=2)
True
>>> level_name("learned", "knizia13", 4), level_name("learned", "knizia13", 3)
('learned', None)
"""

from __future__ import annotations

from collections.abc import Mapping

from dreizehn.core.game import Game

LEVEL_NAMES = ("easy", "medium", "learned", "hard", "expert", "master")
"""Every level's name, weakest first (``learned``: above ``medium`` and below ``hard`` in 13; a game whose levels
measure otherwise orders them itself, :func:`level_order`: Holzwurm's ``learned`` is above its ``hard``,
docs/learned.md)."""

OWN_LEVELS = frozenset({"learned"})
"""Levels offered only where a game declares them (at a player count, :attr:`~dreizehn.core.game.Game.levels_at`)
and its bot takes the game's options: elsewhere the name plays no other level in their place."""

LEVELS: Mapping[str, str] = Game.levels
"""Each level's specification when no game is named (the default of :class:`~dreizehn.core.game.Game`, which 13
and Holzwurm keep)."""


def level_spec(name: str, game_id: str | None = None, players: int | None = None,
               options: Mapping[str, object] | None = None) -> str:
    """The bot specification of a level in ``game_id`` (at ``players`` seats, where the game's levels depend on
    them: :attr:`~dreizehn.core.game.Game.levels_at`, and with its ``options``, where those levels hold only with
    some: :attr:`~dreizehn.core.game.Game.levels_at_options`; none given: the game's usual ones); any other name is
    returned as it is (a bot specification).

    >>> level_spec("expert", "holzwurm", 4) == level_spec("expert", "holzwurm", 4, {"games": 1})
    False
    >>> level_spec("expert", "holzwurm", 4, {"games": 1}) == level_spec("expert", "holzwurm", 3)
    True
    """
    level = level_name(name, game_id, players)
    if level is None:
        return name
    return (LEVELS if not game_id else _levels(game_id, players, options))[level]


def level_name(name: str, game_id: str | None = None, players: int | None = None) -> str | None:
    """The level that ``name`` plays in ``game_id`` at ``players`` seats: its own, or the game's strongest where the
    game does not offer it there; ``None`` where ``name`` is not a level's name but a bot specification.

    >>> level_name(" Expert", "knizia13"), level_name("ismcts:iterations=50", "knizia13")
    ('expert', None)
    """
    key = name.strip().lower()
    if key not in LEVEL_NAMES:
        return None
    levels = LEVELS if not game_id else _levels(game_id, players)
    if key in levels:
        return key
    return None if key in OWN_LEVELS else [level for level in level_order(game_id) if level in levels][-1]


def level_order(game_id: str | None = None) -> tuple[str, ...]:
    """Every level's name in ``game_id``, weakest first: :data:`LEVEL_NAMES`, or the game's own order where
    measured strength orders them otherwise (:attr:`~dreizehn.core.game.Game.level_order`).

    >>> level_order("knizia13") == LEVEL_NAMES, level_order("holzwurm")
    (True, ('easy', 'medium', 'hard', 'learned', 'expert', 'master'))
    """
    if not game_id:
        return LEVEL_NAMES
    from dreizehn.core.registry import game_class

    return game_class(game_id).level_order or LEVEL_NAMES


LEVELS_ABOUT = ("learned",)
"""The levels with a line of their own that says what they are (``web.level_about.<level>``,
``tui.level_about.<level>``): the pickers show it where the level is chosen."""


BOT_NAMES = ("Ada", "Bruno", "Clara", "Emil", "Frida", "Gustav", "Hanna", "Ivo", "Jule", "Kasimir")
"""The names bots sit at a table under where they were given none: names people tell apart in every language
(a seat named by its level, "medium 2", made sentences such as "medium 2 0, medium 3 3"); the level itself is shown
beside the name, in each reader's language."""


def name_bot_seats(names: list[str | None], bots: list[bool]) -> list[str | None]:
    """``names`` with each bot seat that has none (``bots[i]`` true) given one of :data:`BOT_NAMES`, in order, none
    of them the same as another seat's name (letter case aside); the others as they are. (The kinds of bot, which
    make a seat's bot, are :func:`dreizehn.bots.base.bot_names`.)

    >>> name_bot_seats(["ada", None, "Ben", None], [False, True, False, True])
    ['ada', 'Bruno', 'Ben', 'Clara']
    """
    taken = {n.casefold() for n in names if n}
    free = iter([n for n in BOT_NAMES if n.casefold() not in taken])
    out: list[str | None] = []
    for name, bot in zip(names, bots, strict=True):
        out.append(next(free, None) if bot and not name else name)
    return out


def game_levels(game_id: str) -> tuple[str, ...]:
    """The levels ``game_id`` offers at some player count, weakest first (at a count that lacks one, its name plays
    the strongest level there: :func:`level_spec`)."""
    from dreizehn.core.registry import game_class

    cls = game_class(game_id)
    offered = set(cls.levels).union(*cls.levels_at.values())
    return tuple(level for level in level_order(game_id) if level in offered)


def _levels(game_id: str, players: int | None = None, options: Mapping[str, object] | None = None) -> Mapping[str, str]:
    """The game's levels at ``players`` seats with ``options`` (none: the usual ones): its :attr:`levels`, those of
    :attr:`levels_at` in their place, but for the levels of :attr:`levels_at` other than its own ones
    (:data:`OWN_LEVELS`, whose bots refuse what they cannot play) where ``options`` differ from
    :attr:`levels_at_options`."""
    from dreizehn.core.registry import game_class

    cls = game_class(game_id)
    if players is None:
        return cls.levels
    at = cls.levels_at.get(players, {})
    if options is not None and any(options.get(k) != v for k, v in cls.levels_at_options.items()):
        at = {level: spec for level, spec in at.items() if level in OWN_LEVELS}
    return {**cls.levels, **at}
