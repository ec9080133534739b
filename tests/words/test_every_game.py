"""Every game in words (issue 12, item 4), whatever the game: every legal action offered and done, and every event
for every receiver, said in each language with every field filled, over random games at the fewest and the most
players."""

from __future__ import annotations

import random
import re

import pytest

import dreizehn
from dreizehn.play.say import say_event
from dreizehn.words import LANGUAGES, words

from .kit import NAMES, said


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_every_action_and_event_is_said(game_id: str, lang: str) -> None:
    cls = dreizehn.game_class(game_id)
    speaker = words(lang)
    keys: set[str] = set()
    for players in sorted({cls.min_players, min(cls.max_players, len(NAMES))}):
        names = NAMES[:players]
        state = dreizehn.new_game(game_id, players=players, seed=players, **cls.quick_options)
        game = state.game
        rng = random.Random(players)
        while not state.is_over:
            legal = state.legal_actions()
            for action in legal:
                offer = said(game.say_action(speaker, action))
                done = said(game.say_action(speaker, action, "Anna"))
                assert done.startswith("Anna ") and offer != done, (offer, done)
            eager = [a for a in legal if a in cls.eager_actions]
            for event in state.apply_with_events(rng.choice(eager or legal)):
                keys.add(event.key)
                for seat in [*range(players), None]:
                    said(say_event(game, speaker, event.for_seat(seat), names))
    assert {"stage.scored", "game.over"} <= keys


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_a_description_leaves_the_number_of_players_to_the_home_card(game_id: str, lang: str) -> None:
    """Issue 49 item 7: the home page's card says "for 2 to 6 players" beside the description (web.players_range),
    so the description does not say it again."""
    cls = dreizehn.game_class(game_id)
    said = words(lang)(f"{game_id}.description")
    low, high = cls.min_players, cls.max_players
    assert not re.search(rf"\b{low}\b\D{{1,8}}\b{high}\b", said), said
