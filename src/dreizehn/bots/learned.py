"""``learned``: a small network, fitted by Deep Monte-Carlo on the compiled kernels (``benchmarks/fit_learned.py``),
that rates every legal action of a seat's view and plays the heuristic's unless another is rated clearly higher;
NumPy only, weights loaded from the game's data file (``learned_model.npz`` beside the game's rules), a few
milliseconds a move.

The network reads the seat's observation (the research layout, docs/envs.md, each value divided by its bound) and
the action the game's heuristic would play there (one-hot), and gives, for every action, the points of the stage
that the seat is expected to score more than the mean of the others from here on, if it plays that action
(docs/learned.md). Only the player counts and options it was fitted at are offered; anywhere else the bot refuses
(B5).

>>> import random, dreizehn
>>> game = dreizehn.load_game("knizia13", players=4)
>>> state = game.new_state(seed=1)
>>> bot = LearnedBot(game)
>>> bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import ClassVar, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from dreizehn.bots.advice import heuristic as heuristic_of
from dreizehn.bots.advice import ranking
from dreizehn.bots.base import Bot, register_bot
from dreizehn.core.errors import BotError
from dreizehn.core.game import Game, View
from dreizehn.words import Word

MODEL_FILE = "learned_model.npz"
"""The data file of a game's network, in the game's package."""

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Network:
    """A fitted network: the layers' weights and biases, what it was fitted for and how its inputs are scaled."""

    weights: tuple[Floats, ...]
    biases: tuple[Floats, ...]
    scale: Floats
    """Each observation value's divisor (its bound, at least 1)."""
    target_scale: float
    """What the network's outputs are multiplied by to give points."""
    game_id: str
    players: int
    options: Mapping[str, object]
    num_actions: int
    threshold: float = 0.0
    """The points by which another action must be rated above the heuristic's to be played instead."""
    candidates: int = 0
    """Where not 0, the actions the network may play at a decision the heuristic ranks (:mod:`.advice`'s
    ``rank``, a Three Thirteen discard): only the heuristic's best ``candidates``, and only where its advice is one
    of them (not a discard at random); where the heuristic plays one of the game's eager actions (a way out), that
    action."""

    @property
    def obs_size(self) -> int:
        return len(self.scale)

    def values(self, observations: Floats, heuristic: npt.NDArray[np.int64]) -> Floats:
        """The rating of every action, ``(B, num_actions)``, for ``B`` observations and their heuristic's actions."""
        x = network_input(observations, heuristic, self.scale, self.num_actions)
        return forward(x, self.weights, self.biases, relu)

    def choose(self, observations: Floats, legal: npt.NDArray[np.bool_],
               heuristic: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The action played in each of ``B`` positions: the best rated legal one where it is rated above the
        heuristic's by more than :attr:`threshold`, else the heuristic's (ties: the lowest number)."""
        values = self.values(observations, heuristic)
        rows = np.arange(len(values))
        advised = values[rows, heuristic].copy()
        values[~legal] = -np.inf
        best = values.argmax(axis=1)
        better = values[rows, best] - advised > self.threshold
        return np.where(better, best, heuristic).astype(np.int64)

    def to_arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays :func:`from_arrays` reads back (what ``np.savez`` writes)."""
        meta = {"game": self.game_id, "players": self.players, "options": dict(self.options),
                "num_actions": self.num_actions, "target_scale": self.target_scale, "layers": len(self.weights),
                "threshold": self.threshold, "candidates": self.candidates}
        return {"meta": np.array(json.dumps(meta, sort_keys=True)), "scale": self.scale,
                **layer_arrays(self.weights, self.biases)}


Layers = tuple[tuple[Floats, ...], tuple[Floats, ...]]


def relu(x: Floats) -> None:
    np.maximum(x, 0.0, out=x)


def forward(x: Floats, weights: tuple[Floats, ...], biases: tuple[Floats, ...],
            activation: Callable[[Floats], None]) -> Floats:
    """``x`` through the layers (``x @ w + b``), ``activation`` in place between them, none after the last."""
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        x = x @ w + b
        if i < last:
            activation(x)
    return x


def layer_arrays(weights: tuple[Floats, ...], biases: tuple[Floats, ...]) -> dict[str, npt.NDArray[np.generic]]:
    """The layers as saved (``w0``, ``b0``, ...); :func:`read_layers` reads them back."""
    arrays: dict[str, npt.NDArray[np.generic]] = {}
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    return arrays


def read_layers(arrays: Mapping[str, npt.NDArray[np.generic]], count: int) -> Layers:
    """The weights and biases of ``count`` layers saved by :func:`layer_arrays`."""
    return (tuple(np.asarray(arrays[f"w{i}"], np.float32) for i in range(count)),
            tuple(np.asarray(arrays[f"b{i}"], np.float32) for i in range(count)))


def network_input(observations: Floats, heuristic: npt.NDArray[np.int64], scale: Floats, num_actions: int) -> Floats:
    """The network's input: each observation divided by ``scale``, then the heuristic's action one-hot."""
    rows = len(observations)
    out = np.zeros((rows, len(scale) + num_actions), np.float32)
    np.divide(observations, scale, out=out[:, : len(scale)])
    out[np.arange(rows), len(scale) + heuristic] = 1.0
    return out


def from_arrays(arrays: Mapping[str, npt.NDArray[np.generic]]) -> Network:
    """The network saved by :meth:`Network.to_arrays`."""
    meta = json.loads(str(arrays["meta"]))
    weights, biases = read_layers(arrays, int(meta["layers"]))
    return Network(
        weights=weights, biases=biases,
        scale=np.asarray(arrays["scale"], np.float32), target_scale=float(meta["target_scale"]),
        game_id=str(meta["game"]), players=int(meta["players"]), options=dict(meta["options"]),
        num_actions=int(meta["num_actions"]), threshold=float(meta.get("threshold", 0.0)),
        candidates=int(meta.get("candidates", 0)))


@cache
def shipped(game_id: str) -> Network | None:
    """The network shipped with ``game_id``'s package, or ``None`` where the game has none."""
    arrays = shipped_arrays(game_id, MODEL_FILE)
    return None if arrays is None else from_arrays(arrays)


def shipped_arrays(game_id: str, file_name: str) -> dict[str, npt.NDArray[np.generic]] | None:
    """The arrays of the ``.npz`` data file ``file_name`` in ``game_id``'s package, or ``None`` where it has none."""
    from dreizehn.core.registry import game_class

    package = game_class(game_id).__module__.rpartition(".")[0]
    path = resources.files(package) / file_name
    if not path.is_file():
        return None
    with path.open("rb") as handle, np.load(handle) as saved:
        return {name: saved[name] for name in saved.files}


class Fitted(Protocol):
    """What a network says it was fitted for (:class:`Network`, :class:`~dreizehn.bots.policy.PolicyNetwork`)."""

    @property
    def game_id(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def options(self) -> Mapping[str, object]: ...


F = TypeVar("F", bound=Fitted)


def fits(network: Fitted, game: Game) -> bool:
    """Whether ``network`` was fitted for ``game``'s player count and options."""
    return (network.game_id == game.id and network.players == game.players
            and all(game.options.get(k) == v for k, v in network.options.items()))


def fitted(bot: str, network: F | None, game: Game) -> F:
    """``network``, for the bot named ``bot`` to play ``game`` with; refused (B5) where the game has none, or one
    fitted for another player count or other options."""
    if network is None:
        raise BotError("bot.game", rule="B5", bot=bot, game=game.id)
    if not fits(network, game):
        raise BotError("bot.fitted", rule="B5", bot=bot, game=Word(f"{game.id}.title"), players=network.players)
    return network


@register_bot
class LearnedBot(Bot):
    """``learned``: the game's shipped network rates each legal action; the heuristic's is played unless another is
    rated higher by more than the network's threshold (then the best, ties: the lowest number)."""

    name: ClassVar[str] = "learned"
    option_defaults: ClassVar[Mapping[str, float | int | str | None]] = {}

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.network = fitted(self.name, shipped(game.id), game)
        self.ranking = ranking(game.id)
        from dreizehn.core.encoding import encoder_of

        self.encoder = encoder_of(game)

    def act(self, view: View, rng: random.Random) -> int:
        legal = view.legal_actions
        if not legal:
            raise BotError("bot.not_to_move", rule="B5", seat=view.seat)
        if len(legal) == 1:
            return legal[0]
        heuristic = heuristic_of(view.game_id)
        assert heuristic is not None  # every game with a network has a heuristic
        hint = heuristic(view, rng)
        if self.network.candidates and hint in self.game.eager_actions:
            return hint  # a way out: the network fitted to the candidates never rated one
        ranked = self.ranking(view) if self.network.candidates and self.ranking is not None else None
        if ranked is not None:
            allowed = set(ranked[: self.network.candidates])
            if hint not in allowed:
                return hint  # advice its own ranking does not back (a discard at random, to end a stalemate)
            legal = tuple(a for a in legal if a in allowed)
        observation = self.encoder.observation(view)[None, :]
        mask = np.zeros((1, self.network.num_actions), np.bool_)
        mask[0, legal] = True
        return int(self.network.choose(observation, mask, np.array([hint], np.int64))[0])
