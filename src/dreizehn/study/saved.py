"""Games saved as they finish, so that a long simulation, tournament or strength run goes on where it stopped.

A file of saved games holds one JSON line per game: the ``key`` of its run (:func:`run_key`: the game, the players,
the options, the bots and the seed), the ``code`` that played it (:func:`fingerprint`) and its result
(:class:`~dreizehn.study.jobs.GameResult`). A run reads back the games saved under its key by this code and plays only
the
missing ones, so the parts add up to the games of one run; games played by other code are left out, never counted
with this code's.

>>> run_key("holzwurm", 2, {}, ["expert", "hard"], 0)
'["holzwurm", 2, {}, ["expert", "hard"], 0]'
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dreizehn.core.errors import UsageError
from dreizehn.study.jobs import GameResult, play, seating

SOURCE = Path(__file__).resolve().parent.parent
"""The installed package (``dreizehn``), whose source :func:`fingerprint` hashes."""


def fingerprint() -> str:
    """A hash of the source that decides how the games are played: ``dreizehn/bots``, ``dreizehn/games``, and the
    functions of ``jobs.py`` that seat the bots and play a game (not the ones that share games out to processes)."""
    digest = hashlib.sha256()
    files = sorted([*SOURCE.glob("bots/**/*.py"), *SOURCE.glob("games/**/*.py")])
    for path in files:
        digest.update(path.relative_to(SOURCE).as_posix().encode())
        digest.update(path.read_bytes())
    for function in (seating, play):
        digest.update(inspect.getsource(function).encode())
    return digest.hexdigest()[:16]


def run_key(game_id: str, players: int, options: Mapping[str, object], bots: Sequence[str], seed: int, *,
            tournament: bool = False) -> str:
    """The key under which a run's games are saved; a tournament's (its seatings are the round-robin's) starts with
    ``"tournament"``, so it never meets a simulation's of the same bots."""
    fields: list[object] = [game_id, players, dict(sorted(options.items())), list(bots), seed]
    return json.dumps(["tournament", *fields] if tournament else fields)


def game_of(key: str) -> str:
    """The game id of a run's key.

    >>> game_of(run_key("knizia13", 3, {}, ["expert", "hard"], 0, tournament=True))
    'knizia13'
    """
    fields = json.loads(key)
    return str(fields[1] if fields[0] == "tournament" else fields[0])


def saved_games(path: Path, key: str) -> dict[str, list[GameResult]]:
    """The games saved in ``path`` under ``key``, by the fingerprint of the code that played them (in the order the
    fingerprints first appear), each list in the order saved."""
    by_code: dict[str, list[GameResult]] = {}
    try:
        text = path.read_bytes().decode("utf-8", "replace")  # a line that is not text is refused by number
    except OSError as err:
        raise UsageError("cli.cannot_read", rule="C5", path=str(path), reason=str(err.strerror or err)) from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            valid = isinstance(row["key"], str) and isinstance(row["code"], str)
            if valid and row["key"] == key:
                fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in row["result"].items()}
                fields["move_times"] = tuple(tuple(t) for t in fields["move_times"])
                by_code.setdefault(row["code"], []).append(GameResult(**fields))
        except (ValueError, KeyError, TypeError, AttributeError):
            valid = False
        if not valid:
            raise UsageError("cli.not_saved_games", rule="C8", path=str(path), line=n)
    return by_code


def load_games(path: Path | None, key: str, code: str) -> tuple[dict[int, GameResult], int]:
    """The games of the run ``key`` that the code ``code`` saved in ``path``, by game index (the last saved where a
    game was saved twice), and how many games of the run other code saved (left out)."""
    if path is None or not path.exists():
        return {}, 0
    by_code = saved_games(path, key)
    games = {r.index: r for r in by_code.pop(code, [])}
    return games, sum(len(results) for results in by_code.values())


def save_games(path: Path, key: str, code: str, results: Sequence[GameResult]) -> None:
    """Append ``results`` to ``path`` (made if missing) as games of the run ``key`` played by the code ``code``."""
    text = "".join(json.dumps({"key": key, "code": code, "result": dataclasses.asdict(r)}) + "\n" for r in results)
    data = text.encode()
    try:
        # the lines in one write to a file opened for appending, so that two runs saving to one file keep them whole
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            while data:
                data = data[os.write(descriptor, data):]
        finally:
            os.close(descriptor)
    except OSError as err:
        raise UsageError("cli.cannot_create", rule="C5", path=str(path), reason=str(err.strerror or err)) from None


def adopt(path: Path, old: str, games: Sequence[str] = ()) -> int:
    """Count the games saved by the code ``old`` as played by this code: rewrite their fingerprint; only those of
    ``games`` (game ids) where any are named. Only for a change shown not to alter play in those games (say so in
    the commit); returns how many games were adopted."""
    code = fingerprint()
    lines = path.read_text().splitlines()
    adopted = 0
    for i, line in enumerate(lines):
        row = json.loads(line) if line.strip() else None
        if row is not None and row["code"] == old and (not games or game_of(row["key"]) in games):
            row["code"] = code
            lines[i] = json.dumps(row)
            adopted += 1
    path.write_text("".join(f"{line}\n" for line in lines))
    return adopted
