"""The ``learned`` bot's network (:mod:`dreizehn.bots.learned`) in compiled code, for the ``ismcts`` search's
``value=learned-bot`` and ``playout=learned-bot`` (docs/learned.md, "In the search"): the same weights the NumPy bot
loads, the same forward pass (the observation divided by its bounds and the heuristic's action one-hot, two hidden
layers of ReLU, one rating per action) and the same choice (the heuristic's action unless another legal one is rated
higher by more than the network's threshold), rating only the actions asked for.

The first layer adds the rows of the observation's values that are not 0 (most are: card counts and flags) and the
heuristic action's row; the second skips the hidden units that are 0 after the ReLU; the last rates the legal
actions only, from the output weights transposed so that each action's weights lie together.

The compiled pass gives the NumPy network's ratings (``tests/bots/test_kernel_learned_value.py`` compares them on
thousands of positions of whole games); its arrays:

>>> from dreizehn.bots.learned import shipped
>>> compiled = compile_network(shipped("knizia13"))
>>> compiled.w0.shape, compiled.w2.shape, compiled.threshold
((171, 256), (18, 256), 0.5)
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.bots.learned import Floats, Network, fits, shipped
from dreizehn.core.errors import BotSpecError
from dreizehn.core.game import Game
from dreizehn.words import Word

NetworkArrays = tuple[Floats, Floats, Floats, Floats, Floats, Floats, Floats, float]
"""A network's arrays as the compiled pass reads them (:meth:`CompiledNetwork.arrays`): the weights and biases of
the three layers, the divisors and the threshold."""


class CompiledNetwork(NamedTuple):
    """A network's arrays as the compiled forward pass reads them (:func:`compile_network`)."""

    w0: Floats
    """The first layer's weights, ``(inputs, hidden)``: the observation's rows, then one row per heuristic action."""
    b0: Floats
    w1: Floats
    """The second layer's weights, ``(hidden, hidden)``."""
    b1: Floats
    w2: Floats
    """The output layer's weights transposed, ``(actions, hidden)``, each action's contiguous."""
    b2: Floats
    divisors: Floats
    """Each observation value's divisor (the network's ``scale``)."""
    threshold: float
    """The points by which another action must be rated above the heuristic's to be chosen."""

    def arrays(self) -> NetworkArrays:
        """The arguments the compiled search takes after its tree (:func:`dreizehn.bots.tree.run`)."""
        return self.w0, self.b0, self.w1, self.b1, self.w2, self.b2, self.divisors, self.threshold


def compile_network(network: Network) -> CompiledNetwork:
    """``network``'s arrays for the compiled forward pass: two hidden layers (what ``benchmarks/fit_learned.py``
    fits), its outputs in points (``target_scale`` multiplied in)."""
    if len(network.weights) != 3:
        raise ValueError(f"the compiled forward pass takes two hidden layers, not {len(network.weights) - 1}")
    w0, w1, w2 = (np.ascontiguousarray(w, np.float32) for w in network.weights)
    b0, b1, b2 = (np.ascontiguousarray(b, np.float32) for b in network.biases)
    if network.target_scale != 1.0:
        w2, b2 = w2 * np.float32(network.target_scale), b2 * np.float32(network.target_scale)
    return CompiledNetwork(w0, b0, w1, b1, np.ascontiguousarray(w2.T), b2,
                           np.ascontiguousarray(network.scale, np.float32), float(network.threshold))


@cache
def shipped_compiled(game_id: str) -> CompiledNetwork | None:
    """The compiled arrays of the network shipped with ``game_id`` (:func:`~dreizehn.bots.learned.shipped`), or
    ``None`` where it has none."""
    network = shipped(game_id)
    return None if network is None else compile_network(network)


