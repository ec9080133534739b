"""``benchmarks/learned_playout.py``: it asks both searches at every fifth decision with a choice of heuristic games
and reports the moves changed out of the positions asked."""

from __future__ import annotations

import re
import sys

import pytest
from benchmark_scripts import load

learned_playout = load("learned_playout")


def test_it_compares_the_searches_at_the_positions_asked(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["learned_playout.py", "--positions", "3", "--seed", "5"])
    learned_playout.main()
    out = capsys.readouterr().out
    found = re.match(r"3 positions of (\d+) heuristic games \(seeds 5 on\): the move changed at (\d) ", out)
    assert found is not None, out
    assert int(found[1]) >= 1 and 0 <= int(found[2]) <= 3
    assert re.search(r"(\d+\.\d) ms with the heuristic's rollouts, (\d+\.\d) ms with the learned bot's", out)
