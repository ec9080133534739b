"""A push service of the tests' own (an HTTP server on 127.0.0.1 in a thread) and a browser's subscription keys: what
the server pushes is decrypted with the browser's private key (http_ece, aes128gcm), as a browser would."""

from __future__ import annotations

import base64
import contextlib
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
    status: int = 0
    """What the service answered (0: nothing, it held the push until the sender gave up or was gone)."""


@dataclass
class PushService:
    """Takes pushes at ``http://127.0.0.1:<port>/push/<name>``; answers ``statuses[name]`` (201 by default), except
    to the names in ``held``: those it reads and never answers (a push service that does not answer), until
    :meth:`stop`. ``port``: the port to listen on (another service's, gone); by default a free one."""

    statuses: dict[str, int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    held: set[str] = field(default_factory=set)
    port: int = 0

    def __post_init__(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                name = self.path.rsplit("/", 1)[-1]
                push = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                service.received.append(push)
                if name in service.held:
                    service.closing.wait()
                    return
                push.status = service.statuses.get(name, 201)
                with contextlib.suppress(OSError):
                    self.send_response(push.status)
                    self.send_header("content-length", "0")
                    self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.closing = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def delivered(self, name: str) -> list[Received]:
        """The pushes to ``name`` the service took (answered 2xx)."""
        return [r for r in self.received if r.path.endswith(f"/{name}") and 200 <= r.status < 300]

    def tries(self, name: str) -> int:
        return sum(1 for r in self.received if r.path.endswith(f"/{name}"))

    def stop(self) -> None:
        self.closing.set()
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
