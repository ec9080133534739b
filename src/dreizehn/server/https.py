"""HTTP Strict Transport Security: where the server is reached over https (``DREIZEHN_COOKIE_SECURE``), every answer
tells the browser to come back over https only, for a year (OWASP ASVS 5.0 V3.4.1)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HSTS = (b"strict-transport-security", b"max-age=31536000")


class StrictTransport:
    """Adds :data:`HSTS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_hsts(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), HSTS]
            await send(message)

        await self.app(scope, receive, with_hsts)
