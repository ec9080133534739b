"""docs/server.md and docs/wire.md are enough to write a client (issue 27): their reference parts are written from
the code (:mod:`dreizehn.server.reference`) and must be fresh; every field of every message, body and answer has a
description; every refusal code the server raises is listed, with its sentence in every language; every event of
every game is in the schema's table and in the table of what it means."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import dreizehn
from dreizehn.server import reference
from dreizehn.server.refusals import REFUSALS
from dreizehn.words import words

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "src" / "dreizehn"


@pytest.mark.parametrize("page", reference.PAGES)
def test_the_reference_parts_are_fresh(page: str) -> None:
    """A model field, a route, a refusal or an event changed without ``python -m dreizehn.server.reference``."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert reference.BEGIN.search(text), f"{page} has no reference part"
    assert reference.written(text) == text, f"{page} is stale: run python -m dreizehn.server.reference"


def test_every_field_is_described() -> None:
    """Each field of each message, body and answer says what it means (the docstring under it)."""
    assert reference.undescribed() == []


def test_every_model_of_the_protocol_and_the_api_is_in_the_reference() -> None:
    """A message or an API model added to the code and not to the reference fails here."""
    from pydantic import BaseModel

    from dreizehn.server import protocol, schemas

    listed = {*reference.CLIENT_MODELS, *reference.SERVER_MODELS, *reference.API_MODELS}
    for module in (protocol, schemas):
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == module.__name__ \
                    and not name.startswith("_"):
                assert value in listed, name


RAISED = re.compile(r'(?:ServerError|TakeBackRefused)\(\s*"([a-z0-9_.-]+)"')
"""A refusal of the server raised with its code: its own, or the take-back rule's that it shares with the terminal
game (:mod:`dreizehn.play.undo`)."""


def test_every_refusal_code_the_server_raises_is_listed_and_said_in_every_language() -> None:
    """Each ``ServerError("code", ...)`` (or ``TakeBackRefused``) of the sources is in :data:`REFUSALS`, and each
    listed code (the engine's too) has its sentence in English, German and Dutch with the same parameters."""
    raised = set()
    for path in SOURCES.rglob("*.py"):
        raised |= set(RAISED.findall(path.read_text(encoding="utf-8")))
    assert raised, "no ServerError found: the pattern is wrong"
    assert raised - reference.refusal_codes() == set(), "raised but not listed in dreizehn.server.refusals.REFUSALS"
    assert set(REFUSALS) - raised == set(), "listed but never raised"
    catalogues = {lang: words(lang).catalogue() for lang in ("en", "de", "nl")}
    for code in reference.refusal_codes():
        for lang, catalogue in catalogues.items():
            assert code in catalogue, f"{code} has no sentence in {lang}"
    assert len(reference.engine_codes()) > 20


def test_every_refusal_code_is_in_the_page() -> None:
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    for code in reference.refusal_codes():
        assert f"`{code}`" in text, code


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_every_event_is_said_what_it_means(game_id: str) -> None:
    """Each event key of each game's schema is in wire.md's table of what the events mean (outside the written
    part), and in the written one."""
    text = (ROOT / "docs" / "wire.md").read_text(encoding="utf-8")
    written_at = text.index("<!-- reference: events -->")
    by_hand, written = text[:written_at], text[written_at:]
    for key in reference.event_keys(game_id):
        assert f"| `{key}` |" in by_hand, f"{key} is not in the table of what events mean"
        assert f"| `{key}` |" in written, key
