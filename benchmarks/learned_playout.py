"""How much the ``learned`` bot's rollouts (``ismcts:playout=learned-bot``) change Three Thirteen's ``expert``.

Run with ``python benchmarks/learned_playout.py [--positions 400] [--seed 880000]``. It plays heuristic games from
``--seed`` on and, at every fifth decision with a choice, asks ``expert`` (rollouts of the heuristic) and the same
search with its rollouts played by the ``learned`` bot (``playout=learned-bot``) for their move, each on the same
random numbers (the same determinizations and streams: where the bot's rollouts play as the heuristic's, both
searches see the same). It prints how often the move changed, how far the root's mean rewards moved (0.01 is about a
point of the round's margin) and each search's processor time a move. docs/learned.md gives the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.levels import level_spec

GAME = "three-thirteen"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=880_000)
    args = parser.parse_args()
    game = dreizehn.load_game(GAME, 2)
    expert = level_spec("expert", GAME, 2)
    searches = [make_bot(expert, game), make_bot(expert.replace("playout=heuristic", "playout=learned-bot"), game)]
    assert all(isinstance(bot, IsmctsBot) for bot in searches)
    heuristic = make_bot("heuristic", game)
    seconds, changed, positions, seed = [0.0, 0.0], 0, 0, args.seed
    moved: list[float] = []
    while positions < args.positions:
        state, rng, choices = game.new_state(seed), random.Random(seed), 0
        seed += 1
        while not state.is_over and positions < args.positions:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1:
                choices += 1
                if choices % 5 == 0:
                    moves, means = [], []
                    for i, bot in enumerate(searches):
                        start = time.process_time()
                        moves.append(bot.act(view, random.Random(choices)))
                        seconds[i] += time.process_time() - start
                        means.append({s.action: s.mean for s in bot.last_stats})  # type: ignore[attr-defined]
                    positions += 1
                    changed += moves[0] != moves[1]
                    moved.extend(abs(means[0][a] - means[1][a]) for a in means[0] if a in means[1])
            state.apply(heuristic.act(view, rng))
    print(f"{positions} positions of {seed - args.seed} heuristic games (seeds {args.seed} on): the move changed at "
          f"{changed} ({changed / positions:.1%}); the root's mean rewards moved by {statistics.mean(moved):.5f} on "
          f"average, {max(moved):.4f} at most; processor time a move: {1000 * seconds[0] / positions:.1f} ms with the "
          f"heuristic's rollouts, {1000 * seconds[1] / positions:.1f} ms with the learned bot's")


if __name__ == "__main__":
    main()
