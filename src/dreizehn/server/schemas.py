"""The HTTP API's input and output schemas (FastAPI validates the inputs and documents both at ``/docs``; the
docstring under each field is its description, from which docs/server.md's reference is written:
:mod:`dreizehn.server.reference`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dreizehn.server.protocol import INT64_MAX, INT64_MIN


class _In(BaseModel):
    """A request's body: strict (no value is coerced: ``"2"``, ``2.0`` and ``true`` are no integers, ``1`` is no
    string, ``"yes"`` no boolean; a number is finite) and closed (a field the API does not name is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, use_attribute_docstrings=True)


class _Out(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)


class SeatIn(_In):
    """A seat of a new table: a person (invited by a link; ``name`` optional until they join) or a bot level."""

    kind: Literal["person", "bot"]
    """Who sits there."""
    name: str | None = Field(default=None, min_length=1, max_length=40)
    """A person's name: the seat starts joined under it (the creator's own seat); without one the person names
    themselves when they join. A bot's name (by default one of the bots' names, Ada, Bruno…, none the same as
    another seat's; its level is told apart, in ``bot``)."""
    bot: str | None = Field(default=None, max_length=64)
    """A bot seat's level (``easy``, ``medium`` (the default), ``hard``, ``expert``, ``master``) or a bot specification
    (docs/bots.md); a person's seat names none. A level the game lacks at the table's player count is kept as the
    level it plays there (Three Thirteen's ``master`` as ``expert``)."""
    user: str | None = Field(default=None, min_length=1, max_length=64)
    """Invite a person by their user name (rule U7; only a signed-in creator may): the seat is bound to that
    account from the start (its invitation opens it to them alone), shown under their name unless ``name`` gives
    another, and listed in their ``GET /api/me`` with ``invited: true`` until they open it. Refused when no account
    has the name (``account.no_player``) or its person blocked the creator (``account.invite_blocked``)."""


class TableIn(_In):
    """A new table."""

    game: str = Field(max_length=32)
    """The game's id (``GET /api/games``)."""
    options: dict[str, Any] = Field(default_factory=dict)
    """Option name to value, each of the option's JSON type (``GET /api/games`` lists them): ``true`` or ``false``,
    a whole number in its range, a choice's value, a seat number or ``"random"``; an option left out takes its
    default."""
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    """The seats in order of play, seat 0 first; as many as the game takes players."""
    clock: float = Field(default=0, ge=0, le=600)
    """Seconds a person has for a move before the stand-in plays it; 0 (the default): no clock."""
    rated: bool = False
    """Whether the game updates the ratings of the accounts that play it (rule G1); a guest's seat is not rated."""
    pace: Literal["realtime", "turn-based"] = "realtime"
    """``realtime`` (the default): people play together now, and a bot plays for one away past the grace period.
    ``turn-based``: each person has ``move_time`` for each move, no bot takes an away person's seat, and
    ``on_timeout`` applies when the time runs out (rule P1). Only a signed-in person may make one, and its
    people's seats are taken by signed-in people alone."""
    move_time: int = Field(default=86400, ge=1, le=604800)
    """A turn-based table's seconds for each move: from an hour (``DREIZEHN_MOVE_TIME_MIN``) to 7 days (604800);
    one day by default."""
    on_timeout: Literal["move", "seat", "end"] = "move"
    """What happens at a turn-based table when a person's time runs out (rule P3): ``move`` (the default) a bot
    plays that one move; ``seat`` a bot takes the seat for the rest of the game; ``end`` the game ends with that
    person last."""
    private: bool = False
    """A private table is listed to its players alone."""


class JoinIn(_In):
    """Taking a seat."""

    token: str = Field(min_length=8, max_length=64)
    """The seat's invitation token."""
    name: str = Field(min_length=1, max_length=40)
    """The person's name (blanks run together; one of blanks alone is refused: ``server.empty_name``)."""


