"""dreizehn: three card games built on the number 13, with exact rules engines behind one game API.

>>> import dreizehn
>>> state = dreizehn.new_game("holzwurm", players=3, seed=2024)
>>> while not state.is_over:
...     state.apply(state.legal_actions()[0])
>>> len(state.stage_scores)
3
"""

from dreizehn.core.errors import (
    BackendError,
    BotError,
    BotSpecError,
    DreizehnError,
    EnvError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    RecordError,
    ShuffleNeeded,
    SimulationError,
    UnknownGameError,
    UsageError,
)
from dreizehn.core.game import Game, OptionSpec, State, View
from dreizehn.core.registry import game_class, game_ids, load_game, new_game

__version__ = "0.1.0"

__all__ = [
    "BackendError",
    "BotError",
    "BotSpecError",
    "DreizehnError",
    "EnvError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "OptionSpec",
    "RecordError",
    "ShuffleNeeded",
    "SimulationError",
    "State",
    "UnknownGameError",
    "UsageError",
    "View",
    "__version__",
    "game_class",
    "game_ids",
    "load_game",
    "new_game",
]
