"""What the tests of words share: names to seat, and the check that a text is a finished sentence."""

from __future__ import annotations

import re

NAMES = ["Anna", "Ben", "Cleo", "Dirk", "Eva", "Finn", "Gus", "Hanna"]
RAW_KEY = re.compile(r"\b[a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*")
"""A catalogue key (``holzwurm.took``) left in a text instead of its words."""


def said(text: str) -> str:
    """``text``, checked to be a sentence: not empty, every field filled, no catalogue key left raw."""
    assert text.strip(), "an empty sentence"
    assert "{" not in text and "}" not in text, f"an unfilled field: {text!r}"
    assert not RAW_KEY.search(text), f"a raw key: {text!r}"
    return text