class NameIn(_In):
    """Taking a free seat from the list of tables."""

    name: str = Field(min_length=1, max_length=40)
    """The person's name (blanks run together; one of blanks alone is refused: ``server.empty_name``)."""


class LearnIn(_In):
    """A tutorial's table."""

    name: str = Field(min_length=1, max_length=40)
    """The person's name: their seat starts joined under it."""


class TutorialOut(_Out):
    """A game's tutorial as the browser follows it (dreizehn.play.tutorial): the person's seat and the steps, without
    the
    seed (though a step that wants a move names a card the deal gives the person)."""

    game: str
    """The game's id."""
    seat: int
    """The person's seat."""
    steps: list[dict[str, Any]]
    """The steps in order: each a catalogue key of the game's words (``say``) and its condition (``want``, an action
    the person must make; ``until``: ``"next"``, ``"mine"``, ``"end"`` or an event's ``event``, ``seat``, ``has``;
    ``free``: any move accepted meanwhile)."""


class TokenIn(_In):
    """A seat's token, as proof of being one of a table's people."""

    token: str = Field(min_length=8, max_length=64)
    """The seat's invitation token to the finished table."""


class RematchIn(TokenIn):
    """A rematch asked for: the asker's token, and the seats to give to bots (those whose people declined)."""

    bots: list[Annotated[int, Field(ge=0, le=63)]] = Field(default_factory=list, max_length=64)
    """Seats of other people of the finished table that a bot plays in the rematch (at the stand-in's level,
    ``DREIZEHN_STAND_IN``); none by default: every seat as it was."""


class Invitation(_Out):
    """A secret link: to a seat, or to watch."""

    seat: int
    """The seat it opens; -1 for the spectators' link."""
    token: str
    """The token (192 random bits, stored hashed: it is shown once); empty in a rematch's late answer's
    ``spectator``."""
    url: str
    """The page that opens it: ``<server>/play/<token>``, or ``<server>/watch/<table>/<token>``."""


class SeatOut(_Out):
    """A seat as anyone sees it."""

    seat: int
    """Its number, from 0."""
    name: str
    """The person's name (empty until they join), or the bot's."""
    kind: Literal["person", "bot"]
    """Who sits there."""
    bot: str | None
    """A bot's level or specification; ``null`` for a person."""
    joined: bool
    """Whether the seat is taken: a bot's always, a person's once named."""


class TableOut(_Out):
    """A table as anyone may see it (never its seed nor tokens)."""

    id: str
    """The table's id."""
    game: str
    """The game's id."""
    players: int
    """The number of seats."""
    options: dict[str, Any]
    """Every option of the game with its value (a seat option drawn ``"random"`` still says ``"random"``; the views
    hold the seat drawn)."""
    status: Literal["open", "playing", "finished"]
    """``open`` until the game's first action, ``playing`` then, ``finished`` once the game is over."""
    seats: list[SeatOut]
    """Every seat, seat 0 first."""
    clock: float
    """Seconds a person has for a move; 0: no clock."""
    created_at: str
    """When the table was created (ISO 8601, UTC)."""
    finished_at: str | None
    """When its game ended (ISO 8601, UTC); ``null`` before."""
    rematch: str | None
    """The id of its rematch table, once one of its people asked for one; else ``null``."""
    rated: bool = False
    """Whether the game updates its players' ratings (rule G1)."""
    pace: Literal["realtime", "turn-based"] = "realtime"
    """``realtime`` or ``turn-based`` (rule P1)."""
    move_time: int | None = None
    """A turn-based table's seconds for each move; ``null`` for a real-time one."""
    on_timeout: Literal["move", "seat", "end"] | None = None
    """A turn-based table's rule when a person's time runs out (rule P3); ``null`` for a real-time one."""
    private: bool = False
    """Whether the table is listed to its players alone."""
    deadline: str | None = None
    """At a turn-based table where a person is to move: when their time runs out (ISO 8601, UTC); else ``null``."""
    ended_seat: int | None = None
    """The seat whose time ran out and ended the game (rule P3, ``end``): that person is last; else ``null``."""
    totals: list[int] | None = None
    """A finished game's totals per seat (``GET /api/tables/{id}`` only); else ``null``."""
    winners: list[int] | None = None
    """A finished game's winning seats, ascending (``GET /api/tables/{id}`` only); else ``null``."""
    by_bots: bool = False
    """A finished game that bots finished: a person's seat was played by a bot at its end (a bot took it for good,
    ``left_at``, or its last move was the stand-in's, the person away). ``false`` while the game is played."""
    my_seat: int | None = None
    """The caller's own seat there (a seat bound to the signed-in account), in ``GET /api/tables``; else ``null``."""


