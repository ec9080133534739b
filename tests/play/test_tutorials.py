"""Each game's tutorial (dreizehn.play.tutorial) matches its deal: played through the engine with its bots, every step's
condition is met in order, each wanted move is legal when asked for, and the person is never left with a move to make
and none accepted; every step's words are there in each language. A change to the bots or the rules that breaks a
tutorial fails here."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import dreizehn
from dreizehn.play.tutorial import Tutorial, TutorialError, allows_moves, load_tutorial, matches, tutorial_path, walk
from dreizehn.words import LANGUAGES, words

GAMES = [gid for gid in dreizehn.game_ids() if tutorial_path(gid).is_file()]


def test_each_game_has_a_tutorial() -> None:
    assert set(GAMES) == {"knizia13", "holzwurm", "three-thirteen"}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_is_reached_in_order_on_the_deal(game_id: str) -> None:
    tutorial = load_tutorial(game_id)
    assert tutorial is not None
    ended = walk(tutorial)
    assert len(ended) == len(tutorial.steps)
    assert ended == sorted(ended)
    assert tutorial.steps[-1]["until"] == "end"
    assert 8 <= len(tutorial.steps) <= 16  # short: the first stage only
    wanted = [step for step in tutorial.steps if "want" in step]
    assert len(wanted) >= 3  # it makes the person play, not only read


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_deal_each_time(game_id: str) -> None:
    tutorial = load_tutorial(game_id)
    assert tutorial is not None
    assert walk(tutorial) == walk(tutorial)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_is_said_in_every_language(game_id: str) -> None:
    tutorial = load_tutorial(game_id)
    assert tutorial is not None
    for lang in LANGUAGES:
        say = words(lang)
        for step in tutorial.steps:
            text = say(step["say"])
            assert text and text != step["say"], f"{lang}: {step['say']} is missing"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_steps_are_well_formed(game_id: str) -> None:
    data = json.loads(tutorial_path(game_id).read_text(encoding="utf-8"))
    assert set(data) == {"players", "seat", "seed", "options", "level", "steps"}
    for step in data["steps"]:
        assert set(step) <= {"say", "want", "until", "free"}
        assert ("want" in step) != ("until" in step), step
        until = step.get("until")
        assert until in (None, "next", "mine", "end") or set(until) <= {"event", "seat", "has"}, step
    assert "seed" not in load_tutorial(game_id).to_json()  # type: ignore[union-attr]


def _broken(tutorial: Tutorial, at: int, step: dict[str, object]) -> Tutorial:
    steps = list(tutorial.steps)
    steps[at] = step
    return dataclasses.replace(tutorial, steps=tuple(steps))


def test_a_step_the_deal_does_not_meet_fails() -> None:
    tutorial = load_tutorial("knizia13")
    assert tutorial is not None
    first_want = next(i for i, s in enumerate(tutorial.steps) if "want" in s)
    wrong = next(c for c in ("B2", "B5", "Y1") if c != tutorial.steps[first_want]["want"])  # legal in the first hand
    with pytest.raises(TutorialError, match="not legal"):  # a move the hand cannot make
        walk(_broken(tutorial, first_want, {"say": "x", "want": "G2"}))
    with pytest.raises(TutorialError):  # another legal move: the bots answer it otherwise, and a later step breaks
        walk(_broken(tutorial, first_want, {"say": "x", "want": wrong}))
    with pytest.raises(TutorialError):  # a step that waits for what never happens: a capture by the person at once
        walk(_broken(tutorial, 1, {"say": "x", "until": {"event": "knizia13.played", "seat": "me", "has": "took"}}))
    with pytest.raises(TutorialError, match="may not"):  # the person must move while only reading is allowed
        walk(_broken(tutorial, 1, {"say": "x", "until": {"event": "stage.scored"}}))
    reading = _broken(tutorial, 4, {"say": "x", "until": "next"})  # read while the bots play, then wait for a play
    with pytest.raises(TutorialError, match="while"):  # an event the bots may tell while a Next step is read
        walk(_broken(reading, 5, {"say": "x", "until": {"event": "knizia13.played"}}))


def test_conditions() -> None:
    update: dict[str, Any] = {"seat": 2, "action": "B7", "events": [
        {"key": "knizia13.played", "params": {"seat": 2, "card": "B7", "took": ["B7", "B5"]}},
        {"key": "knizia13.drew", "params": {"seat": 2}}]}
    took = {"event": "knizia13.played", "has": "took"}
    assert matches(took, update, 0)
    assert matches({**took, "seat": "other"}, update, 0)
    assert not matches({**took, "seat": "me"}, update, 0)
    assert matches({**took, "seat": 2}, update, 0) and not matches({**took, "seat": 1}, update, 0)
    update["events"][0]["params"]["took"] = []
    assert not matches(took, update, 0)
    assert not matches("next", update, 0)
    assert allows_moves({"say": "x", "want": "B7"}) and allows_moves({"say": "x", "free": True, "until": "next"})
    assert not allows_moves({"say": "x", "until": "next"})
