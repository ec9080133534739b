"""Der dreizehnte Holzwurm, the game as every interface finds it: its rules (:mod:`.rules`), its words
(:mod:`.words`), its tensors (:mod:`.encoder`), its heuristic bot (:mod:`.heuristic`), its compiled kernel
and search (:mod:`.kernel`, :mod:`.search`, :mod:`.compiled`) and its terminal drawing (:mod:`.terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dreizehn.core.encoding import Encoder
from dreizehn.core.game import Game
from dreizehn.core.registry import register
from dreizehn.games.holzwurm.encoder import encoder as make_encoder
from dreizehn.games.holzwurm.rules import HolzwurmRules
from dreizehn.games.holzwurm.words import HolzwurmWords


@register
class Holzwurm(HolzwurmWords, HolzwurmRules):
    """Der dreizehnte Holzwurm for 2 to 6 players (H5), a match of ``games`` games (H16)."""

    order: ClassVar[int] = 3
    heuristic: ClassVar[str] = "dreizehn.games.holzwurm.heuristic"
    kernel: ClassVar[str] = "dreizehn.games.holzwurm.compiled"
    terminal: ClassVar[str] = "dreizehn.games.holzwurm.terminal"
    levels: ClassVar[Mapping[str, str]] = {
        **Game.levels,
        # about a second a move; a tree of 390 actions a node: 150,000 iterations fill 234 MB (the most a search
        # by time may use)
        "master": "ismcts:iterations=150000",
    }
    search: ClassVar[Mapping[str, object]] = {"iterations": 800, "scale": 30.0}
    research_players: ClassVar[int] = 4

    def encoder(self) -> Encoder:
        """The observation layout of this game for the research adapters (docs/envs.md)."""
        return make_encoder(self)