class CreatedOut(_Out):
    """A new table: one secret invitation per person's seat, and the spectators' link."""

    table: TableOut
    """The table."""
    invitations: list[Invitation]
    """One invitation per person's seat, in seat order (bots have none): share each with its person. A rematch's
    answer holds the asker's alone."""
    spectator: Invitation
    """The spectators' link (``seat`` -1)."""


class JoinedOut(_Out):
    """A seat taken."""

    table: str
    """The table's id."""
    seat: int
    """The seat taken."""


class OptionOut(_Out):
    """An option of a game, with its words in the language asked."""

    name: str
    """Its name, as ``options`` of ``POST /api/tables`` takes it."""
    label: str
    """Its name in words."""
    help: str
    """What it does, in words."""
    kind: str
    """``bool`` (``true``/``false``), ``int`` (a whole number from ``low`` to ``high``), ``choice`` (one of
    ``choices``' values) or ``seat`` (a seat number or ``"random"``)."""
    default: Any
    """Its value when left out."""
    choices: list[dict[str, str]]
    """A choice option's values, each ``{"value", "label"}``; empty for other kinds."""
    low: int | None
    """An ``int`` option's least value; else ``null``."""
    high: int | None
    """An ``int`` option's greatest value; else ``null``."""
    rule: str
    """The rule of the game the option belongs to."""


class CardFace(_Out):
    """What a card shows where it is drawn."""

    colour: str
    """A name for its colour or suit, which a drawing styles (``plain`` for a plain card)."""
    value: str
    """The big text on it."""
    shape: str
    """A symbol for its colour or suit, so that colour is never the only sign (may be empty)."""
    label: str
    """The card in words."""


class GameOut(_Out):
    """A game, in the language asked."""

    id: str
    """The game's id."""
    title: str
    """Its name."""
    description: str
    """One or two sentences about it."""
    rules: str
    """A summary of its rules: short paragraphs separated by blank lines."""
    min_players: int
    """The fewest seats it takes."""
    max_players: int
    """The most seats it takes."""
    options: list[OptionOut]
    """Its options."""
    levels: list[str]
    """The bot levels this game offers, weakest first: ``easy``, ``medium``, ``hard``, ``expert``, and ``master``
    where the game has one, ``learned`` where it has a network at some player count
    (:func:`dreizehn.bots.levels.game_levels`)."""
    levels_by_players: dict[int, list[str]] = {}
    """The bot levels offered at each player count with the game's usual options, weakest first
    (:func:`dreizehn.bots.offered.offered_levels`): ``learned`` only where it plays (13 and Holzwurm at 4 players)."""
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
    tutorial: bool = False
    """Whether the game has a tutorial, a first game that teaches its rules (``/api/learn/{game}``)."""
    picture: str = "/static/img/game.svg"
    """The address of its picture (320 by 160): the app's own (``/static/img/<id>.svg``), one the game brings in its
    folder (``/api/games/<id>/picture.svg``), else the picture of a game in general."""


