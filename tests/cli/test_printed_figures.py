"""The command line's tables of figures (simulate, tournament, arena) never cut a figure: a long bot specification
folds onto more lines, a terminal too narrow for the table gets each row as a list, and a file or pipe gets lines
wide enough for the whole table."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dreizehn.cli import main

LONG = "ismcts:iterations=30:playout=random:c=0.5"
BOTS = f"{LONG},heuristic:blunder=0.3,heuristic"
FIGURE = re.compile(r"\d+\.\d%|-?\d+\.\d\d(?! m?s\b)|\d+% of \d+")
"""The figures that the same seed prints alike: rates, scores, ratings, the head-to-head scores."""
TIME = re.compile(r"\d+\.\d\d m?s\b")
"""The times a move took, which differ from run to run (only their number is compared): in ms, or in s from 1 s on
(a first move that compiles its kernel, in a fresh clone)."""


def _printed(monkeypatch: pytest.MonkeyPatch, width: int, args: list[str]) -> str:
    """What ``dreizehn ARGS`` prints on a terminal ``width`` columns wide."""
    out = io.StringIO()
    monkeypatch.setattr(main, "console", Console(file=out, width=width))
    result = CliRunner().invoke(main.app, args)
    assert result.exit_code == 0, result.output
    return out.getvalue()


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_long_specification_cuts_no_figure_at_any_width(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    args = [command, "knizia13", "-p", "3", "-n", "6", "--seed", "3", "--jobs", "1", "--bots", BOTS]
    wide = _printed(monkeypatch, main.PIPED_WIDTH, args)
    figures = FIGURE.findall(wide)
    assert len(figures) >= 12 and len(TIME.findall(wide)) == (6 if command == "simulate" else 0)
    assert "…" not in wide and any(LONG in line for line in wide.splitlines())
    for width in (80, 60, 40):
        narrow = _printed(monkeypatch, width, args)
        assert "…" not in narrow
        assert all(len(line.rstrip()) <= width for line in narrow.splitlines())
        assert sorted(FIGURE.findall(narrow)) == sorted(figures), width  # every figure whole, none lost
        assert len(TIME.findall(narrow)) == len(TIME.findall(wide)), width


def test_a_narrow_terminal_gets_each_row_as_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(main, "console", Console(file=out, width=40))
    main._print_figures("title", ("bot", "games", "95% interval"), [(LONG, "6", "51.7% to 99.1%")], texts=("bot",))
    assert out.getvalue().splitlines() == ["title", LONG[:40], LONG[40:], "  games: 6",
                                           "  95% interval: 51.7% to 99.1%"]


def test_a_wide_terminal_gets_the_table_with_the_specification_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(main, "console", Console(file=out, width=120))
    main._print_figures(None, ("bot", "games"), [(LONG, "6"), ("[b]old", "12")], texts=("bot",))
    lines = out.getvalue().splitlines()
    assert any(LONG in line and line.rstrip().endswith("6 │") for line in lines)
    assert any("[b]old" in line and "12" in line for line in lines)  # printed as written, not as Rich markup


def test_a_table_without_rows_prints_its_head(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(main, "console", Console(file=out, width=80))
    main._print_figures("none yet", ("bot", "games"), [], texts=("bot",))
    assert "none yet" in out.getvalue() and "games" in out.getvalue()
