"""Compare searches move by move, not game by game: each bot's choice in the same positions, scored by a far larger
search (the oracle).

Run with ``python benchmarks/regret.py --game three-thirteen --players 2 --positions 200 --oracle SPEC --bot SPEC
[--bot SPEC ...]``. The positions are the turns of games of ``heuristic`` bots against each other (``--seed``; a turn
is kept with chance 0.08, where more than one move is legal), each seen by the seat to move. The oracle searches each
position and gives every root action it searched a mean reward; a bot's *regret* in a position is the oracle's best
mean less the mean of the move the bot chose (0 where it chose the oracle's best). A bot with less regret chooses
better moves as the oracle judges them, so this compares searches of one kind (the oracle is the same search with
far more iterations) with far less luck than whole games: a game's points are decided by the deal, a position's
regret only by the choice. It says nothing about what the oracle itself gets wrong; whole games
(``strength.py``, ``paired.py``) remain the measurement.

A level's name (``--bot expert``) is resolved to its specification at the game's player count, and the bot saved
under that, so a saved run says what played after the level changes. The table prints each bot's mean regret (in
thousandths of the reward, whose range is 0 to 1) with its 95% interval, its CPU time a move, and each bot's regret
less the first bot's, position by position. ``--json FILE`` saves every position (the oracle's means, the
heuristic's own move, each bot's choice, root means and CPU time). With ``--leads L1,L2,...`` a search's regret is
also given as if it had each ``lead`` (its own move taken from the heuristic unless the best mean beats it by more
than L, as ``ismcts:lead`` does), from the same root means: run the bots with ``lead=0`` to compare leads on the
same searches. ``--from FILE`` prints the tables of a saved file again; with ``--bot SPEC`` as well, it searches the
same positions (made again from the saved seed) with those bots, scores them by the saved oracle and writes the file
back with them added, so a new bot is compared without searching the positions with the oracle again.

The hint (:func:`dreizehn.play.hints.analyse`: every legal move played out to the end of the game by heuristic players,
rated by its chance to win) takes part as ``hint:N``, ``N`` playouts a move over all the moves: as a bot it plays the
move it rates best; as the oracle (``--oracle hint:N``) its chances to win are the means, so the regret is in chances
to win given away. Each oracle leans towards its own kind of search; two oracles of different kinds that agree on
an order are the firmer evidence.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.levels import level_spec
from dreizehn.core.game import View
from dreizehn.play.hints import analyse

KEEP = 0.08
"""The chance that a turn of the heuristic games becomes a position."""
HINT = "hint:"
"""The prefix of a hint taking part as a bot or the oracle: ``hint:N`` for ``N`` playouts a move."""


def hint_means(view: View, spec: str, rng: random.Random) -> tuple[int, dict[int, float]]:
    """The hint ``spec`` (``hint:N``) on ``view``: the move it rates best and every move's chance to win."""
    analysis = analyse(view, playouts=int(spec.removeprefix(HINT)), rng=rng.randrange(2**31))
    return int(analysis.best.action), {int(r.action): r.win for r in analysis.ratings}


def search(view: View, spec: str, bot: Any, rng: random.Random) -> tuple[int, dict[int, float]]:
    """The move of ``spec`` in ``view`` and the root means it chose by (none for a bot that does not search)."""
    if spec.startswith(HINT):
        return hint_means(view, spec, rng)
    action = int(bot.act(view, rng))
    stats = {s.action: s.mean for s in bot.last_stats if s.visits} if isinstance(bot, IsmctsBot) else {}
    return action, stats


def positions(game_id: str, players: int, count: int, seed: int) -> list[View]:
    """``count`` positions of heuristic games from ``seed``: views of the seat to move, with a choice to make."""
    game = dreizehn.load_game(game_id, players)
    heuristic = make_bot("heuristic", game)
    rng = random.Random(seed)
    views: list[View] = []
    index = 0
    while len(views) < count:
        state = game.new_state(seed * 1000 + index)
        index += 1
        while not state.is_over and len(views) < count:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1 and rng.random() < KEEP:
                views.append(view)
            state.apply(heuristic.act(view, rng))
    return views


def interval(values: list[float]) -> str:
    """Mean ± half of the 95% interval, in thousandths."""
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{1000 * statistics.fmean(values):.2f} ± {1000 * half:.2f}"


Position = dict[str, Any]
"""A position as saved: ``oracle`` (action: mean), ``own`` (the heuristic's move), ``round``, ``bots`` (spec:
``[chosen, {action: mean}, CPU seconds]``)."""


def with_lead(position: Position, spec: str, lead: float) -> int:
    """The move of ``spec``'s search in ``position`` had it played with ``lead``: the heuristic's own move unless the
    best mean beats it by more than ``lead`` (:class:`~dreizehn.bots.ismcts.IsmctsBot`)."""
    chosen, means, _ = position["bots"][spec]
    if not means:
        return int(chosen)
    stats = {int(action): mean for action, mean in means.items()}
    best = max(stats, key=lambda action: (stats[action], -action))
    own = int(position["own"])
    return own if lead and own in stats and stats[best] <= stats[own] + lead else best


def regret(position: Position, action: int) -> float:
    """The oracle's best mean less that of ``action`` (its worst where it left the action out)."""
    means = {int(a): float(m) for a, m in position["oracle"].items()}
    return max(means.values()) - means.get(action, min(means.values()))