class ReplayStep(_Out):
    """One action of a finished game."""

    version: int
    """The version the action made (1 for the first action)."""
    seat: int
    """The seat that acted."""
    action: str
    """The action in notation."""
    text: str
    """The action in words, told as done by the seat's person."""
    by: str
    """Who chose it: ``person``, ``bot``, or ``stand-in`` (the stand-in bot, for a person away or whose turn clock
    ran out)."""
    events: list[dict[str, Any]]
    """Its events whole: each ``{"key", "params", "private", "text"}`` (and ``lines`` for ``stage.scored``), where
    ``private`` maps each seat (as text) to the parameters only it had: every hand revealed (docs/wire.md)."""


class ChatLineOut(_Out):
    """A line a player said at the table."""

    seat: int
    """The speaker's seat."""
    name: str
    """The speaker's name."""
    text: str | None
    """The free text, or ``null`` for a phrase."""
    phrase: str | None
    """The quick phrase's key (``good_luck`` …), or ``null`` for free text."""
    version: int
    """The game's version when it was said."""


class TakeBackOut(_Out):
    """A take-back during play (S8): a person alone with bots took back their move and the bots' after it."""

    version: int
    """The version the game went back to: the number of actions before the move taken back (the record holds the
    moves that stand: those after it are the ones played again)."""
    seat: int
    """The seat whose person took the move back."""
    count: int
    """How many actions were taken back (kept in the store, not in the record)."""


class ReplayOut(_Out):
    """A finished game, action by action, every hand revealed."""

    table: TableOut
    """The table, with its totals and winners."""
    names: list[str]
    """The seats' names, seat 0 first."""
    opening: list[dict[str, Any]]
    """The first deal's event whole (``stage.dealt``, every hand), as ``events`` of a step."""
    steps: list[ReplayStep]
    """Every action, in order."""
    chat: list[ChatLineOut] = []
    """What the players said at the table, in order (the spectators' lines are theirs alone); each line's
    ``version`` places it after that many actions."""
    taken_back: list[TakeBackOut] = []
    """The moves taken back during play, in order (a person alone with bots, S8)."""


class ReplayViewsOut(_Out):
    """A finished game after ``version`` actions: every seat's view document (docs/wire.md), seat 0 first, every
    hand revealed."""

    version: int
    """The number of actions applied."""
    views: list[dict[str, Any]]
    """Each seat's view document, seat 0 first."""


class AnalysisIn(_In):
    """The analysis of a finished game asked for one seat."""

    seat: int = Field(ge=INT64_MIN, le=INT64_MAX)
    """The seat whose decisions are rated."""


class RatedMove(_Out):
    """An action of a decision, rated by the hint search: its win chance (with its 95 % interval, the sampling error
    alone) and the seat's expected final total."""

    action: str
    """The action in notation."""
    text: str
    """The action in words, in the language asked."""
    chance: float
    """The estimated chance to win the game after it."""
    chance_low: float
    """The chance less 1.96 standard errors, at least 0."""
    chance_high: float
    """The chance plus 1.96 standard errors, at most 1."""
    points: float
    """The seat's expected final total."""


class DecisionOut(_Out):
    """A decision of the seat: ``version`` actions were played before it; ``options`` legal actions; ``loss`` the
    win chance the action played gave up against the best one (0 when it was the best)."""

    version: int
    """The number of actions before the decision (the replay's view ``/replay/{version}`` shows the position)."""
    options: int
    """The number of legal actions."""
    played: RatedMove
    """The action the seat took."""
    best: RatedMove
    """The action the search rates first."""
    loss: float
    """``best.chance - played.chance``; 0 when the action played was the best."""


