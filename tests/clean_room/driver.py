"""The driver of the clean-room replay (docs/record-format.md): it reads a record, runs its game's replayer (found in
the game's own folder, ``tests/games/<name>/replayer.py``) and compares the record's ``stage_scores``, ``totals``,
``over`` and ``winners`` with what the replay gives. Written from the documents alone: no ``dreizehn`` here."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from clean_room.kit import Actions, GameReplayer, Replayed, Shuffles, fail, is_int

GAMES = Path(__file__).resolve().parents[1] / "games"
"""The folder of the games' own tests: a game's replayer is its folder's ``replayer.py``."""


@cache
def replayers() -> dict[str, tuple[GameReplayer, bool]]:
    """Every game's replayer by its game id, with whether the highest total wins: each ``replayer.py`` under
    :data:`GAMES` names its ``GAME_ID`` and ``HIGH_WINS`` and defines ``replay``."""
    found: dict[str, tuple[GameReplayer, bool]] = {}
    for path in sorted(GAMES.glob("*/replayer.py")):
        module = importlib.import_module(f"{GAMES.name}.{path.parent.name}.replayer")
        replay: GameReplayer = module.replay
        found[str(module.GAME_ID)] = (replay, bool(module.HIGH_WINS))
    return found


def replay_record(doc: object) -> Replayed:
    """Replay and check a record; raise ``ReplayError`` naming the first thing that is wrong."""
    if not isinstance(doc, dict):
        fail("a record is a JSON object")
    for name in ("format", "version", "game", "players", "options", "shuffles", "actions", "stage_scores", "totals",
                 "over", "winners"):
        if name not in doc:
            fail(f"the record has no {name!r} field")
    if doc["format"] != "dreizehn-record":
        fail("the 'format' field must be 'dreizehn-record'")
    if doc["version"] != 1 or not is_int(doc["version"]):
        fail(f"records of version 1, not {doc['version']!r}")
    if doc["game"] not in replayers():
        fail(f"no game {doc['game']!r}")
    names = doc["players"]
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        fail("'players' must be a list of names")
    if not isinstance(doc["options"], dict):
        fail("'options' must be an object")
    raw_shuffles = doc["shuffles"]
    if not isinstance(raw_shuffles, list) or not all(
            isinstance(order, list) and all(isinstance(card, str) for card in order) for order in raw_shuffles):
        fail("'shuffles' must be a list of lists of card texts")
    actions: Actions = []
    for number, pair in enumerate(doc["actions"] if isinstance(doc["actions"], list) else [None], 1):
        if not (isinstance(pair, list) and len(pair) == 2 and is_int(pair[0]) and isinstance(pair[1], str)):
            fail(f"action {number} must be a pair [seat, action text]")
        actions.append((pair[0], pair[1]))
    for name in ("stage_scores", "totals", "winners"):
        value = doc[name]
        rows = value if name == "stage_scores" else [value]
        if not isinstance(rows, list) or not all(isinstance(row, list) and all(is_int(x) for x in row)
                                                 for row in rows):
            fail(f"{name!r} has the wrong type")
    if not isinstance(doc["over"], bool):
        fail("'over' must be true or false")

    replayer, high_wins = replayers()[doc["game"]]
    shuffles = Shuffles(raw_shuffles)
    result = replayer(len(names), doc["options"], shuffles, actions)
    shuffles.check_all_used()
    if len(doc["stage_scores"]) != len(result.stage_scores):
        fail(f"the record has {len(doc['stage_scores'])} stage scores, the game {len(result.stage_scores)}")
    for stage, (recorded, replayed) in enumerate(zip(doc["stage_scores"], result.stage_scores, strict=True), 1):
        if recorded != replayed:
            fail(f"'stage_scores' of stage {stage} are {recorded}, but the game gives {replayed}")
    totals = [sum(stage[seat] for stage in result.stage_scores) for seat in range(len(names))]
    if doc["totals"] != totals:
        fail(f"the 'totals' field is {doc['totals']}, but the game gives {totals}")
    if doc["over"] != result.over:
        fail(f"the 'over' field is {doc['over']}, but the game gives {result.over}")
    best = (max if high_wins else min)(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best] if result.over else []
    if doc["winners"] != winners:
        fail(f"the 'winners' field is {doc['winners']}, but the game gives {winners}")
    return result
