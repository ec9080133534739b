"""The random player: a uniformly random legal action, chosen from the seat's view alone.

It takes an action of its game's ``eager_actions`` whenever one is legal (in Three Thirteen: going out, T8), so that
random games end; without it, random Three Thirteen under the reshuffle rule may go round for ever.

>>> import random, dreizehn
>>> state = dreizehn.new_game("knizia13", players=3, seed=1)
>>> action = random_action(state.view(state.current_player), random.Random(0))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import ClassVar

from dreizehn.bots.base import Bot, register_bot
from dreizehn.core.errors import BotError
from dreizehn.core.game import View
from dreizehn.core.registry import game_class


def random_action(view: View, rng: random.Random) -> int:
    """A legal action for the seat of ``view`` (which must be to move)."""
    legal = view.legal_actions
    if not legal:
        raise BotError("bot.not_to_move", rule="B5", seat=view.seat)
    eager = game_class(view.game_id).eager_actions
    if eager:
        finishing = [a for a in legal if a in eager]
        if finishing:
            return rng.choice(finishing)
    return rng.choice(legal)


@register_bot
class RandomBot(Bot):
    """``random``: a uniformly random legal action (going out whenever it can in Three Thirteen)."""

    name: ClassVar[str] = "random"

    def act(self, view: View, rng: random.Random) -> int:
        return random_action(view, rng)
