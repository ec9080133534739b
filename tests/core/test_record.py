"""Game records: they replay to the same game, and import refuses a wrong record naming what is wrong."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import dreizehn
from dreizehn.core.record import dumps, load, loads, replay, save, to_record


def finished(game_id: str = "knizia13", players: int = 3, seed: int = 4,
             options: dict[str, object] | None = None) -> dreizehn.State:
    state = dreizehn.load_game(game_id, players, options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture
def doc() -> dict[str, Any]:
    return to_record(finished())


def refused(doc: dict[str, Any], match: str) -> None:
    with pytest.raises(dreizehn.RecordError, match=match):
        replay(doc)


def test_round_trip_finished_and_unfinished(tmp_path: Path) -> None:
    cases: list[tuple[str, int, dict[str, object]]] = [
        ("knizia13", 3, {}), ("holzwurm", 4, {"games": 2}), ("three-thirteen", 2, {"stock_out": "end-round"})
    ]
    for game_id, players, options in cases:
        state = finished(game_id, players, options=options)
        path = tmp_path / f"{game_id}.json"
        save(state, path, names=[f"p{i}" for i in range(players)])
        again = load(path)
        assert again.stage_scores == state.stage_scores and again.history == state.history
        assert again.winners == state.winners and again.is_over
        assert json.loads(path.read_text())["players"] == [f"p{i}" for i in range(players)]
        # a record of a game in progress replays to the same position
        partial = dreizehn.load_game(game_id, players, options).new_state(3)
        for _ in range(25):
            partial.apply(partial.legal_actions()[-1])
        back = loads(dumps(partial))
        assert back.view(0) == partial.view(0) and not back.is_over


def test_record_holds_no_seed_and_drawn_dealer() -> None:
    state = finished(seed=12, options={"dealer": "random"})
    doc = to_record(state)
    assert isinstance(doc["options"]["dealer"], int)
    assert "seed" not in json.dumps(doc)
    assert replay(doc).stage_scores == state.stage_scores


def test_illegal_action_is_named(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    seat = bad["actions"][10][0]
    # play a card the seat does not hold: find one
    state = replay({**bad, "actions": bad["actions"][:10], "shuffles": bad["shuffles"][:1], "stage_scores": [],
                    "totals": [0, 0, 0], "over": False, "winners": []})
    held = set(state.legal_texts())
    other = next(t for t in ("B1", "B2", "B4", "B5", "B7", "Y1", "Y2", "G7", "G1") if t not in held)
    bad["actions"][10] = [seat, other]
    refused(bad, rf"action 11 \('{other}' by seat {seat}\) is illegal: .*\(K9\)")


def test_wrong_seat_is_named(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["actions"][5][0] = (bad["actions"][5][0] + 1) % 3
    refused(bad, r"action 6 .* is by seat \d, but it was seat \d's turn")


def test_malformed_action_text(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["actions"][3][1] = "B9"
    refused(bad, r"action 4 \('B9'.*not a play")
    bad["actions"][3] = "B5"
    refused(bad, r"action 4 must be a pair \[seat, action text\]")


def test_wrong_score_is_named(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["stage_scores"][2][1] += 1
    refused(bad, r"'stage_scores' of stage 3 are .*, but the game gives")
    bad = copy.deepcopy(doc)
    bad["totals"][0] -= 1
    refused(bad, r"'totals' field is .*, but the game gives")
    bad = copy.deepcopy(doc)
    bad["winners"] = [9]
    refused(bad, r"'winners' field")


def test_card_that_cannot_exist(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["shuffles"][0][7] = "R5"
    refused(bad, r"shuffle 1, position 8: 'R5' is not a card of 13")
    bad = copy.deepcopy(doc)
    bad["shuffles"][0][7] = bad["shuffles"][0][8] = "R4"
    bad["shuffles"][0][9] = "R4"
    # now the shuffle is no longer an order of the 50 cards (too many nasty fours)
    with pytest.raises(dreizehn.RecordError, match=r"shuffle 1 is not an order of the 50 cards"):
        replay(bad)


def test_missing_and_extra_shuffles(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    del bad["shuffles"][3]
    del bad["shuffles"][3:]
    refused(bad, r"too few shuffles \(shuffle 4 is missing\)")
    bad = copy.deepcopy(doc)
    bad["shuffles"].append(bad["shuffles"][0])
    refused(bad, r"1 shuffle\(s\) more than the game made")


def test_bad_header_fields(doc: dict[str, Any]) -> None:
    refused({**doc, "format": "chess-pgn"}, r"'format' field must be 'dreizehn-record'")
    refused({**doc, "version": 99}, r"records of version 1, not 99")
    refused({**doc, "game": "skat"}, r"no game 'skat'")
    refused({**doc, "players": ["a", "b"]}, r"for 3 to 6 players, not 2 \(K4\)")
    refused({**doc, "options": {"dealer": "random", "open_piles": False}}, r"must name the seat that was drawn")
    refused({**doc, "options": {"speed": 1}}, r"no option 'speed'")
    refused({k: v for k, v in doc.items() if k != "actions"}, r"no 'actions' field")
    refused({**doc, "shuffles": "none"}, r"'shuffles' field must be a list of shuffles")
    with pytest.raises(dreizehn.RecordError, match=r"not valid JSON"):
        loads("{'game': ")
    with pytest.raises(dreizehn.RecordError, match=r"cannot read"):
        load("/nonexistent/record.json")


def test_action_after_the_end(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["actions"].append([0, "B1"])
    refused(bad, r"action \d+ \('B1'\) comes after the game ended")
