"""The dreizehn command line, end to end on small runs."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dreizehn
from dreizehn.cli.main import app
from dreizehn.core.record import dumps

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


# ---------------------------------------------------------------------------------------------------------------------
# issue 11: 'dreizehn replay' answers every input with a message and exit status 1, and prints what it says


def record_text(players: int = 3, seed: int = 4) -> str:
    state = dreizehn.new_game("knizia13", players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return dumps(state)


def hostile_files() -> list[tuple[str, bytes, str]]:
    """(name, file bytes, a text the message must hold): issue 11 item 1's inputs."""
    text = record_text()
    doc = json.loads(text)

    def with_raw(field: str, raw: str) -> bytes:
        return json.dumps({**doc, field: "@RAW@"}).replace('"@RAW@"', raw).encode()

    return [
        ("invalid UTF-8", b'{"format": "dreizehn-record", "x": "\xff"}', "byte 37 (0xff) is not valid UTF-8"),
        ("UTF-16", text.encode("utf-16"), "UTF-16 text (it starts with a UTF-16 byte order mark); records are UTF-8"),
        ("UTF-16 without BOM", text.encode("utf-16-be"), "byte 1 of the record is a NUL byte"),
        ("100,000 deep", ("[" * 100_000 + "]" * 100_000).encode(), "nested too deeply"),
        ("3,000 deep in options", with_raw("options", "[" * 3000 + "]" * 3000), "nested too deeply"),
        ("3,000 deep in players", with_raw("players", '["a", ' + "{\"a\": " * 3000 + "1" + "}" * 3000 + "]"),
         "nested too deeply"),
        ("200 deep in players", with_raw("players", "[" * 200 + "]" * 200),
         "'players' field: name 1 must be a string, not [[[...]]]"),
        ("5,000 digits", with_raw("totals", "[" + "9" * 5000 + ", 1, 2]"), "integer of 5000 digits"),
        ("stage_scores null", with_raw("stage_scores", "null"), "'stage_scores' field must be a list"),
        ("stage_scores true", with_raw("stage_scores", "true"), "'stage_scores' field must be a list"),
        ("stage_scores 0", with_raw("stage_scores", "0"), "'stage_scores' field must be a list"),
        ("stage_scores 1.5", with_raw("stage_scores", "1.5"), "'stage_scores' field must be a list"),
        ("loose option", with_raw("options", '{"dealer": " 1 ", "open_piles": false}'),
         "option 'dealer' must be a seat"),
        ("version 1.0", with_raw("version", "1.0"), "'version' field must be 1"),
        ("over 0", with_raw("over", "0"), "'over' field must be true or false, not 0"),
        ("no totals", json.dumps({k: v for k, v in doc.items() if k != "totals"}).encode(), "no 'totals' field"),
    ]


HOSTILE = hostile_files()


@pytest.mark.parametrize(("data", "message"), [(d, m) for _, d, m in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_replay_answers_hostile_input_with_a_message(data: bytes, message: str, tmp_path: Path) -> None:
    """issue 11 items 1 and 2: exit status 1, 'invalid record FILE: MESSAGE' printed whole, and no traceback."""
    file = tmp_path / "record.json"
    file.write_bytes(data)
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # an exception the command did not catch would show here
    assert f"invalid record {file}: " in result.output and message in result.output
    assert "Traceback" not in result.output and "valid record:" not in result.output


@pytest.mark.slow  # a Python process of its own
def test_replay_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    """issue 11 item 1: the console script itself, in a subprocess, on the deepest and the widest inputs."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(70 * 1024 * 1024)
    for path, message in ((deep, "nested too deeply"), (big, "too large (73400320 bytes)")):
        result = subprocess.run([sys.executable, "-m", "dreizehn.cli.main", "replay", str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result.stderr
        assert f"invalid record {path}: " in result.stderr and message in result.stderr
        assert "Traceback" not in result.stderr + result.stdout


def test_replay_prints_brackets_intact(tmp_path: Path) -> None:
    """issue 11 item 3: text in square brackets (file names, messages) is printed, not eaten as Rich markup."""
    doc = json.loads(record_text())
    folder = tmp_path / "[red]dir[x]"
    folder.mkdir()
    file = folder / "game [x] [bold].json"
    file.write_text(json.dumps({**doc, "actions": [[0]]}))
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 1
    assert (f"invalid record {file}: the record's 'actions' field: action 1 must be a pair [seat, action text], "
            f"not [0]") in result.output
    file.write_text(json.dumps({**doc, "players": ["[bold]ann[/bold]", "bo", "cy"]}))
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 0 and "valid record" in result.output, result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "missing [x].json")])
    assert result.exit_code == 1 and f"invalid record {tmp_path / 'missing [x].json'}: cannot read" in result.output


def test_replay_names_a_missing_shuffle(tmp_path: Path) -> None:
    """issue 11 item 3: a missing next-stage shuffle is reported as missing, not as an illegal action."""
    doc = json.loads(record_text())
    file = tmp_path / "short.json"
    file.write_text(json.dumps({**doc, "shuffles": doc["shuffles"][:2]}))
    result = runner.invoke(app, ["replay", str(file)])
    assert result.exit_code == 1
    assert "ends stage 2, but the record has no shuffle for the next stage (stage 3): shuffle 3 is missing" \
        in result.output
    assert "illegal" not in result.output


def test_schema_prints_each_games_view_schema() -> None:
    """issue 12 item 3: ``dreizehn schema GAME`` publishes the schema that the wire tests validate against."""
    from dreizehn.core.wire import schema

    for game_id in dreizehn.game_ids():
        result = runner.invoke(app, ["schema", game_id])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output) == schema(game_id)
    result = runner.invoke(app, ["schema", "nonesuch"])
    assert result.exit_code == 2 and "there is no game 'nonesuch'" in result.output


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_replay_tells_the_course_in_words(game_id: str, tmp_path: Path) -> None:
    """issue 12 item 4: ``dreizehn replay FILE --lang de`` tells the game stage by stage with the scoring explained,
    in the language asked; the points it says are the record's."""
    from dreizehn.core.record import save

    cls = dreizehn.game_class(game_id)
    state = dreizehn.new_game(game_id, cls.min_players, seed=4, **cls.quick_options)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    names = [f"Spieler{i}" for i in range(cls.min_players)]
    save(state, path, names)
    for lang, stage_end in (("de", "Ende von"), ("nl", "Einde van"), ("en", "End of")):
        result = runner.invoke(app, ["replay", str(path), "--lang", lang])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert sum(stage_end in line for line in lines) == len(state.stage_scores)
        for scores in state.stage_scores:
            said = f"{names[0]} {scores[0]}"
            assert any(said in line for line in lines if stage_end in line)
        assert "{" not in result.output and f"{game_id}." not in result.output
