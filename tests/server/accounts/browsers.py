"""Other browsers on a test server: each with its own cookies, all on the server's one event loop."""

from __future__ import annotations

from starlette.testclient import TestClient


def browser(server: TestClient) -> TestClient:
    """Another browser on the server of ``server`` (a started test client): its own cookies, its requests and
    websockets served on the started client's event loop. A client made with ``TestClient(app)`` alone serves each
    request on an event loop of its own, closed after it: what a request starts there (a table's bots, the
    storing thread's first wake-up) would be left on a closed loop."""
    other = TestClient(server.app)
    other.portal = server.portal
    return other
