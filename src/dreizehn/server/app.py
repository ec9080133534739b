"""The ASGI application: FastAPI with the HTTP API (``/api``), the websocket (``/ws``) and, once it exists, the
browser client.

>>> from dreizehn.server.settings import Settings
>>> app = create_app(Settings(data_dir="/tmp/dreizehn-doctest"))
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/games"))
['/api/games', '/api/games/{game}/picture.svg']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from sqlalchemy import Engine
from starlette.exceptions import HTTPException as StarletteHTTPException

from dreizehn.server.accounts.recovery import Recovery
from dreizehn.server.accounts.service import Accounts
from dreizehn.server.chat import CHAT_CHANNEL
from dreizehn.server.daily.service import Daily
from dreizehn.server.daily.store import DailyStore
from dreizehn.server.lobby.service import Lobby
from dreizehn.server.lobby.store import LobbyStore
from dreizehn.server.notices.service import Notices
from dreizehn.server.protocol import PROTOCOL
from dreizehn.server.ratings.service import Ratings
from dreizehn.server.rooms import Hub
from dreizehn.server.settings import Settings
from dreizehn.server.storage import NOTIFY_CHANNEL, PRESENCE_CHANNEL, Store, make_engine, migrate
from dreizehn.server.turns.sweep import Sweep
from dreizehn.server.workers import Workers

log = logging.getLogger("dreizehn.server")


def _executor(settings: Settings) -> Workers | None:
    """The worker processes of bots, hints and analyses (:mod:`dreizehn.server.workers`); none (threads) when
    ``bot_workers`` is 0."""
    if settings.bot_workers <= 0:
        return None
    return Workers(settings.bot_workers)


async def _listen(hub: Hub, url: str) -> None:
    """PostgreSQL's LISTEN: actions stored by other server processes reach this one's rooms, and so does who is
    connected to them."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    broke = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(plain, autocommit=True) as connection:
                await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                await connection.execute(f"LISTEN {PRESENCE_CHANNEL}")
                await connection.execute(f"LISTEN {CHAT_CHANNEL}")
                if broke:  # what was said while it was broken was missed
                    log.warning("listening again")
                    hub.peers.heard_again()
                    broke = False
                async for note in connection.notifies():
                    if note.channel == PRESENCE_CHANNEL:
                        hub.peers.presence_heard(note.payload)
                        continue
                    if note.channel == CHAT_CHANNEL:
                        hub.peers.line_heard(note.payload)
                        continue
                    table_id, _, seq = note.payload.partition(":")
                    hub.peers.notified(table_id, int(seq) if seq.isdigit() else None)
            broke = True  # the notices ended: the connection was closed
        except asyncio.CancelledError:
            raise
        except Exception:
            if not broke:
                log.exception("the LISTEN connection broke; listening again in a second")
            broke = True
            await asyncio.sleep(1)


server_router = APIRouter(prefix="/api", tags=["server"])


@server_router.get("/server")
def about_server() -> dict[str, int]:
    """What a client asks of the server before it speaks: the websocket's protocol version."""
    return {"protocol": PROTOCOL}