def fitted_network(game: Game, value: str = "learned-bot", key: str = "value") -> CompiledNetwork:
    """The compiled network of the ``learned`` bot for ``game``, what ``ismcts:value=learned-bot`` (or ``value``,
    ``learned-bot-mix``) values leaves by and ``playout=learned-bot`` plays by; a game without one, or at a player
    count or with options it was not fitted at, is refused (B4, naming the option ``key``).

    >>> import dreizehn
    >>> fitted_network(dreizehn.load_game("knizia13", 4)).threshold
    0.5
    >>> try:
    ...     fitted_network(dreizehn.load_game("knizia13", 3))
    ... except BotSpecError as refused:
    ...     print(refused.code, refused.params["key"])
    bot.option_value_fitted value
    """
    network = shipped(game.id)
    if network is None:
        raise BotSpecError("bot.option_value_network", rule="B4", bot="ismcts", key=key, value=value,
                           game=Word(f"{game.id}.title"))
    if not fits(network, game):
        raise BotSpecError("bot.option_value_fitted", rule="B4", bot="ismcts", key=key, value=value,
                           game=Word(f"{game.id}.title"), players=network.players)
    compiled = shipped_compiled(game.id)
    assert compiled is not None
    return compiled


@nb.njit(cache=True, fastmath={"reassoc", "contract"})
def rate_into(observation: Floats, hint: int, wanted: npt.NDArray[np.bool_], w0: Floats, b0: Floats, w1: Floats,
              b1: Floats, w2: Floats, b2: Floats, divisors: Floats, hidden: Floats,
              out: Floats) -> None:  # pragma: no cover - compiled
    """The rating of every action wanted (``wanted[a]``) and of ``hint``, into ``out[a]`` (the others left as they
    are), for one ``observation`` whose heuristic's action is ``hint``; ``hidden``: ``(2, units)`` of scratch."""
    units = b0.shape[0]
    first = hidden[0]
    second = hidden[1]
    for k in range(units):
        first[k] = b0[k] + w0[divisors.shape[0] + hint, k]
    for j in range(divisors.shape[0]):
        x = observation[j] / divisors[j]
        if x != 0.0:
            for k in range(units):
                first[k] += x * w0[j, k]
    for k in range(units):
        second[k] = b1[k]
    for j in range(units):
        x = first[j]
        if x > 0.0:
            for k in range(units):
                second[k] += x * w1[j, k]
    for k in range(units):
        second[k] = max(second[k], np.float32(0.0))
    for a in range(w2.shape[0]):
        if wanted[a] or a == hint:
            rating = b2[a]
            for k in range(units):
                rating += second[k] * w2[a, k]
            out[a] = rating


@nb.njit(cache=True)
def choice(rated: Floats, legal: npt.NDArray[np.bool_], hint: int, threshold: float) -> int:  # pragma: no cover
    """The action the ``learned`` bot plays for ``rated`` (:meth:`~dreizehn.bots.learned.Network.choose`): the best
    rated legal one (ties: the lowest number) where it is rated above ``hint`` by more than ``threshold``, else
    ``hint``."""
    best = -1
    for a in range(legal.shape[0]):
        if legal[a] and (best < 0 or rated[a] > rated[best]):
            best = a
    return best if best >= 0 and rated[best] - rated[hint] > threshold else hint


def values(compiled: CompiledNetwork, observations: Floats, heuristic: npt.NDArray[np.int64]) -> Floats:
    """The compiled pass's rating of every action, ``(B, actions)``, for ``B`` observations and their heuristic's
    actions (as :meth:`~dreizehn.bots.learned.Network.values`: what the tests compare)."""
    actions = compiled.b2.shape[0]
    out = np.zeros((len(observations), actions), np.float32)
    hidden = np.empty((2, compiled.b0.shape[0]), np.float32)
    every = np.ones(actions, np.bool_)
    observations = np.ascontiguousarray(observations, np.float32)
    for i in range(len(observations)):
        rate_into(observations[i], int(heuristic[i]), every, *compiled.arrays()[:7], hidden, out[i])
    return out
