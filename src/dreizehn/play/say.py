"""What the package tells people: events and their scoring explained, in words, in any language.

Every interface tells an event through :func:`tell`, one receiver at a time: the websocket and the HTTP replay of
the server, the terminal game and ``dreizehn replay``; none has sentences of its own. Each game says its own
actions and cards (the ``say_*`` methods of its :class:`~dreizehn.core.game.Game`); the words every game shares (a
stage scored, the game over) are said here.

>>> import dreizehn
>>> from dreizehn.words import words
>>> state = dreizehn.new_game("knizia13", players=3, seed=7)
>>> events = state.apply_with_events("B7")
>>> say_event(state.game, words("en"), events[0], ["Anna", "Ben", "Cleo"])
'Ben puts the blue 7 on the blue target (sum 7).'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


def say_explanation(game: Game, words: Words, explanation: dict[str, object], names: Sequence[str]) -> list[str]:
    """A stage's scoring explanation in words."""
    return game.say_explanation(words, explanation, names)


@dataclass(frozen=True)
class Told:
    """An event as one receiver is told it: its sentence, and for a scored stage the lines explaining the scores."""

    text: str
    lines: tuple[str, ...] = ()


def tell(game: Game, words: Words, event: Event, names: Sequence[str], seat: int | None) -> Told:
    """``event`` as ``seat`` is told it (``None``: a spectator; :data:`~dreizehn.core.events.EVERYONE`: all of it):
    filtered for the receiver first, then said.

    >>> import dreizehn
    >>> from dreizehn.words import words
    >>> state = dreizehn.new_game("knizia13", players=3, seed=7)
    >>> drew = state.apply_with_events("B7")[1]
    >>> tell(state.game, words("en"), drew, ["Anna", "Ben", "Cleo"], 1).text
    'Ben draws the yellow 4 from the stock.'
    >>> tell(state.game, words("en"), drew, ["Anna", "Ben", "Cleo"], None).text
    'Ben draws a card from the stock.'
    """
    seen = event.for_seat(seat)
    text = say_event(game, words, seen, names)
    if seen.key == "stage.scored":
        return Told(text, tuple(say_explanation(game, words, seen.params["explanation"], names)))
    return Told(text)


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
            told = tell(game, words, event, names, owner if isinstance(owner, int) else None)
            indent = "" if event.key in ("stage.dealt", "stage.scored", "game.over") else "  "
            lines.append(indent + told.text)
            lines.extend("  " + line for line in told.lines)
    return lines
