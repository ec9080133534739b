"""The compiled loops every game's kernel shares, written once (docs/vector.md): the batch functions of
:class:`~dreizehn.core.kernel.CompiledKernel` (:func:`batch_functions`) and the search's loops
(:mod:`dreizehn.bots.tree`), each compiled per game, and per variant, from one template.

numba resolves a compiled function's calls to other compiled functions when it compiles it, by the names its code
reads from its globals, and caches the machine code on disk by the function's file, name and bytecode and the values
of its closure. So a template is a plain function nested in a maker (:func:`_batch_templates` here), whose code calls
a game's functions by name (``apply``, ``legal_into``, …); :func:`specialise` makes of it a new function with the same
code over globals in which those names are one game's compiled functions and constants, and a closure whose values
(the variant's choices, such as a search's playout policy, and a digest of the sources of every compiled function it
may call) give each game and variant its own entry in numba's cache. A choice fixed so is a constant when numba
compiles, so a random playout carries neither a test of the policy nor the heuristic's code; and a change to a game's
kernel compiles its loops anew (numba alone checks only the template's file).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import types
from collections.abc import Callable, Mapping
from typing import Any

import numba as nb
import numpy as np
from numba.core.dispatcher import Dispatcher

from dreizehn.core.kernel import HEURISTIC, WAITING, Keys, Masks, Observations, States


def unbound(*args: object) -> Any:  # pragma: no cover - never called: specialise binds the name
    """The placeholder of a name a template calls (a game's function), replaced by :func:`specialise` before the
    template is compiled; a template called as plain Python, unspecialised, fails here."""
    raise RuntimeError("a template's game function was called before specialise bound it")


# The names the batch templates call, bound per game by :func:`batch_functions` (placeholders here).
new_game = apply = legal_into = observe = heuristic_action = random_action = playout = unbound
TURN = ACTIONS = 0


@functools.cache
def _digest_of_file(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def digest(namespace: Mapping[str, object]) -> str:
    """A digest of the source files of every compiled function in ``namespace``: what a specialisation's machine code
    may have taken from them."""
    files = sorted({inspect.getfile(value.py_func) for value in namespace.values() if isinstance(value, Dispatcher)})
    return hashlib.sha256(" ".join(_digest_of_file(f) for f in files).encode()).hexdigest()[:16]


def specialise(template: Callable[..., Any], name: str, namespace: Mapping[str, object],
               **choices: object) -> Any:
    """``template`` compiled (lazily, on first call, and cached on disk) for the game ``name``: its code over its own
    module's globals overlaid by ``namespace``, its closure's ``choices`` (every free variable of the template but
    ``variant``) fixed, and ``variant`` the game's name with the digest of what it calls (:func:`digest`).

    Each of the ``choices`` must be a free variable of the template: numba's cache tells specialisations apart by their
    code and closure only, so a choice the code does not read (one that only picks the functions in ``namespace``)
    would let every specialisation load the machine code of whichever was compiled first."""
    code = template.__code__
    unread = sorted(set(choices) - set(code.co_freevars))
    if unread:
        raise AssertionError(f"{template.__qualname__} does not read its choices {unread}: name each in its body")
    names = {**template.__globals__, **namespace}
    cells = {**choices, "variant": f"{name}:{digest(names)}"}
    closure = tuple(types.CellType(cells[var]) for var in code.co_freevars)
    function = types.FunctionType(code, names, template.__name__, template.__defaults__, closure)
    function.__qualname__ = f"{template.__qualname__}.{name.replace('-', '_')}"
    function.__doc__ = template.__doc__
    return nb.njit(cache=True)(function)


def _batch_templates(variant: str) -> tuple[Callable[..., Any], ...]:
    """The batch functions' templates (:func:`batch_functions`)."""

    def reset_batch(states: States, keys: Keys, rows: np.ndarray[Any, Any]) -> None:  # pragma: no cover - compiled
        variant  # noqa: B018 - the closure's value keys numba's cache (specialise)
        for r in rows:
            new_game(states[r], keys[r : r + 1])

    def step_batch(states: States, keys: Keys, actions: np.ndarray[Any, Any],
                   status: np.ndarray[Any, Any]) -> None:  # pragma: no cover - compiled
        variant  # noqa: B018
        for i in range(states.shape[0]):
            status[i] = apply(states[i], actions[i], keys[i : i + 1])

    def legal_batch(states: States, masks: Masks) -> None:  # pragma: no cover - compiled
        variant  # noqa: B018
        buffer = np.empty(ACTIONS, np.int64)
        for i in range(states.shape[0]):
            legal_into(states[i], masks[i], buffer)

    def observe_batch(states: States, seats: np.ndarray[Any, Any], out: Observations) -> None:  # pragma: no cover
        variant  # noqa: B018
        for i in range(states.shape[0]):
            observe(states[i], seats[i], out[i])

    def choose_batch(states: States, keys: Keys, policy: int, out: np.ndarray[Any, Any]) -> None:  # pragma: no cover
        variant  # noqa: B018
        for i in range(states.shape[0]):
            s = states[i]
            key = keys[i : i + 1]
            if s[TURN] < 0:
                out[i] = -1
            else:
                out[i] = heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key)

    def advance_batch(states: States, keys: Keys, seat: int, policy: int,
                      status: np.ndarray[Any, Any]) -> None:  # pragma: no cover - compiled
        """One move by ``policy`` (as ``choose_batch`` chooses it) in every game whose seat to move is not ``seat``,
        in place; ``status`` as ``step_batch``'s, ``WAITING`` where ``seat`` is to move or the game is over."""
        variant  # noqa: B018
        for i in range(states.shape[0]):
            s = states[i]
            if s[TURN] < 0 or s[TURN] == seat:
                status[i] = WAITING
                continue
            key = keys[i : i + 1]
            status[i] = apply(s, heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key), key)

    def playout_batch(states: States, keys: Keys, policy: int) -> None:  # pragma: no cover - compiled
        variant  # noqa: B018
        for i in range(states.shape[0]):
            playout(states[i], keys[i : i + 1], policy)

    def random_games(states: States, keys: Keys, games: int) -> int:  # pragma: no cover - compiled
        """Play ``games`` whole random games in each row, one after the other; the number of actions played."""
        variant  # noqa: B018
        actions = 0
        for i in range(states.shape[0]):
            s = states[i]
            key = keys[i : i + 1]
            for _ in range(games):
                new_game(s, key)
                while s[TURN] >= 0:
                    apply(s, random_action(s, key), key)
                    actions += 1
        return actions

    return (reset_batch, step_batch, legal_batch, observe_batch, choose_batch, advance_batch, playout_batch,
            random_games)


_BATCH_TEMPLATES = _batch_templates("")


def batch_functions(name: str, **functions: object) -> types.SimpleNamespace:
    """The batch functions of :class:`~dreizehn.core.kernel.CompiledKernel` (``reset_batch``, ``step_batch``,
    ``legal_batch``, ``observe_batch``, ``choose_batch``, ``advance_batch``, ``playout_batch``, ``random_games``)
    compiled for the game
    ``name`` from its kernel's compiled functions on one row, by name: ``new_game(s, key)``, ``apply(s, action,
    key)`` (a status), ``legal_into(s, mask, buffer)`` (``buffer``: ``ACTIONS`` ``int64`` of scratch),
    ``observe(s, seat, out)``, ``heuristic_action(s, key)``, ``random_action(s, key)``, ``playout(s, key,
    policy)``, and its constants ``TURN`` (where the seat to move lies in a row, -1 once over) and ``ACTIONS``."""
    return types.SimpleNamespace(**{t.__name__: specialise(t, name, functions) for t in _BATCH_TEMPLATES})
