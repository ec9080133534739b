"""``/api/tables`` and ``/api/seats``: create a table, join a seat, list tables, a finished game's record and replay,
rematch."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections import OrderedDict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response

from dreizehn import __version__
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_name, name_bot_seats
from dreizehn.core.errors import DreizehnError, InvalidOptionError
from dreizehn.core.game import Game, OptionSpec
from dreizehn.core.record import to_record
from dreizehn.core.registry import game_class, game_ids, load_game
from dreizehn.core.wire import to_wire
from dreizehn.server.accounts.seats import check_token_seat, invitee, seat_path
from dreizehn.server.chat import lines as chat_lines
from dreizehn.server.protocol import INT64_MAX, INT64_MIN
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import Room, build_table, said_event, said_names, seat_names, sentence
from dreizehn.server.rooms.state import totals_and_winners
from dreizehn.server.routes.deps import DailyGuard, HubDep, LangDep, SettingsDep, WhoDep
from dreizehn.server.schemas import (
    ChatLineOut,
    CreatedOut,
    Invitation,
    JoinedOut,
    JoinIn,
    NameIn,
    RematchIn,
    ReplayOut,
    ReplayStep,
    ReplayViewsOut,
    SeatOut,
    TableIn,
    TableOut,
    TakeBackOut,
)
from dreizehn.server.settings import Settings
from dreizehn.server.storage import SeatRow, Stored, TableRow, hash_token, new_table_id, new_token, now
from dreizehn.server.storage.listing import Cursor, TableQuery, finished_by_bots
from dreizehn.server.takebacks import take_backs
from dreizehn.server.text import person_text
from dreizehn.server.turns.pacing import check_room_for, check_seat, pace_of
from dreizehn.words import words

router = APIRouter(prefix="/api", tags=["tables"])
TableId = Annotated[str, Path(max_length=24, pattern=r"^[A-Za-z0-9_-]+$")]


def _link(request: Request, public_url: str | None, path: str) -> str:
    base = (public_url or str(request.base_url)).rstrip("/")
    return f"{base}{path}"


def strict_options(game_id: str, players: int, options: dict[str, Any]) -> None:
    """Each option given is of its JSON type (rule A2): ``true`` or ``false``, a whole number in its range, one of
    its choices as written, a seat or ``"random"``. The engine reads options as a command line types them too
    (``"yes"``, ``"8"``); the API takes none of that. An unknown game or option is left to the engine."""
    try:
        specs = {spec.name: spec for spec in game_class(game_id).option_specs}
    except DreizehnError:
        return
    for name, value in options.items():
        spec = specs.get(name)
        if spec is not None and not _of_its_type(spec, players, value):
            spec.validate(value, players)  # the engine's own refusal of a value it cannot read at all
            raise _not_of_type(spec, players, value)


def _of_its_type(spec: OptionSpec, players: int, value: Any) -> bool:
    if spec.kind == "bool":
        return type(value) is bool
    if spec.kind == "choice":
        return type(value) is str and value in spec.choices
    if spec.kind == "seat" and value == "random":
        return True
    if spec.kind in ("int", "seat"):
        return type(value) is int
    return type(spec.validate(value, players)) is type(value) and spec.validate(value, players) == value


def _not_of_type(spec: OptionSpec, players: int, value: Any) -> InvalidOptionError:
    """The engine's refusal of a value that is not of the option's kind."""
    said = {"rule": spec.rule, "name": spec.name, "value": value}
    if spec.kind == "bool":
        return InvalidOptionError("option.not_bool", **said)
    if spec.kind == "choice":
        return InvalidOptionError("option.not_choice", **said, choices=", ".join(spec.choices))
    if spec.kind == "seat":
        return InvalidOptionError("option.not_seat", **said, last=players - 1)
    return InvalidOptionError("option.not_in_range", **said, low=spec.low, high=spec.high)


def table_out(row: TableRow, seats: tuple[SeatRow, ...] | list[SeatRow], totals: list[int] | None = None,
              winners: list[int] | None = None, lang: str = "en", deadline: str | None = None) -> TableOut:
    """A table as anyone may see it: a seat whose account was deleted is named as a former player in ``lang``."""
    names = seat_names(list(seats), lang)
    return TableOut(
        id=row.id, game=row.game_id, players=row.players, options=row.options,
        status=row.status,  # type: ignore[arg-type]
        seats=[SeatOut(seat=s.seat, name=s.name if not s.former else names[s.seat], kind="bot" if s.bot else "person",
                       bot=s.bot, joined=s.joined)
               for s in seats],
        clock=row.clock, created_at=row.created_at.isoformat(),
        finished_at=row.finished_at.isoformat() if row.finished_at else None, rematch=row.rematch,
        totals=totals, winners=winners, rated=row.rated,
        pace=row.pace,  # type: ignore[arg-type]
        move_time=row.move_time, on_timeout=row.on_timeout,  # type: ignore[arg-type]
        private=row.private, deadline=deadline, ended_seat=row.ended_seat,
    )


def _new_table(game_id: str, options: dict[str, Any], seats: list[tuple[str, str | None, bool]], clock: float,
               rematch_of: str | None = None, accounts: list[str | None] | None = None,
               rated: bool = False) -> tuple[TableRow, list[SeatRow], list[str | None], str]:
    """A new table's row and seats (each bound to its account of ``accounts``: rule U7), the people's tokens
    (``None`` for bots) and the spectators' token."""
    row = TableRow(
        id=new_table_id(), game_id=game_id, players=len(seats), options=options, seed=secrets.randbits(63),
        package_version=__version__, status="open", clock=clock, rematch_of=rematch_of, rematch=None,
        created_at=now(), finished_at=None, rated=rated,
    )
    bound = accounts or [None] * len(seats)
    seat_rows = [SeatRow(i, name, bot, joined or bot is not None, bound[i] if bot is None else None)
                 for i, (name, bot, joined) in enumerate(seats)]
    tokens = [None if bot else new_token() for _, bot, _ in seats]
    return row, seat_rows, tokens, new_token()


