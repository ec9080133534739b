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
                                 "--records", str(tmp_path / "records"), "-o", "games=1", "--bots", "heuristic,random",
                                 "--json", str(tmp_path / "run.json"), "--plot", str(tmp_path / "scores.png")])
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "random" in result.output and "%" in result.output
    doc = json.loads((tmp_path / "run.json").read_text())
    assert doc["games"] == 4 and [s["bot"] for s in doc["summary"]] == ["heuristic", "random"]
    assert sum(s["wins"] for s in doc["summary"]) == 4
    assert (tmp_path / "scores.png").read_bytes()[:4] == b"\x89PNG"
    files = sorted((tmp_path / "records").glob("*.json"))
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


def test_tournament_prints_ratings_and_matrix(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "knizia13", "--bots", "heuristic,random", "--games", "6",
                                 "--jobs", "1", "--json", str(tmp_path / "t.json"), "--plot", str(tmp_path / "r.png")])
    assert result.exit_code == 0, result.output
    assert "ratings" in result.output and "head to head" in result.output
    doc = json.loads((tmp_path / "t.json").read_text())
    assert {r["bot"] for r in doc["ratings"]} == {"heuristic", "random"} and doc["games"] == 6
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_bad_bot_is_refused() -> None:
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "4", "-n", "1", "--bots", "genius"])
    assert result.exit_code == 2 and "no bot 'genius'" in result.output
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "4", "-n", "1", "--bots", "ismcts:iterations=-1"])
    assert result.exit_code == 2 and "iterations" in result.output
