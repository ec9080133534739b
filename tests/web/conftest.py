"""Fixtures of the browser tests (issue 14): a real server process per module, Debian's Chromium driven by
Playwright, and pages that fail the test on any error in the browser's console."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, expect, sync_playwright

from .kit import CHROMIUM, Server, Watched, start_server

expect.set_options(timeout=90_000)
"""An ``expect`` waits for its condition up to 90 s, as the contexts' actions do (``new_context``): Playwright's own
5 s were too short on a loaded machine. It bounds a failure only: an expectation that holds returns at once."""


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright for one module (with the browser): its synchronous API holds an asyncio event loop running in the
    worker while it lives, so that a later test of another folder on the same worker could not run its own loop
    (``asyncio.run``); the tests of a module run together on one worker (tests/conftest.py)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"])
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with start_server(tmp_path_factory.mktemp("data")) as running:
        yield running


@pytest.fixture
def contexts(browser: Browser, server: Server) -> Iterator[list[BrowserContext]]:
    """Browser contexts made by the test (each a person with its own storage); closed after it."""
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


@pytest.fixture
def watched() -> Iterator[list[Watched]]:
    """Pages watched for console errors: any one fails the test."""
    pages: list[Watched] = []
    yield pages
    errors = [f"{w.name}: {e}" for w in pages for e in w.errors]
    assert not errors, "errors in the browser's console:\n" + "\n".join(errors)