class AnalysisOut(_Out):
    """The analysis of a finished game for one seat: ``done`` of ``total`` decisions rated so far, in game order;
    ``worst`` the versions of the costliest decisions (at most 5 losing more than 0.05), costliest first."""

    table: str
    """The table's id."""
    seat: int
    """The seat analysed."""
    status: Literal["running", "done", "failed"]
    """``failed``: rating a decision raised; asking again takes it up again."""
    done: int
    """The decisions rated so far."""
    total: int
    """All the seat's decisions."""
    playouts: int
    """The playouts of each decision."""
    decisions: list[DecisionOut]
    """The decisions rated so far, in game order."""
    worst: list[int]
    """The versions of the decisions that lost the most win chance: at most 5 losing more than 0.05, the biggest
    loss first."""


# -- accounts (dreizehn.server.accounts; routes: dreizehn.server.routes.accounts) --------------------------------------
class SignUpIn(_In):
    """A new account (rule U1, U2). The lengths are checked by the server after normalising, so that a person is
    told which rule a name or password breaks, in their language: the bounds here only keep a body small."""

    name: str = Field(max_length=200)
    """The user name: 3 to 20 characters after NFKC, letters and digits of one script, ``_`` and ``-``; unique
    without regard to case or look-alike letters (``account.name_*``)."""
    password: str = Field(max_length=4096)
    """8 to 200 characters (``account.password_length``; a longer one is refused before it is hashed)."""
    email: str | None = Field(default=None, max_length=4096)
    """An e-mail address for a forgotten password, proved by a link sent to it (optional)."""
    seats: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=500)
    """The invitation tokens of the seats this browser played as a guest (each ``/play/<token>`` it sat at, not the
    links it holds to invite others): those a person took and that are bound to nobody become the account's (rule
    U7)."""


class SignInIn(_In):
    """Signing in (rule U3): the user name (in any case) and the password."""

    name: str = Field(max_length=200)
    """The user name."""
    password: str = Field(max_length=4096)
    """The password."""
    seats: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=500)
    """As at sign-up: the guest seats of this browser, which become the account's (rule U7)."""


class PasswordIn(_In):
    """A password to confirm who asks (deleting the account)."""

    password: str = Field(max_length=4096)
    """The account's password."""


class NewPasswordIn(_In):
    """Changing the password: the one in use and the new one (8 to 200 characters)."""

    password: str = Field(max_length=4096)
    """The password in use."""
    new_password: str = Field(max_length=4096)
    """The new password."""


class SessionOut(_Out):
    """Who is signed in on this browser, and the token its changing requests carry (``X-CSRF-Token``, rule U4)."""

    name: str
    """The user name, as it was typed at sign-up (after NFKC)."""
    csrf: str
    """Send it as the header ``X-CSRF-Token`` with every request that changes something (POST, PUT, PATCH,
    DELETE) made with the session cookie: one without it is refused (``account.csrf``, 403). Empty for a request
    made with a personal API token, which needs none."""
    email: str | None
    """The account's e-mail address, if it gave one."""
    email_verified: bool
    """Whether a link sent to that address was opened."""
    settings: dict[str, Any]
    """The settings kept for every device (language, sound, reduced motion, default bot level)."""


# -- ratings (dreizehn.server.ratings; routes: dreizehn.server.routes.ratings) ----------------------------------------
class RatingOut(_Out):
    """A rating in one game (rule G1): the number shown, its uncertainty, and whether it is provisional."""

    game: str
    """The game's id."""
    rating: int
    """The number shown: openskill's ordinal (mu - 3 sigma) scaled to read like an Elo rating, 1500 for a settled
    average player, 1000 for a new one."""
    spread: int
    """The uncertainty, two sigmas in rating points (shown as ``± spread``)."""
    games: int
    """Rated games of this game played."""
    provisional: bool
    """Fewer than 10 rated games: the rating still moves a lot."""


class RatingPoint(_Out):
    """The rating after one rated game."""

    at: str
    """When the game ended (ISO 8601)."""
    rating: int
    """The number shown after it."""
    place: int
    """The place in that game (1 the best)."""


