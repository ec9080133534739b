"""Der dreizehnte Holzwurm, the game as every interface finds it: its rules (:mod:`.rules`), its words
(:mod:`.words`), its tensors (:mod:`.encoder`), its heuristic bot (:mod:`.heuristic`), its compiled kernel
and search (:mod:`.kernel`, :mod:`.search`, :mod:`.compiled`) and its terminal drawing (:mod:`.terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dreizehn.core.game import Game
from dreizehn.core.registry import register
from dreizehn.games.holzwurm.rules import HolzwurmRules
from dreizehn.games.holzwurm.words import HolzwurmWords


@register
class Holzwurm(HolzwurmWords, HolzwurmRules):
    """Der dreizehnte Holzwurm for 2 to 6 players (H5), a match of ``games`` games (H16)."""

    order: ClassVar[int] = 3
    heuristic: ClassVar[str] = "dreizehn.games.holzwurm.heuristic"
    kernel: ClassVar[str] = "dreizehn.games.holzwurm.compiled"
    encoder: ClassVar[str] = "dreizehn.games.holzwurm.encoder"
    terminal: ClassVar[str] = "dreizehn.games.holzwurm.terminal"
    levels: ClassVar[Mapping[str, str]] = {
        **Game.levels,
        # half a second a move: the heuristic plays every seat's playouts (random ones flatten out: 150,000
        # iterations of them won 52.1% of 380 matches against `expert`'s 10,000; docs/bots.md)
        "master": "ismcts:iterations=30000:playout=heuristic:tree=on",
    }
    levels_at: ClassVar[Mapping[int, Mapping[str, str]]] = {
        # MaskablePPO's policy learned at 4 players with the usual options (docs/learned.md, "A policy in
        # Holzwurm"): above hard; and `expert`'s search with its leaves' playouts mixed with the value of the
        # `learned` bot's network (Deep Monte-Carlo), at expert's processor time a move, ahead of `expert` in the
        # same seat (docs/learned.md, "In the search")
        4: {"learned": "policy", "expert": "ismcts:iterations=4400:value=learned-bot-mix"},
    }
    level_order: ClassVar[tuple[str, ...]] = ("easy", "medium", "hard", "learned", "expert", "master")
    levels_at_options: ClassVar[Mapping[str, object]] = {"games": 3}  # where the network was fitted
    hint_level: ClassVar[str] = "master"  # 0.44 s a move of CPU on average, 0.84 s at worst
    search: ClassVar[Mapping[str, object]] = {"iterations": 800, "scale": 30.0}
    research_players: ClassVar[int] = 4

    @property
    def stages(self) -> int:
        """The games of a match (option ``games``)."""
        return int(self.options["games"])
