"""Bot levels: ``easy``, ``medium``, ``hard`` and ``expert``, names that every command and interface accepts.

Each level is a bot specification per game (:data:`BY_GAME`), chosen so that each level beats the one below it;
``docs/bots.md`` gives the measured ratings and times per move. Without a game, :data:`LEVELS` gives the
specification most games use.

>>> level_spec("medium", "knizia13")
'heuristic'
>>> level_spec("ismcts:iterations=50", "holzwurm")
'ismcts:iterations=50'
"""

from __future__ import annotations

LEVEL_NAMES = ("easy", "medium", "hard", "expert")

BY_GAME: dict[str, dict[str, str]] = {
    "knizia13": {
        "easy": "heuristic:blunder=0.5",
        "medium": "heuristic",
        "hard": "ismcts:iterations=150",
        "expert": "ismcts:iterations=1500",
    },
    "holzwurm": {
        "easy": "heuristic:blunder=0.5",
        "medium": "heuristic",
        "hard": "ismcts:iterations=150",
        "expert": "ismcts:iterations=1500",
    },
    "three-thirteen": {
        # The search does not beat the heuristic at Three Thirteen (docs/bots.md), so the levels are the heuristic
        # with fewer and fewer random blunders.
        "easy": "heuristic:blunder=0.6",
        "medium": "heuristic:blunder=0.3",
        "hard": "heuristic:blunder=0.1",
        "expert": "heuristic",
    },
}
"""Per game, each level's bot specification."""

LEVELS: dict[str, str] = dict(BY_GAME["knizia13"])
"""Each level's specification when no game is named (that of 13 and Holzwurm)."""


def level_spec(name: str, game_id: str | None = None) -> str:
    """The bot specification of a level in ``game_id``; any other name is returned as it is (a bot
    specification)."""
    key = name.strip().lower()
    if key in LEVEL_NAMES:
        return BY_GAME.get(game_id or "", LEVELS)[key]
    return name
