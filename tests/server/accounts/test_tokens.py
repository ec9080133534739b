"""Issue 45 item 6: personal API tokens (rule U9). A token is shown once and stored as its SHA-256; with
``Authorization: Bearer dzt_…`` a script acts as the account over HTTP (no CSRF token) and, through
:meth:`Accounts.who`, at the websocket's handshake; revoking one ends it at once; another account can neither list
nor revoke it; the operators' bearer token is nobody's account."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts, api_tokens
from dreizehn.server.accounts.service import Accounts
from dreizehn.server.accounts.tokens import MOST_TOKENS
from dreizehn.server.refusals import ServerError
from dreizehn.server.settings import Settings

from ..kit import OPS_HEADERS
from .people import PASSWORD, code, sign_up


def _person(client: TestClient, name: str) -> tuple[TestClient, dict[str, str]]:
    browser = TestClient(client.app)
    return browser, {"X-CSRF-Token": sign_up(browser, name)}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _make(browser: TestClient, headers: dict[str, str], label: str = "my bot") -> dict[str, Any]:
    answer = browser.post("/api/me/tokens", json={"label": label}, headers=headers)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def _stored(client: TestClient) -> list[dict[str, Any]]:
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        return [dict(r) for r in c.execute(sa.select(api_tokens)).mappings()]


def _script(client: TestClient) -> TestClient:
    """A script: no cookie, no operators' token."""
    return TestClient(client.app)


