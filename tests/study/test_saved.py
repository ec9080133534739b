"""Runs that save their games as they finish (:mod:`dreizehn.study.saved`): played in parts they give the games of one
run, games of other code are left out, a file that is not of saved games is refused by line (C8)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dreizehn.cli.main import app
from dreizehn.core.errors import UsageError
from dreizehn.study import saved as saved_module
from dreizehn.study.saved import adopt, fingerprint, game_of, load_games, run_key
from dreizehn.study.sim import GameResult, RunSpec, simulate, tournament

runner = CliRunner()
BOTS = ["heuristic", "random", "heuristic:blunder=0.5"]


def _outcomes(games: list[GameResult]) -> list[tuple[int, int, tuple[str, ...], tuple[int, ...]]]:
    return [(g.index, g.seed, g.seats, g.totals) for g in games]


def test_a_tournament_resumed_plays_only_the_missing_games_and_adds_up_to_one_run(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    first = tournament(RunSpec("knizia13", 3, BOTS, games=4, seed=5, jobs=1, results=saved))
    assert first.run.resumed == 0 and len(saved.read_text().splitlines()) == 4
    second = tournament(RunSpec("knizia13", 3, BOTS, games=9, seed=5, jobs=2, results=saved))
    assert second.run.resumed == 4 and len(saved.read_text().splitlines()) == 9  # five new games, none twice
    whole = tournament(RunSpec("knizia13", 3, BOTS, games=9, seed=5, jobs=1))
    assert _outcomes(second.run.games) == _outcomes(whole.run.games)
    assert [(r.bot, r.mu) for r in second.ratings()] == [(r.bot, r.mu) for r in whole.ratings()]


def test_a_run_stopped_by_its_deadline_goes_on_where_it_stopped(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    spec = RunSpec("holzwurm", 2, ["heuristic", "random"], games=3, seed=2, jobs=1, results=saved)
    stopped = simulate(replace(spec, deadline=0.0))
    assert stopped.games == [] and not saved.exists()
    done = simulate(spec)
    again = simulate(replace(spec, deadline=0.0))
    assert again.resumed == 3 and _outcomes(again.games) == _outcomes(done.games)


def test_a_simulation_and_a_tournament_of_the_same_bots_never_share_games(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    tournament(RunSpec("knizia13", 3, BOTS[:2], games=2, seed=0, jobs=1, results=saved))
    run = simulate(RunSpec("knizia13", 3, BOTS[:2], games=2, seed=0, jobs=1, results=saved))
    assert run.resumed == 0 and run.left_out == 0 and len(saved.read_text().splitlines()) == 4
    keys = {json.loads(line)["key"] for line in saved.read_text().splitlines()}
    assert keys == {run_key("knizia13", 3, run.options, BOTS[:2], 0),
                    run_key("knizia13", 3, run.options, BOTS[:2], 0, tournament=True)}
    assert {game_of(key) for key in keys} == {"knizia13"}


def test_games_of_other_code_are_left_out_until_adopted(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    simulate(RunSpec("knizia13", 3, BOTS[:2], games=2, seed=0, jobs=1, results=saved))
    saved.write_text(saved.read_text().replace(fingerprint(), "0123456789abcdef"))
    replayed = simulate(RunSpec("knizia13", 3, BOTS[:2], games=2, seed=0, jobs=1, results=saved))
    assert replayed.resumed == 0 and replayed.left_out == 2 and len(replayed.games) == 2
    saved.write_text("".join(line + "\n" for line in saved.read_text().splitlines()[:2]))  # the old code's only
    assert adopt(saved, "0123456789abcdef", ["holzwurm"]) == 0  # other games only: none adopted
    assert adopt(saved, "0123456789abcdef", ["knizia13"]) == 2
    games, other = load_games(saved, run_key("knizia13", 3, replayed.options, BOTS[:2], 0), fingerprint())
    assert sorted(games) == [0, 1] and other == 0


def test_a_file_that_is_not_of_saved_games_is_refused_by_line(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    simulate(RunSpec("knizia13", 3, BOTS[:2], games=1, seed=0, jobs=1, results=saved))
    saved.write_text(saved.read_text() + "\n{\"key\": 1}\n")
    with pytest.raises(UsageError) as caught:
        simulate(RunSpec("knizia13", 3, BOTS[:2], games=2, seed=0, jobs=1, results=saved))
    assert caught.value.rule == "C8" and caught.value.params["line"] == 3
    with pytest.raises(UsageError) as unreadable:
        simulate(RunSpec("knizia13", 3, BOTS[:2], games=1, seed=0, jobs=1, results=tmp_path))  # a folder
    assert unreadable.value.rule == "C5"


def test_the_commands_say_what_they_read_back_and_what_is_left(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    args = ["tournament", "holzwurm", "--bots", "heuristic,random", "--games", "4", "--jobs", "1",
            "--results", str(saved)]
    stopped = runner.invoke(app, [*args, "--minutes", "0"])
    assert stopped.exit_code == 0, stopped.output
    assert "0 of 4 games played: run the same command again to go on" in stopped.output
    finished = runner.invoke(app, args)
    assert finished.exit_code == 0 and "4 games of holzwurm" in finished.output
    resumed = runner.invoke(app, [*args, "--json", str(tmp_path / "t.json")])
    assert "4 games read back from" in resumed.output and "of 4 games played" not in resumed.output
    assert json.loads((tmp_path / "t.json").read_text())["games"] == 4
    saved.write_text("not json\n")
    refused = runner.invoke(app, ["--lang", "de", *args])
    assert refused.exit_code == 2 and "Zeile 1, ist kein gespeichertes Spiel" in refused.output


def test_the_fingerprint_hashes_the_bots_and_the_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The code that plays the games is the package's ``bots`` and ``games`` (and how a game is seated and played):
    a change to any file there gives another fingerprint, so games saved before it are left out."""
    package = saved_module.SOURCE
    assert (package / "bots" / "ismcts.py").is_file() and (package / "games" / "holzwurm" / "rules.py").is_file()
    copy = tmp_path / "dreizehn"
    for folder in ("bots", "games"):
        shutil.copytree(package / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    monkeypatch.setattr(saved_module, "SOURCE", copy)
    before = fingerprint()
    assert before == fingerprint()
    for changed in (copy / "bots" / "ismcts.py", copy / "games" / "holzwurm" / "rules.py"):
        changed.write_text(changed.read_text() + "\n# changed\n")
        after = fingerprint()
        assert after != before
        before = after
