"""Test profiles: ``ci`` (the default, what ``make test`` runs), ``quick`` (``make test-quick``: the same checks on a
fifth of the random games and examples) and ``long`` (``make test-long``), chosen by the environment variable
DREIZEHN_PROFILE. The property tests and the random-game conformance runs scale with it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("DREIZEHN_PROFILE", "ci")
if PROFILE not in ("ci", "quick", "long"):
    raise pytest.UsageError(f"DREIZEHN_PROFILE must be 'ci', 'quick' or 'long', not {PROFILE!r}")

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))  # benchmark_scripts, the loader of benchmarks' scripts,
# for a test of any folder, also when its folder is run alone


@pytest.fixture
def scale() -> Callable[[int, int], int]:
    """``scale(ci, long)``: the number to use under the current profile (a fifth of ``ci``, at least 1, when quick)."""
    return lambda ci, long: long if PROFILE == "long" else max(1, ci // 5) if PROFILE == "quick" else ci


@pytest.fixture
def profile() -> str:
    """The profile the tests run under: ``ci``, ``quick`` or ``long``."""
    return PROFILE


SLOW_FOLDERS = frozenset({"web", "server", "kernels", "tui", "envs", "fourth_game"})
"""The folders of tests that start servers, browsers or terminal pilots, or compile kernels: marked ``slow`` and left
out of ``make test-quick`` (``make test`` runs them all)."""

SLOW_FILES = "test_kernel*.py"
"""The files, in any folder, of a game's compiled kernel, search, heuristic and value tests (``tests/games/<name>/``,
beside the game's other tests): marked ``slow`` as :data:`SLOW_FOLDERS` are."""


SLOW_MODULES = frozenset({
    "benchmarks/test_fit_learned.py",  # the learner's loop on the compiled kernels
    "benchmarks/test_lobby_benchmark.py",  # a thousand people matched
    "benchmarks/test_regret_benchmark.py",  # searches saved positions
    "benchmarks/test_three_thirteen_skill.py",  # the compiled draw by expectimax, expert's searches
    "bots/test_hint_agreement.py",  # hints from the compiled playouts
    "bots/test_hints.py",
    "bots/test_ismcts.py",  # the compiled searches
    "study/test_vector.py",  # the batched games on the compiled kernels
})
"""Modules elsewhere whose tests compile or run the kernels' searches and playouts (numba compiles each on first use:
seconds to minutes in a fresh clone), marked ``slow`` as :data:`SLOW_FOLDERS` are."""

SLOW_FIXTURES = frozenset({"ray_address"})
"""Fixtures that start something heavy (a local Ray instance): a test that uses one is marked ``slow`` too."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``-m "not slow"`` (``make test-quick``), the folders of :data:`SLOW_FOLDERS` are not even collected:
    importing them (the servers, the browser, the research libraries) is most of a quick run's start."""
    if config.option.markexpr != "not slow":
        return None
    root = Path(__file__).parent
    if collection_path.is_dir():
        return True if collection_path.parent == root and collection_path.name in SLOW_FOLDERS else None
    if collection_path.is_relative_to(root) and collection_path.relative_to(root).as_posix() in SLOW_MODULES:
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of :data:`SLOW_FOLDERS` or :data:`SLOW_FILES`, or using one of :data:`SLOW_FIXTURES`, ``slow``
    (a test elsewhere may carry the mark itself: one that starts a Python process to load or compile kernels, say).
    A test that uses a fixture shared by its module (a server, a browser's server, a finished analysis) is put in
    its module's ``xdist_group``: with ``--dist loadgroup`` (``make test``) one worker runs them all, so the fixture
    is made once, not once in every worker. First among the hooks (``tryfirst``): pytest-xdist reads the groups in
    its own hook of this name, which would otherwise run before this one and find none."""
    root = Path(__file__).parent
    for item in items:
        fixtures = getattr(item, "_fixtureinfo", None)
        if fixtures is not None and any(d.scope == "module" for defs in fixtures.name2fixturedefs.values()
                                        for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
        try:
            folder = item.path.relative_to(root).parts[0]
        except ValueError:  # a doctest of the package
            continue
        module = item.path.relative_to(root).as_posix()
        if folder in SLOW_FOLDERS or fnmatch(item.path.name, SLOW_FILES) or module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


CPU_TIMES = os.environ.get("DREIZEHN_CPU_TIMES")
"""A file to append each test's CPU seconds to (``seconds<TAB>test``: the worker's own and its waited-for child
processes'), where set: what a test costs on a busy machine, where its wall-clock duration says little."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    if not CPU_TIMES:
        yield
        return
    import resource
    import time

    def spent() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    before = spent()
    yield
    with open(CPU_TIMES, "a", encoding="utf-8") as out:
        out.write(f"{spent() - before:.2f}\t{item.nodeid}\n")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In a pytest-xdist worker, collect the garbage once and freeze what lives, before the worker reports that it
    has finished (pytest-xdist sends that after this hook).

    After the report, pytest collects the garbage five times over to report exceptions raised in finalizers, and
    the controller, which has then heard from every worker, tells each to stop and interrupts one still busy after 5
    s (execnet's SIGINT). A worker that has imported torch, Ray and the server holds millions of objects, so on a
    busy machine those five passes outlasted the 5 s now and then, and the interrupt landed in hypothesis's garbage
    collection callback: a ``PytestUnraisableExceptionWarning`` with a ``KeyboardInterrupt`` at the end of a run that
    had passed. Collected here, the garbage's finalizers still report through pytest (its hook is in place until its
    own cleanup), and the frozen objects are no longer walked by the passes after the report."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import gc

        gc.collect()
        gc.freeze()
