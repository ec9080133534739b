"""Example agents for the arena (docs/envs.md#the-arena):
``dreizehn arena knizia13 --agent examples.arena_agent:lowest``.

``lowest`` decides from the view (``act(view)``); ``FirstLegal`` from the observation tensor and the mask of legal
actions (``act(observation, mask)``); ``Broken`` shows how the arena scores an agent that raises.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dreizehn.core.game import View


def lowest(view: View) -> int:
    """The legal action with the lowest number (in 13: the lowest blue card first)."""
    return min(view.legal_actions)


class FirstLegal:
    """Made with nothing; decides from the observation and the mask."""

    def act(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        return int(np.flatnonzero(mask)[-1])


class Broken:
    """Raises on every third move: the arena forfeits those games and goes on."""

    def __init__(self) -> None:
        self.moves = 0

    def act(self, view: View) -> int:
        self.moves += 1
        if self.moves % 3 == 0:
            raise RuntimeError("a deliberate failure")
        return view.legal_actions[0]
