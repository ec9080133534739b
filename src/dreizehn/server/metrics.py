"""The server's Prometheus metrics (``prometheus-client``), served at ``/metrics``; docs/server.md lists them and says
how to scrape them.

Counters and the histogram are the process's (one server process, one scrape target); the connections and rooms
are read from the hubs of the process when scraped."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

ACTIONS = Counter("dreizehn_actions", "Actions stored and told, by who chose them (person, bot, stand-in)", ["by"])
REFUSALS = Counter("dreizehn_refusals", "Refusals sent (websocket and HTTP API), by code", ["code"])
ACTION_SECONDS = Histogram(
    "dreizehn_action_update_seconds",
    "Seconds from a person's action read from the websocket to its update queued for every connection of the table "
    "(the lock, the engine, storing and the messages written)",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
STORE_FAILURES = Counter("dreizehn_store_failures", "Actions not stored because the database failed (each refused)")
WORKER_RESTARTS = Counter("dreizehn_worker_restarts", "Pools of worker processes made again after a worker died")
RELAYED = Gauge("dreizehn_relayed", "Websockets relayed to the process that serves their table (its home)")
DROPPED = Counter("dreizehn_connections_dropped", "Connections closed for falling too far behind in reading")

_hubs: weakref.WeakSet[Any] = weakref.WeakSet()


@functools.cache
def actions_by(by: str) -> Counter:
    """The counter of the actions chosen by ``by`` (found once: ``labels`` costs a lock and a lookup a call)."""
    return ACTIONS.labels(by=by)


def watch(hub: Any) -> None:
    """Count ``hub``'s rooms and connections (a :class:`~dreizehn.server.rooms.Hub`) while it lives."""
    _hubs.add(hub)


def unwatch(hub: Any) -> None:
    """Count ``hub``'s rooms no more (it closed)."""
    _hubs.discard(hub)


def _rooms() -> Iterator[Any]:
    for hub in list(_hubs):
        yield from list(hub.rooms.values())


ROOMS = Gauge("dreizehn_rooms", "Rooms (tables) in memory")
ROOMS.set_function(lambda: sum(1 for _ in _rooms()))
CONNECTIONS = Gauge("dreizehn_connections", "Open websocket connections admitted to a table (seats and spectators)")
CONNECTIONS.set_function(lambda: sum(1 for room in _rooms() for conn in list(room.conns) if not conn.closed))


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST
