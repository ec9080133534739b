"""What an outside client found at the server's edges (issue 43 items 7–11): odd bytes in paths and hellos never
answer 500, every refusal of every route has the documented shape, a websocket that never says hello is closed
after ``DREIZEHN_HELLO_TIMEOUT``, every close code is a documented one, and the operators' pages are not public."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from .kit import connect, create_table, documented_codes, spectator_hello, tokens

ODD_PATHS = [
    "/static/app.js%00.png", "/static/%00", "/static/%00/app.js", "/static/" + "a" * 5000, "/static/%ff%fe",
    "/static/..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/pyproject.toml", "/play/%00", "/watch/x/%00",
    "/watch/%00", "/replay/%00", "/learn/%00", "/learn/%00/%00", "/new/%00", "/games/%00/rules", "/%00",
    "/api/tables/%00", "/api/tables/%00/record", "/api/tables/%00/replay", "/api/tables/%00/replay/0",
    "/api/tables/%00/analysis/0", "/api/words/%00", "/api/learn/%00", "/api/tables?status=%00",
    "/api/tables?lang=%00", "/api/games?lang=%ff", "/%ff%fe", "/api/%00",
]
"""Paths with NUL, bytes that are no UTF-8, names too long for the file system, ways out of the static folder."""


def is_refusal(body: Any) -> bool:
    """Whether an answer's body is the documented refusal, ``{"detail": {"code", "rule", "params", "message"}}``,
    of a documented code."""
    detail = body.get("detail") if isinstance(body, dict) else None
    return (isinstance(detail, dict) and set(detail) == {"code", "rule", "params", "message"}
            and isinstance(detail["message"], str) and detail["message"] != ""
            and any(detail["code"] == code or (code.endswith(".") and detail["code"].startswith(code))
                    for code in documented_codes()))


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_odd_bytes_in_a_path_never_answer_500(module_server: TestClient, method: str) -> None:
    """Item 7: NUL, bytes that are no UTF-8 and over-long names, in the static files' paths, the app's pages and the
    API's: a page, a 404 or a refusal, never a 500; nothing outside the static folder is served."""
    for path in ODD_PATHS:
        response = module_server.request(method, path)
        assert response.status_code < 500, (path, response.status_code, response.text[:200])
        if path.startswith("/static/"):
            assert response.status_code == 404, (path, response.status_code)


def test_odd_bytes_in_a_hello_are_refused(module_server: TestClient) -> None:
    """Item 7: a hello whose table, token, spectators' token or window holds NUL (which PostgreSQL's text cannot
    hold) is refused with a documented code, and the connection answers after it."""
    created = create_table(module_server, "holzwurm", ["person", "medium"])
    hellos: list[dict[str, Any]] = [
        {"table": "\x00", "watch": True}, {"table": "a\x00b", "spectator": "\x00" * 8}, {"token": "\x00" * 20},
        {"table": created["table"]["id"], "spectator": "\x00"}, {"token": tokens(created)[0], "window": "\x00"},
        {"token": "\udcff"}, {"table": "\x00", "watch": True, "lang": "\x00"},
    ]
    for fields in hellos:
        with connect(module_server) as peer:
            answer = peer.hello(**fields)
            assert answer["type"] == ("welcome" if "window" in fields else "refused"), (fields, answer)
            peer.send({"type": "ping"})
            assert peer.recv(skip=("presence",))["type"] in ("pong", "refused"), fields
    with connect(module_server, **spectator_hello(created)):
        pass  # the server still welcomes a right hello

