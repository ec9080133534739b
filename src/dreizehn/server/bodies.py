"""The largest request body the HTTP API reads (``DREIZEHN_MAX_BODY_BYTES``): a larger one is refused before it is
read whole (413 ``server.body_too_large``, S6), whether it says its length (``Content-Length``) or comes in chunks,
so that no request makes the server hold more than that in memory for it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dreizehn.server.messages import refusal_fields
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import request_lang


class BodyLimit:
    """ASGI middleware: every HTTP request's body read here first, at most ``limit`` bytes, then handed on."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        err = ServerError("server.body_too_large", status=413, rule="S6", limit=self.limit)
        answer = JSONResponse({"detail": refusal_fields(err, request_lang(Request(scope)))}, status_code=413,
                              headers={"Connection": "close"})
        await answer(scope, receive, send)