class LevelOut(_Out):
    """A bot level's calibrated rating in a game (rule G5), beside which a person reads their own."""

    level: str
    """The level's name (``easy`` to ``master``)."""
    players: int
    """The player count it was measured at."""
    rating: int
    """The number shown, as a person's."""
    spread: int
    """Its uncertainty, two sigmas in rating points."""


class PlayerRatingsOut(_Out):
    """A player's ratings, each game's with its history (the profile's plot)."""

    name: str
    """The user name."""
    ratings: list[RatingOut]
    """One per game rated."""
    history: dict[str, list[RatingPoint]]
    """Game id to the rating after each rated game, the oldest first (at most 500)."""
    levels: dict[str, list[LevelOut]] = {}
    """Game id to the bot levels calibrated in it, the weakest first, at the player count measured most (of equal
    ones the nearest to 3); a game without any has none."""


class BoardRow(RatingOut):
    """A row of a leaderboard."""

    rank: int
    """The place on the board (1 the highest; equal ratings share a place)."""
    name: str
    """The user name."""


class LeaderboardOut(_Out):
    """A game's leaderboard (rule G4): the top 100 accounts that played a rated game of it in the last 30 days, and
    the reader's own place."""

    game: str
    """The game's id."""
    since: str
    """The start of the 30 days (ISO 8601)."""
    rows: list[BoardRow]
    """The highest ratings first."""
    you: BoardRow | None
    """The signed-in reader's row, wherever it stands (``null`` for a guest, or one not on the board)."""
# -- mail: addresses and forgotten passwords (issue 45 item 5, rule U6) ------------------------------------------------
class EmailIn(_In):
    """A new e-mail address for the account (rule U6): unverified until the link mailed to it is opened."""

    email: str | None = Field(max_length=4096)
    """The address (``account.email`` for one that is none); ``null`` or blank: the account keeps none."""


class LinkIn(_In):
    """A link's token, from the mail (``/verify/<token>``)."""

    token: str = Field(max_length=128)
    """The token, the last part of the link."""


class ResetIn(_In):
    """Asking for a link that sets a new password (rule U6)."""

    name: str = Field(max_length=4096)
    """A user name, or an e-mail address: the link goes to each account of that name or address whose address is
    verified (and the answer is the same when there is none)."""


class ResetConfirmIn(_In):
    """A new password, given the token of a reset link (``/reset/<token>``)."""

    token: str = Field(max_length=128)
    """The token, the last part of the link."""
    password: str = Field(max_length=4096)
    """The new password: 8 to 200 characters (``account.password_length``)."""


class MailOut(_Out):
    """Whether the server sends mail (the answer of every route that would)."""

    configured: bool
    """``false``: no SMTP server is set, no mail goes out (a page says so plainly: to reset a password or verify an
    address, ask the server's operator, whose log carries the link)."""


class VerifiedOut(_Out):
    """An address proved by its link."""

    name: str
    """The user name of the account."""
    email: str
    """The address, now verified."""
    email_verified: bool
    """Always ``true`` here."""


# -- the daily deal (dreizehn.server.daily; routes: dreizehn.server.routes.daily) --------------------------------------
class DailyDealOut(_Out):
    """One of the day's deals, and the asker's play of it."""

    game: str
    """The game's id."""
    players: int
    """The player count: the person at seat 0, bots at the others."""
    table: str | None
    """The signed-in asker's table of this deal, if they started it (``null`` for a guest)."""
    finished: bool
    """Whether that play is over (its results may be seen)."""


class DailyOut(_Out):
    """The day's deals (rule D1)."""

    day: str
    """The day (UTC, ISO 8601 date): a new deal at midnight UTC."""
    bots: str
    """The level of the bots every deal seats."""
    deals: list[DailyDealOut]
    """Each game at each of its player counts."""


class DailyIn(_In):
    """Starting a play of a deal."""

    name: str = Field(default="", max_length=40)
    """A guest's name (a signed-in person plays under their user name)."""


