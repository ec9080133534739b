"""Issue 46 item 2, rules N2 and N9: a turn is told store-then-tell. The push is stored in the transaction that marks
the turn told and sent after, from the stored row, so a process that dies at any point after the mark leaves the
push to the next start, which sends it once.

Two ways: in-process, a server whose notices die (every statement of their database and every push fails) right
after the transaction that marked the turn told commits, and a second server on the database (the next start) told
the turn again; and with real server processes, one killed (SIGKILL) while its push service holds the push
unanswered, the next process started on the database delivering it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.settings import Settings
from dreizehn.server.storage.store import make_engine

from ..accounts.people import sign_up
from ..kit import ServerProcess, eventually
from ..turns.test_turns_processes import ENV, against_a_bot, signed_in
from .pushing import BrowserKeys, PushService
from .test_push import _retrying, settle
from .turns import engine, notices, turn_table


class Died(Exception):
    """The process is gone: nothing it would do after this happens."""


@pytest.fixture
def push_service() -> Any:
    service = PushService()
    try:
        yield service
    finally:
        service.stop()


def waiting(db: sa.Engine) -> int:
    """The pushes in the outbox (rule N9)."""
    from dreizehn.server.notices.schema import push_outbox  # (here: the test runs against the code before it too)

    with db.connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(push_outbox)).scalar_one())


def dying(settings: Settings) -> sa.Engine:
    """An engine on the settings' database that dies once a transaction that marked a turn told has committed:
    every statement after raises :class:`Died`."""
    db = make_engine(settings.database, settings.data_dir)
    state = {"marking": False, "dead": False}

    @sa.event.listens_for(db, "before_cursor_execute")
    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if state["dead"]:
            raise Died(statement.split(None, 1)[0])
        if "INSERT INTO notices_told" in statement:
            state["marking"] = True

    @sa.event.listens_for(db, "commit")
    def committed(conn: Any) -> None:
        if state["marking"]:
            state["dead"] = True

    return db


def test_n9_a_process_dying_right_after_it_marked_a_turn_told_leaves_the_push_to_the_next_start(
        serve: Callable[[Settings], TestClient], db_settings: Settings, push_service: PushService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = _retrying(db_settings)
    first = serve(shared)
    csrf = sign_up(first, "Anna")
    sign_up(TestClient(first.app), "Bert")
    browser = BrowserKeys()
    first.post("/api/me/push", json=browser.subscription(push_service.endpoint("anna")),
               headers={"X-CSRF-Token": csrf})
    clock = turn_table(first, ["Anna", "Bert"], 0)
    told = notices(first)
    told.store.engine = dying(shared)

    def gone(*args: object) -> int:
        raise Died("push")

    monkeypatch.setattr(told.pusher, "send", gone)
    try:
        first.portal.call(told.turn, clock)  # type: ignore[union-attr]
        settle(first)
        assert push_service.received == []  # the process died before it pushed
        second = serve(shared)  # the next start: the turn clock tells the turn again
        second.portal.call(notices(second).turn, clock)  # type: ignore[union-attr]
        settle(second)
        eventually(lambda: len(push_service.delivered("anna")) >= 1, "the push sent by the next start")
        eventually(lambda: waiting(engine(second)) == 0, "the outbox emptied")
        assert len(push_service.received) == 1  # told twice, pushed once
        assert browser.read(push_service.received[0])["url"] == f"/seat/{clock.table_id}/0"
    finally:
        told.store.engine.dispose()


def test_n9_a_server_killed_while_it_pushes_a_turn_pushes_it_after_its_next_start(
        processes: Callable[..., ServerProcess], tmp_path: Path) -> None:
    env = {**ENV, "DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_PUSH_ALLOW_HTTP": 1,
           "DREIZEHN_PUSH_TIMEOUT": 2, "DREIZEHN_NOTICE_POLL": 0.1, "DREIZEHN_NOTICE_RETRY": 0.2,
           "DREIZEHN_NOTICE_RETRY_MAX": 1}
    held = PushService(held={"anna"})  # takes the push and never answers
    server = processes(env)
    client = signed_in(server, "Anna")
    browser = BrowserKeys()
    assert client.post("/api/me/push", json=browser.subscription(held.endpoint("anna"))).status_code == 204
    table_id = against_a_bot(client)
    db = sa.create_engine(f"sqlite:///{tmp_path / 'data' / 'dreizehn.sqlite3'}")
    back: PushService | None = None
    try:
        eventually(lambda: held.tries("anna") >= 1, "the turn pushed", timeout=60)
        server.kill()  # while the push service holds the push unanswered
        held.stop()
        back = PushService(port=held.port)  # the push service answers again, at the same address
        processes(env)
        eventually(lambda: len(back.delivered("anna")) >= 1, "the push sent after the next start", timeout=60)
        eventually(lambda: waiting(db) == 0, "the outbox emptied")
        assert len(back.delivered("anna")) == 1
        assert browser.read(back.delivered("anna")[0])["url"].startswith(f"/seat/{table_id}/")
    finally:
        held.stop()
        if back is not None:
            back.stop()
        db.dispose()
