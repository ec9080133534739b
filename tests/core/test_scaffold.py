"""The compiled templates' specialisation (:func:`dreizehn.core.scaffold.specialise`): numba's cache on disk tells
specialisations apart by their code and closure alone, so a choice a template does not read would let one variant run
another's machine code."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from dreizehn.core.scaffold import specialise


def _reads_its_choice(variant: str, policy: int) -> Callable[[int], int]:
    def scaled(x: int) -> int:  # pragma: no cover - compiled
        variant  # noqa: B018
        return x * policy

    return scaled


def _picks_by_namespace_only(variant: str, policy: int) -> Callable[[int], int]:
    def called(x: int) -> int:  # pragma: no cover - compiled
        variant  # noqa: B018
        return inner(x)  # type: ignore[name-defined,no-any-return]  # noqa: F821 - bound by specialise

    return called


def test_each_choice_gives_its_own_machine_code() -> None:
    two = specialise(_reads_its_choice("", 2), "test-scaffold", {}, policy=2)
    three = specialise(_reads_its_choice("", 3), "test-scaffold", {}, policy=3)
    assert (two(np.int64(5)), three(np.int64(5))) == (10, 15)


def test_a_choice_the_template_does_not_read_is_refused() -> None:
    """Three Thirteen's search once picked its playout only through the functions it was given: every playout policy
    then ran the one compiled first."""
    with pytest.raises(AssertionError, match="policy"):
        specialise(_picks_by_namespace_only("", 2), "test-scaffold", {"inner": lambda x: x}, policy=2)
