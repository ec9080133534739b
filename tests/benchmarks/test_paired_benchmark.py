"""``benchmarks/paired.py``: its saved games read back, a line another run is still writing left out rather than
stopping the run; levels saved under their specifications."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from benchmark_scripts import load

from dreizehn.bots.levels import level_spec

paired = load("paired")


def _row(seed: int, seat: int) -> dict[str, object]:
    return {"game": "holzwurm", "against": "expert", "players": 2, "bot": "master", "seed": seed, "seat": seat,
            "margin": 3.0, "share": 1.0, "think": 1.0, "moves": 40, "worst": 0.1}


def test_a_line_being_written_is_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    whole = "".join(json.dumps(_row(seed, 0)) + "\n" for seed in range(3))
    path.write_text(whole + json.dumps(_row(3, 0))[:25])
    found = paired.saved(path)
    assert sorted(key[4] for key in found) == [0, 1, 2]
    assert "unfinished last line" in capsys.readouterr().err
    path.write_text(whole)
    assert len(paired.saved(path)) == 3 and capsys.readouterr().err == ""
    path.write_text(whole.replace("}\n", "}\n\n", 1) + "{not json}\n")  # a broken whole line still stops the run
    with pytest.raises(json.JSONDecodeError):
        paired.saved(path)


def test_levels_are_saved_under_what_they_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A level named on the command line is saved as its specification, bot and opponent alike, so that games
    against a level are never read as games against what it plays after it changes; a second run finds them."""
    path = tmp_path / "games.jsonl"
    argv = ["paired.py", "--game", "holzwurm", "--players", "2", "--bot", "easy", "--against", "medium",
            "--seeds", "0:1", "--results", str(path)]
    monkeypatch.setattr(sys, "argv", argv)
    paired.main()
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    easy, medium = level_spec("easy", "holzwurm", 2), level_spec("medium", "holzwurm", 2)
    assert easy != "easy" and medium != "medium"
    assert [(r["bot"], r["against"], r["seat"]) for r in rows] == [(easy, medium, 0), (easy, medium, 1)]
    assert f"1 seeds, each with the bot in all 2 seats against {medium}" in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", [*argv, "--print-only"])
    paired.main()
    assert len(path.read_text().splitlines()) == 2
