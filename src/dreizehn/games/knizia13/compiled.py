"""13's kernel as the :class:`~dreizehn.core.kernel.Kernel` protocol gives it (docs/vector.md): the compiled rules
of :mod:`.kernel` over batches, and the compiled search of :mod:`.search` for the ``ismcts`` bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from dreizehn.bots.learned_kernel import fitted_network
from dreizehn.bots.search_options import MIX
from dreizehn.bots.tree import UCB_COMPILED_SEARCHES
from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import View
from dreizehn.core.kernel import CompiledKernel
from dreizehn.games.knizia13 import kernel
from dreizehn.games.knizia13.kernel import (
    ACTIONS,
    CARDS,
    DEAL,
    DEALER,
    FIRST_DEALER,
    LAST,
    OPEN,
    PLAYERS,
    SIZE,
    STAGE,
    STAGES,
    TOTALS,
    TURN,
)
from dreizehn.games.knizia13.rules import NASTY, Knizia13Rules, Knizia13View, refusal
from dreizehn.games.knizia13.search import rate, search


class Knizia13Kernel(CompiledKernel):
    """13's kernel for one game's player count and options (the :class:`~dreizehn.core.kernel.Kernel`
    protocol)."""

    state_size = SIZE
    num_actions = ACTIONS
    turn, totals_at, last_at = TURN, TOTALS, LAST
    batches = kernel.BATCHES  # the compiled batch functions

    def __init__(self, game: Knizia13Rules) -> None:
        self.game = game
        self.players = game.players
        self.obs_size = encoder_of(game).observation_layout.size
        self._header = np.zeros(SIZE, np.int16)
        self._header[PLAYERS] = game.players
        self._header[STAGES] = game.stages
        self._header[OPEN] = bool(game.options["open_piles"])
        dealer = game.options["dealer"]
        self._header[FIRST_DEALER] = -1 if dealer == "random" else int(dealer)
        self._header[TURN] = -1

    def refusal(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """The rules' refusal (:func:`~dreizehn.games.knizia13.rules.refusal`): the card is not held (K9)."""
        return refusal(int(state[TURN]), min(action, NASTY))

    def resolved_options(self, state: npt.NDArray[np.int16]) -> dict[str, object]:
        """The game's options with the first dealer as drawn (K6): the dealer moves on one seat a stage (K4)."""
        first = int((state[DEALER] - state[STAGE] + (state[TURN] < 0)) % self.players)
        return {**self.game.options, "dealer": first}

    def last_deal(self, state: npt.NDArray[np.int16]) -> list[int]:
        return [int(c) for c in state[DEAL : DEAL + CARDS]]

    search_options: ClassVar[Mapping[str, object]] = {
        "root": ("ucb",), "playout": ("random", "heuristic"), "cutoff": (0,), "prune": False, "tree": True,
        "value": ("learned-bot", "learned-bot-mix"),
    }
    """The option values of the ``ismcts`` bot that :meth:`search` implements (``horizon=stage`` and
    ``reward=margin`` always); ``tree`` true: with a tree below the root or without; ``value``: besides ``points``,
    ``learned-bot`` (the leaves valued by the ``learned`` bot's network, where it was fitted: docs/learned.md),
    or ``learned-bot-mix``, whose share of the network the search takes as the keyword ``mix``."""

    compiled_searches: ClassVar[tuple[Mapping[str, object], ...]] = UCB_COMPILED_SEARCHES
    """The options of :meth:`search` that each compile a variant of it (what :func:`~dreizehn.core.kernel.warm_up`
    compiles ahead)."""

    def search(self, view: View, iterations: int, c: float, scale: float, seed: int, seconds: float | None = None,
               *, keep: frozenset[int] = frozenset(), cutoff: int = 0, playout: str = "random",
               tree: bool = True, value: str = "points",
               mix: float = MIX) -> tuple[list[tuple[int, int, int, float]], int]:
        """The ``ismcts`` bot's search from ``view``, compiled (:mod:`.search`): ``root=ucb``, every root action
        (``keep`` is empty: no pruning), playouts to the end of the stage (``cutoff`` 0), ``random`` or by the
        ``heuristic``, below a tree grown where ``tree`` (else the search is flat at the root);
        ``value=learned-bot``: each leaf valued by the ``learned`` bot's network
        (:func:`~dreizehn.bots.learned_kernel.fitted_network`) instead of played out; ``learned-bot-mix``: played
        out, the searching seat's reward the network's by the share ``mix`` and the playout's by the rest."""
        assert isinstance(view, Knizia13View) and not keep and not cutoff
        network = fitted_network(self.game) if value.startswith("learned-bot") else None
        return search(self.new(1)[0], view, iterations, c, scale, seed, seconds, playout, tree, network,
                      mix if value == "learned-bot-mix" else None)

    def rate(self, view: View, actions: list[int], worlds: int,
             seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Hints' playouts by the heuristic, compiled (:mod:`.search`)."""
        assert isinstance(view, Knizia13View)
        return rate(self.new(1)[0], view, actions, worlds, seed)


def make(game: Knizia13Rules) -> Knizia13Kernel:
    """The kernel of ``game`` (its player count and options)."""
    return Knizia13Kernel(game)