class DailyStartOut(_Out):
    """A play of a deal, started."""

    table: str
    """Its table's id."""
    token: str
    """The person's seat token (seat 0): ``/play/<token>`` opens it (for an account's seat, to that account only)."""
    url: str
    """Where to play it."""


class DailyRow(_Out):
    """A finished play of the deal."""

    name: str | None
    """The account's user name (``null``: a guest)."""
    total: int
    """The person's total."""
    rank: int | None
    """The place among the accounts (1 the best; equal totals share it); ``null`` for a guest, unranked."""
    replay: str
    """The play's replay page."""
    mine: bool
    """The asker's own play."""


class DailyResultsOut(_Out):
    """A deal's results, for one who finished it (rule D3)."""

    day: str
    """The day (ISO 8601 date)."""
    game: str
    """The game's id."""
    players: int
    """The player count."""
    rows: list[DailyRow]
    """The finished plays, the best total first."""
    spread: dict[str, float]
    """The totals' spread: ``n``, ``lowest``, ``quartile1``, ``median``, ``quartile3``, ``highest``."""


class DailyDayOut(_Out):
    """An account's play of one day's deal."""

    day: str
    """The day (ISO 8601 date)."""
    game: str
    """The game's id."""
    players: int
    """The player count."""
    table: str
    """The play's table."""
    total: int | None
    """The person's total (``null`` while it is played)."""


class DailyHistoryOut(_Out):
    """An account's daily deals: its streak and its plays, the newest first."""

    streak: int
    """Days in a row, up to today or yesterday, with at least one deal finished."""
    days: list[DailyDayOut]
    """The plays, the newest first (at most 400)."""
# -- friends, blocks, settings kept on the server, personal API tokens (issue 45 items 4, 6, 7; rules U8, U9) -------
class UserNameIn(_In):
    """Another person, by their user name (found without regard to case or look-alike letters)."""

    name: str = Field(max_length=200)
    """Their user name."""


class PersonOut(_Out):
    """Another person, by their user name as they wrote it."""

    name: str
    """Their user name."""


class FriendsOut(_Out):
    """An account's friends, the asks between it and others, and whom it blocks; each list by name."""

    friends: list[PersonOut]
    """Those who are friends with the account (both said so)."""
    asked: list[PersonOut]
    """Those the account asked to be friends, who have not answered."""
    asking: list[PersonOut]
    """Those who asked the account to be friends (none it blocks): asking them back accepts."""
    blocked: list[PersonOut]
    """Those it blocks: they send it no invitation by name, and it reads no line of chat of theirs."""


BotLevelName = Literal["easy", "medium", "hard", "expert", "master"]


class SettingsIn(_In):
    """Settings kept on the server for every device; a field left out keeps its value."""

    language: Literal["en", "de", "nl"] | None = None
    """The language of the pages (``null``: the browser's)."""
    sound: bool = True
    """Whether the pages play sounds."""
    reduced_motion: bool = False
    """Whether the pages move cards without animation."""
    bot_level: BotLevelName = "medium"
    """The level a new table's bots get unless another is chosen."""


class SettingsOut(_Out):
    """The settings kept on the server for every device (each with its default where never set)."""

    language: Literal["en", "de", "nl"] | None
    """The language of the pages (``null``: the browser's)."""
    sound: bool
    """Whether the pages play sounds (default true)."""
    reduced_motion: bool
    """Whether the pages move cards without animation (default false)."""
    bot_level: BotLevelName
    """The level a new table's bots get unless another is chosen (default ``medium``)."""


class ApiTokenIn(_In):
    """A new personal API token."""

    label: str = Field(max_length=4096)
    """What it is for (1 to 64 characters, no markup: ``account.token_label``)."""


