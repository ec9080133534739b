"""Web Push (rule N4): the server's VAPID key pair (made at the first start of any process and kept in
``server_secrets``), and a push sent to a browser's push service through pywebpush, off the event loop."""

from __future__ import annotations

import base64
import logging
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from dreizehn.server.notices.store import VAPID_NAME, NoticeStore, Subscription
from dreizehn.server.settings import Settings

log = logging.getLogger("dreizehn.server.notices")

GONE = frozenset({404, 410})
"""A push service's answers that say the subscription is no more (it is dropped)."""
TTL = 86400
"""Seconds a push service keeps a push for a browser that is off (its ``TTL``); a push not taken in this time is
given up (rule N9)."""


def try_again(status: int) -> bool:
    """Whether a push the service answered ``status`` to (0: it did not answer) is tried again later: no answer,
    429 (too many) or a fault of the service (5xx); any other refusal is for good."""
    return status == 0 or status == 429 or status >= 500


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def new_private_key() -> str:
    """A new VAPID private key: the P-256 private number, 32 bytes, base64url (43 characters)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64(key.private_numbers().private_value.to_bytes(32, "big"))


def endpoint_allowed(endpoint: str, allow_http: bool) -> bool:
    """Whether a push endpoint may be posted to: an https address with a host (plain http too where the settings
    allow it: the tests' push service)."""
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        return False
    schemes = ("https", "http") if allow_http else ("https",)
    return parts.scheme in schemes and bool(parts.hostname) and len(endpoint) <= 2048


class Pusher:
    """Sends pushes with the server's VAPID key."""

    def __init__(self, store: NoticeStore, settings: Settings) -> None:
        self.settings = settings
        self.vapid = Vapid02.from_raw(store.secret(VAPID_NAME, new_private_key()).encode())
        point = self.vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.public_key = _b64(point)
        """The application server key browsers subscribe with (base64url of the uncompressed P-256 point)."""

    def subject(self) -> str:
        settings = self.settings
        if settings.push_subject:
            return settings.push_subject
        if settings.public_url and settings.public_url.startswith("https://"):
            return settings.public_url
        address = settings.smtp_from.rsplit("<", 1)[-1].strip("> ")
        return f"mailto:{address}"

    def send(self, subscription: Subscription, payload: str) -> int:
        """Push ``payload`` (blocking: call from a thread); the push service's HTTP status, 0 where none answered."""
        # pywebpush and its HTTP client are imported at the first push, not at every server's start (a fifth of a
        # second of it)
        import requests
        from pywebpush import WebPushException, webpush

        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            answer = webpush(info, data=payload, vapid_private_key=self.vapid,
                             vapid_claims={"sub": self.subject()}, timeout=self.settings.push_timeout, ttl=TTL)
        except WebPushException as err:
            status = err.response.status_code if err.response is not None else 0
            log.info("a push to %s was refused: %s", urlsplit(subscription.endpoint).hostname, status)
            return int(status)
        except (requests.RequestException, ValueError, TypeError) as err:
            log.warning("a push to %s failed: %s", urlsplit(subscription.endpoint).hostname, type(err).__name__)
            return 0
        return int(getattr(answer, "status_code", 0))
