"""Issue 45 item 1: signing up, in and out, changing the password, deleting the account; the attacks on them (rules
U1–U5, U10). Each refusal changes nothing: the test looks again after it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts, sessions
from dreizehn.server.settings import Settings

from ..kit import make_settings
from .people import PASSWORD, code, session_cookie, sign_in, sign_up


def _count(client: TestClient, table: sa.Table) -> int:
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        return int(c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def _browser(client: TestClient) -> TestClient:
    """Another browser on the same server (its own cookies)."""
    return TestClient(client.app)


def test_u1_sign_up_signs_in_with_a_cookie_only_the_server_reads(client: TestClient) -> None:
    answer = client.post("/api/accounts", json={"name": "Anna_13", "password": PASSWORD, "email": "anna@example.org"})
    assert answer.status_code == 201
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie and "secure" not in cookie
    me = client.get("/api/session").json()
    assert me["name"] == "Anna_13" and me["email"] == "anna@example.org" and me["email_verified"] is False
    assert me["csrf"] == answer.json()["csrf"]
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        stored = c.execute(sa.select(accounts.c.password_hash)).scalar_one()
        ids = list(c.execute(sa.select(sessions.c.id_hash)).scalars())
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert session_cookie(client) not in ids  # the session id is stored hashed


def test_u4_secure_cookie_behind_https(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, cookie_secure=True))
    answer = client.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("__Host-dz_session=") and "secure" in cookie.lower()
    assert answer.headers["strict-transport-security"] == "max-age=31536000"
    assert client.get("/api/games").headers["strict-transport-security"] == "max-age=31536000"


def test_u4_no_hsts_over_plain_http(client: TestClient) -> None:
    assert "strict-transport-security" not in client.get("/api/games").headers


@pytest.mark.parametrize(("name", "refusal"), [
    ("An", "account.name_length"),
    ("A" * 21, "account.name_length"),
    ("<b>Anna</b>", "account.name_characters"),
    ("Anna Lena", "account.name_characters"),
    ("Anna\u202e", "account.name_characters"),
    ("Anna\x00", "account.name_characters"),
    ("Robert');DROP TABLE accounts;--", "account.name_length"),
    ("Bob';--", "account.name_characters"),
    ("\u0410nn\u0430", "account.name_scripts"),  # Cyrillic А and а around Latin nn
    ("Anna\u200b", "account.name_characters"),  # a zero-width space
])
def test_u1_names_refused(client: TestClient, name: str, refusal: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD}, params={"lang": "de"})
    assert answer.status_code == 422 and code(answer) == refusal
    assert answer.json()["detail"]["rule"] == "U1"
    assert "U1" not in answer.json()["detail"]["message"] and answer.json()["detail"]["message"]
    assert _count(client, accounts) == 0 and session_cookie(client) is None


def test_u1_a_name_is_unique_without_regard_to_case_or_look_alikes(client: TestClient) -> None:
    sign_up(client, "Anna")
    other = _browser(client)
    for taken in ("anna", "ANNA", "ＡＮＮＡ"):
        answer = other.post("/api/accounts", json={"name": taken, "password": PASSWORD})
        assert answer.status_code == 409 and code(answer) == "account.name_taken", taken
    greek = other.post("/api/accounts", json={"name": "\u0391\u039d\u039d\u0391", "password": PASSWORD})
    assert greek.status_code == 409  # Greek capitals drawn as ANNA
    sign_up(other, "Coco")
    cyrillic = _browser(client).post("/api/accounts", json={"name": "\u0421\u043e\u0441\u043e", "password": PASSWORD})
    assert cyrillic.status_code == 409 and code(cyrillic) == "account.name_taken"  # Сосо, all Cyrillic
    assert _count(client, accounts) == 2
    olga = _browser(client)
    sign_up(olga, "Ольга")  # one script other than Latin is a name
    assert olga.get("/api/session").json()["name"] == "Ольга"


def test_u1_nfkc(client: TestClient) -> None:
    sign_up(client, "Ｄｏｒａ＿１")
    assert client.get("/api/session").json()["name"] == "Dora_1"


@pytest.mark.parametrize("password", ["short", "x" * 201, "x" * 4000])
def test_u2_password_length_refused_before_hashing(client: TestClient, password: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[str] = []
    hasher = client.app.state.accounts.passwords.hasher  # type: ignore[attr-defined]

    def counted(password: str) -> str:
        hashed.append(password)
        return ""

    monkeypatch.setattr(hasher, "hash", counted)
    answer = client.post("/api/accounts", json={"name": "Anna", "password": password}, params={"lang": "nl"})
    assert answer.status_code == 422 and code(answer) == "account.password_length"
    assert answer.json()["detail"]["message"] == "Een wachtwoord heeft 8 tot 200 tekens."
    assert hashed == [] and _count(client, accounts) == 0


def test_u2_a_megabyte_of_password_is_never_read(client: TestClient) -> None:
    answer = client.post("/api/accounts", json={"name": "Anna", "password": "x" * (1 << 20)})
    assert answer.status_code == 413 and code(answer) == "server.body_too_large"
    answer = client.post("/api/session", json={"name": "Anna", "password": "x" * (1 << 20)})
    assert answer.status_code == 413 and _count(client, accounts) == 0


def test_u2_passwords_are_never_logged(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    secret = "a secret nobody logs 4711"
    with caplog.at_level(logging.DEBUG):
        sign_up(client, "Anna", secret)
        sign_in(_browser(client), "Anna", secret)
        _browser(client).post("/api/session", json={"name": "Anna", "password": secret + "!"})
    assert caplog.records and all(secret not in r.getMessage() for r in caplog.records)


def test_u1_email_refused(client: TestClient) -> None:
    for email in ("anna", "anna@", "anna@host", "an na@example.org", "anna@exa\nmple.org",
                  "<a>@b.c>", "a@b.c<script>", "'@b.c"):
        answer = client.post("/api/accounts", json={"name": "Anna", "password": PASSWORD, "email": email})
        assert answer.status_code == 422 and code(answer) == "account.email", email
    assert _count(client, accounts) == 0


def test_u3_unknown_name_and_wrong_password_get_one_answer_after_the_same_work(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sign_up(client, "Anna")
    hasher = client.app.state.accounts.passwords.hasher  # type: ignore[attr-defined]
    checked: list[str] = []
    real = hasher.verify_and_update

    def counted(password: str, stored: str) -> tuple[bool, str | None]:
        checked.append(stored)
        return real(password, stored)  # type: ignore[no-any-return]

    monkeypatch.setattr(hasher, "verify_and_update", counted)
    guest = _browser(client)
    wrong = guest.post("/api/session", json={"name": "Anna", "password": "not the password"})
    unknown = guest.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() and code(wrong) == "account.bad_signin"
    assert len(checked) == 2 and all(h.startswith("$argon2id$") for h in checked)  # one Argon2 check each
    assert session_cookie(guest) is None


def test_u3_sign_in_in_any_case_makes_a_new_session_every_time(client: TestClient) -> None:
    sign_up(client, "Anna")
    first = session_cookie(client)
    sign_in(client, "anna")
    second = session_cookie(client)
    assert first and second and first != second
    assert client.get("/api/session").json()["name"] == "Anna"


def test_u3_sign_out_ends_the_session_on_the_server(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    cookie = session_cookie(client)
    assert client.delete("/api/session", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert session_cookie(client) is None
    thief = _browser(client)
    thief.cookies.set("dz_session", cookie or "")
    answer = thief.get("/api/session")
    assert answer.status_code == 401 and code(answer) == "account.signed_out"


def test_u3_sign_out_everywhere(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    phone = _browser(client)
    sign_in(phone, "Anna")
    assert _count(client, sessions) == 2
    assert client.delete("/api/sessions", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert phone.get("/api/session").status_code == 401 and client.get("/api/session").status_code == 401
    assert _count(client, sessions) == 0


def test_u2_change_password(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    phone = _browser(client)
    sign_in(phone, "Anna")
    before = session_cookie(client)
    wrong = client.put("/api/account/password", json={"password": "not it at all", "new_password": "new secret 1"},
                       headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 403 and code(wrong) == "account.wrong_password"
    assert phone.get("/api/session").status_code == 200  # nothing changed
    answer = client.put("/api/account/password", json={"password": PASSWORD, "new_password": "new secret 1"},
                        headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 200 and session_cookie(client) != before
    assert phone.get("/api/session").status_code == 401  # every other session ended
    assert client.get("/api/session").status_code == 200
    guest = _browser(client)
    assert guest.post("/api/session", json={"name": "Anna", "password": PASSWORD}).status_code == 401
    sign_in(guest, "Anna", "new secret 1")


@pytest.mark.parametrize("header", [None, "", "0" * 32, "wrong"])
def test_u4_a_changing_request_without_its_csrf_token_is_refused(client: TestClient, header: str | None) -> None:
    sign_up(client, "Anna")
    headers = {} if header is None else {"X-CSRF-Token": header}
    for method, path, body in (("DELETE", "/api/account", {"password": PASSWORD}),
                               ("PUT", "/api/account/password", {"password": PASSWORD, "new_password": "x" * 9}),
                               ("DELETE", "/api/sessions", None),
                               ("DELETE", "/api/session", None)):
        answer = client.request(method, path, json=body, headers=headers)
        assert answer.status_code == 403 and code(answer) == "account.csrf", path
    assert client.get("/api/session").status_code == 200 and _count(client, accounts) == 1
    sign_in(_browser(client), "Anna")  # the password is unchanged


def test_u4_another_sites_origin_is_refused(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    evil = {"Origin": "https://evil.example", "X-CSRF-Token": csrf}
    answer = client.delete("/api/sessions", headers=evil)
    assert answer.status_code == 403 and code(answer) == "account.csrf"
    answer = _browser(client).post("/api/session", json={"name": "Anna", "password": PASSWORD}, headers=evil)
    assert answer.status_code == 403 and _count(client, sessions) == 1
    own = client.delete("/api/sessions", headers={"Origin": "http://testserver", "X-CSRF-Token": csrf})
    assert own.status_code == 204


def test_u5_failed_sign_ins_are_limited_per_account(serve: Callable[[Settings], TestClient],
                                                    tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, signin_limit_account="3 per hour"))
    sign_up(client, "Anna")
    guest = _browser(client)
    for _ in range(3):
        assert guest.post("/api/session", json={"name": "anna", "password": "wrong password"}).status_code == 401
    answer = guest.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    assert answer.status_code == 429 and code(answer) == "account.too_many"
    assert 0 < int(answer.headers["retry-after"]) <= 3600 and session_cookie(guest) is None
    assert client.get("/api/session").status_code == 200  # who was signed in stays signed in


def test_u5_a_thousand_sign_ups_from_one_address(serve: Callable[[Settings], TestClient],
                                                 tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, signup_limit_address="10 per hour"))
    answers = [client.post("/api/accounts", json={"name": f"bot{i}", "password": PASSWORD}).status_code
               for i in range(1000)]
    assert answers.count(201) == 10 and answers.count(429) == 990
    assert _count(client, accounts) == 10


def test_u5_sign_ins_from_one_address_are_limited(serve: Callable[[Settings], TestClient],
                                                  tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, signin_limit_address="5 per hour"))
    for i in range(5):
        sign_up(client, f"Anna{i}")
    answers = [client.post("/api/session", json={"name": f"Anna{i}", "password": PASSWORD}).status_code
               for i in range(5)]
    assert answers == [200] * 5
    assert code(client.post("/api/session", json={"name": "Anna0", "password": PASSWORD})) == "account.too_many"


def test_u3_sql_metacharacters_are_only_text(client: TestClient) -> None:
    sign_up(client, "Anna")
    for name in ("' OR '1'='1", "Anna' --", "\"; DELETE FROM accounts; --", "%", "_%_"):
        answer = _browser(client).post("/api/session", json={"name": name, "password": "' OR '1'='1' --"})
        assert answer.status_code == 401, name
    assert _count(client, accounts) == 1


def test_u10_delete_account(client: TestClient) -> None:
    csrf = sign_up(client, "Anna", email="anna@example.org")
    phone = _browser(client)
    sign_in(phone, "Anna")
    wrong = client.request("DELETE", "/api/account", json={"password": "not the password"},
                           headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 403 and _count(client, accounts) == 1
    answer = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 204
    assert _count(client, accounts) == 0 and _count(client, sessions) == 0
    assert phone.get("/api/session").status_code == 401 and client.get("/api/session").status_code == 401
    sign_up(_browser(client), "Anna")  # the name is free again


def test_u3_a_guest_is_refused_what_needs_an_account(client: TestClient) -> None:
    for method, path in (("GET", "/api/session"), ("DELETE", "/api/sessions"), ("PUT", "/api/account/password"),
                         ("DELETE", "/api/account")):
        body = {"password": PASSWORD, "new_password": PASSWORD} if method == "PUT" else (
            {"password": PASSWORD} if path == "/api/account" else None)
        answer = client.request(method, path, json=body, params={"lang": "de"})
        assert answer.status_code == 401 and code(answer) == "account.signed_out", path
        assert answer.json()["detail"]["message"] == "Du bist nicht angemeldet."
    assert client.delete("/api/session").status_code == 204  # signing out a guest does nothing


@pytest.mark.parametrize("password", ["baseball", "Sunshine", "PASSWORD", "1qaz2wsx", "iloveyou"])
def test_u2_common_passwords_refused(client: TestClient, password: str) -> None:
    answer = client.post("/api/accounts", json={"name": "Anna", "password": password})
    assert answer.status_code == 422 and code(answer) == "account.password_common"
    assert _count(client, accounts) == 0


def test_u2_any_password_of_up_to_200_characters_is_taken_exactly_as_typed(client: TestClient) -> None:
    long_one = "Ä  🂡 ♠ " * 28 + "end"  # 199 characters: letters, blanks (two together), emoji, symbols
    sign_up(client, "Anna", long_one)
    guest = _browser(client)
    for near in (long_one[:-1], long_one.upper(), long_one.replace("  ", " "), long_one + " "):
        assert guest.post("/api/session", json={"name": "Anna", "password": near}).status_code == 401
    sign_in(guest, "Anna", long_one)
    csrf = sign_in(guest, "Anna", long_one)
    answer = guest.put("/api/account/password", json={"password": long_one, "new_password": "qwertyuiop"},
                       headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 422 and code(answer) == "account.password_common"
    sign_in(_browser(client), "Anna", long_one)  # unchanged


def test_v353_no_change_on_get(client: TestClient) -> None:
    """Nothing that changes an account is reached by GET (a link or an image cannot do it)."""
    sign_up(client, "Anna")
    for path in ("/api/accounts", "/api/account/password", "/api/account", "/api/sessions"):
        answer = client.get(path)
        assert answer.status_code == 405 and code(answer) == "server.bad_method", path
    assert client.get("/api/session").status_code == 200 and _count(client, accounts) == 1