def bounded_bot(spec: str, game: Game, settings: Settings) -> None:
    """Refuse a bot seat's level or specification that is not one (``bot.*``), or a specification that asks to
    think longer than a table's bot may (``server.bot_too_costly``, S2): ``time`` above half of
    ``DREIZEHN_BOT_TIMEOUT`` (so that it answers before the deadline that kills its worker) or ``iterations`` above
    ``DREIZEHN_BOT_MAX_ITERATIONS``. A level's name is always taken: its cost is the game's own."""
    bot = make_bot(spec, game)
    if level_name(spec, game.id, game.players) is not None:
        return
    seconds, iterations = settings.bot_timeout / 2, settings.bot_max_iterations
    asked_time, asked_iterations = bot.options.get("time"), bot.options.get("iterations")
    if (isinstance(asked_time, int | float) and asked_time > seconds) or (
            isinstance(asked_iterations, int) and asked_iterations > iterations):
        raise ServerError("server.bot_too_costly", rule="S2", bot=spec, seconds=seconds, iterations=iterations)


def _seat_name(name: str | None) -> str | None:
    """A seat's name as given at creation, by the rule of every name (S9); one of blanks alone is refused."""
    if name is None:
        return None
    cleaned = person_text(name, "name")
    if not cleaned:
        raise ServerError("server.empty_name", rule="S2", status=422)
    return cleaned


async def _names_of(hub: HubDep, bound: list[str | None]) -> dict[str, str]:
    """The user names of the accounts a new table's seats are bound to, by id."""
    return await asyncio.to_thread(hub.clocks.names, sorted({a for a in bound if a is not None}))


async def _bindings(hub: HubDep, body: TableIn, who: WhoDep) -> tuple[list[str | None], list[str | None]]:
    """The account each seat of a new table is bound to (rule U7) and the name of each seat invited by user name:
    a signed-in creator's own seat (the first person's seat given a name) is theirs; a seat with ``user`` is that
    account's (:func:`~dreizehn.server.accounts.seats.invitee`)."""
    creator = who.account.id if who is not None else None
    bound: list[str | None] = [None] * len(body.seats)
    invited: list[str | None] = [None] * len(body.seats)
    for i, seat in enumerate(body.seats):
        if seat.user is None:
            continue
        if seat.kind == "bot":
            raise ServerError("account.bot_invited", rule="U7")
        bound[i], invited[i] = await asyncio.to_thread(invitee, hub.store, seat.user, creator)
    own = next((i for i, s in enumerate(body.seats) if s.kind == "person" and s.name and s.user is None), None)
    if creator is not None and own is not None:
        bound[own] = creator
    return bound, invited


