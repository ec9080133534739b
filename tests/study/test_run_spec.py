"""What a run plays as one value (:class:`~dreizehn.study.sim.RunSpec`): checked as it is made (each refusal names its
field), read back from JSON, and saved under the same key as before it was one value, so runs saved then resume."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import dreizehn
from dreizehn.core.errors import BackendError, SimulationError, UnknownGameError
from dreizehn.study.saved import fingerprint, save_games
from dreizehn.study.sim import RunSpec, simulate, tournament
from dreizehn.words import words


def test_a_spec_reads_its_fields_and_round_trips_through_json(tmp_path: Path) -> None:
    spec = RunSpec("three-thirteen", 2, " heuristic , ismcts:iterations=20,", 5, seed=3,
                   options={"stock_out": "end-round"}, jobs=2, records=str(tmp_path / "r"),  # type: ignore[arg-type]
                   results=tmp_path / "s.jsonl", deadline=12)
    assert spec.bots == ("heuristic", "ismcts:iterations=20")
    assert spec.records == tmp_path / "r" and spec.deadline == 12.0
    doc = spec.to_json()
    assert RunSpec.from_json(json.loads(json.dumps(doc))) == spec
    assert replace(spec, games=9).games == 9 and spec.games == 5
    with pytest.raises(AttributeError):
        spec.games = 7  # type: ignore[misc]


# The keys the runs' games were saved under before a run was one value (dreizehn.study.saved.run_key as simulate and
# tournament called it), written out: a run resumes only if its key is the same string.
KEYS = [
    (RunSpec("holzwurm", 3, ["heuristic", "ismcts:iterations=20"], 6, seed=4, options={"games": 1}), False,
     '["holzwurm", 3, {"games": 1}, ["heuristic", "ismcts:iterations=20"], 4]'),
    (RunSpec("three-thirteen", 2, ["expert", "hard", "expert"], 6, seed=9,
             options={"stock_out": "end-round", "aces": "low"}), True,
     '["tournament", "three-thirteen", 2, {"aces": "low", "stock_out": "end-round"}, ["expert", "hard"], 9]'),
    (RunSpec("knizia13", 3, "medium,random", 100, options=dreizehn.load_game("knizia13", 3).options), False,
     '["knizia13", 3, {"dealer": 0, "open_piles": false}, ["medium", "random"], 0]'),
]


@pytest.mark.parametrize(("spec", "is_tournament", "key"), KEYS)
def test_the_saved_games_key_is_the_one_runs_were_saved_under(spec: RunSpec, is_tournament: bool, key: str) -> None:
    assert spec.key(tournament=is_tournament) == key


def test_games_saved_under_the_old_key_are_read_back(tmp_path: Path) -> None:
    """A file written as the runs wrote it before (its key the literal string): simulate and tournament read its
    games back and play none of them again."""
    saved = tmp_path / "games.jsonl"
    spec = RunSpec("knizia13", 3, ["heuristic", "random"], 2, seed=0, jobs=1, results=saved)
    played = simulate(replace(spec, results=None)).games
    save_games(saved, '["knizia13", 3, {}, ["heuristic", "random"], 0]', fingerprint(), played)
    resumed = simulate(spec)
    assert resumed.resumed == 2 and resumed.games == played and len(saved.read_text().splitlines()) == 2
    round_robin = tournament(replace(spec, results=None)).run.games
    save_games(saved, '["tournament", "knizia13", 3, {}, ["heuristic", "random"], 0]', fingerprint(), round_robin)
    assert tournament(spec).run.resumed == 2


@pytest.mark.parametrize(
    ("fields", "field", "least"),
    [({"games": -1}, "games", 0), ({"games": 2.5}, "games", 0), ({"players": 0}, "players", 1),
     ({"jobs": 0}, "jobs", 1), ({"jobs": True}, "jobs", 1)],
)
def test_a_bad_count_is_refused_naming_its_field(fields: dict[str, object], field: str, least: int) -> None:
    base: dict[str, object] = {"game": "knizia13", "players": 3, "bots": ["random"], "games": 1, **fields}
    with pytest.raises(SimulationError) as refused:
        RunSpec(**base)  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.rule) == ("sim.run_count", "C9")
    assert refused.value.params == {"field": field, "least": least, "value": fields[field]}
    assert str(refused.value).startswith(f"a run's {field} must be a whole number of {least} or more")
    assert field in words("de").error(refused.value) and field in words("nl").error(refused.value)


def test_the_other_refusals() -> None:
    with pytest.raises(SimulationError, match="a run's seed must be a whole number, not '1'") as seed:
        RunSpec("knizia13", 3, ["random"], 1, seed="1")  # type: ignore[arg-type]
    assert seed.value.rule == "C9"
    with pytest.raises(SimulationError, match="game options are names with values") as options:
        RunSpec("knizia13", 3, ["random"], 1, options=["dealer=2"])  # type: ignore[arg-type]
    assert options.value.code == "sim.run_options"
    with pytest.raises(SimulationError) as none:
        RunSpec("knizia13", 3, " , ", 1)
    assert (none.value.code, none.value.rule) == ("sim.no_bots", "C2")
    with pytest.raises(SimulationError) as not_text:
        RunSpec("knizia13", 3, [3], 1)  # type: ignore[list-item]
    assert (not_text.value.code, not_text.value.rule) == ("sim.run_bots", "C2")
    with pytest.raises(BackendError) as backend:
        RunSpec("knizia13", 3, ["random"], 1, backend="threads")
    assert backend.value.code == "backend.unknown"
    with pytest.raises(BackendError, match="give it together with the ray backend"):
        RunSpec("knizia13", 3, ["random"], 1, address="10.0.0.1:6379")
    with pytest.raises(UnknownGameError):
        RunSpec("skat", 3, ["random"], 1)


def test_the_commands_save_under_the_keys_they_saved_under_before(tmp_path: Path) -> None:
    """``dreizehn simulate`` and ``dreizehn tournament`` build their run from their options: the keys are the
    strings the commands wrote before (taken from a file the earlier code saved), so their runs resume."""
    from typer.testing import CliRunner

    from dreizehn.cli.main import app

    runner = CliRunner()
    simulated, played = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    result = runner.invoke(app, ["simulate", "holzwurm", "-p", "2", "-n", "1", "-j", "1", "--bots", "heuristic,random",
                                 "-o", "games=1", "--results", str(simulated)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["tournament", "knizia13", "-n", "1", "-j", "1", "--bots", "random, heuristic,random",
                                 "-s", "4", "--results", str(played)])
    assert result.exit_code == 0, result.output
    keys = [json.loads(path.read_text().splitlines()[0])["key"] for path in (simulated, played)]
    assert keys == ['["holzwurm", 2, {"games": 1, "starter": 0}, ["heuristic", "random"], 0]',
                    '["tournament", "knizia13", 3, {"dealer": 0, "open_piles": false}, ["random", "heuristic"], 4]']
