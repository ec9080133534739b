"""Test profiles: ``ci`` (the default, what ``make test`` runs) and ``long`` (``make test-long``), chosen by the
environment variable DREIZEHN_PROFILE. The property tests and the random-game conformance runs scale with it."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("DREIZEHN_PROFILE", "ci")
if PROFILE not in ("ci", "long"):
    raise pytest.UsageError(f"DREIZEHN_PROFILE must be 'ci' or 'long', not {PROFILE!r}")

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)


@pytest.fixture
def scale() -> Callable[[int, int], int]:
    """``scale(ci, long)``: the number to use under the current profile."""
    return lambda ci, long: long if PROFILE == "long" else ci
