"""The notices' bodies and answers (docs/server.md, Notices)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, use_attribute_docstrings=True)


class _Out(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)


class WaitingGame(_Out):
    """A turn-based game waiting for the asker's move."""

    table: str
    """The table's id."""
    game: str
    """The game's id."""
    seat: int
    """The asker's seat."""
    due_at: str
    """When the asker's time to move runs out (ISO 8601, UTC)."""
    url: str
    """The page of the asker's seat (``/seat/<table>/<seat>``)."""
    players: list[str]
    """The other players' names (a former player's said as such), in the request's language."""


class WaitingOut(_Out):
    """The turn-based games waiting for the asker's move, the soonest due first (rule N1)."""

    count: int
    """How many games wait."""
    games: list[WaitingGame]
    """The games, the soonest due first."""


class PushKeyOut(_Out):
    """The server's VAPID public key (rule N4)."""

    key: str
    """The application server key a browser subscribes with: the uncompressed P-256 point, base64url."""


class PushKeysIn(_In):
    """A push subscription's keys, as the browser's ``PushSubscription.toJSON()`` gives them."""

    p256dh: str = Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    """The browser's P-256 public key (base64url)."""
    auth: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    """The browser's authentication secret (16 bytes, base64url)."""


class PushIn(_In):
    """A browser's push subscription (rule N4)."""

    endpoint: str = Field(max_length=2048)
    """The push service's address for this browser (https)."""
    keys: PushKeysIn
    """The browser's keys."""


class PushEndpointIn(_In):
    """A push subscription to drop, by its endpoint."""

    endpoint: str = Field(max_length=2048)
    """The push service's address the browser subscribed with."""


class NoticesIn(_In):
    """What the asker wants to be mailed (rule N5)."""

    mail: Literal["off", "each", "digest"]
    """``off``, ``each`` (a mail when a game waits, at most one a game per period) or ``digest`` (one a day)."""


class NoticesOut(_Out):
    """The asker's notices by mail and push (rules N4, N5)."""

    mail: Literal["off", "each", "digest"]
    """What the asker is mailed."""
    mail_configured: bool
    """Whether the server sends mail at all."""
    email_verified: bool
    """Whether the asker has a verified address (mails need one)."""
    push_subscriptions: int
    """How many browsers of the asker's are subscribed to Web Push."""
