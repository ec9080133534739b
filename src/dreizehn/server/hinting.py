"""Hints at the table: the analysis of a view, computed in a worker (a process of the bot pool)."""

from __future__ import annotations

from typing import Any

from dreizehn.core.game import View
from dreizehn.core.registry import game_class
from dreizehn.words import words


def hint_in_worker(view: View, seconds: float, lang: str) -> dict[str, Any]:
    """The hint of ``view`` (:func:`dreizehn.play.hints.hint`: the move of the game's hint level first, every legal
    action
    rated), each action said in ``lang``."""
    from dreizehn.play.hints import hint

    analysis = hint(view, seconds=seconds)
    doc: dict[str, Any] = analysis.to_json()
    game = game_class(view.game_id)(view.players, view.options)
    w = words(lang)
    for rating in doc.get("ratings", []):
        rating["words"] = game.say_action(w, game.action_type.parse(rating["action"]))
    return doc
