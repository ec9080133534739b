"""What an outside client found at the server's edges (issue 43 items 7–11): odd bytes in paths and hellos never
answer 500, every refusal of every route has the documented shape, a websocket that never says hello is closed
after ``DREIZEHN_HELLO_TIMEOUT``, every close code is a documented one, and the operators' pages are not public."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from starlette.testclient import TestClient

from dreizehn.server.app import create_app
from dreizehn.server.settings import Settings

from .kit import (
    Closed,
    ServerProcess,
    TestPeer,
    connect,
    create_table,
    documented_codes,
    hub,
    spectator_hello,
    table_body,
    tokens,
)

ODD_PATHS = [
    "/static/app.js%00.png", "/static/%00", "/static/%00/app.js", "/static/" + "a" * 5000, "/static/%ff%fe",
    "/static/..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/pyproject.toml", "/play/%00", "/watch/x/%00",
    "/watch/%00", "/replay/%00", "/learn/%00", "/learn/%00/%00", "/new/%00", "/games/%00/rules", "/%00",
    "/api/tables/%00", "/api/tables/%00/record", "/api/tables/%00/replay", "/api/tables/%00/replay/0",
    "/api/tables/%00/analysis/0", "/api/words/%00", "/api/learn/%00", "/api/tables?status=%00",
    "/api/tables?lang=%00", "/api/games?lang=%ff", "/%ff%fe", "/api/%00",
]
"""Paths with NUL, bytes that are no UTF-8, names too long for the file system, ways out of the static folder."""


def documented_close_codes() -> dict[int, str]:
    """The websocket's close codes docs/server.md lists (its "Close codes" table), with their meaning."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    table = text.split("### Close codes", 1)[1].split("\n#", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
    return {int(row[1].strip(" `")): row[2].strip() for row in rows}


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


BAD_BODIES: list[tuple[bytes, str | None]] = [
    (b"{", "application/json"), (b"\xff\xfe{}", "application/json"), (b'{"game": "\xff"}', "application/json"),
    (b"[" * 10_000 + b"]" * 10_000, "application/json"), (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "application/json"),
    (b"", "application/json"), (b"", None), (b"null", "application/json"), (b"[]", "application/json"),
    (b'{"game": "knizia13"}', "text/plain"), (b"game=knizia13", "application/x-www-form-urlencoded"),
    (b'--x\r\nContent-Disposition: form-data; name="game"\r\n\r\nknizia13\r\n--x--\r\n',
     "multipart/form-data; boundary=x"), (b'--x\r\nbroken', "multipart/form-data; boundary=x"),
    (b'{"game": "\\u0000", "token": "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000", '
     b'"name": "\\u0000"}', "application/json"),
]
"""Bodies no route takes: not JSON, not UTF-8, nested 10,000 deep, empty, of another content type, NUL in text."""


def _body_routes(client: TestClient, table_id: str) -> list[str]:
    """Every route that takes a body (from the OpenAPI document, and the browser's helper), its path filled in."""
    paths = [path for path, operations in client.app.openapi()["paths"].items()  # type: ignore[attr-defined]
             if any("requestBody" in operation for operation in operations.values())]
    filled = {"{table_id}": table_id, "{seat}": "1", "{game}": "knizia13", "{players}": "3"}
    for name, value in filled.items():
        paths = [path.replace(name, value) for path in paths]
    assert "{" not in "".join(paths) and len(paths) >= 6, paths
    return [*paths, "/api/web/arrange"]


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_every_refusal_of_a_body_has_the_documented_shape(module_server: TestClient, lang: str) -> None:
    """Item 8: a body that is not JSON, not UTF-8, nested 10,000 deep, empty, of another content type, or holding
    NUL: for every route that takes a body, a 4xx answer ``{"detail": {"code", "rule", "params", "message"}}`` of
    a documented code, the message in the reader's language (never FastAPI's own ``{"detail": "There was an error
    parsing the body"}``, never a 500)."""
    from dreizehn.server.messages import refusal_fields
    from dreizehn.server.refusals import ServerError

    created = create_table(module_server, "knizia13", ["person", "person", "medium"])
    for path in _body_routes(module_server, created["table"]["id"]):
        for body, content_type in BAD_BODIES:
            headers = {"accept-language": lang} | ({"content-type": content_type} if content_type else {})
            response = module_server.post(path, content=body, headers=headers)
            assert 400 <= response.status_code < 500, (path, body[:30], response.status_code, response.text[:200])
            answer = response.json()
            assert is_refusal(answer), (path, body[:30], answer)
            detail = answer["detail"]
            if detail["code"].startswith("server."):
                said = refusal_fields(ServerError(detail["code"], rule=detail["rule"], **detail["params"]), lang)
                assert detail["message"] == said["message"], (path, body[:30], detail)


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/api/nothing", 404, "server.not_found"), ("GET", "/static/nothing.js", 404, "server.not_found"),
    ("GET", "/static/app.js%00.png", 404, "server.not_found"), ("GET", "/nothing", 404, "server.not_found"),
    ("DELETE", "/api/tables", 405, "server.bad_method"), ("PUT", "/api/games", 405, "server.bad_method"),
    ("POST", "/health", 405, "server.bad_method"),
])
def test_an_address_or_method_nobody_serves_is_a_refusal(module_server: TestClient, method: str, path: str,
                                                         status: int, code: str) -> None:
    """Item 8: an address no route serves and a method the route does not take answer with the documented refusal
    too (404 ``server.not_found``, 405 ``server.bad_method`` with the ``Allow`` header), in the reader's language;
    a browser asking for a page is still given the app's page with 404."""
    response = module_server.request(method, path, headers={"accept-language": "nl"})
    assert response.status_code == status, response.text[:200]
    assert is_refusal(response.json()) and response.json()["detail"]["code"] == code, response.text
    if status == 405:
        assert response.headers["allow"]
    if method == "GET" and not path.startswith(("/api", "/static")):
        page = module_server.get(path, headers={"accept": "text/html"})
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")