def report(saved: dict[str, Any], leads: list[float]) -> None:
    """Print the tables of a run."""
    found: list[Position] = saved["positions"]
    specs = list(found[0]["bots"])
    print(f"{saved['game']}, {saved['players']} players: {len(found)} positions with a choice, "
          f"oracle {saved['oracle']}")
    header = "".join(f"{f'lead={lead}':>18}" for lead in leads)
    print(f"{'bot':<90}{'regret (x1000)':>18}{'CPU a move':>12}{header}")
    print(f"{'heuristic':<90}{interval([regret(p, int(p['own'])) for p in found]):>18}")
    for spec in specs:
        values = [regret(p, int(p["bots"][spec][0])) for p in found]
        move = statistics.fmean(p["bots"][spec][2] for p in found)
        cells = "".join(f"{interval([regret(p, with_lead(p, spec, lead)) for p in found]):>18}" for lead in leads)
        print(f"{spec:<90}{interval(values):>18}{move * 1000:>10.1f}ms{cells}")
    first = specs[0]
    for spec in specs[1:]:
        differences = [regret(p, int(p["bots"][spec][0])) - regret(p, int(p["bots"][first][0])) for p in found]
        print(f"{spec} minus {first}: {interval(differences)}")


def searched(view: View, specs: list[str], bots: dict[str, Any], rng: random.Random) -> dict[str, list[Any]]:
    """Each bot's move in ``view``, the root means it chose by and its CPU time."""
    found: dict[str, list[Any]] = {}
    for spec in specs:
        clock = time.process_time()
        action, stats = search(view, spec, bots[spec], rng)
        found[spec] = [action, stats, time.process_time() - clock]
    return found


def add_bots(saved: dict[str, Any], specs: list[str], count: int, rng: random.Random) -> None:
    """Search the positions of ``saved`` (made again from its seed, ``count`` of them asked for) with the bots
    ``specs`` and add their moves to it. The positions the oracle left out (it searched one move) are found again by
    a small search of the oracle's kind, which prunes as the oracle did."""
    game = dreizehn.load_game(saved["game"], saved["players"])
    bots = {spec: None if spec.startswith(HINT) else make_bot(spec, game) for spec in specs}
    heuristic = make_bot("heuristic", game)
    oracle: str = saved["oracle"]
    probe = None
    if not oracle.startswith(HINT):
        small = re.sub(r"iterations=\d+", "iterations=50", oracle)
        probe = make_bot(small if small != oracle else f"{oracle}:iterations=50", game)
    found: list[Position] = saved["positions"]
    views = iter(positions(saved["game"], saved["players"], count, saved["seed"]))
    for position in found:
        for view in views:
            if probe is None or len(search(view, "probe", probe, rng)[1]) >= 2:
                break
        else:
            raise SystemExit("the saved positions are not those of this seed and count (--positions)")
        own = int(heuristic.act(view, random.Random(0)))
        if own != int(position["own"]) or not {int(a) for a in position["oracle"]} <= set(view.legal_actions):
            raise SystemExit("the saved positions are not those of this seed and count (--positions)")
        position["bots"].update(searched(view, specs, bots, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="three-thirteen", choices=dreizehn.game_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--oracle", help="an ismcts specification far larger than the bots', or hint:N")
    parser.add_argument("--bot", action="append", default=[], help="a bot or level (repeatable)")
    parser.add_argument("--json", type=Path, help="save every position to this file")
    parser.add_argument("--leads", default="", help="comma-separated leads to apply to the searches' root means")
    parser.add_argument("--from", dest="source", type=Path,
                        help="print the tables of this saved file, play nothing; with --bot, add those bots to it")
    args = parser.parse_args()
    leads = [float(lead) for lead in args.leads.split(",") if lead]
    rng = random.Random(args.seed)
    if args.source is not None:
        saved = json.loads(args.source.read_text())
        if args.bot:
            specs = [level_spec(bot, saved["game"], saved["players"]) for bot in args.bot]
            add_bots(saved, specs, saved.get("count", args.positions), rng)
            args.source.write_text(json.dumps(saved) + "\n")
        report(saved, leads)
        return
    if not args.oracle or not args.bot:
        parser.error("--oracle and at least one --bot are needed, or --from")
    args.bot = [level_spec(bot, args.game, args.players) for bot in args.bot]  # saved by what they play
    game = dreizehn.load_game(args.game, args.players)
    oracle = None if args.oracle.startswith(HINT) else make_bot(args.oracle, game)
    if oracle is not None and not isinstance(oracle, IsmctsBot):
        raise SystemExit("the oracle must be an ismcts search or hint:N")
    bots = {spec: None if spec.startswith(HINT) else make_bot(spec, game) for spec in args.bot}
    heuristic = make_bot("heuristic", game)
    found: list[Position] = []
    for view in positions(args.game, args.players, args.positions, args.seed):
        _, means = search(view, args.oracle, oracle, rng)
        if len(means) < 2:
            continue  # the oracle searched one move: nothing to choose
        found.append({"oracle": means, "own": int(heuristic.act(view, random.Random(0))), "round": view.stage,
                      "bots": searched(view, args.bot, bots, rng)})
    saved = {"game": args.game, "players": args.players, "oracle": args.oracle, "seed": args.seed,
             "count": args.positions, "positions": found}
    if args.json is not None:
        args.json.write_text(json.dumps(saved) + "\n")
    report(saved, leads)


if __name__ == "__main__":
    main()
