"""The lobby's benchmark runs end to end on a few people (its figures are the benchmark's, not checked here): every
one of them is seated, none left waiting."""

from __future__ import annotations

from pathlib import Path

from benchmark_scripts import load


def test_the_lobby_benchmark_seats_everyone(tmp_path: Path) -> None:
    bench = load("bench_lobby")
    out = tmp_path / "lobby.txt"
    bench.main(["--players", "12", "--seats", "4", "--tick", "0.2", "--out", str(out)])
    rows = [line.split("|") for line in out.read_text().splitlines() if line.startswith("| turn") or
            line.startswith("| realtime")]
    assert [(r[1].strip(), r[2].strip(), r[3].strip(), r[7].strip()) for r in rows] == [
        ("turn-based", "12", "3", "0"), ("realtime", "12", "3", "0")]