def _closed(peer: TestPeer, timeout: float = 10.0) -> int:
    """Read until the server closes ``peer``'s websocket; its close code."""
    with pytest.raises(Closed) as closed:
        peer.until(lambda _: False, timeout)
    return closed.value.code


def test_a_websocket_that_never_says_hello_is_closed(serve: Callable[[Settings], TestClient],
                                                     db_settings: Settings) -> None:
    """Item 9: websockets that say no hello within ``DREIZEHN_HELLO_TIMEOUT`` are closed with 4408, those that
    spoke but were refused too (a ping, a bad token: the time counts from the connection, not from the last
    message); one welcomed before that time stays open (it answers a ping after the others were closed)."""
    client = serve(db_settings.model_copy(update={"hello_timeout": 2.0}))
    created = create_table(client, "holzwurm", ["person", "medium"])
    with contextlib.ExitStack() as stack:
        welcomed = stack.enter_context(connect(client, token=tokens(created)[0]))
        # each exchange right after its own socket's opening (one round trip, well within the time on a busy
        # machine), the other sockets opened after them
        silent = [TestPeer(stack.enter_context(client.websocket_connect("/ws")))]
        silent[0].send({"type": "ping"})
        assert silent[0].recv()["code"] == "server.hello_first"
        silent.append(TestPeer(stack.enter_context(client.websocket_connect("/ws"))))
        silent[1].send({"type": "hello", "protocol": 1, "token": "no-such-token"})
        assert silent[1].recv()["code"] == "server.bad_token"
        silent += [TestPeer(stack.enter_context(client.websocket_connect("/ws"))) for _ in range(18)]
        assert [_closed(peer, 60) for peer in silent] == [4408] * len(silent)
        welcomed.send({"type": "ping"})
        assert welcomed.recv(skip=("presence",))["type"] == "pong"


def test_the_server_closes_a_websocket_with_documented_codes(serve: Callable[[Settings], TestClient],
                                                             db_settings: Settings) -> None:
    """Item 10: a window whose seat another window took over is told ``taken_over`` and closed with 1000 (a normal
    end, not 1011, an error of the server); so is the older connection of a window that connected again, and one
    whose seat was taken from the list of tables; a room that stops (the server stops, the table's home moved)
    closes its websockets with 1012, "connect again". Each code is in docs/server.md's list of close codes."""
    documented = documented_close_codes()
    assert {1000, 1006, 1008, 1009, 1011, 1012, 4408} <= set(documented), documented
    client = serve(db_settings)
    created = create_table(client, "holzwurm", ["person", "medium"])
    token = tokens(created)[0]
    with connect(client, token=token, window="tab-1") as first, connect(client) as second:
        assert second.hello(token=token, window="tab-2", takeover="yes")["type"] == "welcome"
        assert first.recv(skip=("presence",))["type"] == "taken_over"
        assert _closed(first) == 1000
        with connect(client, token=token, window="tab-2", takeover="ask") as again:  # tab-2 reloaded
            assert _closed(second) == 1000
            room = hub(client).rooms[created["table"]["id"]]
            again.session.portal.call(room.stop)
            assert _closed(again) == 1012


