"""What inference could give Three Thirteen's ``expert`` at 2 players, at most: ``expert`` shown the other seat's
whole hand (every card of it passed to the search as known, as T13's ``known`` passes the cards taken from the pile,
so each determinization deals only the stock), against ``hard`` (the heuristic), beside plain ``expert`` on the same
seeds and seats (the seat rotates with the seed). No level plays so: it bounds what a better reading of the other
hand (``ismcts:infer``) could be worth.

    python benchmarks/three_thirteen_open_hand.py --games 190 --jobs 16 --out FILE

Each finished game is written to ``FILE`` at once (``kind seed seat won margin cpu``: ``won`` 1, 0.5 or 0 for the
searching seat, ``margin`` the other's total less its own, ``cpu`` the process's seconds for the game), so that a run
cut short keeps what it played; then the summary is printed, the seeds that both played paired
(``--summary FILE`` prints it again from the file).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import random
import time
from collections import defaultdict

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.study.stats import Z95, mean_sd

KINDS = ("open", "expert")
SEED = 910000


def play(task: tuple[str, int]) -> tuple[str, int, int, float, int, float]:
    """One game of ``expert`` (``kind`` ``open``: seeing the other hand) against ``hard`` on ``seed``."""
    kind, seed = task
    game = dreizehn.load_game("three-thirteen", 2)
    seat = seed % 2
    state = game.new_state(seed)
    searching, heuristic = make_bot("expert", game), make_bot("hard", game)
    rngs = [random.Random(seed * 31 + s) for s in range(2)]
    start = time.process_time()
    while not state.is_over:
        turn = state.current_player
        view = state.view(turn)
        if turn != seat:
            state.apply(heuristic.act(view, rngs[turn]))
            continue
        if kind == "open":
            known = list(view.known)  # type: ignore[attr-defined]
            known[1 - seat] = state.view(1 - seat).hand  # type: ignore[attr-defined]
            view = dataclasses.replace(view, known=tuple(known))  # type: ignore[call-arg]
        state.apply(searching.act(view, rngs[turn]))
    totals = state.totals
    return kind, seed, seat, float(state.returns()[seat]), totals[1 - seat] - totals[seat], time.process_time() - start


def _mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and half its 95% interval."""
    mean, spread = mean_sd(values)
    return mean, Z95 * spread / math.sqrt(len(values))


def summary(path: str) -> None:
    """Wins and margins of each kind, and seed by seed where both played."""
    games: dict[str, dict[int, tuple[float, float, float]]] = defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for line in f:
            kind, seed, _, won_text, margin_text, cpu_text = line.split()
            games[kind][int(seed)] = (float(won_text), float(margin_text), float(cpu_text))
    both = sorted(set(games["open"]) & set(games["expert"]))
    print(f"{'expert':<28}{'games':>6}{'won':>18}{'margin a game':>18}{'CPU a game':>12}")
    for kind, label in (("expert", "plain"), ("open", "seeing the other hand")):
        rows = [games[kind][s] for s in both]
        if not rows:
            continue
        won, margin = _mean_interval([r[0] for r in rows]), _mean_interval([r[1] for r in rows])
        cpu = sum(r[2] for r in rows) / len(rows)
        print(f"{label:<28}{len(rows):>6}{won[0]:>11.1%} ± {won[1]:.1%}{margin[0]:>+11.2f} ± {margin[1]:.2f}"
              f"{cpu:>10.1f} s")
    if both:
        won = _mean_interval([games["open"][s][0] - games["expert"][s][0] for s in both])
        margin = _mean_interval([games["open"][s][1] - games["expert"][s][1] for s in both])
        print(f"seed by seed, seeing it less plain: wins {won[0]:+.1%} ± {won[1]:.1%}, "
              f"{margin[0]:+.2f} ± {margin[1]:.2f} points a game ({len(both)} seeds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="seeds, each played by both (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the first seed (default {SEED})")
    parser.add_argument("--out", required=True, help="where each game is written as it ends (appended)")
    parser.add_argument("--summary", action="store_true", help="only print the summary of --out")
    args = parser.parse_args()
    if not args.summary:
        game = dreizehn.load_game("three-thirteen", 2)
        warm = game.new_state(1)
        for spec in ("expert", "hard"):  # compiled here once, before the workers are forked
            make_bot(spec, game).act(warm.view(warm.current_player), random.Random(0))
        tasks = [(kind, args.seed + i) for i in range(args.games) for kind in KINDS]
        with mp.get_context("fork").Pool(args.jobs) as pool, open(args.out, "a", encoding="utf-8") as f:
            for result in pool.imap_unordered(play, tasks):
                f.write(" ".join(map(str, result)) + "\n")
                f.flush()
    summary(args.out)


if __name__ == "__main__":
    main()
