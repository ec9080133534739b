"""Does a hint's marked move have the best number the hint shows? Counted on positions of all three games.

Run with ``python benchmarks/hint_agreement.py [--positions N] [--playouts P | --seconds S] [--game G ...]
[--seed S] [--json FILE]``. One core.

A hint (:func:`dreizehn.play.hints.hint`) marks the move of the game's hint level (``master`` in 13 and Holzwurm,
``expert`` in Three Thirteen) and shows every move's chance to win with the expected final points. A player reads the
numbers: where another move shows a better number than the marked one (a higher chance, or the same chance and
better points), the hint contradicts itself unless it says why (``Analysis.note``, docs/bots.md "Hints").

Positions: games between ``heuristic`` bots, game ``i`` with seed ``seed + i``, three decision points (two or more
legal moves) drawn at random from each, until ``--positions`` per game (30 by default). The budget is ``--playouts``
(by default about what a second at the server's table gives the playouts: 3,000 in 13 and Holzwurm, 250 in Three
Thirteen; the same hint on every run) or ``--seconds``. Printed per game: positions; in how many the marked move has
the best shown number; of the others, how many carry an explanation, and which (``level``: the best-rated move is
ahead by less than the playouts can tell; ``search``: the search looks further ahead than the playouts); the mean
lead of the best-rated move over the marked one where it is ahead (in points of a chance); the playouts a hint.

The script runs on whichever ``dreizehn`` it imports first, so the code before a change is measured by putting an
older tree's ``src`` first: ``PYTHONPATH=/tmp/before/src python benchmarks/hint_agreement.py`` (a hint without
``note`` counts every exception as unexplained).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if not os.environ.get("PYTHONPATH"):  # this tree's code, unless PYTHONPATH names another
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.core.game import Game, State
from dreizehn.play.hints import ActionRating, hint
from dreizehn.study.sim import play, seating

GAMES = ("knizia13", "holzwurm", "three-thirteen")
PLAYERS = {"knizia13": 3, "holzwurm": 3, "three-thirteen": 2}
"""The player count per game."""
PLAYOUTS = {"knizia13": 3000, "holzwurm": 3000, "three-thirteen": 250}
"""The default budget per game: about what a second at the table gives the playouts (docs/bots.md, "Cost")."""
PER_GAME = 3
"""Positions drawn from each game played."""


@dataclass(frozen=True)
class Hinted:
    """One hinted position: whether the marked move shows the best number, and what the hint says if not."""

    game: int
    move: int
    actions: int
    marked_best: bool
    note: str | None
    lead: float
    """The best-rated move's chance minus the marked move's (0 where the marked move is best)."""
    playouts: int
    seconds: float


def shown_best(ratings: list[ActionRating], high_score_wins: bool) -> ActionRating:
    """The rating with the best shown number: the highest chance, then the best points (the first such)."""
    sign = 1.0 if high_score_wins else -1.0
    return max(ratings, key=lambda r: (r.win, sign * r.points))


def rate(state: State, game: Game, number: int, playouts: int | None, seconds: float | None, index: int) -> Hinted:
    """The hint of the seat to move in ``state``: is its marked move the one with the best shown number?"""
    analysis = hint(state.view(state.current_player), playouts, seconds=seconds, rng=number, game=game)
    marked = analysis.rating(analysis.choice) if analysis.choice is not None else analysis.best
    ratings = list(analysis.ratings)
    best = shown_best(ratings, game.high_score_wins)
    sign = 1.0 if game.high_score_wins else -1.0
    is_best = (best.win, sign * best.points) <= (marked.win, sign * marked.points)
    note = None if is_best else getattr(analysis, "note", None)
    lead = 0.0 if is_best else best.win - marked.win
    return Hinted(index, number, len(ratings), is_best, note, lead, analysis.playouts, analysis.seconds)


def positions(game: Game, index: int, seed: int, count: int, playouts: int | None,
              seconds: float | None) -> list[Hinted]:
    """Play game ``index`` (seed ``seed + index``) between heuristic bots and hint ``count`` of its decisions."""
    _, final = play(game, seating(["heuristic"], game.players, index), seed + index, index)
    state = game.new_state(seed + index)
    decisions = []
    for number, (_, action) in enumerate(final.history):
        if len(state.legal_actions()) > 1:
            decisions.append(number)
        state.apply(action)
    picked = set(random.Random(f"{seed}:{index}").sample(decisions, min(count, len(decisions))))
    out = []
    state = game.new_state(seed + index)
    for number, (_, action) in enumerate(final.history):
        if number in picked:
            out.append(rate(state, game, number, playouts, seconds, index))
        state.apply(action)
    return out


def report(game_id: str, rows: list[Hinted]) -> dict[str, object]:
    """Print one game's counts; return them as a dict."""
    best = sum(r.marked_best for r in rows)
    notes = [r.note for r in rows if not r.marked_best]
    explained = sum(n is not None for n in notes)
    leads = [r.lead for r in rows if not r.marked_best]
    kinds = ", ".join(f"{kind} {notes.count(kind)}" for kind in sorted({n for n in notes if n is not None}))
    print(f"{game_id:<16}{len(rows):>10}{best:>14}{explained:>11}{len(notes) - explained:>13}"
          f"{(statistics.fmean(leads) if leads else 0.0):>10.1%}{statistics.fmean(r.playouts for r in rows):>10.0f}"
          f"{statistics.fmean(r.seconds for r in rows):>8.2f}  {kinds}")
    return {"game": game_id, "positions": len(rows), "marked_best": best, "explained": explained,
            "unexplained": len(notes) - explained, "notes": {n: notes.count(n) for n in set(notes) if n},
            "rows": [asdict(r) for r in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per game")
    parser.add_argument("--playouts", type=int, default=None, help="a hint's budget in playouts (default: per game)")
    parser.add_argument("--seconds", type=float, default=None, help="a hint's budget in seconds instead")
    parser.add_argument("--game", action="append", choices=GAMES, help="the games (default: all three)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write every position here")
    args = parser.parse_args()
    print(f"dreizehn from {Path(dreizehn.__file__).parent}")
    print(f"{'game':<16}{'positions':>10}{'marked best':>14}{'explained':>11}{'unexplained':>13}"
          f"{'lead':>10}{'playouts':>10}{'s':>8}  notes")
    out = []
    for game_id in args.game or GAMES:
        game = dreizehn.load_game(game_id, PLAYERS[game_id])
        playouts = args.playouts if args.playouts or args.seconds else PLAYOUTS[game_id]
        rows: list[Hinted] = []
        index = 0
        while len(rows) < args.positions:
            rows += positions(game, index, args.seed, min(PER_GAME, args.positions - len(rows)), playouts,
                              args.seconds)
            index += 1
        out.append(report(f"{game_id} ({game.players})", rows))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