def test_a_window_whose_seat_was_given_away_is_closed_with_1008(processes: Callable[..., ServerProcess],
                                                                 db_settings: Settings) -> None:
    """Item 10, a real server process (the test client runs each websocket on a loop of its own): the window of a
    seat taken from the list of tables by another person is closed with 1008, "dropped" (a new hello says why:
    its invitation opens nothing now), a documented code."""
    url = db_settings.database_url
    server = processes({"DATABASE_URL": url} if url else {"DREIZEHN_BOT_WORKERS": "0"})
    body = table_body("holzwurm", ["person", "person"])
    del body["seats"][1]["name"]
    free = server.post("/api/tables", body).json()
    old = server.connect(token=tokens(free)[1])
    taken = server.post(f"/api/tables/{free['table']['id']}/seats/1", {"name": "Clara"})
    assert taken.status_code == 200, taken.text
    with pytest.raises(Closed) as closed:
        old.until(lambda _: False)
    assert closed.value.code == 1008 and 1008 in documented_close_codes()


OPS_PAGES = ("/metrics", "/docs", "/redoc", "/openapi.json")
"""The operators' pages: not public (item 11)."""


def _basic(password: str, user: str = "ops") -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_the_operators_pages_are_not_served_without_a_token(db_settings: Settings) -> None:
    """Item 11: with no ``DREIZEHN_OPS_TOKEN``, ``/metrics``, ``/docs``, ``/redoc`` and ``/openapi.json`` answer
    404 (``server.not_found``, as an address nobody serves), whatever a client sends; ``/health`` still answers a
    load balancer, with its status and the failing parts' names alone (no driver's error, no workers' counts)."""
    settings = db_settings.model_copy(update={"ops_token": None})
    with TestClient(create_app(settings)) as client:
        for path in OPS_PAGES:
            for authorization in ("", "Bearer ", "Bearer None", _basic("")):
                answer = client.get(path, headers={"authorization": authorization})
                assert answer.status_code == 404, (path, answer.text[:100])
                assert answer.json()["detail"]["code"] == "server.not_found", path
        health = client.get("/health")
        assert health.status_code == 200 and health.json() == {"status": "ok", "failing": []}


def test_the_operators_pages_need_the_token(db_settings: Settings) -> None:
    """Item 11: with ``DREIZEHN_OPS_TOKEN`` set, the operators' pages answer 401 (``server.ops_token``, with
    ``WWW-Authenticate`` for Bearer and Basic) without it or with another, and 200 with it, as a bearer token
    (Prometheus's ``authorization``) or as the password of HTTP Basic (a browser's prompt, which it sends again
    for the OpenAPI document ``/docs`` loads); ``/health`` shows its parts' details only with it."""
    token = "s3cret-token-of-the-operators"
    settings = db_settings.model_copy(update={"ops_token": SecretStr(token)})
    with TestClient(create_app(settings)) as client:
        for path in OPS_PAGES:
            for authorization in ("", f"Bearer {token[:-1]}", f"Bearer {token}x", _basic(token[:-1]), "Basic !!",
                                  f"Token {token}", token, _basic("ops", user=token)):
                answer = client.get(path, headers={"authorization": authorization, "accept-language": "de"})
                assert answer.status_code == 401, (path, authorization, answer.text[:100])
                assert is_refusal(answer.json()) and answer.json()["detail"]["code"] == "server.ops_token"
                challenges = answer.headers.get_list("www-authenticate")
                assert any(c.startswith("Bearer") for c in challenges), challenges
                assert any(c.startswith("Basic") for c in challenges), challenges
            for authorization in (f"Bearer {token}", f"bearer {token}", _basic(token), _basic(token, user="")):
                answer = client.get(path, headers={"authorization": authorization})
                assert answer.status_code == 200, (path, authorization, answer.text[:100])
        assert "dreizehn_connections" in client.get("/metrics", headers={"authorization": f"Bearer {token}"}).text
        assert client.get("/health").json() == {"status": "ok", "failing": []}
        full = client.get("/health", headers={"authorization": _basic(token)}).json()
        assert full["database"]["ok"] is True and full["workers"]["ok"] is True


def test_the_operators_pages_are_public_for_local_development(db_settings: Settings) -> None:
    """Item 11: ``DREIZEHN_OPS_PUBLIC`` (``make run``) serves them without a token, ``/health`` whole."""
    settings = db_settings.model_copy(update={"ops_token": None, "ops_public": True})
    with TestClient(create_app(settings)) as client:
        for path in OPS_PAGES:
            assert client.get(path, headers={"authorization": ""}).status_code == 200, path
        assert client.get("/health").json()["database"]["ok"] is True
