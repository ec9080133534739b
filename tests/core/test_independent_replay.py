"""The record is documented well enough to replay a game without this package: what every game's independent
replayer must refuse, and that the replayers are written from the documents alone.

Each game's replayer is ``tests/games/<name>/replayer.py`` (its own records replayed by ``test_replay.py`` beside
it); the driver they share is ``tests/clean_room`` (its docstring tells how the replayers were written).
Only the tests use ``dreizehn``: to produce records from seeded random play and to find actions the rules forbid.
"""

from __future__ import annotations

import ast
import copy
import sys
from pathlib import Path
from typing import Any

import pytest
from clean_room import driver, kit
from clean_room.driver import replay_record
from clean_room.kit import ReplayError
from clean_room.records import eager_out_policy, make_record, random_policy
from games.holzwurm.replayer import HW_COLOURS
from games.knizia13.replayer import K13_COLOURS, K13_VALUES
from games.three_thirteen.replayer import TT_RANKS, TT_SUITS

import dreizehn


def finished_record(game_id: str) -> dict[str, Any]:
    options: dict[str, object] = {"games": 2} if game_id == "holzwurm" else {}
    policy = eager_out_policy if game_id == "three-thirteen" else random_policy
    doc = make_record(game_id, 3, 1, options, policy)[0]
    replay_record(doc)
    return doc


def refused(doc: dict[str, Any], match: str) -> None:
    with pytest.raises(ReplayError, match=match):
        replay_record(doc)


def state_before(doc: dict[str, Any], index: int) -> Any:
    """The package's state before action ``index`` of a record (to learn what the seat to move holds)."""
    options: dict[str, object] = {"games": 2} if doc["game"] == "holzwurm" else {}
    state = dreizehn.new_game(doc["game"], players=3, seed=1, **options)
    for _, text in doc["actions"][:index]:
        state.apply(text)
    return state


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_replayer_refuses_a_card_the_seat_does_not_hold(game_id: str) -> None:
    doc = finished_record(game_id)
    index = next(i for i, (_, text) in enumerate(doc["actions"]) if i >= 10 and text not in ("draw", "take"))
    seat = doc["actions"][index][0]
    legal: list[str] = state_before(doc, index).legal_texts()
    if game_id == "knizia13":  # every colour card held is a legal play
        text = next(f"{c}{v}" for c in K13_COLOURS for v in K13_VALUES if f"{c}{v}" not in legal)
    elif game_id == "three-thirteen":  # after the draw, every card held may be discarded
        text = next(f"discard {r}{s}" for r in TT_RANKS for s in TT_SUITS if f"discard {r}{s}" not in legal)
    else:  # every card held has a legal play
        held = {legal_text.split(">")[0] for legal_text in legal}
        text = next(f"{c}{v}>1" for c in HW_COLOURS for v in range(1, 12) if f"{c}{v}" not in held)
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, text]
    refused(bad, rf"action {index + 1} .* is illegal: seat {seat} holds no ")


def test_replayer_refuses_plays_the_rules_forbid() -> None:
    # 13: a colour card onto another colour's target (K10)
    doc = finished_record("knizia13")
    index, (seat, text) = next((i, a) for i, a in enumerate(doc["actions"]) if not a[1].startswith("R4"))
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, f"{text}>{'Y' if text[0] != 'Y' else 'G'}"]
    refused(bad, r"\(K10\)")
    # Three Thirteen: going out with cards that do not all meld (T8), two draws in one turn (T6)
    doc = finished_record("three-thirteen")
    state = state_before(doc, 0)

    def not_out(text: str) -> bool:  # a discard that the package would not allow as going out
        refuse = text.startswith("discard ") and "out " + text.removeprefix("discard ") not in state.legal_texts()
        state.apply(text)
        return refuse

    index = next(i for i, (_, text) in enumerate(doc["actions"]) if not_out(text))
    seat, text = doc["actions"][index]
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, "out " + text.removeprefix("discard ")]
    refused(bad, r"do not all meld .*\(T8\)")
    bad = copy.deepcopy(doc)
    bad["actions"][1] = [bad["actions"][0][0], "draw"]
    refused(bad, r"drawn already \(T6\)")
    # Holzwurm: a play the package does not list as legal, with a card the seat holds (H8-H10)
    doc = finished_record("holzwurm")
    for index, (seat, text) in enumerate(doc["actions"]):
        state = state_before(doc, index)
        legal = state.legal_texts()
        card = text.split(">")[0]
        wrong = [f"{card}>{slot}" for slot in ("1", "2", "3", "4", "5", "new") if f"{card}>{slot}" not in legal]
        if wrong and index > 5:
            bad = copy.deepcopy(doc)
            bad["actions"][index] = [seat, wrong[0]]
            refused(bad, rf"action {index + 1} .* is illegal: .*\(H(8|9|10)\)")
            break
    else:
        pytest.fail("no illegal Holzwurm play found")
    # any game: the wrong seat
    bad = copy.deepcopy(doc)
    bad["actions"][1][0] = (bad["actions"][1][0] + 1) % 3
    refused(bad, r"is by seat .* but it was seat")


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_replayer_refuses_wrong_scores_and_shuffles(game_id: str) -> None:
    doc = finished_record(game_id)
    bad = copy.deepcopy(doc)
    bad["stage_scores"][1][2] += 1
    refused(bad, r"'stage_scores' of stage 2 are .*, but the game gives")
    bad = copy.deepcopy(doc)
    bad["totals"][0] -= 1
    refused(bad, r"'totals' field")
    bad = copy.deepcopy(doc)
    bad["winners"] = [seat for seat in range(3) if seat not in doc["winners"]]
    refused(bad, r"'winners' field")
    bad = copy.deepcopy(doc)
    bad["over"] = False
    refused(bad, r"'over' field")
    bad = copy.deepcopy(doc)
    bad["shuffles"].append(bad["shuffles"][0])
    refused(bad, r"more than the game made")
    bad = copy.deepcopy(doc)
    del bad["shuffles"][-1]
    refused(bad, r"too few shuffles")
    bad = copy.deepcopy(doc)
    first = bad["shuffles"][0]
    first[0] = next(card for card in first if card != first[0])
    refused(bad, r"shuffle 1 is not an order")
    bad = copy.deepcopy(doc)
    bad["actions"].append(bad["actions"][-1])
    refused(bad, r"comes after the (game|match) ended")


def imported_modules(source: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add("." * node.level + (node.module or ""))
    return modules


def test_the_replayers_do_not_use_the_package() -> None:
    """The replayers and their driver are written from the documents alone: no ``dreizehn`` import, no shared code,
    nothing imported but the standard library and the replayers' kit; and every game has its replayer, in its
    folder."""
    assert set(driver.replayers()) == set(dreizehn.game_ids())
    files = [Path(kit.__file__), Path(driver.__file__), *sorted(driver.GAMES.glob("*/replayer.py"))]
    assert len(files) == 2 + len(dreizehn.game_ids())
    for path in files:
        source = path.read_text(encoding="utf-8")
        assert "dreizehn." not in source.replace("dreizehn-record", ""), path
        for module in imported_modules(source):
            assert module == "clean_room.kit" or module.split(".")[0] in sys.stdlib_module_names, (path, module)