class ApiTokenOut(_Out):
    """A personal API token as its list shows it: never the token itself."""

    id: str
    """Its id (to revoke it)."""
    label: str
    """What it is for."""
    created_at: str
    """When it was made (ISO 8601, UTC)."""
    used_at: str | None
    """When it was last used (written at most once a minute), or ``null``."""


class NewApiTokenOut(_Out):
    """A personal API token just made: the token is shown this once (only its SHA-256 is stored)."""

    id: str
    """Its id (to revoke it)."""
    label: str
    """What it is for."""
    token: str
    """``dzt_`` and 32 characters: send it as ``Authorization: Bearer <token>``."""
# -- a player's home (GET /api/me, GET /api/players/{name}; dreizehn.server.accounts.home) -----------------------------
class PlayerAt(_Out):
    """Who sits at a seat of a game in a player's lists."""

    name: str
    """The seat's name in the language asked for (a former player's, whose account was deleted, is said as such:
    ``account.former_player``)."""
    account: str | None
    """The user name of the account the seat is bound to (``null``: a guest, a bot, a former player)."""
    bot: str | None
    """A bot seat's level or specification."""
    former: bool
    """The seat's account was deleted: shown as "a former player"."""


class MyGame(_Out):
    """A game in a player's lists: one of their seats at a table."""

    table: str
    """The table's id."""
    game: str
    """The game's id."""
    seat: int
    """The player's seat there."""
    players: list[PlayerAt]
    """Every seat of the table, in order."""
    status: Literal["open", "playing", "finished"]
    """The table's status."""
    your_turn: bool
    """A game in progress whose next move is this seat's."""
    invited: bool
    """Invited by user name and not opened yet."""
    totals: list[int] | None
    """A finished game's totals per seat (``null`` while it is played)."""
    won: bool | None
    """Whether the seat is among the winners of a finished game (``null`` while it is played)."""
    created_at: str
    """When the table was made (ISO 8601, UTC)."""
    finished_at: str | None
    """When the game ended."""
    url: str
    """Where to go: the seat's page ``/seat/<table>/<seat>`` while it is played (its owner opens it signed in), the
    replay ``/replay/<table>`` once it is over."""
    by_bots: bool = False
    """A finished game that bots finished: a person's seat (this one or another's) was played by a bot at its end
    (a bot took it for good, or its last move was the stand-in's, the person away)."""
    pace: Literal["realtime", "turn-based"] = "realtime"
    """``realtime`` or ``turn-based`` (rule P1 of docs/turns.md)."""
    deadline: str | None = None
    """A turn-based game in progress: when the person to move runs out of time (ISO 8601, UTC); else ``null``."""


class GameStats(_Out):
    """A player's finished games of one game."""

    game: str
    """The game's id."""
    games: int
    """Finished games played."""
    wins: int
    """Of those, the games the seat was among the winners of."""
    average: float | None
    """The average total (``null`` without games)."""
    best: int | None
    """The best total: the highest, or in a game whose lowest total wins, the lowest."""
    left_to_bots: int
    """Finished games the player left to a bot: a bot played their seat at its end (a bot took the seat for good,
    or its last move was chosen by the stand-in, the bot that plays for a person who is away): the player was not
    there at its end."""


class MeOut(_Out):
    """A signed-in player's home: games in progress (their move first, then the newest), finished games (the newest
    first, at most 50) and statistics per game."""

    name: str
    """The user name."""
    playing: list[MyGame]
    """Games being played or waiting for players (at most 50)."""
    finished: list[MyGame]
    """Finished games, the newest first (at most 50)."""
    stats: list[GameStats]
    """Per game played, over every finished game."""


class PlayerOut(_Out):
    """Another player's public part: no game in progress, no token."""

    name: str
    """The user name."""
    since: str
    """The day the account was made (ISO 8601 date)."""
    stats: list[GameStats]
    """Per game played, over every finished game."""
    finished: list[MyGame]
    """The last 20 finished games (their replays are public); a private table's only to one who sat at it too."""
