"""Three Thirteen, the game as every interface finds it: its rules (:mod:`.rules`, with the meld solver
:mod:`.melds`), its words (:mod:`.words`), its tensors (:mod:`.encoder`), its heuristic bot (:mod:`.heuristic`), its
compiled kernel (:mod:`.kernel`) and its terminal drawing (:mod:`.terminal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dreizehn.core.encoding import Encoder
from dreizehn.core.registry import register
from dreizehn.games.three_thirteen.encoder import encoder as make_encoder
from dreizehn.games.three_thirteen.rules import RESEARCH_TURN_LIMIT, ThreeThirteenRules
from dreizehn.games.three_thirteen.words import ThreeThirteenWords


@register
class ThreeThirteen(ThreeThirteenWords, ThreeThirteenRules):
    """Three Thirteen for 2 to 8 players (T1): 11 rounds of rummy with a changing wild rank (T3)."""

    order: ClassVar[int] = 2
    heuristic: ClassVar[str] = "dreizehn.games.three_thirteen.heuristic"
    kernel: ClassVar[str] = "dreizehn.games.three_thirteen.kernel"
    terminal: ClassVar[str] = "dreizehn.games.three_thirteen.terminal"
    levels: ClassVar[Mapping[str, str]] = {
        # The search does not beat the heuristic at Three Thirteen (docs/bots.md), so the levels are the heuristic
        # with fewer and fewer random blunders.
        "easy": "heuristic:blunder=0.6",
        "medium": "heuristic:blunder=0.3",
        "hard": "heuristic:blunder=0.1",
        "expert": "heuristic",
    }
    search: ClassVar[Mapping[str, object]] = {"iterations": 800, "scale": 25.0, "root": "paired", "prune": 1}
    research_players: ClassVar[int] = 2
    research_options: ClassVar[Mapping[str, object]] = {"turn_limit": RESEARCH_TURN_LIMIT}

    def encoder(self) -> Encoder:
        """The observation layout of this game for the research adapters (docs/envs.md)."""
        return make_encoder(self)
