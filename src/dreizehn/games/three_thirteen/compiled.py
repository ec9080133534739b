"""Three Thirteen's kernel as the :class:`~dreizehn.core.kernel.Kernel` protocol gives it (docs/vector.md): the
compiled rules of :mod:`.kernel` over batches, and the compiled search of :mod:`.search` for the ``ismcts`` bot
(apart, since the search imports the kernel)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from dreizehn.bots.learned import shipped
from dreizehn.core.errors import BotSpecError
from dreizehn.core.game import View
from dreizehn.games.three_thirteen.kernel import ThreeThirteenKernel
from dreizehn.games.three_thirteen.rules import ThreeThirteenRules, ThreeThirteenView
from dreizehn.games.three_thirteen.search import Stats, rate, search
from dreizehn.words import Word

CUTOFFS = range(0, 2**31)
"""Every ``cutoff`` the compiled search takes (0: never)."""


class ThreeThirteenSearchKernel(ThreeThirteenKernel):
    """Three Thirteen's kernel for one game's player count and options, with the ``ismcts`` bot's search."""

    search_options: ClassVar[Mapping[str, object]] = {
        "root": ("paired",), "playout": ("greedy", "random", "heuristic", "learned-bot"), "cutoff": CUTOFFS,
        "prune": True, "potential": True, "infer": True, "tree": True,
        "value": ("learned", "learned-large"), "standing": True, "replay": True,
    }
    """The option values of the ``ismcts`` bot that :meth:`search` implements (``horizon=stage`` and
    ``reward=margin`` always): ``prune`` true, it takes the kept root actions (:meth:`IsmctsBot._compiled_search
    <dreizehn.bots.ismcts.IsmctsBot._compiled_search>`); ``infer`` true, it weighs its determinizations by what the
    seat saw (:mod:`.inference`); ``standing`` true, its reward may count the game's totals
    (:func:`.search.standing`); ``replay`` true, it may keep only the determinizations whose other hand replays that
    seat's latest turn (:func:`.search.replays`)."""

    compiled_searches: ClassVar[tuple[Mapping[str, object], ...]] = (
        {"playout": "greedy"}, {"playout": "random"}, {"playout": "heuristic"}, {"playout": "learned-bot"})
    """The options of :meth:`search` that each compile a variant of it (what :func:`~dreizehn.core.kernel.warm_up`
    compiles ahead): one a playout; a network's values and the others are data to the same compiled search."""

    def search(self, view: View, iterations: int, c: float, scale: float, seed: int, seconds: float | None = None,
               *, keep: frozenset[int] = frozenset(), cutoff: int = 4,
               playout: str = "greedy", potential: float = 0.0, infer: bool = False,
               value: str = "points", standing: bool = False, tree: bool | None = None,
               replay: bool = False) -> tuple[Stats, int]:
        """The ``ismcts`` bot's search from ``view``, compiled (:mod:`.search`): ``root=paired``, the root narrowed
        to ``keep`` where not empty, playouts by ``playout`` cut off after ``cutoff`` actions (0: never), the hands
        of a playout cut off counting ``potential`` points less per unit of meld potential, the determinizations
        weighted by inference with ``infer``, cut-off hands valued by ``value`` (``points``: as they stand;
        ``learned``, ``learned-large``: by that network of :mod:`.value`), the reward counting the game's totals so
        far at a scale narrowed to the rounds left with ``standing`` (:func:`.search.standing`), the determinizations
        dealt again until the other hand replays that seat's latest turn with ``replay``; ``learned-bot``
        rollouts only where the game's observation is the network's (2 players: the bot refuses the rest first)."""
        assert isinstance(view, ThreeThirteenView)
        network = shipped(self.game.id)
        if playout == "learned-bot" and (network is None or network.obs_size != self.obs_size):
            raise BotSpecError("bot.option_value_fitted", rule="B4", bot="ismcts", key="playout", value=playout,
                               game=Word(f"{self.game.id}.title"), players=network.players if network else 2)
        return search(self.new(1)[0], view, iterations, c, scale, seed, seconds, keep=keep, cutoff=cutoff,
                      playout=playout, weight=potential, infer=infer, value=value, standing_on=standing, grow=tree,
                      replay=replay)

    def rate(self, view: View, actions: list[int], worlds: int, seed: int,
             infer: bool = False) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Hints' playouts by the heuristic, compiled (:mod:`.search`), the worlds dealt by inference with
        ``infer`` (as :meth:`ThreeThirteen.infer_state <dreizehn.core.game.Game.infer_state>` deals them)."""
        assert isinstance(view, ThreeThirteenView)
        return rate(self.new(1)[0], view, actions, worlds, seed, infer)


def make(game: ThreeThirteenRules) -> ThreeThirteenSearchKernel:
    """The kernel of ``game`` (its player count and options)."""
    return ThreeThirteenSearchKernel(game)
