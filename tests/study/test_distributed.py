"""The ray backend of simulations and tournaments: the same games as on local processes, records, the command line,
connecting by address, and the refusals.

The tests that play games start one local Ray instance for the whole module (skipped when ray is not installed); the
refusals run without Ray.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from dreizehn.cli.main import app
from dreizehn.core.record import load as load_record
from dreizehn.study.sim import BackendError, GameResult, RunSpec, run_games, seating, simulate, tournament

runner = CliRunner()


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A local Ray instance with two CPUs, started for this module; yields its address."""
    ray: ModuleType = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    # A small object store: the results are small, and test workers running side by side each start an instance.
    ray.init(address="local", num_cpus=2, object_store_memory=100 * 1024**2, include_dashboard=False,
             log_to_driver=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def _said(output: str) -> str:
    """The command line's output with rich's line breaks and box edges undone."""
    return " ".join(output.replace("│", " ").split())


def _games(results: list[GameResult]) -> list[tuple[object, ...]]:
    """Everything of a game's result but the move times, which are measured and differ from run to run."""
    return [(g.index, g.seed, g.seats, g.totals, g.shares, g.ranks, g.actions) for g in results]


CASES = [
    ("knizia13", 3, ["heuristic", "random"], {}),
    ("holzwurm", 3, ["random", "heuristic"], {"games": 1}),
    ("three-thirteen", 2, ["heuristic", "random"], {"stock_out": "end-round"}),
]


@pytest.mark.parametrize(("game_id", "players", "bots", "options"), CASES, ids=[c[0] for c in CASES])
def test_simulate_on_ray_plays_the_same_games(
    ray_address: str, game_id: str, players: int, bots: list[str], options: dict[str, object]
) -> None:
    done: list[int] = []
    on_ray = simulate(RunSpec(game_id, players, bots, games=5, seed=21, options=options, backend="ray"),
                      progress=done.append)
    local = simulate(RunSpec(game_id, players, bots, games=5, seed=21, options=options, jobs=2))
    assert _games(on_ray.games) == _games(local.games)
    assert [g.index for g in on_ray.games] == [0, 1, 2, 3, 4]
    assert sum(done) == 5 and all(k > 0 for k in done)
    assert on_ray.to_json()["results"] == local.to_json()["results"]


def test_tournament_on_ray_plays_the_same_games(ray_address: str) -> None:
    bots = ["heuristic", "random", "ismcts:iterations=20"]
    on_ray = tournament(RunSpec("knizia13", 3, bots, games=6, seed=8, backend="ray", jobs=1))
    local = tournament(RunSpec("knizia13", 3, bots, games=6, seed=8, jobs=1))
    assert _games(on_ray.run.games) == _games(local.run.games)
    assert on_ray.head_to_head() == local.head_to_head()
    assert [(r.bot, r.mu) for r in on_ray.ratings()] == [(r.bot, r.mu) for r in local.ratings()]


def test_a_run_in_parts_on_ray_matches_one_local_run(ray_address: str) -> None:
    bots = ["heuristic", "random"]
    whole = simulate(RunSpec("holzwurm", 3, bots, games=6, seed=4, jobs=1, options={"games": 1})).games
    on_ray = RunSpec("holzwurm", 3, bots, 3, seed=4, options={"games": 1}, backend="ray")
    later = run_games(on_ray, [seating(bots, 3, i) for i in range(3, 6)], start=3)
    assert _games(later) == _games(whole[3:])
    assert run_games(on_ray, []) == []


def test_records_on_ray_are_written_here_and_equal_the_local_ones(ray_address: str, tmp_path: Path) -> None:
    simulate(RunSpec("knizia13", 4, ["heuristic", "random"], games=4, seed=30, backend="ray", records=tmp_path / "ray"))
    simulate(RunSpec("knizia13", 4, ["heuristic", "random"], games=4, seed=30, jobs=2, records=tmp_path / "local"))
    names = [p.name for p in sorted((tmp_path / "ray").iterdir())]
    assert names == [f"knizia13-{seed:06d}.json" for seed in range(30, 34)]
    for name in names:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
        assert load_record(tmp_path / "ray" / name).is_over


def test_cli_tournament_with_the_ray_backend(ray_address: str, tmp_path: Path) -> None:
    outputs = []
    for backend in ("ray", "processes"):
        result = runner.invoke(app, ["tournament", "holzwurm", "--bots", "heuristic,random", "-p", "2", "-n", "4",
                                     "-s", "3", "-o", "games=1", "--backend", backend,
                                     "--json", str(tmp_path / f"{backend}.json")])
        assert result.exit_code == 0, result.output
        assert "ratings" in result.output
        outputs.append(json.loads((tmp_path / f"{backend}.json").read_text()))
    assert outputs[0] == outputs[1]


def test_cli_simulate_connects_to_a_running_cluster_by_address(ray_address: str, tmp_path: Path) -> None:
    """A separate process, as a user would run it, joins the module's Ray instance by its address."""
    command = [sys.executable, "-m", "dreizehn.cli.main", "simulate", "three-thirteen", "-p", "2", "-n", "3",
               "-s", "5", "--bots", "heuristic,random", "-o", "stock_out=end-round", "--backend", "ray",
               "--address", ray_address, "--records", str(tmp_path / "ray"), "--json", str(tmp_path / "ray.json")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 records written" in done.stdout
    local = runner.invoke(app, ["simulate", "three-thirteen", "-p", "2", "-n", "3", "-s", "5", "-j", "1",
                                "--bots", "heuristic,random", "-o", "stock_out=end-round",
                                "--records", str(tmp_path / "local"), "--json", str(tmp_path / "local.json")])
    assert local.exit_code == 0, local.output
    ray_doc, local_doc = (json.loads((tmp_path / f"{k}.json").read_text()) for k in ("ray", "local"))
    assert ray_doc["results"] == local_doc["results"]
    ray_files = sorted((tmp_path / "ray").iterdir())
    assert [p.read_text() for p in ray_files] == [p.read_text() for p in sorted((tmp_path / "local").iterdir())]


def test_a_second_cluster_is_refused_while_connected(ray_address: str) -> None:
    with pytest.raises(BackendError, match=f"already connected to the Ray cluster at {ray_address}, not 10.9.8.7:6379"):
        simulate(RunSpec("knizia13", 3, ["random"], games=1, backend="ray", address="10.9.8.7:6379"))
    same = simulate(RunSpec("knizia13", 3, ["random"], games=1, backend="ray", address=ray_address))
    assert len(same.games) == 1


def test_unknown_backend_and_stray_address_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'threads'; choose 'processes' or 'ray'"):
        simulate(RunSpec("knizia13", 3, ["random"], games=1, backend="threads"))
    with pytest.raises(BackendError, match=r"an address \(10.0.0.1:6379\) names a Ray cluster; give it together"):
        tournament(RunSpec("knizia13", 3, ["random", "heuristic"], games=2, address="10.0.0.1:6379"))
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "3", "-n", "1", "--address", "10.0.0.1:6379"])
    assert result.exit_code == 2 and "give it together with the ray backend" in _said(result.output)
    result = runner.invoke(app, ["tournament", "knizia13", "--bots", "random,heuristic", "--backend", "threads"])
    assert result.exit_code == 2 and "'threads' is not one of 'processes', 'ray'" in _said(result.output)


def test_the_ray_backend_without_ray_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" fail as if it were not installed
    message = "the ray backend needs the research extra: pip install 'dreizehn[research]'"
    with pytest.raises(BackendError, match=r"needs the research extra: pip install 'dreizehn\[research\]'"):
        simulate(RunSpec("knizia13", 3, ["random"], games=2, backend="ray"))
    result = runner.invoke(app, ["simulate", "knizia13", "-p", "3", "-n", "2", "--backend", "ray"])
    assert result.exit_code == 2 and message in _said(result.output)
    assert simulate(RunSpec("knizia13", 3, ["random"], games=2, jobs=1)).games  # the process backend needs no ray
