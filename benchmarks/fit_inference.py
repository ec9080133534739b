"""Fit the coefficients of what a Three Thirteen seat infers about the other hands
(:mod:`dreizehn.games.three_thirteen.inference`, ``ismcts:infer``): games of the ``heuristic`` bot against itself,
logistic regression on the round's public actions, written as the game's data file that the runtime package loads
(``inference_model.json``; ``--out FILE``: elsewhere).

``python benchmarks/fit_inference.py --games N --seed S [--players 2,4]`` writes the same coefficients from the same
seed and prints the held-out log loss against the uniform deal's. The fitting lives here, with the lab's other
scripts, not in the runtime package: a game needs the coefficients, never the code that fitted them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dreizehn.games.three_thirteen import inference
from dreizehn.games.three_thirteen.inference import AGES, EVENTS, RELATIONS, WILD_TURNS, card_features
from dreizehn.games.three_thirteen.rules import KINDS, ThreeThirteenView


def samples(game_seed: int, players: int) -> Iterator[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                             npt.NDArray[np.float64]]]:
    """One game of the ``heuristic`` bot against itself: at each turn's start, as the seat to move sees it, for every
    other seat still in, the features, the uniform chance (the offset) and whether each unseen kind is among that
    seat's hidden cards; only the kinds with some evidence (any feature), the others' weight being 1 whatever the
    coefficients."""
    import dreizehn
    from dreizehn.bots.base import make_bot

    game = dreizehn.load_game("three-thirteen", players=players)
    state = game.new_state(seed=game_seed)
    bot = make_bot("heuristic", game)
    rng = random.Random(game_seed)
    while state.current_player >= 0:
        mover = state.current_player
        view = state.view(mover)
        assert isinstance(view, ThreeThirteenView)
        if not view.drawn:
            yield from _watch(state, mover)
        state.apply(bot.act(view, rng))


def _watch(state: object, watcher: int) -> Iterator[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                           npt.NDArray[np.float64]]]:
    view = state.view(watcher)  # type: ignore[attr-defined]
    decks = state.game.decks  # type: ignore[attr-defined]
    unseen = np.full(KINDS, decks, np.int64)
    for card in view.hand:
        unseen[card] -= 1
    for card in view.discard_pile:
        unseen[card] -= 1
    for other in range(view.players):
        for card in view.known[other]:
            unseen[card] -= 1
        for meld in view.out_melds[other]:
            for card in meld:
                unseen[card] -= 1
    total = int(unseen.sum())
    for other in range(view.players):
        if other == watcher or other in view.out_seats:
            continue
        hidden = np.zeros(KINDS, np.int64)
        for card in state.hands[other]:  # type: ignore[attr-defined]
            hidden[card] += 1
        for card in view.known[other]:
            hidden[card] -= 1
        size = int(hidden.sum())
        if not size or total <= size:
            continue
        kinds = np.flatnonzero(unseen > 0)
        f = card_features(view, other)[kinds]
        evident = f.any(axis=1)  # a kind without features adds nothing to the fit: its weight is 1 whatever it is
        chance = np.asarray(1.0 - (1.0 - size / total) ** unseen[kinds], np.float64)
        yield f[evident], chance[evident], (hidden[kinds] > 0).astype(np.float64)[evident]


def fit(x: npt.NDArray[np.float64], offset: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
        ridge: float = 1.0, rounds: int = 25) -> npt.NDArray[np.float64]:
    """Logistic regression with an offset by Newton's method, an L2 ``ridge`` keeping rare features near 0."""
    beta = np.zeros(x.shape[1])
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-(offset + x @ beta)))
        grad = x.T @ (y - p) - ridge * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return beta


Samples = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]
"""Features, offsets (the uniform chance's log odds) and labels."""


def collect(games: int, seed: int, players: Sequence[int]) -> Samples:
    """Features, offsets and labels of ``games`` games per player count, game ``i`` with seed ``seed + i``."""
    xs, offsets, ys = [], [], []
    for n in players:
        for i in range(games):
            for f, chance, y in samples(seed + i, n):
                xs.append(f)
                offsets.append(np.log(chance / (1.0 - chance)))
                ys.append(y)
    return np.concatenate(xs), np.concatenate(offsets), np.concatenate(ys)


def log_loss(x: npt.NDArray[np.float64], offset: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
             beta: npt.NDArray[np.float64]) -> float:
    """Mean log loss (nats) of the model ``beta`` on the samples."""
    z = offset + x @ beta
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def _write(path: Path, beta: npt.NDArray[np.float64], args: argparse.Namespace, losses: tuple[float, ...]) -> None:
    names = [f"{e}/{r}/age{a}" for e in EVENTS for r in RELATIONS for a in range(AGES)]
    names += [f"wild/turns{t}" for t in range(WILD_TURNS)]
    data = {
        "command": f"python benchmarks/fit_inference.py --games {args.games} --seed {args.seed}"
                   f" --players {','.join(map(str, args.players))}",
        "about": f"Fitted on {losses[0]:,.0f} samples (an unseen card with some evidence, a seat that may hold it). "
                 f"On held-out games their log loss is {losses[2]:.4f} nats against {losses[1]:.4f} for the uniform "
                 "deal.",
        "names": names,
        "coefficients": [float(f"{b:.4f}") for b in beta],
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    """Fit the model and write ``inference_model.json``; print the held-out log loss against the uniform deal's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per player count to fit on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=lambda s: [int(p) for p in s.split(",")], default=[2, 4])
    parser.add_argument("--out", type=Path, default=Path(inference.__file__).with_name("inference_model.json"))
    args = parser.parse_args(argv)
    x, offset, y = collect(args.games, args.seed, args.players)
    held = collect(max(1, args.games // 4), args.seed + 1_000_000, args.players)
    beta = fit(x, offset, y)
    uniform = log_loss(*held, np.zeros_like(beta))
    model = log_loss(*held, beta)
    print(f"{len(y):,} samples; held-out log loss {model:.4f} nats (uniform {uniform:.4f}, "
          f"{100 * (1 - model / uniform):.1f}% less)")
    _write(args.out, beta, args, (float(len(y)), uniform, model))
    if not math.isfinite(model):
        raise SystemExit("the fit did not converge")


if __name__ == "__main__":
    main()
