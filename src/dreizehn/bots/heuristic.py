"""``heuristic``: plays each game by its rulebook's own advice, from the view alone (see :mod:`.advice`).

13: never over 13 when a safe play exists, the cheapest take otherwise (majority rule in mind), nasty fours dumped
where they hurt others. Three Thirteen: go out as soon as possible, take the top discard when it builds a meld,
discard to keep the fewest penalty points and the most promising cards. Holzwurm: "go out" or "collect points" by the
plus cards in hand, and watch the end.

Ties are broken by the ``rng`` given to :meth:`HeuristicBot.act`, so the bot is not predictable, yet deterministic
for a given ``rng``.

>>> import random, dreizehn
>>> game = dreizehn.load_game("holzwurm", players=4)
>>> state = game.new_state(seed=1)
>>> bot = HeuristicBot(game)
>>> bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from dreizehn.bots.advice import heuristic as heuristic_of
from dreizehn.bots.base import Bot, register_bot
from dreizehn.core.errors import BotError
from dreizehn.core.game import View


@register_bot
class HeuristicBot(Bot):
    """``heuristic``: the rulebooks' advice for each game, decided from the view alone."""

    name: ClassVar[str] = "heuristic"
    option_defaults: ClassVar[Mapping[str, float | int | str | None]] = {"blunder": 0.0}
    """``blunder``: the chance of playing a uniformly random legal action instead of the advice (the easier bot
    levels)."""

    def act(self, view: View, rng: random.Random) -> int:
        legal = view.legal_actions
        if not legal:
            raise BotError("bot.not_to_move", rule="B5", seat=view.seat)
        if len(legal) == 1:
            return legal[0]
        blunder = float(self.options["blunder"] or 0.0)
        if blunder and rng.random() < blunder:
            return rng.choice(legal)
        heuristic = heuristic_of(view.game_id)
        if heuristic is None:
            raise BotError("bot.game", rule="B5", bot=self.name, game=view.game_id)
        return heuristic(view, rng)