@router.post("/tables", status_code=201)
async def create_table(body: TableIn, request: Request, hub: HubDep, settings: SettingsDep, who: WhoDep,
                       lang: LangDep) -> CreatedOut:
    """Create a table: the game, its options, and per seat a person (invited by a secret link, or by user name:
    ``user``) or a bot level. Answers with one invitation per person's seat and the spectators' link. A signed-in
    creator's own seat (the first person's seat given a name) is bound to their account (rule U7)."""
    strict_options(body.game, len(body.seats), body.options)
    game = load_game(body.game, len(body.seats), body.options)
    for seat in body.seats:
        if seat.kind == "bot":
            bounded_bot(seat.bot or "medium", game, settings)
        elif seat.bot is not None:
            raise ServerError("server.person_with_bot", rule="S2")
    pace = pace_of(body, who is not None, settings)
    bound, invited = await _bindings(hub, body, who)
    if body.pace == "turn-based":
        await check_room_for(hub.clocks, settings, await _names_of(hub, bound))
    named = name_bot_seats([_seat_name(s.name) for s in body.seats], [s.kind == "bot" for s in body.seats])
    # a level's name is stored as the level it plays here (Three Thirteen's "master" is its "expert")
    bots = [level_name(s.bot or "medium", game.id, game.players) or s.bot if s.kind == "bot" else None
            for s in body.seats]
    seats = [((name or bot) if bot else (name or user or ""), bot, s.name is not None and user is None)
             for s, name, bot, user in zip(body.seats, named, bots, invited, strict=True)]
    row, seat_rows, tokens, spectator = _new_table(game.id, dict(game.options), seats, body.clock, accounts=bound,
                                                   rated=body.rated)
    row = dataclasses.replace(row, **pace)
    await asyncio.to_thread(hub.store.tables.create, row, seat_rows, [t and hash_token(t) for t in tokens],
                            hash_token(spectator))
    room = await hub.room(row.id)
    if room is not None:
        room.after_change()
    return CreatedOut(
        table=table_out(row, seat_rows, lang=lang),
        invitations=[Invitation(seat=i, token=t, url=_link(request, settings.public_url,
                                                           seat_path(row.id, i) if invited[i] else f"/play/{t}"))
                     for i, t in enumerate(tokens) if t is not None],
        spectator=Invitation(seat=-1, token=spectator,
                             url=_link(request, settings.public_url, f"/watch/{row.id}/{spectator}")),
    )


@router.post("/seats/join")
async def join_seat(body: JoinIn, hub: HubDep, settings: SettingsDep, who: WhoDep, lang: LangDep) -> JoinedOut:
    """Take the seat an invitation opens, under a name; once (a seat taken already is refused, and keeps its
    name). Signed in, the seat is bound to the account (rule U7); a seat bound to another account is refused to
    everyone else (``account.seat_bound``, 403, with the page to watch the table)."""
    found = await asyncio.to_thread(hub.store.tables.token_seat, body.token)
    if found is None:
        raise ServerError("server.bad_token", rule="S1", status=404)
    mine = who.account.id if who is not None else None
    await check_token_seat(hub.store, found, mine)
    table_id, seat = found.table_id, found.seat
    name = person_text(body.name, "name")
    if not name:
        raise ServerError("server.empty_name", rule="S2", status=422)
    if not found.joined:
        await check_seat(hub.clocks, settings, table_id, (who.account.id, who.account.name) if who else None)
    if not await asyncio.to_thread(hub.store.tables.take_seat, table_id, seat, name, mine):  # never renamed later
        stored = await _stored(hub, table_id)
        raise ServerError("server.seat_taken", rule="S2", name=stored.seats[seat].name, status=409)
    hub.peers.seat_taken(table_id, seat, name, drop=False)  # told where the table is served
    return JoinedOut(table=table_id, seat=seat)


