"""``benchmarks/learned_value.py``: its table reads :mod:`paired`'s saved games, signs the margins so that more is
better in every game, and pairs the two bots seed by seed over the seeds both finished."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from benchmark_scripts import load

learned_value = load("learned_value")


def _done(game: str, margins: dict[str, list[float]]) -> dict[tuple[str, str, int, str, int, int], dict[str, Any]]:
    """Saved games: each bot's margin in every seat of seed ``i`` is ``margins[bot][i]``."""
    done = {}
    for bot, per_seed in margins.items():
        for seed, margin in enumerate(per_seed):
            for seat in range(4):
                done[(game, "heuristic", 4, bot, seed, seat)] = {
                    "margin": margin, "share": 0.25, "think": 0.1, "moves": 10, "worst": 0.2}
    return done


@pytest.mark.parametrize(("game", "sign"), [("knizia13", -1.0), ("holzwurm", 1.0)])
def test_the_table_signs_and_pairs_the_margins(game: str, sign: float, capsys: pytest.CaptureFixture[str]) -> None:
    expert, network = "ismcts:iterations=10000", learned_value.candidate(2000)
    assert network == "ismcts:iterations=2000:value=learned-bot"
    margins = {expert: [-4.0, -2.0, 0.0], network: [-5.0, -4.0]}  # the network's third seed not finished
    args = argparse.Namespace(game=game, against="heuristic", seed_range=(0, 3))
    learned_value.table(args, [expert, network], _done(game, margins))
    out = capsys.readouterr().out
    assert "2 seeds × 4 seats = 8 games a bot" in out
    assert f"{sign * -3.0:+.2f} ± " in out.splitlines()[2]  # expert's mean over the seeds both finished
    assert f"{sign * -1.5:+.2f} ± " in out.splitlines()[4]  # the network minus expert: -1 and -2, signed
