"""For operators: ``/health`` (is the database reachable, are the workers alive) and ``/metrics`` (Prometheus's text
format, :mod:`dreizehn.server.metrics`); docs/server.md, "Health and metrics"."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from dreizehn.server import metrics
from dreizehn.server.rooms import Hub
from dreizehn.server.routes.deps import HubDep
from dreizehn.server.workers import Workers

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
async def health(hub: HubDep) -> JSONResponse:
    """``200`` when the database answers and every worker process is alive, else ``503``; the body says each part's
    state: ``{"status": "ok"|"failing", "failing": [...], "database": {...}, "workers": {...}}``."""
    parts = {"database": await _database(hub), "workers": _workers(hub)}
    failing = [name for name, part in parts.items() if not part["ok"]]
    body = {"status": "failing" if failing else "ok", "failing": failing, **parts}
    return JSONResponse(body, status_code=503 if failing else 200)


@router.get("/metrics", response_class=Response)
def prometheus() -> Response:
    """The process's metrics in Prometheus's text format."""
    data, content_type = metrics.exposition()
    return Response(data, media_type=content_type)
