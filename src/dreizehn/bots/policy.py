"""``policy``: a policy network played in NumPy, the actor of a MaskablePPO model (Stable-Baselines3's
``MlpPolicy``: the observation, hidden layers with ``tanh``, one logit per action) exported by
:func:`dreizehn.envs.sb3.export_policy` into an ``.npz`` file, so that playing it needs neither torch nor
Stable-Baselines3. It plays the legal action of the highest logit (ties: the lowest number), as the model's
``predict(..., deterministic=True)`` does. The bot plays the network shipped with a game (``policy_model.npz``
beside the game's rules, docs/learned.md) at the player count and options it learned at, and refuses any other
table (B5).

>>> import numpy as np
>>> net = PolicyNetwork(weights=(np.eye(2, dtype=np.float32), np.array([[1, 0], [0, 2]], np.float32)),
...                     biases=(np.zeros(2, np.float32), np.zeros(2, np.float32)),
...                     game_id="knizia13", players=4, options={}, num_actions=2)
>>> net.choose(np.array([[1.0, 1.0]], np.float32), np.array([[True, True]])).tolist()
[1]
>>> net.choose(np.array([[1.0, 1.0]], np.float32), np.array([[True, False]])).tolist()
[0]
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from dreizehn.bots.base import Bot, register_bot
from dreizehn.bots.learned import fitted, forward, layer_arrays, read_layers, shipped_arrays
from dreizehn.core.errors import BotError, VectorError
from dreizehn.core.game import Game, View

POLICY_FILE = "policy_model.npz"
"""The data file of a game's policy network, in the game's package."""

Floats = npt.NDArray[np.float32]


def tanh(x: Floats) -> None:
    np.tanh(x, out=x)


@dataclass(frozen=True)
class PolicyNetwork:
    """The actor's layers (``x @ w + b``; ``tanh`` between them), and the game, player count and options it learned
    at."""

    weights: tuple[Floats, ...]
    biases: tuple[Floats, ...]
    game_id: str
    players: int
    options: Mapping[str, object]
    num_actions: int
    steps: int = 0
    """The learner steps it was trained for (what the file says of itself; not read in play)."""

    @property
    def obs_size(self) -> int:
        return int(self.weights[0].shape[0])

    def logits(self, observations: Floats) -> Floats:
        """The logit of every action, ``(B, num_actions)``, for ``B`` observations (the research layout)."""
        return forward(np.asarray(observations, np.float32), self.weights, self.biases, tanh)

    def choose(self, observations: Floats, legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The legal action of the highest logit in each of ``B`` positions (ties: the lowest number)."""
        logits = self.logits(observations)
        logits[~legal] = -np.inf
        chosen: npt.NDArray[np.int64] = logits.argmax(axis=1).astype(np.int64)
        return chosen

    def to_arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays :func:`policy_from_arrays` reads back (what ``np.savez`` writes)."""
        meta = {"kind": "policy", "game": self.game_id, "players": self.players, "options": dict(self.options),
                "num_actions": self.num_actions, "layers": len(self.weights), "activation": "tanh",
                "steps": self.steps}
        return {"meta": np.array(json.dumps(meta, sort_keys=True)), **layer_arrays(self.weights, self.biases)}

    def save(self, path: str | Path) -> None:
        """Into ``path`` (``.npz``, compressed)."""
        np.savez_compressed(path, **self.to_arrays())  # type: ignore[arg-type]


def policy_from_arrays(arrays: Mapping[str, npt.NDArray[np.generic]], path: str = "the file") -> PolicyNetwork:
    """The network saved by :meth:`PolicyNetwork.to_arrays`; arrays of another kind (the ``learned`` bot's value
    network) are refused (:class:`~dreizehn.core.errors.VectorError`, V4)."""
    meta = json.loads(str(arrays["meta"]))
    if meta.get("kind") != "policy" or meta.get("activation") != "tanh":
        raise VectorError("vector.policy_file", rule="V4", path=path, kind=str(meta.get("kind", "value")))
    weights, biases = read_layers(arrays, int(meta["layers"]))
    return PolicyNetwork(
        weights=weights, biases=biases, game_id=str(meta["game"]), players=int(meta["players"]),
        options=dict(meta["options"]), num_actions=int(meta["num_actions"]), steps=int(meta.get("steps", 0)))


def load_policy(path: str | Path) -> PolicyNetwork:
    """The network in the ``.npz`` file at ``path``."""
    with np.load(path) as saved:
        return policy_from_arrays({name: saved[name] for name in saved.files}, str(path))


@cache
def shipped_policy(game_id: str) -> PolicyNetwork | None:
    """The policy network shipped with ``game_id``'s package, or ``None`` where the game has none."""
    arrays = shipped_arrays(game_id, POLICY_FILE)
    return None if arrays is None else policy_from_arrays(arrays, POLICY_FILE)


@register_bot
class PolicyBot(Bot):
    """``policy``: the game's shipped policy network plays the legal action of its highest logit, a fraction of a
    millisecond a move beside the observation's encoding."""

    name: ClassVar[str] = "policy"
    option_defaults: ClassVar[Mapping[str, float | int | str | None]] = {}

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.network = fitted(self.name, shipped_policy(game.id), game)
        from dreizehn.core.encoding import encoder_of

        self.encoder = encoder_of(game)

    def act(self, view: View, rng: random.Random) -> int:
        legal = view.legal_actions
        if not legal:
            raise BotError("bot.not_to_move", rule="B5", seat=view.seat)
        if len(legal) == 1:
            return legal[0]
        mask = np.zeros((1, self.network.num_actions), np.bool_)
        mask[0, legal] = True
        return int(self.network.choose(self.encoder.observation(view)[None, :], mask)[0])
