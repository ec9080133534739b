"""``benchmarks/regret.py``: a saved run of positions searched by an oracle takes new bots on the same positions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from benchmark_scripts import load

from dreizehn.bots.levels import level_spec

regret = load("regret")
ORACLE = "ismcts:playout=heuristic:prune=2:cutoff=8:infer=on:lead=0:iterations=200:value=learned"
BOT = "ismcts:playout=heuristic:prune=2:cutoff=8:infer=on:lead=0:iterations=40:value=learned"


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", ["regret.py", *args])
    regret.main()


def test_bots_added_to_a_saved_run_search_its_positions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    run(monkeypatch, "--game", "three-thirteen", "--players", "2", "--positions", "6", "--seed", "5",
        "--oracle", ORACLE, "--bot", "heuristic", "--json", str(saved))
    before = json.loads(saved.read_text())
    assert before["count"] == 6 and before["positions"]
    run(monkeypatch, "--from", str(saved), "--bot", BOT, "--bot", "medium")
    after = json.loads(saved.read_text())
    medium = level_spec("medium", "three-thirteen", 2)  # a level is saved under what it plays
    assert all(set(p["bots"]) == {"heuristic", BOT, medium} for p in after["positions"]) and medium != "medium"
    assert len(after["positions"]) == len(before["positions"])
    for old, new in zip(before["positions"], after["positions"], strict=True):
        assert new["oracle"] == old["oracle"] and new["bots"]["heuristic"] == old["bots"]["heuristic"]
        chosen, means, _ = new["bots"][BOT]
        assert {int(a) for a in means} == {int(a) for a in new["oracle"]}  # it searched what the oracle searched
        assert chosen in {int(a) for a in means}


def test_a_saved_run_of_another_seed_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    run(monkeypatch, "--game", "three-thirteen", "--players", "2", "--positions", "4", "--seed", "5",
        "--oracle", ORACLE, "--bot", "heuristic", "--json", str(saved))
    data = json.loads(saved.read_text())
    data["seed"] = 6
    saved.write_text(json.dumps(data))
    with pytest.raises(SystemExit, match="not those of this seed"):
        run(monkeypatch, "--from", str(saved), "--bot", BOT)
