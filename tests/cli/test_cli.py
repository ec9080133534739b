"""The dreizehn command line, end to end on small runs."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dreizehn.cli.main import app

runner = CliRunner()


def test_games_lists_games_and_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for word in ("knizia13", "three-thirteen", "holzwurm", "dealer", "stock_out", "starter", "3 to 6 players"):
        assert word in result.output


def test_simulate_writes_valid_records(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "holzwurm", "--players", "3", "--games", "4", "--seed", "7",
                                 "--records", str(tmp_path), "-o", "games=1"])
    assert result.exit_code == 0, result.output
    assert "mean score" in result.output and "win rate" in result.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    for file in files:
        check = runner.invoke(app, ["replay", str(file)])
        assert check.exit_code == 0, check.output
        assert "valid record" in check.output and "totals" in check.output


def test_simulate_is_reproducible(tmp_path: Path) -> None:
    outputs = []
    for run in ("a", "b"):
        result = runner.invoke(app, ["simulate", "knizia13", "-p", "4", "-n", "3", "-s", "11",
                                     "--records", str(tmp_path / run)])
        assert result.exit_code == 0
        outputs.append([p.read_text() for p in sorted((tmp_path / run).glob("*.json"))])
    assert outputs[0] == outputs[1]


def test_simulate_refuses_bad_input() -> None:
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "9", "-n", "1"])
    assert result.exit_code == 2 and "3 to 6 players, not 9 (K4)" in result.output
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "4", "-o", "dealer"])
    assert result.exit_code == 2 and "NAME=VALUE" in result.output
    result = runner.invoke(app, ["simulate", "go", "-p", "2"])
    assert result.exit_code == 2 and "no game 'go'" in result.output


def test_replay_names_first_wrong_action(tmp_path: Path) -> None:
    runner.invoke(app, ["simulate", "knizia13", "-p", "3", "-n", "1", "--records", str(tmp_path)])
    file = next(tmp_path.glob("*.json"))
    doc = json.loads(file.read_text())
    doc["actions"][4][1] = "G5>B"
    file.write_text(json.dumps(doc))
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 1
    assert "action 5 ('G5>B'" in result.output and "K10" in result.output
    file.write_text("not json")
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 1 and "not valid JSON" in result.output


def test_demo_prints_a_game() -> None:
    result = runner.invoke(app, ["demo", "knizia13", "--players", "3", "--seed", "2"])
    assert result.exit_code == 0
    assert "stage 6" in result.output and "winner" in result.output