def test_u9_a_token_is_shown_once_stored_hashed_and_acts_as_the_account(
        serve: Callable[[Settings], TestClient], db_settings: Settings) -> None:
    client = serve(db_settings)
    anna, anna_h = _person(client, "Anna")
    _person(client, "Ben")
    made = _make(anna, anna_h, "  my   bot ")
    token = made["token"]
    assert token.startswith("dzt_") and len(token) == 36 and made["label"] == "my bot"
    listed = anna.get("/api/me/tokens").json()
    assert [t["id"] for t in listed] == [made["id"]] and listed[0]["used_at"] is None
    assert token not in str(listed) and token not in str(_stored(client))
    assert _stored(client)[0]["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    script = _script(client)
    me = script.get("/api/session", headers=_bearer(token))
    assert me.status_code == 200 and me.json()["name"] == "Anna"
    asked = script.post("/api/me/friends", json={"name": "Ben"}, headers=_bearer(token))  # no CSRF token needed
    assert asked.status_code == 200 and asked.json()["asked"] == [{"name": "Ben"}]
    assert anna.get("/api/me/tokens").json()[0]["used_at"] is not None


def test_u9_a_revoked_token_stops_working_at_once(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    made = _make(anna, anna_h)
    script = _script(client)
    assert script.get("/api/me/friends", headers=_bearer(made["token"])).status_code == 200
    assert anna.delete(f"/api/me/tokens/{made['id']}", headers=anna_h).status_code == 204
    refused = script.get("/api/me/friends", headers=_bearer(made["token"]), params={"lang": "nl"})
    assert refused.status_code == 401 and code(refused) == "account.bad_token"
    assert refused.json()["detail"]["message"] and "U9" not in refused.json()["detail"]["message"]
    assert anna.get("/api/me/tokens").json() == [] and _stored(client) == []
    again = anna.delete(f"/api/me/tokens/{made['id']}", headers=anna_h)
    assert again.status_code == 404 and code(again) == "account.no_token"


def test_u9_another_account_cannot_revoke_a_token_by_its_id(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    ben, ben_h = _person(client, "Ben")
    made = _make(anna, anna_h)
    answer = ben.delete(f"/api/me/tokens/{made['id']}", headers=ben_h)
    assert answer.status_code == 404 and code(answer) == "account.no_token"
    by_token = _make(ben, ben_h)["token"]  # nor with a token of its own
    assert _script(client).delete(f"/api/me/tokens/{made['id']}", headers=_bearer(by_token)).status_code == 404
    assert _script(client).get("/api/session", headers=_bearer(made["token"])).json()["name"] == "Anna"


def test_u9_another_account_does_not_see_the_tokens(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    ben, _ = _person(client, "Ben")
    _make(anna, anna_h)
    assert ben.get("/api/me/tokens").json() == []
    assert _script(client).get("/api/me/tokens").status_code == 401


@pytest.mark.parametrize(("label", "refusal"), [
    ("", "account.token_label"), ("   ", "account.token_label"), ("x" * 65, "account.token_label"),
    ("<b>bot</b>", "account.token_label"), ("bot\x00", "account.token_label"), ("bot\u202e", "account.token_label"),
    ("x" * 5000, "server.bad_request"),
])
def test_u9_bad_labels_are_refused_and_make_nothing(client: TestClient, label: str, refusal: str) -> None:
    anna, anna_h = _person(client, "Anna")
    answer = anna.post("/api/me/tokens", json={"label": label}, headers=anna_h, params={"lang": "de"})
    assert answer.status_code == 422 and code(answer) == refusal
    assert answer.json()["detail"]["message"] and _stored(client) == []


def test_u9_an_account_holds_at_most_twenty_tokens(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    for i in range(MOST_TOKENS):
        _make(anna, anna_h, f"bot {i}")
    answer = anna.post("/api/me/tokens", json={"label": "one more"}, headers=anna_h)
    assert answer.status_code == 409 and code(answer) == "account.too_many_tokens"
    assert len(_stored(client)) == MOST_TOKENS


def test_u9_a_token_cannot_make_another(client: TestClient) -> None:
    """A token that leaked must not make others that outlive its revocation."""
    anna, anna_h = _person(client, "Anna")
    token = _make(anna, anna_h)["token"]
    answer = _script(client).post("/api/me/tokens", json={"label": "more"}, headers=_bearer(token))
    assert answer.status_code == 403 and code(answer) == "account.session_needed"
    assert len(_stored(client)) == 1


def test_u4_making_or_revoking_a_token_with_the_cookie_needs_the_csrf_token(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    made = _make(anna, anna_h)
    assert code(anna.post("/api/me/tokens", json={"label": "x"})) == "account.csrf"
    assert code(anna.delete(f"/api/me/tokens/{made['id']}")) == "account.csrf"
    assert len(_stored(client)) == 1


def test_u9_the_operators_token_is_nobodys_account_and_an_api_token_no_operator(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    token = _make(anna, anna_h)["token"]
    ops = _script(client)
    assert ops.get("/metrics", headers=OPS_HEADERS).status_code == 200
    answer = ops.get("/api/session", headers=OPS_HEADERS)
    assert answer.status_code == 401 and code(answer) == "account.signed_out"
    assert ops.get("/metrics", headers=_bearer(token)).status_code == 401
    unknown = ops.get("/api/session", headers=_bearer("dzt_" + "x" * 32))
    assert unknown.status_code == 401 and code(unknown) == "account.bad_token"


def test_u9_a_disabled_or_deleted_accounts_token_acts_for_nobody(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    ben, ben_h = _person(client, "Ben")
    anna_token, ben_token = _make(anna, anna_h)["token"], _make(ben, ben_h)["token"]
    store = client.app.state.accounts.store  # type: ignore[attr-defined]
    found = store.by_key("anna")
    store.set_disabled(found[0].id, True)
    assert code(_script(client).get("/api/session", headers=_bearer(anna_token))) == "account.bad_token"
    assert ben.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=ben_h).status_code == 204
    assert code(_script(client).get("/api/session", headers=_bearer(ben_token))) == "account.bad_token"


def test_u9_used_at_is_written_at_most_once_a_minute(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    token = _make(anna, anna_h)["token"]
    script = _script(client)
    script.get("/api/session", headers=_bearer(token))
    first = _stored(client)[0]["used_at"]
    script.get("/api/session", headers=_bearer(token))
    assert _stored(client)[0]["used_at"] == first
    with client.app.state.hub.store.engine.begin() as c:  # type: ignore[attr-defined]
        c.execute(api_tokens.update().values(used_at=first - dt.timedelta(minutes=2)))
    script.get("/api/session", headers=_bearer(token))
    assert _stored(client)[0]["used_at"] > first - dt.timedelta(minutes=1)


def test_u9_who_reads_a_token_or_a_cookie_from_a_handshakes_headers(client: TestClient) -> None:
    """What the websocket's hello asks (:meth:`Accounts.who`): the headers of its handshake."""
    anna, anna_h = _person(client, "Anna")
    token = _make(anna, anna_h)["token"]
    who: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
    cookie = f"other=1; dz_session={anna.cookies.get('dz_session')}"

    def name(headers: dict[str, str]) -> str | None:
        found = asyncio.run(who.who(headers))
        return None if found is None else found.name

    assert name({"Authorization": f"Bearer {token}"}) == name({"cookie": cookie}) == "Anna"
    assert name({}) is None and name({"authorization": OPS_HEADERS["authorization"]}) is None
    assert name({"cookie": "dz_session=" + "x" * 32}) is None
    with pytest.raises(ServerError) as refused:
        name({"authorization": "Bearer dzt_revoked"})
    assert refused.value.code == "account.bad_token"
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        assert c.execute(sa.select(sa.func.count()).select_from(accounts)).scalar_one() == 1
