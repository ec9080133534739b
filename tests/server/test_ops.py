"""Health and metrics for operators (issue 26 item 5): ``/health`` says which part failed, ``/metrics`` moves when a
table is played."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from dreizehn.server.settings import Settings

from .kit import connect, create_table, make_settings, play_to_end, quick, spectator_hello, stored, tokens


def metric(client: TestClient, name: str, **labels: str) -> float:
    """A sample of ``/metrics`` (0 when it is not there yet)."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def poll(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Whether ``check`` comes true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


def test_metrics_move_when_a_table_is_played(client: TestClient) -> None:
    """Actions by who chose them, the refusals by code, the action-to-update histogram, the connections and the
    rooms: each moves by what a played table did."""
    before = {
        "person": metric(client, "dreizehn_actions_total", by="person"),
        "stale": metric(client, "dreizehn_refusals_total", code="table.stale"),
        "timed": metric(client, "dreizehn_action_update_seconds_count"),
    }
    created = create_table(client, "holzwurm", ["person", "person"], quick("holzwurm"))
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as anna, connect(client, token=tokens(created)[1]) as bruno, \
            connect(client, **spectator_hello(created)) as watcher:
        assert metric(client, "dreizehn_connections") == 3
        assert metric(client, "dreizehn_rooms") >= 1
        assert anna.view is not None
        mover = anna if anna.view["current_player"] == 0 else bruno
        mover.act(0, version=99)  # a stale version: refused before anything else is looked at
        assert mover.until(lambda m: m["type"] == "refused")["code"] == "table.stale"
        play_to_end({0: anna, 1: bruno}, [watcher], rng=random.Random(3))
    actions = len(stored(client, table_id).actions)
    assert actions > 10
    assert metric(client, "dreizehn_actions_total", by="person") - before["person"] == actions
    assert metric(client, "dreizehn_refusals_total", code="table.stale") - before["stale"] == 1
    assert metric(client, "dreizehn_action_update_seconds_count") - before["timed"] == actions
    assert poll(lambda: metric(client, "dreizehn_connections") == 0)


def test_bots_actions_are_counted_as_theirs(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path / "data"))
    before = metric(client, "dreizehn_actions_total", by="bot")
    created = create_table(client, "holzwurm", ["random", "random"], quick("holzwurm"))
    table_id = created["table"]["id"]
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{table_id}").json()["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert metric(client, "dreizehn_actions_total", by="bot") - before == len(stored(client, table_id).actions)


def test_health_says_ok_with_its_parts(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path / "data", bot_workers=1))
    response = client.get("/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert body["database"] == {"ok": True, "kind": "sqlite"}
    assert body["workers"]["ok"] and body["workers"]["size"] == 1 and body["workers"]["restarts"] == 0


def test_health_says_503_when_the_database_is_gone(serve: Callable[[Settings], TestClient], tmp_path: Path,
                                                   pg_database: str) -> None:
    """PostgreSQL: the server's database dropped under it: ``/health`` answers 503 naming the database, with the
    driver's error, and the workers still fine."""
    client = serve(make_settings(tmp_path / "data", pg_database))
    assert client.get("/health").status_code == 200
    base, name = pg_database.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE {name} WITH (FORCE)")
    response = client.get("/health")
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["status"] == "failing" and body["failing"] == ["database"]
    assert body["database"]["ok"] is False and name in body["database"]["error"]
    assert body["workers"]["ok"] is True
