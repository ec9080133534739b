"""The HTTP API's input and output schemas (FastAPI validates the inputs and documents both at ``/docs``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(_In):
    """A seat of a new table: a person (invited by a link; ``name`` optional until they join) or a bot level."""

    kind: Literal["person", "bot"]
    name: str | None = Field(default=None, min_length=1, max_length=40)
    bot: str | None = Field(default=None, max_length=64, description="a level (easy, medium, hard, expert) or a bot")


class TableIn(_In):
    """A new table."""

    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    clock: float = Field(default=0, ge=0, le=600, description="seconds a person has for a move; 0: no clock")


class JoinIn(_In):
    token: str = Field(min_length=8, max_length=64)
    name: str = Field(min_length=1, max_length=40)


class TokenIn(_In):
    token: str = Field(min_length=8, max_length=64)


class Invitation(BaseModel):
    seat: int
    token: str
    url: str


class SeatOut(BaseModel):
    seat: int
    name: str
    kind: Literal["person", "bot"]
    bot: str | None
    joined: bool


class TableOut(BaseModel):
    """A table as anyone may see it (never its seed nor tokens)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "finished"]
    seats: list[SeatOut]
    clock: float
    created_at: str
    finished_at: str | None
    rematch: str | None
    totals: list[int] | None = None
    winners: list[int] | None = None


class CreatedOut(BaseModel):
    """A new table: one secret invitation per person's seat, and the spectators' link."""

    table: TableOut
    invitations: list[Invitation]
    spectator: Invitation


class JoinedOut(BaseModel):
    table: str
    seat: int


class OptionOut(BaseModel):
    name: str
    label: str
    help: str
    kind: str
    default: Any
    choices: list[dict[str, str]]
    low: int | None
    high: int | None
    rule: str


class CardFace(BaseModel):
    colour: str
    value: str
    shape: str
    label: str


class GameOut(BaseModel):
    id: str
    title: str
    description: str
    rules: str
    min_players: int
    max_players: int
    options: list[OptionOut]
    levels: list[str]
    high_score_wins: bool
    """Whether the highest total wins (Holzwurm) or the lowest (13, Three Thirteen): how standings are ordered."""
    stage_name: str
    """What a stage of the game is called: ``stage``, ``round`` or ``game`` (the words ``<id>.<stage_name>``)."""
    faces: dict[str, CardFace]
    """Every card of the game by its notation: what its face shows, in the language asked for."""
    drawing: bool
    """Whether the browser app has a drawing of the game's own (``web/games/<id>.js``); else the generic one."""
    arranges: bool = False
    """Whether the game lays a hand out in its best arrangement (``POST /api/web/arrange``; Three Thirteen's melds)."""


class ReplayStep(BaseModel):
    version: int
    seat: int
    action: str
    text: str
    by: str
    events: list[dict[str, Any]]


class ReplayOut(BaseModel):
    """A finished game, action by action, every hand revealed."""

    table: TableOut
    names: list[str]
    opening: list[dict[str, Any]]
    steps: list[ReplayStep]


class AnalysisIn(_In):
    """The analysis of a finished game asked for one seat."""

    seat: int = Field(description="the seat whose decisions are rated")


class RatedMove(BaseModel):
    """An action of a decision, rated by the hint search: its win chance (with its 95 % interval, the sampling error
    alone) and the seat's expected final total."""

    action: str
    text: str
    chance: float
    chance_low: float
    chance_high: float
    points: float


class DecisionOut(BaseModel):
    """A decision of the seat: ``version`` actions were played before it; ``options`` legal actions; ``loss`` the
    win chance the action played gave up against the best one (0 when it was the best)."""

    version: int
    options: int
    played: RatedMove
    best: RatedMove
    loss: float


class AnalysisOut(BaseModel):
    """The analysis of a finished game for one seat: ``done`` of ``total`` decisions rated so far, in game order;
    ``worst`` the versions of the costliest decisions (at most 5 losing more than 0.05), costliest first."""

    table: str
    seat: int
    status: Literal["running", "done", "failed"]
    done: int
    total: int
    playouts: int
    decisions: list[DecisionOut]
    worst: list[int]
