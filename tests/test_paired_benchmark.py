"""``benchmarks/paired.py``: its saved games read back, a line another run is still writing left out rather than
stopping the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmark_scripts import load

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
