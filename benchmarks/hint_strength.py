"""How strong is the move a hint rates best? The hint played as a bot against a level, head to head.

Run with ``python benchmarks/hint_strength.py --game knizia13 --players 3 --playouts 400 --against expert --games 40
--results benchmarks/results/hint_strength.jsonl``. One core.

The hint bot plays the action :func:`dreizehn.play.hints.analyse` rates best (``--playouts`` playouts over all the
legal actions, every seat playing the rest of the game as the ``heuristic`` bot: a flat Monte-Carlo search with
heuristic playouts), with its generator seeded per move; the other seats are the level or bot ``--against``. Game
``i`` uses seed ``seed + i`` for the deal and the bots, and seats the hint bot at seat ``i mod players`` (as
``benchmarks/strength.py`` rotates one bot against the others). With ``--results FILE`` every game is saved as one
JSON line as it ends and a later run plays only the games missing. Printed: the hint bot's win share (a win shared
by k counts 1/k) with its 95% Wilson interval against the fair share, its mean points against the others', and the
mean time a move of each side. Each saved game carries a fingerprint of the code that played it (the bots', the
games' and the hints' source, :func:`code`): games of other code are not counted, and the line says how many.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.core.game import Game
from dreizehn.play.hints import analyse
from dreizehn.study.saved import SOURCE, fingerprint
from dreizehn.study.stats import wilson_interval


def play(game: Game, against: str, playouts: int, seed: int, index: int) -> dict[str, Any]:
    """One game: the hint bot's seat, the returns and totals, the seconds a move of the hint bot and the others."""
    hinted = index % game.players
    other = make_bot(against, game)
    rngs = [random.Random(f"{seed}:bot:{s}") for s in range(game.players)]
    state = game.new_state(seed)
    times: dict[str, list[float]] = {"hint": [], "other": []}
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        start = time.perf_counter()
        if seat != hinted:
            action = other.act(view, rngs[seat])
        elif len(view.legal_actions) == 1:
            action = view.legal_actions[0]
        else:
            action = analyse(view, playouts=playouts, rng=rngs[seat].getrandbits(64), game=game).best.action
        times["hint" if seat == hinted else "other"].append(time.perf_counter() - start)
        state.apply(action)
    return {"index": index, "seat": hinted, "returns": list(state.returns()), "totals": list(state.totals),
            "times": times}


def code() -> str:
    """A hash of the source that decides how the games are played: the bots' and games'
    (:func:`dreizehn.study.saved.fingerprint`) and the hints'."""
    return hashlib.sha256(fingerprint().encode() + (SOURCE / "hints.py").read_bytes()).hexdigest()[:16]


def adopt(path: Path, old: str) -> int:
    """Count the games of ``path`` saved by the code ``old`` as played by this code (only after a change shown not to
    alter play: say so in the commit); returns how many."""
    version, count, lines = code(), 0, []
    for line in path.read_text().splitlines():
        row = json.loads(line) if line.strip() else None
        if row is not None and row.get("code") == old:
            row["code"], count = version, count + 1
            line = json.dumps(row)
        lines.append(line)
    path.write_text("".join(f"{line}\n" for line in lines))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="knizia13", choices=dreizehn.game_ids())
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=400, help="playouts a move over all legal actions")
    parser.add_argument("--against", default="expert", help="the other seats' level or bot (default expert)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, help="start no new game after this many minutes")
    parser.add_argument("--results", type=Path, help="JSON-lines file to save every game to and resume from")
    parser.add_argument("--adopt", metavar="CODE", help="count the games saved by the code CODE as this code's (after "
                        "a change shown not to alter play), then stop")
    args = parser.parse_args()
    if args.adopt:
        print(f"{adopt(args.results, args.adopt)} games adopted by the code {code()}")
        return
    game = dreizehn.load_game(args.game, args.players)
    against = level_spec(args.against, args.game, args.players)
    key = json.dumps([args.game, args.players, args.playouts, against, args.seed])
    done: dict[int, dict[str, Any]] = {}
    version, other_code = code(), 0
    if args.results is not None and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line) if line.strip() else None
            if row is not None and row["key"] == key:
                if row.get("code") == version:
                    done[row["index"]] = row
                else:
                    other_code += 1
    deadline = None if args.minutes is None else time.time() + 60 * args.minutes
    for i in range(args.games):
        if i in done or (deadline is not None and time.time() > deadline):
            continue
        done[i] = {"key": key, "code": version, **play(game, args.against, args.playouts, args.seed + i, i)}
        if args.results is not None:
            with args.results.open("a") as out:
                out.write(json.dumps(done[i]) + "\n")
    report([done[i] for i in sorted(done) if i < args.games], args)
    if other_code:
        print(f"({other_code} saved games of other code left out)")


def report(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The hint bot's win share, points and move times against the others'."""
    won = sum(row["returns"][row["seat"]] for row in rows)
    low, high = wilson_interval(won, len(rows))
    own = [row["totals"][row["seat"]] for row in rows]
    others = [t for row in rows for s, t in enumerate(row["totals"]) if s != row["seat"]]
    hint = [t for row in rows for t in row["times"]["hint"]]
    other = [t for row in rows for t in row["times"]["other"]]
    share = won / len(rows) if rows else 0.0
    print(f"{args.game}, {args.players} players: hint ({args.playouts} playouts) against {args.against}, "
          f"{len(rows)} games: won {share:.1%} ({low:.1%} to {high:.1%}), fair share {1 / args.players:.1%}; "
          f"points {sum(own) / max(1, len(own)):.1f} against {sum(others) / max(1, len(others)):.1f}; "
          f"a move {1000 * sum(hint) / max(1, len(hint)):.1f} ms against {1000 * sum(other) / max(1, len(other)):.1f}"
          " ms")


if __name__ == "__main__":
    main()