@router.post("/tables/{table_id}/seats/{seat}")
async def take_free_seat(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)], body: NameIn,
                         request: Request, hub: HubDep, settings: SettingsDep, who: WhoDep,
                         lang: LangDep) -> Invitation:
    """Take a free person's seat of a table in the list of open tables, under a name: answers the seat's new
    invitation (its link is the new player's). The seat's old invitation stops opening it, and a window that had
    it open is disconnected (it never sees the new player's hand). A seat that is a bot's, taken already, or not
    there, or a game that is over, or one bound to another account (invited by user name), is refused
    (``server.seat_not_free``, 409). Signed in, the seat is bound to the account (rule U7)."""
    name = person_text(body.name, "name")
    if not name:
        raise ServerError("server.empty_name", rule="S2", status=422)
    stored = await _stored(hub, table_id)
    await check_seat(hub.clocks, settings, table_id, (who.account.id, who.account.name) if who else None)
    token = new_token()
    if stored.row.status == "finished" or not 0 <= seat < len(stored.seats) or not await asyncio.to_thread(
            hub.store.tables.take_free_seat, table_id, seat, name, hash_token(token),
            who.account.id if who is not None else None):
        raise ServerError("server.seat_not_free", rule="S2", status=409)
    hub.peers.seat_taken(table_id, seat, name, drop=True)  # the old invitation's windows closed where it is served
    return Invitation(seat=seat, token=token, url=_link(request, settings.public_url, f"/play/{token}"))


