"""What the package says: actions, events, scoring explanations and views in words, in any language.

Every interface (the terminal, the server for the browser, ``dreizehn replay``) says things through these functions,
never through sentences of its own; each game says its own actions and cards (the ``say_*`` methods of its
:class:`~dreizehn.core.game.Game`), and the words every game shares (a stage scored, the game over) are said here.

>>> import dreizehn
>>> from dreizehn.words import words
>>> state = dreizehn.new_game("knizia13", players=3, seed=7)
>>> events = state.apply_with_events("B7")
>>> say_event(state.game, words("en"), events[0], ["Anna", "Ben", "Cleo"])
'Ben puts the blue 7 on the blue target (sum 7).'
"""

from __future__ import annotations

from collections.abc import Sequence

from dreizehn.core.events import Event
from dreizehn.core.game import Game, State, player_name
from dreizehn.words import Words


def say_event(game: Game, words: Words, event: Event, names: Sequence[str]) -> str:
    """One event (already filtered for its receiver) in words, as a sentence."""
    text = _say(game, words, event, names)
    return text[:1].upper() + text[1:]


def _say(game: Game, words: Words, event: Event, names: Sequence[str]) -> str:
    params = game.event_words(words, event, names)
    key = game.event_key(event)
    if key == "stage.scored":
        params["stage_name"] = words(f"{game.id}.stage", n=1)
        params["stage"] = int(event.params["stage"]) + 1
        params["scores"] = words.join([
            words("score.of", player=player_name(words, names, seat), points=points)
            for seat, points in enumerate(event.params["scores"])
        ])
    elif key == "stage.dealt":
        params["stage_name"] = words(f"{game.id}.stage", n=1)
        params["stage"] = int(event.params["stage"]) + 1
        params["player"] = player_name(words, names, int(event.params["first"]))
        if "hand" in event.params:
            params["cards"] = words.join([game.say_card(words, game.card_type.parse(c)) for c in event.params["hand"]])
            key = "stage.dealt.hand"
    elif key == "game.over":
        winners = list(event.params["winners"])
        params["names"] = words.names(names, winners) if names else ""
        return words("game.over", n=len(winners), names=params["names"])
    return words(key, **params)  # a parameter n picks the plural form


def say_events(game: Game, words: Words, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Each event in words, in order."""
    return [say_event(game, words, event, names) for event in events]


def say_explanation(game: Game, words: Words, explanation: dict[str, object], names: Sequence[str]) -> list[str]:
    """A stage's scoring explanation in words."""
    return game.say_explanation(words, explanation, names)


def say_course(state: State, words: Words, names: Sequence[str]) -> list[str]:
    """The course of a game in words, stage by stage, every scoring explained: the lines ``dreizehn replay --lang``
    prints. Every event is said as the player who acted saw it (a record reveals every card dealt anyway); a stage's
    deal is said as a spectator sees it."""
    game = state.game
    replayed = game.new_state(0, shuffles=state.shuffles)
    lines = [say_event(game, words, replayed.deal_event().for_seat(None), names)]
    for _, action in state.history:
        for event in replayed.apply_with_events(action):
            owner = event.params.get("seat")
            seen = event.for_seat(owner if isinstance(owner, int) else None)
            indent = "" if event.key in ("stage.dealt", "stage.scored", "game.over") else "  "
            lines.append(indent + say_event(game, words, seen, names))
            if event.key == "stage.scored":
                lines.extend("  " + line for line in say_explanation(game, words, event.params["explanation"], names))
    return lines
