"""``benchmarks/outside_client.py`` (issue 43): its check finds a card of another hand, and the whole client runs at
its smallest size against a real server on SQLite, so that it never rots. Its figures are the benchmark's to print;
this test asks only for what the server guarantees today (no leak, nothing acknowledged lost, no worker left)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from benchmark_scripts import load

outside = load("outside_client")


def _peer(receiver: int | None, messages: list[dict[str, Any]]) -> Any:
    peer = outside.Peer(None, receiver)
    peer.received = messages
    return peer


def test_the_check_finds_a_card_the_receiver_could_not_see() -> None:
    """A message to seat 0 naming a card it never saw is a leak; one naming its own card is not; an update whose
    events differ from the replay's (a private part another seat had) is counted too."""
    know = outside.Knowledge(allowed={0: [{"B5"}, {"B5", "G2"}], 1: [{"R4"}, {"R4", "B5"}], None: [set(), {"B5"}]},
                             steps=[{"events": [{"key": "knizia13.drew", "params": {"seat": 1},
                                                 "private": {"1": {"card": "R4"}}}]}])
    found: list[str] = []
    refused = {"type": "refused", "code": "x", "rule": None, "message": "", "params": {"card": "R4"}, "version": 0}
    assert outside.check_peer(know, _peer(0, [refused]), "knizia13", 3, found)[1] == 1
    assert "told ['R4']" in found[0]
    own = {**refused, "params": {"card": "B5"}}
    assert outside.check_peer(know, _peer(0, [own]), "knizia13", 3, [])[1:] == (0, 0)
    told = {"type": "update", "version": 1, "seat": 1, "action": "B5", "events": [
        {"key": "knizia13.drew", "params": {"seat": 1, "card": "R4"}, "text": ""}], "view": None}
    assert outside.check_peer(know, _peer(None, [told]), "knizia13", 3, [])[1:] == (1, 1)
    assert outside.check_peer(know, _peer(1, [told]), "knizia13", 3, [])[1:] == (0, 0)


def test_the_client_runs_at_its_smallest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One game, one kill round on SQLite: a table of figures is printed, every game played is checked, nothing
    leaks, nothing acknowledged is lost, no worker of the killed server is left."""
    figures = tmp_path / "figures.json"
    assert outside.main(["--backend", "sqlite", "--games", "1", "--rounds", "1", "--seconds", "1",
                         "--patience", "60", "--json", str(figures)]) == 0
    assert "The outside client on SQLite" in capsys.readouterr().out
    rows = json.loads(figures.read_text())["sqlite"]["rows"]
    assert rows["games played to the end"] == 1 and rows["messages checked"] > 50
    assert rows["leaks found"] == 0 and rows["updates whose events are not the replay's"] == 0
    assert rows["bad input sent"] == rows["refused cleanly"] + rows["5xx"] + rows[
        "other (accepted, closed, another shape)"] > 100
    assert rows["kill -9 rounds"] == 1 and rows["lost"] == 0 and rows["workers left"] == 0
    assert rows["bot-first tables pending at the kill"] == 1
