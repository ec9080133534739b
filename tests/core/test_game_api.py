"""The shared game API: registry, options, errors, the docs' example, and the doctests of every module."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

import dreizehn
from dreizehn.core.game import OptionSpec

ROOT = Path(__file__).resolve().parents[2]


def test_registry_lists_the_three_games() -> None:
    assert dreizehn.game_ids()[:3] == ("knizia13", "three-thirteen", "holzwurm")  # by their order; others after
    for game_id in dreizehn.game_ids():
        cls = dreizehn.game_class(game_id)
        assert cls.id == game_id
        game = cls(cls.min_players)
        assert repr(game) == f"dreizehn.load_game({game_id!r}, players={cls.min_players})"
        assert game.num_actions == len(cls.action_type.all())


def test_unknown_game_and_bad_players() -> None:
    with pytest.raises(dreizehn.UnknownGameError, match=r"there is no game 'thirteen' \(the games are"):
        dreizehn.load_game("thirteen", 4)
    for bad in ("4", 4.0, None, True):
        with pytest.raises(dreizehn.InvalidOptionError, match="whole number"):
            dreizehn.load_game("knizia13", bad)  # type: ignore[arg-type]
    with pytest.raises(dreizehn.InvalidOptionError, match="seed must be a whole number"):
        dreizehn.new_game("knizia13", 4, seed="x")  # type: ignore[arg-type]


def test_option_spec_validation() -> None:
    seat = OptionSpec("dealer", "seat", 0, "K6", "")
    assert seat.validate("2", 4) == 2 and seat.validate("RANDOM", 4) == "random"
    with pytest.raises(ValueError, match=r"seat from 0 to 3 or 'random', not 4 \(K6\)"):
        seat.validate(4, 4)
    number = OptionSpec("games", "int", 3, "H16", "", low=1, high=20)
    assert number.validate(" 5 ", 2) == 5
    with pytest.raises(ValueError, match="from 1 to 20, not 0"):
        number.validate(0, 2)
    with pytest.raises(ValueError, match="from 1 to 20"):
        number.validate(True, 2)
    choice = OptionSpec("aces", "choice", "low", "T2", "", choices=("low", "low-or-high"))
    assert choice.validate("Low-Or-High", 2) == "low-or-high"
    with pytest.raises(ValueError, match=r"one of low, low-or-high, not 'high' \(T2\)"):
        choice.validate("high", 2)
    flag = OptionSpec("open_piles", "bool", False, "K12", "")
    assert flag.validate("yes", 3) is True and flag.validate(False, 3) is False


def test_error_names_rule() -> None:
    err = dreizehn.IllegalActionError("a green card may only be played on the green target", rule="K10")
    assert isinstance(err, ValueError) and err.rule == "K10" and str(err).endswith("(K10)")


def test_game_over_refuses_actions() -> None:
    state = dreizehn.new_game("knizia13", players=3, seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    with pytest.raises(dreizehn.GameOverError, match="the game is over"):
        state.apply(0)
    assert state.legal_actions() == [] and state.current_player == -1


def test_docs_api_example_runs() -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), {})


COMPILED_EXAMPLES = frozenset({
    "dreizehn.bots.base", "dreizehn.bots.ismcts", "dreizehn.envs.gymnasium", "dreizehn.envs.gymnasium_vector",
    "dreizehn.envs.sb3", "dreizehn.play.hints", "dreizehn.study.vector",
})
"""The modules whose examples run the compiled kernels (numba compiles each kernel on first use, a minute of CPU in a
fresh clone): their examples are a test of their own, marked ``slow`` (``make test-quick`` leaves it out)."""


def _modules() -> list[ModuleType]:
    modules = [dreizehn]
    for info in pkgutil.walk_packages(dreizehn.__path__, "dreizehn."):
        if not info.name.startswith("dreizehn.cli"):
            modules.append(importlib.import_module(info.name))
    return modules


def test_doctests() -> None:
    """Every docstring example of the package runs as written (those of :data:`COMPILED_EXAMPLES` in the next
    test)."""
    _doctests([m for m in _modules() if m.__name__ not in COMPILED_EXAMPLES])


@pytest.mark.slow
def test_doctests_that_run_the_compiled_kernels() -> None:
    modules = [m for m in _modules() if m.__name__ in COMPILED_EXAMPLES]
    assert sorted(m.__name__ for m in modules) == sorted(COMPILED_EXAMPLES)  # no name there that is no module
    _doctests(modules)


def _doctests(modules: list[ModuleType]) -> None:
    failures = 0
    for module in modules:
        # a game's modules (games/<id>/words.py …) read their examples with the names of the game's package
        package = module.__name__.rpartition(".")[0]
        shared = vars(importlib.import_module(package)) if package.startswith("dreizehn.games.") else {}
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS,
                                 extraglobs={k: v for k, v in shared.items() if not k.startswith("__")})
        failures += result.failed
    assert failures == 0


def test_docs_notation_examples() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "notation.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


def test_a_game_without_an_arrangement_refuses_to_arrange() -> None:
    """A7: only a game that arranges (Three Thirteen) lays a hand out; the others refuse, naming the rule."""
    from dreizehn.core.errors import InvalidActionError

    game = dreizehn.load_game("knizia13", 4)
    assert not game.arranges
    with pytest.raises(InvalidActionError) as caught:
        game.arrange_hand([0, 1], {})
    assert (caught.value.code, caught.value.rule) == ("game.no_arrangement", "A7")
    assert dreizehn.load_game("three-thirteen", 2).arranges
