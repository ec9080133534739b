"""For operators: ``/health`` (is the database reachable, are the workers alive), ``/metrics`` (Prometheus's text
format, :mod:`dreizehn.server.metrics`) and the API's documents (``/docs``, ``/redoc``, ``/openapi.json``);
docs/server.md, "Health and metrics".

Only ``/health`` is public, and says no more than ``ok`` or ``failing`` and which part fails to anyone; its details
and the other pages are the operators', who bring ``DREIZEHN_OPS_TOKEN`` (issue 43 item 11): as a bearer token
(Prometheus's ``authorization``) or as the password of HTTP Basic (a browser asks for it, and sends it again for the
document ``/docs`` loads). Without the setting they are not served at all (404, as an address nobody serves); with
``DREIZEHN_OPS_PUBLIC`` (local development) they are served to anyone."""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response

from dreizehn.server import metrics
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import Hub
from dreizehn.server.routes.deps import HubDep, SettingsDep
from dreizehn.server.settings import Settings
from dreizehn.server.workers import Workers

REALM = "dreizehn operators"
"""The realm the answer 401 names (a browser shows it in its prompt)."""


def _presented(header: str) -> str | None:
    """The token an ``Authorization`` header brings: a bearer token, or the password of HTTP Basic (any user)."""
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer":
        return value or None
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        _, colon, password = decoded.partition(":")
        return password if colon else None
    return None


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def operator(request: Request, settings: Settings) -> bool:
    """Whether the request may see the operators' pages: ``ops_public``, or it brings ``ops_token`` (compared in
    constant time, of its SHA-256, so not even the token's length shows)."""
    if settings.ops_public:
        return True
    secret = settings.ops_token.get_secret_value() if settings.ops_token is not None else ""
    given = _presented(request.headers.get("authorization", ""))
    return bool(secret) and given is not None and hmac.compare_digest(_digest(given), _digest(secret))


def require_operator(request: Request, settings: SettingsDep) -> None:
    """Refuse a request that may not see an operators' page: 404 ``server.not_found`` when there is no token (as
    an address nobody serves), else 401 ``server.ops_token`` with the challenges of Bearer and Basic."""
    if operator(request, settings):
        return
    if settings.ops_token is None or not settings.ops_token.get_secret_value():
        raise ServerError("server.not_found", status=404, rule="S6")
    raise ServerError("server.ops_token", status=401, rule="S10", headers=(
        ("WWW-Authenticate", f'Bearer realm="{REALM}"'),
        ("WWW-Authenticate", f'Basic realm="{REALM}", charset="UTF-8"'),
    ))


OperatorOnly = [Depends(require_operator)]
_REFUSED: dict[int | str, dict[str, Any]] = {
    401: {"description": "without DREIZEHN_OPS_TOKEN (server.ops_token)"},
    404: {"description": "no DREIZEHN_OPS_TOKEN is set (server.not_found)"},
}

router = APIRouter(tags=["operations"])

DATABASE_TIMEOUT = 5.0
"""Seconds the health check waits for the database's answer."""


async def _database(hub: Hub) -> dict[str, Any]:
    """Whether the database answers a query within :data:`DATABASE_TIMEOUT` seconds; its error if not."""
    try:
        await asyncio.wait_for(asyncio.to_thread(hub.store.ping), DATABASE_TIMEOUT)
    except TimeoutError:
        return {"ok": False, "error": f"no answer in {DATABASE_TIMEOUT:g} s"}
    except Exception as err:  # whatever the driver raises: the operator reads it
        return {"ok": False, "error": f"{type(err).__name__}: {str(err).strip()[:300]}"}
    return {"ok": True, "kind": "postgresql" if hub.store.postgres else "sqlite"}


def _workers(hub: Hub) -> dict[str, Any]:
    """The worker processes' state (:meth:`Workers.health`); threads when there are none."""
    executor = hub.executor
    if not isinstance(executor, Workers):
        return {"ok": True, "size": 0}
    _, state = executor.health()
    return state


@router.get("/health", responses={503: {"description": "a part failed: the body says which"}})
async def health(hub: HubDep, request: Request, settings: SettingsDep) -> JSONResponse:
    """``200`` when the database answers and every worker process is alive, else ``503``; the body says
    ``{"status": "ok"|"failing", "failing": [...]}`` to anyone, and to the operators each part's state too:
    ``"database": {...}, "workers": {...}``."""
    parts = {"database": await _database(hub), "workers": _workers(hub)}
    failing = [name for name, part in parts.items() if not part["ok"]]
    body: dict[str, Any] = {"status": "failing" if failing else "ok", "failing": failing}
    if operator(request, settings):
        body |= parts
    return JSONResponse(body, status_code=503 if failing else 200)


@router.get("/metrics", response_class=Response, dependencies=OperatorOnly, responses=_REFUSED)
def prometheus() -> Response:
    """The process's metrics in Prometheus's text format (for the operators: ``DREIZEHN_OPS_TOKEN``)."""
    data, content_type = metrics.exposition()
    return Response(data, media_type=content_type)


@router.get("/openapi.json", include_in_schema=False, dependencies=OperatorOnly)
def openapi_document(request: Request) -> JSONResponse:
    """The OpenAPI document of the API."""
    return JSONResponse(request.app.openapi())


@router.get("/docs", include_in_schema=False, dependencies=OperatorOnly)
def swagger_page() -> HTMLResponse:
    """The API's page (Swagger UI) on the OpenAPI document."""
    return get_swagger_ui_html(openapi_url="/openapi.json", title="dreizehn: the API")


@router.get("/redoc", include_in_schema=False, dependencies=OperatorOnly)
def redoc_page() -> HTMLResponse:
    """The API's page (ReDoc) on the OpenAPI document."""
    return get_redoc_html(openapi_url="/openapi.json", title="dreizehn: the API")
