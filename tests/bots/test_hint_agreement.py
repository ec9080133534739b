"""A hint does not contradict itself (issue 49, item 1): the move it marks (the search's) shows the best number, or the
hint says why it comes first anyway; and its budget is not spent on compiling the kernel."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_hints import decision
from typer.testing import CliRunner

import dreizehn.play.hints as hints
from dreizehn.cli.main import app
from dreizehn.core.game import View
from dreizehn.core.record import dumps
from dreizehn.play.hints import ActionRating, Analysis, analyse, hint
from dreizehn.tui.session import Session
from dreizehn.words import words


def shown_best(analysis: Analysis, high_score_wins: bool) -> ActionRating:
    """The rating a player reads as the best: the highest chance, then the best points."""
    sign = 1.0 if high_score_wins else -1.0
    return max(analysis.ratings, key=lambda r: (r.win, sign * r.points))


# Positions (game, players, seed, actions before, playouts, generator) where the hint before issue 49 marked a move
# that showed a lower number than another, and said nothing of it.
POSITIONS = [
    ("knizia13", 3, 1, 5, 1500, 1),
    ("holzwurm", 3, 2, 5, 1500, 2),
    ("three-thirteen", 2, 1, 5, 150, 1),
]


@pytest.mark.parametrize(("game_id", "players", "seed", "stop", "playouts", "rng"), POSITIONS)
def test_the_marked_move_shows_the_best_number_or_the_hint_says_why(game_id: str, players: int, seed: int,
                                                                     stop: int, playouts: int, rng: int) -> None:
    state = decision(game_id, players, seed, stop)
    shown = hint(state.view(state.current_player), playouts=playouts, rng=rng)
    assert shown.choice is not None and shown.best.action == shown.choice  # the search's move still comes first
    marked, best = shown.rating(shown.choice), shown_best(shown, state.game.high_score_wins)
    sign = 1.0 if state.game.high_score_wins else -1.0
    if (best.win, sign * best.points) > (marked.win, sign * marked.points):
        assert getattr(shown, "note", None) in ("level", "search"), (marked, best)
        assert shown.rival == best.action and shown.to_json()["rival"] == best.text
    else:
        assert getattr(shown, "note", None) is None and shown.rival is None
    # the search's move was played on every world, and a move rated above it on every world since it was
    assert marked.samples == shown.worlds
    assert shown.playouts >= playouts


def test_a_lead_the_playouts_are_sure_of_is_told_apart_from_one_they_are_not() -> None:
    """``note``: ``search`` where the rival leads by :data:`~dreizehn.play.hints.SURE` standard errors of the paired
    difference or more, ``level`` where it leads by less; nothing where the search's move leads."""
    state = decision("knizia13", 3, seed=1, stop=5)
    game, view = state.game, state.view(state.current_player)
    legal = [int(a) for a in view.legal_actions]
    runs = hints._Playouts.start(view, game, random.Random(0), "heuristic", None, legal)
    choice, rival = legal[0], legal[1]
    runs.wins[choice] += [0.0, 1.0, 0.0, 1.0]
    runs.wins[rival] += [1.0, 1.0, 0.0, 1.0]  # ahead on one world of four: not sure
    for action in (choice, rival):
        runs.points[action] += [10.0] * 4
        runs.played[action] += [0, 1, 2, 3]
    runs.worlds = 4
    assert runs.note(rival, choice) == ("level", rival)
    assert runs.note(choice, rival) == (None, None)
    runs.wins[choice][:] = [0.0] * 4
    runs.wins[rival][:] = [1.0, 1.0, 1.0, 1.0]  # ahead on every world
    runs.sums.clear()
    assert runs.note(rival, choice) == ("search", rival)


def test_the_kernels_compilation_is_not_counted_against_the_first_hints_budget(monkeypatch: pytest.MonkeyPatch
                                                                                ) -> None:
    """The first hint in a process (a server's worker) once spent its whole second compiling (or loading) the
    kernel, and rated every move on a single batch of worlds. Its clock here is a fake one that the kernel's first
    call moves on by 10 s and every call by 50 ms."""
    state = decision("knizia13", 3, seed=1, stop=5)
    now = [0.0]
    rate = hints._compiled_rate(state.game, "heuristic")
    assert rate is not None
    calls: list[int] = []

    def slow_first(view: View, actions: list[int], worlds: int, seed: int) -> object:
        now[0] += 10.0 if not calls else 0.05
        calls.append(worlds)
        return rate(view, actions, worlds, seed)

    monkeypatch.setattr(hints, "_compiled_rate", lambda game, policy, infer=False: slow_first)
    monkeypatch.setattr(hints, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(hints, "_WARM", set(), raising=False)
    analysis = analyse(state.view(state.current_player), seconds=1.0, rng=3)
    assert analysis.worlds > hints.WORLDS_AT_ONCE, calls  # more than the one batch the first call's time allowed


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_the_terminal_says_why_the_bots_move_comes_first(lang: str, tmp_path: Path) -> None:
    """The terminal's hint (``Session.hint_lines``) adds the note under the moves, naming both moves, wrapped to a
    phone's width when short; a hint without a note adds nothing."""
    played = Session.create("knizia13", ["Ann"], ["random"], 3, 1, lang=lang, path=tmp_path / "game.json")
    said = words(lang)
    legal = [int(a) for a in decision("knizia13", 3, 1, 5).legal_actions()]
    text = played.game.action_to_text
    ratings = tuple(ActionRating(a, text(a), 0.3 + 0.01 * i, 0.05, 20.0, 2.0, 40) for i, a in enumerate(legal[:3]))
    first = Analysis("knizia13", 0, ratings, 120, 40, "heuristic", search="ismcts:iterations=30000",
                     choice=legal[0], level="master")
    assert len(played.hint_lines(first)) == 4
    for note in ("level", "search"):
        shown = replace(first, note=note, rival=legal[2])
        line = played.hint_lines(shown)[-1]
        assert line == said(f"tui.hint.note_{note}", choice=text(legal[0]), rival=text(legal[2]),
                            level=said("tui.level.master"))
        short = played.hint_lines(shown, short=True)
        assert " ".join(short[4:]) == line and all(len(s) <= 44 for s in short[1:])


def test_the_hint_command_says_why_the_bots_move_comes_first(tmp_path: Path) -> None:
    state = decision("knizia13", 3, 1, 5)
    file = tmp_path / "game.json"
    file.write_text(dumps(state))
    seat = str(state.current_player)
    doc = json.loads(CliRunner().invoke(app, ["hint", str(file), "--seat", seat, "--playouts", "1500", "--seed", "1",
                                              "--json"]).output)
    assert doc["note"] in ("level", "search") and doc["rival"] in {r["action"] for r in doc["ratings"]}
    table = CliRunner().invoke(app, ["hint", str(file), "--seat", seat, "--playouts", "1500", "--seed", "1"])
    assert f"{doc['rival']} is rated higher than {doc['choice']}" in " ".join(table.output.split())
