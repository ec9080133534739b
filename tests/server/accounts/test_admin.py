"""Issue 45 item 7: ``dreizehn admin`` (rule U10) lists, disables, enables and deletes accounts and removes a line
of chat, on the database a running server uses; a name or line nobody has is refused in the run's language with
nothing changed."""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from starlette.testclient import TestClient
from typer.testing import CliRunner, Result

from dreizehn.cli.main import app
from dreizehn.server.accounts.schema import accounts
from dreizehn.server.chat import lines
from dreizehn.server.settings import Settings

from ..kit import connect, create_table, hub, tokens
from .people import PASSWORD, code, sign_in, sign_up


def _admin(settings: Settings, *args: str) -> Result:
    """``dreizehn [--lang de] admin ARGS`` on the test server's database."""
    lang = ["--lang", args[0][7:]] if args and args[0].startswith("--lang=") else []
    rest = list(args[1:] if lang else args)
    env = {"DATABASE_URL": settings.database, "DREIZEHN_DATA_DIR": str(settings.data_dir)}
    return CliRunner().invoke(app, [*lang, "admin", *rest], env=env)


def _names(client: TestClient) -> list[tuple[str, bool]]:
    with hub(client).store.engine.connect() as c:
        return sorted((n, bool(d)) for n, d in c.execute(sa.select(accounts.c.name, accounts.c.disabled)))


def test_u10_list_disable_enable_and_delete_accounts(serve: Callable[[Settings], TestClient],
                                                     db_settings: Settings) -> None:
    client = serve(db_settings)
    anna, bruno = TestClient(client.app), TestClient(client.app)
    anna_h = {"X-CSRF-Token": sign_up(anna, "Anna", email="anna@example.org")}
    sign_up(bruno, "Bruno")
    token = anna.post("/api/me/tokens", json={"label": "bot"}, headers=anna_h).json()["token"]
    listed = _admin(db_settings, "accounts", "list")
    assert listed.exit_code == 0, listed.output
    rows = [line for line in listed.output.splitlines() if "Anna" in line or "Bruno" in line]
    assert len(rows) == 2 and "no" in rows[0] and "—" in rows[1]  # Anna's address unverified, Bruno gave none
    assert "$argon2" not in listed.output and "anna@example.org" not in listed.output

    disabled = _admin(db_settings, "accounts", "disable", "ANNA")
    assert disabled.exit_code == 0 and "Anna" in disabled.output
    assert anna.get("/api/session").status_code == 401  # her session ended
    refused = TestClient(client.app).post("/api/session", json={"name": "Anna", "password": PASSWORD})
    assert refused.status_code == 403 and code(refused) == "account.disabled"
    assert code(TestClient(client.app).get("/api/session", headers={"Authorization": f"Bearer {token}"})) \
        == "account.bad_token"
    assert _names(client) == [("Anna", True), ("Bruno", False)]

    assert _admin(db_settings, "accounts", "enable", "anna").exit_code == 0
    sign_in(TestClient(client.app), "Anna")
    assert _admin(db_settings, "accounts", "delete", "Bruno").exit_code == 0
    assert _names(client) == [("Anna", False)]
    assert bruno.get("/api/session").status_code == 401


def test_u10_an_unknown_name_is_refused_and_changes_nothing(client: TestClient, settings: Settings) -> None:
    sign_up(client, "Anna")
    for command in ("disable", "enable", "delete"):
        refused = _admin(settings, "--lang=de", "accounts", command, "Nobody")
        assert refused.exit_code == 2 and "Kein Konto heißt Nobody" in refused.output and "C11" in refused.output
    long = _admin(settings, "accounts", "delete", "<b>" + "x" * 5000)
    assert long.exit_code == 2
    assert _names(client) == [("Anna", False)]


def test_u10_remove_a_line_of_chat(client: TestClient, settings: Settings) -> None:
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as anna:
        anna.send({"type": "say", "text": "rude words"})
        said = anna.until(lambda m: m["type"] == "said")
        anna.send({"type": "say", "text": "sorry"})
        anna.until(lambda m: m["type"] == "said" and m["text"] == "sorry")
    other = create_table(client, "knizia13", ["person", "medium", "easy"])
    wrong_table = _admin(settings, "--lang=nl", "chat", "remove", other["table"]["id"], str(said["id"]))
    assert wrong_table.exit_code == 2 and "geen chatregel" in wrong_table.output
    removed = _admin(settings, "chat", "remove", table_id, str(said["id"]))
    assert removed.exit_code == 0, removed.output
    assert [line.text for line in lines(hub(client).store, table_id, True)] == ["sorry"]
    again = _admin(settings, "chat", "remove", table_id, str(said["id"]))
    assert again.exit_code == 2
