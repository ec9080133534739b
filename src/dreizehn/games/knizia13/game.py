"""13, the game as every interface finds it: its rules (:mod:`.rules`), its words (:mod:`.words`), its tensors
(:mod:`.encoder`), its heuristic bot (:mod:`.heuristic`), its compiled kernel and search (:mod:`.kernel`,
:mod:`.search`, :mod:`.compiled`) and its terminal drawing (:mod:`.terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dreizehn.core.game import Game
from dreizehn.core.registry import register
from dreizehn.games.knizia13.rules import Knizia13Rules
from dreizehn.games.knizia13.words import Knizia13Words


@register
class Knizia13(Knizia13Words, Knizia13Rules):
    """13 for 3 to 6 players (K4): one stage per player, two per player with 3 (K5)."""

    order: ClassVar[int] = 1
    heuristic: ClassVar[str] = "dreizehn.games.knizia13.heuristic"
    kernel: ClassVar[str] = "dreizehn.games.knizia13.compiled"
    encoder: ClassVar[str] = "dreizehn.games.knizia13.encoder"
    terminal: ClassVar[str] = "dreizehn.games.knizia13.terminal"
    levels: ClassVar[Mapping[str, str]] = {
        **Game.levels,
        # a third of a second a move: the heuristic plays every seat's playouts (300,000 iterations of random ones,
        # a second a move, won 39.0% of 100 games against two `expert` seats; docs/bots.md)
        "master": "ismcts:iterations=30000:playout=heuristic:tree=on",
    }
    levels_at: ClassVar[Mapping[int, Mapping[str, str]]] = {
        # the network fitted at 4 players with the usual options (docs/learned.md): above medium, below hard; and
        # `expert`'s search with its leaves' playouts mixed with that network's value, at expert's processor time a
        # move, ahead of `expert` in the same seat, if narrowly (docs/learned.md, "In the search")
        4: {"learned": "learned", "expert": "ismcts:iterations=4550:value=learned-bot-mix"},
    }
    levels_at_options: ClassVar[Mapping[str, object]] = {"open_piles": False}  # where the network was fitted
    hint_level: ClassVar[str] = "master"
    search: ClassVar[Mapping[str, object]] = {"iterations": 1000, "scale": 5.0}
    research_players: ClassVar[int] = 4
