"""Game records: they replay to the same game, and import refuses a wrong record naming what is wrong."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import dreizehn
from dreizehn.core.game import OptionSpec
from dreizehn.core.record import MAX_RECORD_BYTES, dumps, load, loads, replay, save, to_record
from dreizehn.core.registry import game_class


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
    # issue 11 item 3: a missing next-stage shuffle is named as such, not as an illegal action
    refused(bad, r"^action \d+ \('[^']+' by seat \d\) ends stage 3, but the record has no shuffle for the next stage "
                 r"\(stage 4\): shuffle 4 is missing \(R8\)$")
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


# ---------------------------------------------------------------------------------------------------------------------
# issue 11 item 1: no input ends in a traceback; every hostile input is a RecordError with a clear message


def hostile_inputs() -> list[tuple[str, bytes, str]]:
    """(name, the bytes of a file, a regex its message must match): the hostile inputs of issue 11 item 1."""
    state = finished()
    text = dumps(state)
    doc = to_record(state)

    def with_raw(field: str, raw: str) -> bytes:
        return json.dumps({**doc, field: "@RAW@"}).replace('"@RAW@"', raw).encode()

    deep = "[" * 100_000 + "]" * 100_000
    return [
        ("invalid UTF-8 byte", text.replace('"seat 0"', '"seat \udcff"').encode("utf-8", "surrogateescape"),
         r"not UTF-8 text: byte \d+ \(0xff\) is not valid UTF-8"),
        ("UTF-8 cut in a character", text.encode()[:-1] + "é".encode()[:1], r"not UTF-8 text: byte \d+ \(0xc3\)"),
        ("UTF-16 with a byte order mark", text.encode("utf-16"), r"UTF-16 text .*; records are UTF-8"),
        ("UTF-16 without a byte order mark", text.encode("utf-16-le"), r"byte 2 of the record is a NUL byte"),
        ("UTF-8 byte order mark", b"\xef\xbb\xbf" + text.encode(), r"byte order mark; records are UTF-8 without one"),
        ("JSON nested 100,000 deep", deep.encode(), r"nested too deeply"),
        ("nested 5,000 deep in options", with_raw("options", "[" * 5000 + "]" * 5000), r"nested too deeply"),
        ("nested 3,000 deep in players", with_raw("players", "[" * 3000 + "]" * 3000), r"nested too deeply"),
        ("nested 500 deep in an option", with_raw("options", '{"dealer": ' + "[" * 500 + "]" * 500 + ', "open_piles":'
                                                  ' false}'), r"'options' field: option 'dealer' must be a seat"),
        ("nested 500 deep in players", with_raw("players", "[" * 500 + "]" * 500),
         r"'players' field: name 1 must be a string, not \[\[\[\.\.\.\]\]\]"),
        ("integer of 5,000 digits", with_raw("totals", "[" + "7" * 5000 + ", 0, 0]"), r"integer of 5000 digits"),
        ("integer of 5,000 digits as version", with_raw("version", "-" + "1" * 5000), r"integer of 5000 digits"),
        ("NaN", with_raw("totals", "[NaN, 0, 0]"), r"NaN is not a JSON value"),
        ("stage_scores null", with_raw("stage_scores", "null"), r"'stage_scores' field must be a list .*, not null"),
        ("stage_scores true", with_raw("stage_scores", "true"), r"'stage_scores' field must be a list .*, not true"),
        ("stage_scores 0", with_raw("stage_scores", "0"), r"'stage_scores' field must be a list .*, not 0 \(R6\)$"),
        ("stage_scores 1.5", with_raw("stage_scores", "1.5"), r"'stage_scores' field must be a list .*, not 1\.5"),
        ("not an object", b"[1, 2]", r"a record is a JSON object, not \[1, 2\]"),
        ("empty file", b"", r"not valid JSON: Expecting value at line 1, column 1"),
    ]


HOSTILE = hostile_inputs()


@pytest.mark.parametrize(("data", "match"), [(d, m) for _, d, m in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_hostile_input_is_a_record_error(data: bytes, match: str, tmp_path: Path) -> None:
    """issue 11 item 1: loads (bytes), loads (text, when it decodes) and load all refuse with a RecordError."""
    with pytest.raises(dreizehn.RecordError, match=match):
        loads(data)
    path = tmp_path / "record.json"
    path.write_bytes(data)
    with pytest.raises(dreizehn.RecordError, match=match):
        load(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if "\x00" not in text and not text.startswith("\ufeff"):
        with pytest.raises(dreizehn.RecordError, match=match):
            loads(text)


def test_deep_values_from_python_are_refused_without_recursion() -> None:
    """issue 11 item 1: replay() of a Python dict with values nested 100,000 deep names the field, in bounded time."""
    doc = to_record(finished())
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    for field, match in (("players", r"'players' field: name 1 must be a string, not \[\[\[\.\.\.\]\]\]"),
                         ("options", r"'options' field must be an object of the game's options, not \[\[\[\."),
                         ("winners", r"'winners' field: winner 1 must be an integer, not \[\[\[\.\.\.\]\]\]"),
                         ("actions", r"'actions' field: action 1 must be a pair \[seat, action text\], not \[\[")):
        refused({**doc, field: [deep]} if field != "options" else {**doc, field: deep}, match)
    refused({**doc, "totals": [10**5000, 0, 0]}, r"'totals' field is \[an integer of about 5001 digits, 0, 0\]")


def test_too_large_record_is_refused_before_parsing(tmp_path: Path) -> None:
    """issue 11 item 1: a 70 MB file (sparse) is refused by its size, before parsing, with the documented limit."""
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(70 * 1024 * 1024)
    with pytest.raises(dreizehn.RecordError, match=r"too large \(73400320 bytes\); records of more than 16777216 bytes "
                                                   r"\(16 MiB\) are refused"):
        load(path)
    with pytest.raises(dreizehn.RecordError, match=r"too large \(16777217 characters\)"):
        loads(" " * (MAX_RECORD_BYTES + 1))


def test_megabytes_of_junk_actions_are_refused_quickly() -> None:
    """issue 11 item 1: a few MB of junk is refused, naming the first wrong action (how fast: not a test's
    business; the checks stop at the first wrong value)."""
    doc = to_record(finished())
    junk = json.dumps({**doc, "actions": doc["actions"][:5] + [[0, "x" * 20, 1]] * 300_000})
    assert len(junk) > 5_000_000
    with pytest.raises(dreizehn.RecordError, match=r"'actions' field: action 6 must be a pair \[seat, action text\], "
                                                   r"not \[0, 'x{20}', 1\]"):
        loads(junk)
    first = doc["actions"][0][0]
    long_text = json.dumps({**doc, "actions": [[first, "B" * 5_000_000]]})
    with pytest.raises(dreizehn.RecordError, match=rf"action 1 \('B{{30}}\.\.\.' by seat {first}\) is not an action of "
                                                   r"13: it is 5000000 characters long"):
        loads(long_text)


# ---------------------------------------------------------------------------------------------------------------------
# issue 11 item 2: a record is exactly what docs/record-format.md says


def without(doc: dict[str, Any], field: str) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != field}


LOOSE: list[tuple[str, Any, str]] = [
    # (what is wrong, a change of the record of a finished 3-player game of 13, the regex of the message)
    ("no options", lambda d: without(d, "options"), r"no 'options' field"),
    ("empty options", lambda d: {**d, "options": {}}, r"'options' field has no option 'dealer'"),
    ("an option missing", lambda d: {**d, "options": {"dealer": 0}}, r"'options' field has no option 'open_piles'"),
    ("an unknown option", lambda d: {**d, "options": {**d["options"], "speed": 1}}, r"13 has no option 'speed'"),
    ("bool option 'yes'", lambda d: {**d, "options": {**d["options"], "open_piles": "yes"}},
     r"option 'open_piles' must be true or false \(a JSON boolean\), not 'yes' \(K12\)"),
    ("bool option 1", lambda d: {**d, "options": {**d["options"], "open_piles": 1}}, r"option 'open_piles' .* not 1 "),
    ("seat option ' 1 '", lambda d: {**d, "options": {**d["options"], "dealer": " 1 "}},
     r"option 'dealer' must be a seat, a whole number from 0 to 2 \(a JSON integer\), not ' 1 ' \(K6\)"),
    ("seat option true", lambda d: {**d, "options": {**d["options"], "dealer": True}}, r"option 'dealer' .* not true"),
    ("seat option 1.0", lambda d: {**d, "options": {**d["options"], "dealer": 1.0}}, r"option 'dealer' .* not 1\.0"),
    ("seat option too high", lambda d: {**d, "options": {**d["options"], "dealer": 3}}, r"option 'dealer' .* not 3"),
    ("no stage_scores", lambda d: without(d, "stage_scores"), r"no 'stage_scores' field"),
    ("no totals", lambda d: without(d, "totals"), r"no 'totals' field"),
    ("no over", lambda d: without(d, "over"), r"no 'over' field"),
    ("no winners", lambda d: without(d, "winners"), r"no 'winners' field"),
    ("no players", lambda d: without(d, "players"), r"no 'players' field"),
    ("no format", lambda d: without(d, "format"), r"no 'format' field"),
    ("no version", lambda d: without(d, "version"), r"no 'version' field"),
    ("an unknown field", lambda d: {**d, "seed": 4}, r"a field 'seed' that records do not have"),
    ("version 1.0", lambda d: {**d, "version": 1.0}, r"'version' field must be 1 .*not 1\.0\)"),
    ("version true", lambda d: {**d, "version": True}, r"'version' field must be 1 .*not true\)"),
    ("version '1'", lambda d: {**d, "version": "1"}, r"'version' field must be 1 .*not '1'\)"),
    ("float totals", lambda d: {**d, "totals": [float(t) for t in d["totals"]]},
     r"'totals' field: total 1 must be an integer, not \d+\.0"),
    ("too few totals", lambda d: {**d, "totals": d["totals"][:2]}, r"'totals' field must list 3 integers"),
    ("over 0", lambda d: {**d, "over": 0}, r"'over' field must be true or false, not 0"),
    ("over 'true'", lambda d: {**d, "over": "true"}, r"'over' field must be true or false, not 'true'"),
    ("winners true", lambda d: {**d, "winners": [True]}, r"'winners' field: winner 1 must be an integer, not true"),
    ("winners out of range", lambda d: {**d, "winners": [7]}, r"winner 1 must be a seat from 0 to 2, not 7"),
    ("winners descending", lambda d: {**d, "winners": [2, 0]}, r"'winners' field must list seats in ascending order"),
    ("a name not a string", lambda d: {**d, "players": ["a", 2, "c"]}, r"'players' field: name 2 must be a string"),
    ("no players at all", lambda d: {**d, "players": []}, r"'players' field must be a non-empty list"),
    ("too few players", lambda d: {**d, "players": ["a", "b"]}, r"'players' field lists 2 players: .*not 2 \(K4\)"),
    ("game not a string", lambda d: {**d, "game": 13}, r"'game' field must be a game id \(a string\), not 13"),
    ("stage score float", lambda d: {**d, "stage_scores": [[1.0, 2, 3]]},
     r"'stage_scores' field: stage 1, seat 0 must have an integer, not 1\.0"),
    ("stage score row short", lambda d: {**d, "stage_scores": [[1, 2]]},
     r"'stage_scores' field: stage 1 must list 3 scores"),
    ("stage scores row null", lambda d: {**d, "stage_scores": [None]},
     r"'stage_scores' field: stage 1 must be a list of integers, not null"),
    ("seat true in an action", lambda d: {**d, "actions": [[True, d["actions"][0][1]]]},
     r"'actions' field: action 1 must be a pair \[seat, action text\], not \[true, "),
    ("action of one item", lambda d: {**d, "actions": [[0]]},
     r"action 1 must be a pair \[seat, action text\], not \[0\] \(R6\)$"),
    ("card not a string", lambda d: {**d, "shuffles": [[5]]},
     r"'shuffles' field: shuffle 1, position 1 must be a card text \(a string\), not 5"),
    ("shuffle not a list", lambda d: {**d, "shuffles": ["B5"]}, r"'shuffles' field: shuffle 1 must be a list of cards"),
    ("no shuffles", lambda d: {**d, "shuffles": []}, r"'shuffles' field is empty, but the first deal needs a shuffle"),
]


@pytest.mark.parametrize(("change", "match"), [(c, m) for _, c, m in LOOSE], ids=[n for n, _, _ in LOOSE])
def test_loose_fields_are_refused_naming_the_field(doc: dict[str, Any], change: Any, match: str) -> None:
    """issue 11 item 2: every field is required with its documented JSON type (they were accepted before)."""
    bad = change(copy.deepcopy(doc))
    refused(bad, match)
    with pytest.raises(dreizehn.RecordError, match=match):  # and the same through the JSON text
        loads(json.dumps(bad))


def test_repeated_key_is_refused(doc: dict[str, Any]) -> None:
    """issue 11 item 2: JSON that repeats a key (the last one silently won before) is refused."""
    text = json.dumps(doc)
    with pytest.raises(dreizehn.RecordError, match=r"the key 'over' appears twice in one object"):
        loads(text[:-1] + ', "over": true}')


def wrong_values(spec: OptionSpec, players: int) -> list[object]:
    """Values of the wrong JSON type (or out of range) for an option: each must be refused in a record."""
    if spec.kind == "bool":
        return ["true", "yes", 1, 0, None]
    if spec.kind == "int":
        return [True, str(spec.low), f" {spec.low} ", float(spec.low), spec.low - 1, spec.high + 1, None]
    if spec.kind == "choice":
        return [spec.choices[0].upper(), f" {spec.choices[0]} ", "", 0, None]
    if spec.kind == "seat":
        return ["random", "0", " 0 ", True, 0.0, players, -1, None]
    return [None, [], {}]


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_options_are_exactly_the_games_options_with_their_json_types(game_id: str) -> None:
    """issue 11 item 2: a record's options are every option spec of the game (read from the class), no more, no
    fewer, each of its documented JSON type; typed text stays accepted on the command line only."""
    cls = game_class(game_id)
    players = cls.min_players
    state = dreizehn.load_game(game_id, players).new_state(1)
    doc = to_record(state)
    assert list(doc["options"]) == [spec.name for spec in cls.option_specs]
    replay(doc)
    for spec in cls.option_specs:
        refused({**doc, "options": {k: v for k, v in doc["options"].items() if k != spec.name}},
                rf"'options' field has no option '{spec.name}'")
        for value in wrong_values(spec, players):
            refused({**doc, "options": {**doc["options"], spec.name: value}}, rf"option '{spec.name}' must ")
    refused({**doc, "options": {**doc["options"], "no_such_option": 1}}, r"has no option 'no_such_option'")


def play_out(game_id: str, players: int, seed: int, limit: int | None = None) -> dreizehn.State:
    """Random play (taking the game's eager actions whenever legal, so that every game ends), ``limit`` actions."""
    state = dreizehn.load_game(game_id, players).new_state(seed)
    rng = random.Random(seed)
    count = 0
    while not state.is_over and (limit is None or count < limit):
        legal = state.legal_actions()
        eager = [a for a in legal if a in state.game.eager_actions]
        state.apply(rng.choice(eager or list(legal)))
        count += 1
    return state


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_records_of_every_game_still_replay(game_id: str, tmp_path: Path) -> None:
    """issue 11 item 2: what to_record/dumps/save write is exactly the strict format: every game, every player
    count, finished and unfinished, replays (also with names that need escaping and non-ASCII names)."""
    cls = game_class(game_id)
    for players in range(cls.min_players, cls.max_players + 1):
        for limit in (0, 7, None):
            state = play_out(game_id, players, seed=players, limit=limit)
            names = [f"p[{seat}] \u00e9\u2603 [bold]x[/]" for seat in range(players)]
            path = tmp_path / f"{game_id}-{players}.json"
            save(state, path, names)
            data = path.read_bytes()
            data.decode("utf-8", errors="strict")
            again = load(path)
            assert again.history == state.history and again.stage_scores == state.stage_scores
            assert again.is_over == state.is_over and again.winners == state.winners
            assert to_record(again, names) == to_record(state, names) == json.loads(data)
            assert replay(json.loads(json.dumps(to_record(state)))).history == state.history
    with pytest.raises(ValueError, match="names must be strings"):
        to_record(state, [1] * state.game.players)  # type: ignore[list-item]


# ---------------------------------------------------------------------------------------------------------------------
# issue 11 item 3: shuffles that are missing are reported as missing


def test_missing_reshuffle_is_named() -> None:
    """issue 11 item 3: a missing Three Thirteen reshuffle (T10) is a missing shuffle, not an illegal action."""
    for seed in range(20):
        state = dreizehn.load_game("three-thirteen", 2).new_state(seed)
        rng = random.Random(seed)
        deck = len(state.game.deck)
        while not state.is_over and all(len(s) == deck for s in state.shuffles):
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            break
    else:
        pytest.fail("no reshuffle in 20 games")
    doc = to_record(state)
    number = len(doc["shuffles"])
    draw = len(doc["actions"])
    bad = {**doc, "shuffles": doc["shuffles"][:-1]}
    refused(bad, rf"^action {draw} \('draw' by seat \d\) needs a shuffle \(a reshuffle\), but the record has too few "
                 rf"shuffles: shuffle {number} is missing \(R8\)$")
    bad = {**doc, "shuffles": doc["shuffles"][:-1] + [doc["shuffles"][-1][:-1]]}
    refused(bad, rf"^action {draw} \('draw' by seat \d\) needs a shuffle, and shuffle {number} is not an order of ")


def test_missing_first_shuffle_is_named(doc: dict[str, Any]) -> None:
    """issue 11 item 3: a shuffle that is not an order of the cards in the first deal names the first deal."""
    refused({**doc, "shuffles": [doc["shuffles"][0][:-1]]}, r"^the first deal: shuffle 1 is not an order of the 50")