@router.get("/tables")
async def list_tables(hub: HubDep, lang: LangDep, who: WhoDep, response: Response,
                      status: Literal["open", "playing", "finished"] = "open",
                      game: Annotated[str | None, Query(max_length=32)] = None,
                      whose: Literal["all", "mine"] = "all",
                      cursor: Annotated[str | None, Query(max_length=200)] = None,
                      limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[TableOut]:
    """Tables by ``status``: ``open`` (a person's seat still free), ``playing`` (every seat taken) or ``finished``
    (each with its totals, winners and whether bots finished it), of one ``game`` or all, everyone's or the
    signed-in caller's own (``whose=mine``; a guest is refused ``account.signed_out``). The caller's own tables
    first, then the newest (a finished game: by the time it ended); a private table is listed and counted to its
    players alone. At most ``limit`` (1 to 200) a page: the header ``X-Next-Cursor`` holds the ``cursor`` of the next
    page (none on the last one), ``X-Total-Count`` how many tables the whole list holds."""
    if game is not None and game not in game_ids():
        raise ServerError("server.bad_request", rule="S6", field="query.game", problem="unknown", status=422)
    if whose == "mine" and who is None:
        raise ServerError("account.signed_out", rule="U3", status=401)
    after = Cursor.read(cursor) if cursor else None
    if cursor and after is None:
        raise ServerError("server.bad_request", rule="S6", field="query.cursor", problem="invalid", status=422)
    query = TableQuery(status, game, who.account.id if who is not None else None, whose == "mine", after, limit)
    page = await asyncio.to_thread(hub.store.tables.listing, query)
    out = []
    for listed in page.tables:
        totals, winners = (await final_scores(hub, listed.row.id) if status == "finished" else None) or (None, None)
        out.append(table_out(listed.row, listed.seats, totals, winners, lang).model_copy(
            update={"by_bots": listed.by_bots, "my_seat": listed.my_seat}))
    if page.next is not None:
        response.headers["X-Next-Cursor"] = page.next.text()
    response.headers["X-Total-Count"] = str(page.total)
    if who is not None:
        response.headers["Cache-Control"] = "no-store"
    return out


_FINALS: OrderedDict[str, tuple[list[int], list[int]]] = OrderedDict()
"""The totals and winners of the finished games listed lately (a finished game never changes): the list of
finished games shows who won without replaying every game each time it is asked for."""
FINALS_KEPT = 1000


async def final_scores(hub: HubDep, table_id: str) -> tuple[list[int], list[int]] | None:
    """A finished game's totals and winners (its stored actions replayed once, then kept)."""
    found = _FINALS.get(table_id)
    if found is None:
        stored = await asyncio.to_thread(hub.store.tables.load, table_id)
        if stored is None or stored.row.status != "finished":
            return None
        found = _FINALS[table_id] = totals_and_winners(await asyncio.to_thread(build_table, stored))
        while len(_FINALS) > FINALS_KEPT:
            _FINALS.popitem(last=False)
    _FINALS.move_to_end(table_id)
    return found


async def _stored(hub: HubDep, table_id: str) -> Stored:
    stored = await asyncio.to_thread(hub.store.tables.load, table_id)
    if stored is None:
        raise ServerError("server.no_table", rule="S1", table=table_id, status=404)
    return stored


async def _finished(hub: HubDep, table_id: str) -> Stored:
    stored = await _stored(hub, table_id)
    if stored.row.status != "finished":
        raise ServerError("server.not_finished", rule="S5", status=409)
    return stored


@router.get("/tables/{table_id}")
async def get_table(table_id: TableId, hub: HubDep, lang: LangDep) -> TableOut:
    """A table as anyone may see it; a finished one with its totals and winners."""
    stored = await _stored(hub, table_id)
    if stored.row.status == "finished":
        totals, winners = totals_and_winners(build_table(stored))
        return _honest(table_out(stored.row, stored.seats, totals, winners, lang), stored)
    clock = await asyncio.to_thread(hub.clocks.get, table_id) if stored.row.turn_based else None
    return table_out(stored.row, stored.seats, lang=lang, deadline=clock.due_at.isoformat() if clock else None)


def _honest(out: TableOut, stored: Stored) -> TableOut:
    """A finished table as it is shown, saying whether bots finished it (:mod:`~dreizehn.server.storage.listing`)."""
    return out.model_copy(update={"by_bots": finished_by_bots(stored.seats, stored.actions)})


@router.get("/tables/{table_id}/record", dependencies=[DailyGuard])
async def get_record(table_id: TableId, hub: HubDep, lang: LangDep) -> dict[str, Any]:
    """A finished game's record (docs/record-format.md); a former player's seat, and one nobody took (a friend
    invited by a link who never joined), named as such in the language asked for (:func:`said_names`)."""
    stored = await _finished(hub, table_id)
    return to_record(build_table(stored).state, said_names(list(stored.seats), lang))


@router.get("/tables/{table_id}/replay", dependencies=[DailyGuard])
async def get_replay(table_id: TableId, hub: HubDep, lang: LangDep) -> ReplayOut:
    """A finished game action by action, with every event whole (every hand revealed), in the language asked
    for."""
    stored = await _finished(hub, table_id)
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    state = game.new_state(stored.row.seed)
    names = said_names(list(stored.seats), lang)
    w = words(lang)
    opening = [_whole(game, w, state.deal_event(), names)]
    steps = []
    for version, (seat, action, by) in enumerate(stored.actions, 1):
        events = state.apply_with_events(action)
        number = state.log[-1][1]
        steps.append(ReplayStep(version=version, seat=seat, action=action,
                                text=sentence(game.say_action(w, number, names[seat]), list(stored.seats), seat),
                                by=by,
                                events=[_whole(game, w, e, names) for e in events]))
    said = await asyncio.to_thread(chat_lines, hub.store, table_id, False, None)
    chat = [ChatLineOut(seat=line.seat, name=names[line.seat] if _former(stored, line.seat) else line.name,
                        text=line.text, phrase=line.phrase, version=line.version)
            for line in said if line.seat is not None]
    kept = take_backs(await asyncio.to_thread(hub.store.actions.taken_back, table_id))
    taken_back = [TakeBackOut(version=back.version, seat=back.seat, count=back.count) for back in kept]
    totals, winners = totals_and_winners(build_table(stored))
    return ReplayOut(table=_honest(table_out(stored.row, stored.seats, totals, winners, lang), stored),
                     names=names, opening=opening, steps=steps, chat=chat, taken_back=taken_back)


def _former(stored: Stored, seat: int) -> bool:
    """Whether a seat's account was deleted (its lines of chat, their name gone, are a former player's)."""
    return 0 <= seat < len(stored.seats) and stored.seats[seat].former


@router.get("/tables/{table_id}/replay/{version}", dependencies=[DailyGuard])
async def get_replay_step(table_id: TableId, version: Annotated[int, Path(ge=INT64_MIN, le=INT64_MAX)], hub: HubDep,
                          lang: LangDep) -> ReplayViewsOut:
    """Every seat's view of a finished game after ``version`` actions (every hand revealed)."""
    stored = await _finished(hub, table_id)
    if not 0 <= version <= len(stored.actions):
        raise ServerError("server.bad_version", rule="S5", version=version,
                                       last=len(stored.actions), status=422)
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    state = game.new_state(stored.row.seed)
    for _, action, _ in stored.actions[:version]:
        state.apply(action)
    return ReplayViewsOut(version=version, views=[to_wire(state.view(seat)) for seat in range(game.players)])


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: TableId, body: RematchIn, request: Request, hub: HubDep, settings: SettingsDep,
                  who: WhoDep, lang: LangDep) -> CreatedOut:
    """A new game with the same seats, asked by one of the people of a finished one (the browser asks the others
    first over the websocket, ``offer``, and calls this once they accepted); ``bots``: the seats of other people
    that a bot plays in it (those who declined). The answer holds the asker's new invitation; the others connected
    to the table get theirs over their websockets, and whoever was not connected gets theirs by asking too. An
    invitation is given once: asking again once it was given is refused (``server.rematch_issued``), so the one
    given keeps working. A seat bound to an account (rule U7) is asked for by that account alone
    (``account.seat_bound``), and each seat of the rematch is bound to the account its seat was."""
    found = await asyncio.to_thread(hub.store.tables.token_seat, body.token)
    if found is None or found.table_id != table_id:
        raise ServerError("server.bad_token", rule="S1", status=403)
    await check_token_seat(hub.store, found, who.account.id if who is not None else None)
    stored = await _finished(hub, table_id)
    seat = found.seat
    if stored.row.rematch is not None:
        return await _late_invitation(request, hub, settings, stored.row.rematch, seat, lang)
    for bot_seat in body.bots:
        if bot_seat == seat or bot_seat >= len(stored.seats) or stored.seats[bot_seat].bot is not None:
            raise ServerError("server.rematch_bots", rule="S1", seat=bot_seat)
    old = hub.rooms.get(table_id)
    told = {c.seat for c in old.conns if c.seat is not None and not c.closed} if old is not None else set()
    seats = [(s.name, settings.stand_in, True) if s.seat in body.bots else (s.name, s.bot, True)
             for s in stored.seats]
    row, seat_rows, tokens, spectator = _new_table(
        stored.row.game_id, stored.row.options, seats, stored.row.clock, rematch_of=table_id,
        accounts=[None if s.seat in body.bots else s.account_id for s in stored.seats], rated=stored.row.rated)
    given = [t if i == seat or i in told else None for i, t in enumerate(tokens)]  # the others' are given later
    await asyncio.to_thread(hub.store.tables.create, row, seat_rows, [t and hash_token(t) for t in given],
                            hash_token(spectator))
    await asyncio.to_thread(hub.store.tables.set_rematch, table_id, row.id)
    if old is not None:
        old.rematches.made(row.id, given, seat)
    else:  # the table is served elsewhere (or no one is connected): its home offers it to those connected there
        hub.peers.publish_rematch(table_id, row.id, seat)
    room = await hub.room(row.id)
    if room is not None:
        room.after_change()
    mine = tokens[seat]
    assert mine is not None
    return CreatedOut(
        table=table_out(row, seat_rows, lang=lang),
        invitations=[Invitation(seat=seat, token=mine, url=_link(request, settings.public_url, f"/play/{mine}"))],
        spectator=Invitation(seat=-1, token=spectator,
                             url=_link(request, settings.public_url, f"/watch/{row.id}/{spectator}")),
    )


async def _late_invitation(request: Request, hub: HubDep, settings: SettingsDep, new_id: str,
                           seat: int, lang: str) -> CreatedOut:
    """The invitation of a seat that was not given one when the rematch began (it was not connected); refused if
    it was given one (``server.rematch_issued``). No spectators' link: it was the first asker's to share."""
    new = await _stored(hub, new_id)
    token = new_token()
    if not await asyncio.to_thread(hub.store.tables.issue_token, new.row.id, seat, hash_token(token)):
        raise ServerError("server.rematch_issued", rule="S1", status=409)
    return CreatedOut(table=table_out(new.row, new.seats, lang=lang), invitations=[
        Invitation(seat=seat, token=token, url=_link(request, settings.public_url, f"/play/{token}"))],
        spectator=Invitation(seat=-1, token="", url=""))


def _whole(game: Any, w: Any, event: Any, names: list[str]) -> dict[str, Any]:
    """An event of a finished game whole (every private part), said as its actor (or the deal as seat 0) saw it."""
    seat = event.params.get("seat", event.params.get("first", 0))
    return said_event(game, w, event, names, seat, whole=True)


__all__ = ["Room", "router"]
