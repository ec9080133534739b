"""A MaskablePPO model (``examples/train_maskable_ppo.py``) as an arena agent that decides from the observation and
the mask (docs/envs.md#the-arena). The model is read from ``$DREIZEHN_PPO``, else ``ppo-GAME.zip``:

    dreizehn arena knizia13 -p 4 --agent examples.ppo_agent:PPOAgent --levels heuristic
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO

from dreizehn.core.game import Game


class PPOAgent:
    """The model's most likely legal action."""

    def __init__(self, game: Game) -> None:
        torch.set_num_threads(1)
        self.model = MaskablePPO.load(os.environ.get("DREIZEHN_PPO", f"ppo-{game.id}.zip"), device="cpu")

    def act(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)
