"""A push service of the tests' own (an HTTP server on 127.0.0.1 in a thread) and a browser's subscription keys: what
the server pushes is decrypted with the browser's private key (http_ece, aes128gcm), as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Takes pushes at ``http://127.0.0.1:<port>/push/<name>``; answers ``statuses[name]`` (201 by default)."""

    statuses: dict[str, int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.statuses.get(self.path.rsplit("/", 1)[-1], 201))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class BrowserKeys:
    """A browser's push subscription keys: a P-256 key pair and an authentication secret."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint)
        self.p256dh = b64(point)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}}

    def read(self, push: Received) -> dict[str, Any]:
        """The push's payload, decrypted as the browser does."""
        assert push.headers.get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(push.body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        found: dict[str, Any] = json.loads(plain)
        return found