def _refusals_in_openapi(app: FastAPI) -> None:
    """The OpenAPI document (``/docs``) names the one refusal every route answers, ``{"detail": Refusal}``, where
    FastAPI would name its own validation error (which the API never sends: ``server.bad_request`` stands for it)."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        document = made()  # made once and kept by FastAPI; what follows changes it once
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        if "RefusalAnswer" in schemas:
            return document
        from dreizehn.server.protocol import Refusal

        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
        schemas["Refusal"] = Refusal.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas["RefusalAnswer"] = {"type": "object", "required": ["detail"],
                                    "properties": {"detail": {"$ref": "#/components/schemas/Refusal"}}}
        refused = {"description": "Refused: the code, rule, parameters and message (docs/server.md, Refusals)",
                   "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RefusalAnswer"}}}}
        for operations in document.get("paths", {}).values():
            for operation in operations.values():
                if "422" in operation.get("responses", {}):
                    operation["responses"]["422"] = refused
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _services(app: FastAPI, settings: Settings, engine: Engine, executor: Workers | None, accounts: Accounts,
              notices: Notices) -> tuple[Hub, list[asyncio.Task[Any]]]:
    """The server's parts, each with its own storage, held in ``app.state`` (``accounts`` and ``notices``, made
    first, are handed in), and their background tasks started; the hub and those tasks."""
    hub = Hub(settings, Store(engine), executor)
    app.state.hub = hub
    app.state.accounts = accounts
    app.state.notices = notices
    app.state.ratings = rater = Ratings(engine, hub.store.tables)
    app.state.daily = Daily(DailyStore(engine), hub.store.tables, settings)
    app.state.recovery = Recovery(accounts, settings)
    app.state.lobby = lobby_service = Lobby(LobbyStore(engine), hub, settings)
    tasks: list[asyncio.Task[Any]] = []
    if settings.is_postgres:
        tasks.append(asyncio.create_task(_listen(hub, settings.database)))
        tasks.append(asyncio.create_task(hub.peers.keep_presence()))
    tasks.append(asyncio.create_task(hub.keep_tidy()))
    tasks.append(asyncio.create_task(rater.keep_rating(settings.rating_interval)))
    tasks.append(asyncio.create_task(lobby_service.keep_matching(settings.lobby_tick)))
    hub.game_over_hooks.append(lambda _: rater.nudge())
    hub.turn_hooks.append(notices)
    tasks.append(asyncio.create_task(notices.keep_sending()))
    app.state.turns = Sweep(hub, hub.clocks)
    return hub, tasks


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's start (the database migrated, the parts made, the tables resumed, the tasks started) and
    its stop."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database, settings.data_dir)
        await asyncio.to_thread(migrate, engine)
        executor = _executor(settings)
        accounts = await asyncio.to_thread(Accounts, engine, settings)
        teller = await asyncio.to_thread(Notices, engine, settings)
        hub, tasks = _services(app, settings, engine, executor, accounts, teller)
        await hub.resume_all()
        tasks.append(asyncio.create_task(app.state.turns.keep_sweeping(settings.turn_sweep)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await hub.close()
            await app.state.recovery.mailer.close()
            await teller.close()
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            engine.dispose()

    return lifespan


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application with ``settings`` (by default from the environment)."""
    settings = settings or Settings()
    lifespan = _lifespan(settings)

    from dreizehn import __version__
    from dreizehn.core.errors import DreizehnError
    from dreizehn.server.bodies import BodyLimit
    from dreizehn.server.https import StrictTransport
    from dreizehn.server.routes import (
        accounts,
        analysis,
        daily,
        games,
        learn,
        lobby,
        notices,
        ops,
        players,
        ratings,
        social,
        tables,
        web,
        ws,
    )
    from dreizehn.server.routes.deps import bad_request, refused

    app = FastAPI(
        title="dreizehn",
        version=__version__,
        summary="Card games built on the number 13: tables over websockets, stored in SQL.",
        lifespan=lifespan,
        docs_url=None, redoc_url=None, openapi_url=None,  # the operators' (routes.ops): not public
    )
    app.state.settings = settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    if settings.cookie_secure:
        app.add_middleware(StrictTransport)
    app.add_exception_handler(DreizehnError, refused)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, web.http_error)
    app.include_router(server_router)
    app.include_router(games.router)
    app.include_router(games.words_router)
    app.include_router(tables.router)
    app.include_router(accounts.router)
    app.include_router(ratings.router)
    app.include_router(daily.router)
    app.include_router(social.router)
    app.include_router(players.router)
    app.include_router(learn.router)
    app.include_router(analysis.router)
    app.include_router(notices.router)
    app.include_router(ws.router)
    app.include_router(lobby.router)
    app.include_router(web.router)
    app.include_router(ops.router)
    _refusals_in_openapi(app)
    return app
