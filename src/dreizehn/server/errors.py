"""The server's own refusals (not rules of a game): a bad token, not a seat, too fast, …"""

from __future__ import annotations

from typing import Any

from dreizehn.core.errors import DreizehnError


class ServerError(DreizehnError):
    """A message or request the server refuses; ``status`` is the HTTP status it answers with over the API (422 by
    default; the websocket ignores it)."""

    def __init__(self, code: str, /, *, status: int = 422, rule: str | None = None, **params: Any) -> None:
        super().__init__(code, rule=rule, **params)
        self.status = status


def http_status(err: DreizehnError) -> int:
    """The HTTP status of a refusal: the one a :class:`ServerError` names, else 422 (bad input)."""
    return getattr(err, "status", 422)
