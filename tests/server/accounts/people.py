"""Tools of the accounts' tests: signing people up and in through the HTTP API, as a browser does."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

PASSWORD = "correct horse battery"
"""Every test person's password (unless a test gives another)."""


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **more: Any) -> str:
    """Make the account ``name`` on ``client`` (which keeps its cookie) and return its CSRF token."""
    answer = client.post("/api/accounts", json={"name": name, "password": password, **more})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> str:
    answer = client.post("/api/session", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def code(answer: Any) -> str:
    """The refusal code of an answer."""
    found: str = answer.json()["detail"]["code"]
    return found


def session_cookie(client: TestClient) -> str | None:
    value = client.cookies.get("dz_session")
    return None if value is None else str(value)
