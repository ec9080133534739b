"""Three Thirteen, the game as every interface finds it: its rules (:mod:`.rules`, with the meld solver
:mod:`.melds`), its words (:mod:`.words`), its tensors (:mod:`.encoder`), its heuristic bot (:mod:`.heuristic`), its
compiled kernel and search (:mod:`.kernel`, :mod:`.search`, :mod:`.compiled`) and its terminal drawing
(:mod:`.terminal`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from dreizehn.core.errors import InvalidOptionError
from dreizehn.core.game import Arrangement, State, View
from dreizehn.core.registry import register
from dreizehn.games.three_thirteen.inference import inferred_state
from dreizehn.games.three_thirteen.melds import arrange
from dreizehn.games.three_thirteen.rules import RESEARCH_TURN_LIMIT, ThreeThirteenRules, ThreeThirteenView
from dreizehn.games.three_thirteen.words import ThreeThirteenWords

EXPERT = "ismcts:playout=heuristic:prune=2:cutoff=8:iterations=600:infer=on:value=learned"
"""Three Thirteen's ``expert`` level at 2 to 5 and at 8 players: 300 determinizations a move, each dealt by what the
seat saw (``infer``), on which the heuristic's two best moves (a draw or a take, or its two best discards) are each
followed by the heuristic for every seat, cut off after 8 actions where a learned network values each hand
(:mod:`.value`); the move of the better mean reward is played. It took the place of the same search with 150
rollouts to the round's end (``cutoff=0:iterations=300:lead=0.01``) at the same cost a move, on the same seeds and
seats 1.5, 2.4 and 1.0 points a game better at 2, 3 and 4 players (docs/bots.md, "Levels"). At 5 and 8 players
it won 23.2% and 15.7% of 1,000 games against the heuristic, above the fair shares of 20% and 12.5%."""
EXPERT_LARGE = "ismcts:playout=heuristic:prune=2:cutoff=8:iterations=600:infer=on:value=learned-large"
"""Three Thirteen's ``expert`` level at 6 and 7 players: :data:`EXPERT` with the network fitted at 5 to 8 players
(``learned-large``). With it the search won 19.4% and 16.9% of 1,000 games against the heuristic at 6 and 7
players, above the fair shares of 16.7% and 14.3% (with the network of 2 to 4 players, 18.8% and 16.3%, whose
intervals reach below them)."""


def searched_levels(expert: str) -> Mapping[str, str]:
    """The levels at a player count where a search was measured to beat the heuristic (docs/bots.md): the heuristic
    itself as ``hard``, above it the search as ``expert``. No ``master``: larger searches of the same kind (1,000 and
    3,000 determinizations a move) chose no better moves than ``expert`` on new positions, and one won 46.9% of 80
    games against it (docs/bots.md, "Levels"), so the name plays ``expert`` here."""
    return {"hard": "heuristic", "expert": expert}


@register
class ThreeThirteen(ThreeThirteenWords, ThreeThirteenRules):
    """Three Thirteen for 2 to 8 players (T1): 11 rounds of rummy with a changing wild rank (T3)."""

    order: ClassVar[int] = 2
    heuristic: ClassVar[str] = "dreizehn.games.three_thirteen.heuristic"
    kernel: ClassVar[str] = "dreizehn.games.three_thirteen.compiled"
    encoder: ClassVar[str] = "dreizehn.games.three_thirteen.encoder"
    terminal: ClassVar[str] = "dreizehn.games.three_thirteen.terminal"
    levels: ClassVar[Mapping[str, str]] = {
        # The heuristic with fewer and fewer random blunders: the levels where no player count is given (every
        # count has its searched levels below, docs/bots.md, "Levels").
        "easy": "heuristic:blunder=0.6",
        "medium": "heuristic:blunder=0.3",
        "hard": "heuristic:blunder=0.1",
        "expert": "heuristic",
    }
    levels_at: ClassVar[Mapping[int, Mapping[str, str]]] = {
        **{players: searched_levels(EXPERT) for players in (2, 3, 4, 5, 8)},
        **{players: searched_levels(EXPERT_LARGE) for players in (6, 7)},
    }
    search: ClassVar[Mapping[str, object]] = {"iterations": 800, "scale": 25.0, "root": "paired", "prune": 1}
    research_players: ClassVar[int] = 2
    research_options: ClassVar[Mapping[str, object]] = {"turn_limit": RESEARCH_TURN_LIMIT}
    arranges: ClassVar[bool] = True
    infers: ClassVar[bool] = True

    def infer_state(self, view: View, rng: random.Random) -> State:
        """A state of ``view`` dealt by what its seat saw of the others' takes, passes and discards this round
        (:mod:`.inference`)."""
        assert isinstance(view, ThreeThirteenView)
        return inferred_state(self, view, rng)

    @property
    def stages(self) -> int:
        """Eleven rounds, dealt 3 to 13 cards (T1)."""
        return 11

    def arrange_hand(self, hand: Sequence[int], view: Mapping[str, Any]) -> Arrangement:
        """The best arrangement of a hand (T11) in the round of the view's ``wild_rank`` (T3): its melds, the cards
        left unmatched and their penalty. At most 14 cards: the largest hand, 13 and the one drawn (T3, T6)."""
        wild = view.get("wild_rank")
        if isinstance(wild, bool) or not isinstance(wild, int) or not 3 <= wild <= 13:
            raise InvalidOptionError("option.not_in_range", rule="T3", name="wild_rank", low=3, high=13, value=wild)
        if len(hand) > 14:
            raise InvalidOptionError("option.not_in_range", rule="T6", name="hand", low=0, high=14, value=len(hand))
        found = arrange(list(hand), wild, self.options.get("aces") == "low-or-high",
                        self.options.get("all_wild_melds") != "forbidden")
        return Arrangement(tuple(tuple(meld) for meld in found.melds), tuple(found.deadwood), found.penalty)
