"""What the stores read and write: the rows of tables, seats, actions and analyses as Python values, and the
tokens and ids they are keyed by."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Append:
    """An action to store: its table, sequence number, seat, text, who chose it, and whether it ended the game."""

    table_id: str
    seq: int
    seat: int
    action: str
    by: str
    finished: bool = False


def hash_token(token: str) -> str:
    """How a token is stored: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """An unguessable token (192 random bits)."""
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    """A short random table id (72 random bits), never starting with ``-``: a command line (``dreizehn admin``) would
    read it as an option."""
    while (table_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return table_id


DAILY_PREFIX = "daily-"
"""How the id of a daily deal's table begins (:mod:`dreizehn.server.daily`): the lists of tables leave it out, so that
no deal's cards are seen before one has played it (rule D4)."""
TUTORIAL_PREFIX = "learn-"
"""How the id of a tutorial's table begins (``/api/learn``): a first game on a practice deal, which the lists of
tables leave out."""


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored: a bot's or a person's; ``account_id``: the account it is bound to (rule U7), ``former``: the
    account it was bound to was deleted (its name gone: shown as a former player)."""

    seat: int
    name: str
    bot: str | None
    joined: bool
    account_id: str | None = None
    former: bool = False
    left_at: dt.datetime | None = None


@dataclass(frozen=True)
class TableRow:
    id: str
    game_id: str
    players: int
    options: dict[str, Any]
    seed: int
    package_version: str
    status: str
    clock: float
    rematch_of: str | None
    rematch: str | None
    created_at: dt.datetime
    finished_at: dt.datetime | None
    rated: bool = False
    pace: str = "realtime"
    """``realtime`` or ``turn-based`` (:mod:`dreizehn.server.turns`)."""
    move_time: int | None = None
    """A turn-based table's seconds a move."""
    on_timeout: str | None = None
    """A turn-based table's rule when a person's time runs out: ``move``, ``seat`` or ``end``."""
    private: bool = False
    """Listed to its players only."""
    ended_seat: int | None = None
    """The seat whose time ran out and ended the game (rule ``end``): that person is last."""

    @property
    def turn_based(self) -> bool:
        return self.pace == "turn-based"


@dataclass(frozen=True)
class Stored:
    """A table as stored: its row, its seats, its actions ``(seat, action text, by)`` in order."""

    row: TableRow
    seats: tuple[SeatRow, ...]
    actions: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class TakenBack:
    """An action taken back: the take-back's number at its table, the action's sequence number, seat, text and who
    chose it, and the seat whose person took it back."""

    undo: int
    seq: int
    seat: int
    action: str
    by: str
    undo_seat: int


@dataclass(frozen=True)
class DecisionRow:
    """A rated decision: its version, the number of legal actions, the action played and the best one (each
    ``{"action", "chance", "chance_low", "chance_high", "points"}``, the action in notation) and the chance lost."""

    version: int
    options: int
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float


@dataclass(frozen=True)
class AnalysisRow:
    """An analysis as stored: its status, its progress and the decisions rated so far, in game order."""

    table_id: str
    seat: int
    status: str
    done: int
    total: int
    playouts: int
    decisions: tuple[DecisionRow, ...]


def table_row(found: Any) -> TableRow:
    return TableRow(
        id=found["id"], game_id=found["game_id"], players=found["players"], options=dict(found["options"]),
        seed=int(found["seed"]), package_version=found["package_version"], status=found["status"],
        clock=float(found["clock"]), rematch_of=found["rematch_of"], rematch=found["rematch"],
        created_at=found["created_at"], finished_at=found["finished_at"], rated=bool(found.get("rated", False)),
        pace=found.get("pace") or "realtime", move_time=found.get("move_time"), on_timeout=found.get("on_timeout"),
        private=bool(found.get("private", False)), ended_seat=found.get("ended_seat"),
    )


def left_to_bots(seat_rows: Sequence[SeatRow], log: Sequence[tuple[int, str, str]]) -> tuple[bool, ...]:
    """Per seat of a table loaded whole: whether its person left the game to the bots, that is a bot played it at
    the end in their stead: a bot took the seat for good (``left_at``), or the seat's last action ``(seat, action,
    by)`` was the stand-in's (the person away). The ratings place them last (rule G2); "finished by bots" is said of
    a game where any seat was."""
    last: dict[int, str] = {}
    for seat, _, by in log:
        last[seat] = by
    return tuple(s.left_at is not None or last.get(s.seat) == "stand-in" for s in seat_rows)
