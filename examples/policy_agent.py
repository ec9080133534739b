"""A MaskablePPO model's actor exported to NumPy (``examples/train_maskable_ppo.py --export``, or
:func:`dreizehn.envs.sb3.export_policy`) as an arena agent that decides from the observation and the mask, with
neither torch nor Stable-Baselines3 (docs/envs.md#the-arena). The network is read from ``$DREIZEHN_POLICY``, else
``policy-GAME.npz``:

    dreizehn arena holzwurm -p 4 --agent examples.policy_agent:PolicyAgent --levels heuristic
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from dreizehn.bots.policy import load_policy
from dreizehn.core.game import Game


class PolicyAgent:
    """The network's legal action of the highest logit."""

    def __init__(self, game: Game) -> None:
        self.network = load_policy(os.environ.get("DREIZEHN_POLICY", f"policy-{game.id}.npz"))
        if (self.network.game_id, self.network.players) != (game.id, game.players):
            raise ValueError(f"the network plays {self.network.game_id} at {self.network.players} players")

    def act(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        return int(self.network.choose(observation[None, :], mask[None, :])[0])
