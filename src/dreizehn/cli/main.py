"""The ``dreizehn`` command line: list the games, simulate many games, replay and check records, watch a demo.

Run ``dreizehn --help`` for the commands; each has ``--help`` too.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from dreizehn.bots.offered import offered_levels
from dreizehn.cli.admin import admin_app
from dreizehn.cli.ratings import ratings_app
from dreizehn.core.errors import DreizehnError, UsageError
from dreizehn.core.game import Game, State
from dreizehn.core.language import pick_language
from dreizehn.core.record import load as load_record
from dreizehn.core.registry import game_class, game_ids, load_game
from dreizehn.play.say import say_course
from dreizehn.study.plots import plot_ratings, plot_scores
from dreizehn.study.sim import Rating, Run, RunSpec, Tournament, check_backend, play, seating, simulate, tournament
from dreizehn.study.stats import mean_sd
from dreizehn.words import Words, words

GAMES = ", ".join(game_ids())
"""The games' ids, for the help texts."""
GAME_HELP = f"the game: {GAMES}"

def _flags_show_no_type() -> None:
    """typer's --help prints each option's type after it, ``<bool>`` after a flag too, which takes no value: a flag
    (``--plain``, ``--help``) shows none."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_show_no_type()

app = typer.Typer(
    help=f"dreizehn: card games built on the number 13 ({GAMES}).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
PIPED_WIDTH = 160
"""The width of the printed tables where the output is a file or a pipe, not a terminal (Rich would assume 80
columns, and fold or cut the tables of long bot specifications); ``COLUMNS`` overrides it."""
console = Console(width=None if sys.stdout.isatty() or "COLUMNS" in os.environ else PIPED_WIDTH)
errors = Console(stderr=True)

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as NAME=VALUE (repeat for several); see 'dreizehn games'."),
]


def _text(value: object) -> str:
    """``value`` as text to print through Rich markup: escaped (``[x]`` prints as ``[x]``), and with whatever the
    terminal cannot encode (a file name's undecodable bytes) written as backslash escapes.

    >>> _text("action 1 must be a pair [seat, action text], not [0]")
    'action 1 must be a pair \\\\[seat, action text], not [0]'
    """
    return escape(str(value).encode("utf-8", "backslashreplace").decode("utf-8"))


_language = {"lang": "en"}
"""The language of the messages of this run (``--lang``, else the locale's)."""


def _words() -> Words:
    return words(_language["lang"])


@app.callback()
def _options(
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help="The language of the messages: en, de or"
                                             " nl (default: the locale's, else English).")] = None,
) -> None:
    """dreizehn: card games built on the number 13 (``dreizehn games`` lists them)."""
    _language["lang"] = "en"
    try:
        _language["lang"] = pick_language(lang)
    except DreizehnError as err:
        raise _fail(UsageError("words.language", rule="C7", **err.params)) from None


def _speak(lang: str | None) -> None:
    """Speak ``lang`` from now on (a command's own ``--lang``), if given; an unknown language is refused (C7)."""
    if lang is not None:
        try:
            _language["lang"] = pick_language(lang)
        except DreizehnError as err:
            raise _fail(err) from None


def _fail(problem: str | Exception) -> typer.Exit:
    """Print a refusal (a :class:`DreizehnError` said in the run's language, with its rule) and give the exit of
    status 2 to raise."""
    said = _words().error(problem) if isinstance(problem, DreizehnError) else str(problem)
    errors.print(f"[bold red]{escape(_words()('cli.error'))}[/] {_text(said)}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


def _invalid_record(file: Path, err: DreizehnError) -> typer.Exit:
    """Print the refusal of a record (exit status 1)."""
    label = escape(_words()("cli.invalid_record"))
    errors.print(f"[bold red]{label}[/] {_text(file)}: {_text(_words().error(err))}", highlight=False, soft_wrap=True)
    return typer.Exit(1)


def _parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise _fail(UsageError("cli.option_pair", rule="C1", pair=pair))
        options[name.strip()] = value.strip()
    return options


def _load(game_id: str, players: int, pairs: list[str] | None) -> Game:
    try:
        return load_game(game_id, players, _parse_options(pairs))
    except DreizehnError as err:
        raise _fail(err) from None


@app.command()
def games() -> None:
    """List the games with their player counts and options."""
    for game_id in game_ids():
        cls = game_class(game_id)
        title = f"{game_id}: {cls.title}, {cls.min_players} to {cls.max_players} players"
        if not cls.option_specs:  # a game without options (the toy fourth game of the tests): no empty table
            console.print(f"{title}; no options", highlight=False)
            continue
        table = Table(title=title, title_justify="left", show_lines=False)
        table.add_column("option")
        table.add_column("values")
        table.add_column("default")
        table.add_column("rule")
        table.add_column("what it does")
        example = cls.max_players
        for spec in cls.option_specs:
            default = "from the player count" if spec.default is None else str(spec.default).lower()
            table.add_row(spec.name, spec.allowed(example).replace(f"0..{example - 1}", "a seat"), default,
                          spec.rule, spec.description)
        console.print(table)


BotList = Annotated[
    str,
    typer.Option("--bots", "-b", help="Bots seat by seat, comma-separated (random, heuristic, ismcts:iterations=500,"
                 " ...); the last fills the remaining seats; seats rotate from game to game."),
]


class Backend(StrEnum):
    """Where the games are played."""

    processes = "processes"
    ray = "ray"


BackendOption = Annotated[
    Backend,
    typer.Option("--backend", help="Play the games on local processes, or as tasks on a Ray cluster (ray; needs the"
                 " research extra). The same seed gives the same games on either."),
]
AddressOption = Annotated[
    str | None,
    typer.Option("--address", metavar="ADDR", help="With --backend ray: the Ray cluster, HOST:PORT as 'ray start"
                 " --head' prints it, auto, or ray://HOST:PORT. Default: a cluster started on this machine, else a"
                 " new local Ray instance."),
]
JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Processes (default: all cores); with --backend ray, the most batches of"
                 " games running at once (default: all the cluster's CPUs)."),
]


ResultsOption = Annotated[
    Path | None,
    typer.Option("--results", help="Save each game to this file (JSON lines) as it finishes; the same command run "
                 "again plays only the games still missing (games of other code are left out)."),
]
MinutesOption = Annotated[
    float | None,
    typer.Option("--minutes", min=0, help="Start no new games after this many minutes (with --results, run the "
                 "command again to go on)."),
]


def _deadline(minutes: float | None) -> float | None:
    return None if minutes is None else time.time() + minutes * 60


def _run_spec(game_id: str, game: Game, bots: str, count: int, seed: int, jobs: int | None, backend: Backend,
              address: str | None, results: Path | None, minutes: float | None, records: Path | None = None) -> RunSpec:
    """The run a command's arguments describe (:class:`~dreizehn.study.sim.RunSpec`); a refusal is printed (exit 2)."""
    try:
        return RunSpec(game_id, game.players, bots, count, seed=seed, options=game.options, jobs=jobs, records=records,
                       backend=backend.value, address=address, results=results, deadline=_deadline(minutes))
    except DreizehnError as err:
        raise _fail(err) from None


def _print_saved(run: Run, count: int, results: Path | None) -> None:
    """What a run read back from its file of saved games, left out, and left to play."""
    if run.resumed:
        console.print(f"{run.resumed} games read back from {_text(results)}", highlight=False)
    if run.left_out:
        console.print(f"{run.left_out} games saved there by other code left out", highlight=False)
    if len(run.games) < count:
        again = "run the same command again to go on" if results is not None else "add --results FILE to go on later"
        console.print(f"{len(run.games)} of {count} games played: {again}", highlight=False)


def _check_backend(backend: Backend, address: str | None) -> None:
    try:
        check_backend(backend.value, address)
    except DreizehnError as err:
        raise _fail(err) from None


def _progress() -> Progress:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("eta"), TimeRemainingColumn())
    return Progress(*columns, console=errors, transient=True)


def _prepare_dir(path: Path | None) -> None:
    if path is not None:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _fail(UsageError("cli.cannot_create", rule="C5", path=str(path), reason=str(err.strerror))) \
                from None


@app.command("simulate")
def simulate_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    count: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed+i.")] = 0,
    bots: BotList = "random",
    jobs: JobsOption = None,
    records: Annotated[Path | None, typer.Option("--records", help="Write one record per game here.")] = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the numbers here as JSON.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the score distributions into this PNG.")] = None,
    option: OptionList = None,
    backend: BackendOption = Backend.processes,
    address: AddressOption = None,
    results: ResultsOption = None,
    minutes: MinutesOption = None,
) -> None:
    """Play GAMES games between bots and summarise each bot: win rate with its 95% interval, scores, move times."""
    _check_backend(backend, address)
    game = _load(game_id, players, option)
    spec = _run_spec(game_id, game, bots, count, seed, jobs, backend, address, results, minutes, records)
    _prepare_dir(records)
    try:
        seating(spec.bots, players, 0)
        with _progress() as progress:
            task = progress.add_task(f"{game_id}, {players} players", total=count)
            run = simulate(spec, progress=lambda k: progress.advance(task, k))
    except (DreizehnError, ValueError) as err:
        raise _fail(err) from None
    _print_run(run, game)
    _print_saved(run, count, results)
    if json_file is not None:
        json_file.write_text(json.dumps(run.to_json(), indent=1) + "\n")
        console.print(f"numbers written to {_text(json_file)}", highlight=False)
    if plot is not None:
        plot_scores(run, plot)
        console.print(f"score distributions drawn in {_text(plot)}", highlight=False)
    if records is not None:
        console.print(f"{len(run.games) - run.resumed} records written to {_text(records)}/", highlight=False)


def _print_run(run: Run, game: Game) -> None:
    rows = []
    for s in run.summaries():
        mean, sd = mean_sd(s.scores)
        low, high = s.interval
        rows.append((s.bot, str(s.games), f"{s.win_rate:.1%}", f"{low:.1%} to {high:.1%}", f"{mean:.2f}", f"{sd:.2f}",
                     _ms(s.mean_move), _ms(s.worst)))
    _print_figures(f"{len(run.games)} games of {run.game_id} ({game.title}), {run.players} players, seeds "
                   f"{run.seed}..{run.seed + len(run.games) - 1}",
                   ("bot", "games", "win rate", "95% interval", "mean score", "sd", "mean move", "worst move"), rows,
                   texts=("bot",))
    better = "highest" if game.high_score_wins else "lowest"
    console.print(f"The {better} total wins; a shared win counts as a fraction. Seats rotate from game to game.")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _print_figures(title: str | None, names: Sequence[str], rows: Sequence[Sequence[str]], *,
                   texts: Sequence[str]) -> None:
    """A table of ``rows`` under the column ``names``: those in ``texts`` (a bot's specification, a player's name)
    left-aligned and folded onto more lines where the table is wider than the terminal, the others figures,
    right-aligned and never wrapped or cut. Where even a folded table would not fit (a narrow terminal), each row
    is printed as its texts on a line, then a line for each figure with its name."""
    figures = [max([len(name), *(len(row[i]) for row in rows)]) for i, name in enumerate(names) if name not in texts]
    if sum(figures) + TEXT_WIDTH * len(texts) + 3 * len(names) + 1 <= console.width:
        table = Table(title=title, title_justify="left")
        for name in names:
            if name in texts:
                table.add_column(name, justify="left", overflow="fold", min_width=min(TEXT_WIDTH, len(name)))
            else:
                table.add_column(name, justify="right", no_wrap=True)
        for row in rows:
            table.add_row(*(_text(cell) for cell in row))
        console.print(table)
        return
    if title:
        console.print(title, highlight=False)
    for row in rows:
        console.print(" ".join(_text(cell) for name, cell in zip(names, row, strict=True) if name in texts),
                      highlight=False)
        for name, cell in zip(names, row, strict=True):
            if name not in texts and cell:
                console.print(f"  {_text(name)}: {_text(cell)}", highlight=False)


TEXT_WIDTH = 12
"""The fewest columns a folded text column of :func:`_print_figures` keeps."""


def _print_tournament(result: Tournament) -> tuple[list[Rating], dict[tuple[str, str], tuple[float, int]]]:
    """Print a tournament's ratings table and head-to-head matrix; returns both."""
    ratings = result.ratings()
    _print_figures(f"{len(result.run.games)} games of {result.run.game_id}, {result.run.players} players: ratings",
                   ("rank", "bot", "rating (mu - 3 sigma)", "mu", "sigma"),
                   [(str(place), r.bot, f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}")
                    for place, r in enumerate(ratings, 1)], texts=("bot",))
    pairs = result.head_to_head()
    names = [r.bot for r in ratings]
    rows = []
    for place, a in enumerate(names, 1):
        cells = []
        for b in names:
            score, met = pairs.get((a, b), (0.0, 0))
            cells.append("" if a == b or not met else f"{score / met:.0%} of {met}")
        rows.append((f"{place} {a}", *cells))
    _print_figures("head to head: the row bot's score against the column bot, each column named by its rank above "
                   "(1 ahead, 1/2 level)", ("bot", *(str(place) for place in range(1, len(names) + 1))), rows,
                   texts=("bot",))
    return ratings, pairs


@app.command("tournament")
def tournament_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    bots: BotList,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Players per game (default: the "
                                                "game's smallest number).")] = None,
    count: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games in all.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    jobs: JobsOption = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the numbers here as JSON.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the ratings into this PNG.")] = None,
    option: OptionList = None,
    backend: BackendOption = Backend.processes,
    address: AddressOption = None,
    results: ResultsOption = None,
    minutes: MinutesOption = None,
) -> None:
    """Every bot meets every other in rotated seatings: an openskill ratings table and the head-to-head matrix."""
    _check_backend(backend, address)
    cls = _class(game_id)
    game = _load(game_id, players or cls.min_players, option)
    spec = _run_spec(game_id, game, bots, count, seed, jobs, backend, address, results, minutes)
    try:
        with _progress() as progress:
            task = progress.add_task(f"{game_id} tournament", total=count)
            result = tournament(spec, progress=lambda k: progress.advance(task, k))
    except (DreizehnError, ValueError) as err:
        raise _fail(err) from None
    ratings, pairs = _print_tournament(result)
    _print_saved(result.run, count, results)
    if json_file is not None:
        doc = {"game": game_id, "players": game.players, "games": len(result.run.games), "seed": seed,
               "ratings": [{"bot": r.bot, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal} for r in ratings],
               "head_to_head": [{"bot": a, "against": b, "score": s, "games": m} for (a, b), (s, m) in pairs.items()]}
        json_file.write_text(json.dumps(doc, indent=1) + "\n")
        console.print(f"numbers written to {_text(json_file)}", highlight=False)
    if plot is not None:
        plot_ratings(result, plot)
        console.print(f"ratings drawn in {_text(plot)}", highlight=False)


@app.command()
def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    agent: Annotated[str, typer.Option("--agent", "-a", help="module:function, or module:Class with act(view) or "
                                       "act(observation, mask); or a bot specification or level (a trailing "
                                       "colon, learned:, names the bot, not the level).")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="Players per game (default: the "
                                                "game's smallest number).")] = None,
    levels: Annotated[str | None, typer.Option("--levels", "-l", help="The levels (or bot specifications) met, "
                                               "comma-separated (default: every level of the game).")] = None,
    count: Annotated[int, typer.Option("--games", "-n", min=1, help="Games against each level.")] = 40,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The first seed (default: the arena's published "
                                      "seeds).")] = 480_000,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.001, help="Seconds the agent may take for "
                                              "one move.")] = 10.0,
    option: OptionList = None,
) -> None:
    """An agent against the bot levels on published seeds, seats rotated: points a game and openskill ratings."""
    from dreizehn.study.arena import play_arena

    cls = _class(game_id)
    game = _load(game_id, players or cls.min_players, option)
    chosen = [b.strip() for b in levels.split(",") if b.strip()] if levels else None
    try:
        with _progress() as progress:
            task = progress.add_task(f"{game_id} arena", total=count * (len(chosen) if chosen else
                                                                         len(offered_levels(game))))
            result = play_arena(game_id, game.players, agent, levels=chosen, games=count, seed=seed,
                                time_limit=time_limit, options=dict(game.options),
                                progress=lambda k: progress.advance(task, k))
    except DreizehnError as err:
        raise _fail(err) from None
    _print_arena(result, game)


def _print_arena(result: Any, game: Game) -> None:
    """The arena's two tables (points a game against each level; ratings) and its faults."""
    console.print(f"{_text(result.agent)} in {result.game_id} ({game.title}), {result.players} players, seeds "
                  f"{result.seed}.., the agent's seat rotated", highlight=False)
    rows = []
    for row in result.rows:
        mean, low, high = row.interval()
        rows.append((row.level, str(row.games), f"{mean:+.2f}", f"{low:+.2f} to {high:+.2f}",
                     f"{row.wins / max(1, row.games):.1%}"))
    _print_figures(None, ("against", "games", "points a game", "95% interval", "wins"), rows, texts=("against",))
    console.print("Points a game: the agent's total minus the mean of the others' at the table, signed so that more "
                  "is better.", highlight=False)
    console.print("openskill ratings (Plackett-Luce; the levels rated through their games with the agent)",
                  highlight=False)
    _print_figures(None, ("rank", "player", "rating (mu - 3 sigma)", "mu", "sigma"),
                   [(str(place), f"{name} (the agent)" if name == result.agent else name, f"{mu - 3 * sigma:.2f}",
                     f"{mu:.2f}", f"{sigma:.2f}") for place, (name, mu, sigma) in enumerate(result.ratings(), 1)],
                   texts=("player",))
    if result.faults:
        kinds = ", ".join(f"{sum(f.kind == k for f in result.faults)} {k}" for k in ("raised", "illegal", "time")
                          if any(f.kind == k for f in result.faults))
        console.print(f"games forfeited by the agent's faults: {len(result.faults)} ({kinds}); the first:",
                      highlight=False)
        for fault in result.faults[:5]:
            console.print(f"  game {fault.game} (seed {fault.seed}, against {_text(fault.level)}): {fault.kind}: "
                          f"{_text(fault.message)}", highlight=False)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, see docs/record-format.md).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only check; print nothing but errors.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help="Tell the course of the game in words, in"
                                             " en, de or nl, stage by stage with the scoring explained.")] = None,
) -> None:
    """Check a record and print the game's course and scores; exit status 1 if the record is wrong."""
    _speak(lang)
    try:
        state = load_record(file)
    except DreizehnError as err:
        raise _invalid_record(file, err) from None
    if quiet:
        return
    if lang is None:
        print_course(state)
        console.print(f"[green]valid record[/]: {len(state.history)} actions replayed and every score checked.")
        return
    names = json.loads(file.read_text(encoding="utf-8"))["players"]
    for line in say_course(state, _words(), names):
        console.print(_text(line), highlight=False, soft_wrap=True)


def print_course(state: State) -> None:
    """Print every action stage by stage, with the scores."""
    game = state.game
    stage_name = game.stage_name
    boundaries = _stage_starts(state)
    for stage, (start, end) in enumerate(boundaries):
        line = [f"[bold]{stage_name} {stage + 1}[/]:"]
        for seat, action in state.history[start:end]:
            line.append(f"{seat}:{_text(game.action_to_text(action))}")
        console.print(" ".join(line), highlight=False)
        if stage < len(state.stage_scores):
            console.print(f"  scores: {list(state.stage_scores[stage])}", highlight=False)
    totals = list(state.totals)
    if state.is_over:
        console.print(f"[bold]totals[/]: {totals}; winner(s): seat {', '.join(map(str, state.winners))}")
    else:
        console.print(f"[bold]totals so far[/]: {totals}; the game is not over (seat {state.current_player} to move)")


def _stage_starts(state: State) -> list[tuple[int, int]]:
    """The slices of the history that belong to each stage, found by replaying the actions."""
    copy = state.game.new_state(0, shuffles=state.shuffles)
    spans: list[tuple[int, int]] = []
    start = 0
    for i, (_, action) in enumerate(state.history):
        stage = copy.stage
        copy.apply(action)
        if copy.stage != stage:
            spans.append((start, i + 1))
            start = i + 1
    if start < len(state.history) or not state.is_over:
        spans.append((start, len(state.history)))
    return spans


@app.command()
def demo(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)] = "knizia13",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
    bots: BotList = "heuristic,random",
    option: OptionList = None,
) -> None:
    """Play one game between bots and print its course and scores."""
    cls = _class(game_id)
    game = _load(game_id, players or min(4, cls.max_players), option)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        seats = seating(specs, game.players, 0)
        _, state = play(game, seats, seed)
    except (DreizehnError, ValueError) as err:
        raise _fail(err) from None
    console.print(f"[bold]{cls.title}[/] ({game_id}), seed {seed}: " +
                  ", ".join(f"seat {seat} {_text(bot)}" for seat, bot in enumerate(seats)), highlight=False)
    print_course(state)


@app.command("schema")
def schema_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
) -> None:
    """Print the JSON Schema of the game's view documents, with its events in $defs (docs/wire.md)."""
    from dreizehn.core.wire import schema

    cls = _class(game_id)
    print(json.dumps(schema(cls.id), indent=1))


@app.command("hint")
def hint_command(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON, see docs/record-format.md) "
                                         "of a game not over yet.")],
    seat: Annotated[int, typer.Option("--seat", help="The seat whose moves to rate; it must be to move where the "
                                      "record stops.")],
    seconds: Annotated[float | None, typer.Option("--time", "-t", min=0.01, help="Seconds to think (default 2, "
                                                  "unless --playouts is given).")] = None,
    playouts: Annotated[int | None, typer.Option("--playouts", min=1, help="A budget in playouts over all moves "
                                                 "instead: the same hint on every run.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the sampled deals and playouts.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    search: Annotated[str, typer.Option("--search", help="The level or bot whose move comes first ('auto': the "
                                        "game's own, docs/bots.md); 'none': every move in the order of its "
                                        "chance.")] = "auto",
) -> None:
    """Rate every move of SEAT where the record stops: the chance to win the game and the expected final points,
    from playouts of the rest of the game over deals sampled from what the seat can see, the move of the level
    --search first (docs/bots.md, Hints)."""
    from dreizehn.play.hints import hint

    try:
        state = load_record(file)
    except DreizehnError as err:
        raise _invalid_record(file, err) from None
    if state.is_over:
        problem = "the game is over: there is no move to rate"
    elif seat != state.current_player:
        problem = f"seat {seat} is not to move where the record stops (seat {state.current_player} is)"
    else:
        problem = ""
    if problem:
        errors.print(f"[bold red]error:[/] {_text(problem)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    game = state.game
    try:
        analysis = hint(state.view(seat), playouts, seconds=seconds, rng=seed, game=game,
                        search=None if search == "none" else search)
    except DreizehnError as err:
        errors.print(f"[bold red]error:[/] {_text(str(err))}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    if as_json:
        print(json.dumps(analysis.to_json(), indent=1))
        return
    table = Table(title=f"{game.title}, {game.stage_name} {state.stage + 1}: seat {seat} to move; "
                        f"{analysis.playouts} playouts over {analysis.worlds} sampled deals in "
                        f"{analysis.seconds:.1f} s", title_justify="left")
    for name in ("#", "move", "win chance", "expected final points", "playouts"):
        table.add_column(name, justify="left" if name == "move" else "right", no_wrap=True)
    for place, r in enumerate(analysis.ratings, 1):
        table.add_row(str(place), _text(r.text), f"{r.win:.1%} ± {r.win_sd:.1%}", f"{r.points:.1f} ± {r.points_sd:.1f}",
                      str(r.samples))
    console.print(table)
    better = "more" if game.high_score_wins else "fewer"
    searcher = (f"the {_text(analysis.level)} level ({_text(analysis.search)})" if analysis.level else
                _text(analysis.search or ""))
    first = ("Best first" if analysis.search is None else
             f"First the move of {searcher}, then the others by their chance")
    console.print(f"{first}. ± is one standard error of the sampling alone; the numbers assume that every seat "
                  f"plays on like the {_text(analysis.policy)} bot. {better.capitalize()} points are better.",
                  highlight=False)
    if analysis.note and analysis.rival is not None and analysis.choice is not None:
        said = {"level": "by less than the playouts can tell apart",
                "search": "surely, but the search looks further ahead than the playouts, where everyone plays on "
                          "simply"}[analysis.note]
        console.print(f"{_text(analysis.rating(analysis.rival).text)} is rated higher than "
                      f"{_text(analysis.rating(analysis.choice).text)}, {said}.", highlight=False)


@app.command("play")
def play_command(
    game_id: Annotated[str | None, typer.Argument(metavar="GAME", help=f"{GAME_HELP} (not with --resume)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players (default: the people "
                                                "and the bots named, at least the game's smallest number).")] = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help="The bots, seat by seat after the people, comma-separated:"
                                      " levels (easy, medium, hard, expert, master; learned in 13 and"
                                      " Holzwurm at 4 players) or bots (random, heuristic,"
                                      " ismcts:...);"
                                      " the last fills the seats left.")] = "medium",
    names: Annotated[str | None, typer.Option("--names", help="The people at this screen, comma-separated (they "
                                              "sit first and take turns).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the shuffles (default: a random one).")]
    = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help="en, de or nl (default: the locale's, "
                                             "else English).")] = None,
    option: OptionList = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line by line for screen readers and scripts: events in "
                                        "words, a 'legal:' line on each turn, one move per input line.")] = False,
    show_hint: Annotated[bool, typer.Option("--hint", help="Show the hint on each of your turns.")] = False,
    hint_time: Annotated[float, typer.Option("--hint-time", min=0.01, help="Seconds a hint thinks.")] = 1.0,
    pause: Annotated[float, typer.Option("--pause", min=0.0, help="Seconds between the bots' moves (full screen "
                                         "only).")] = 0.6,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="FILE", help="Continue the game saved in "
                                                "FILE.")] = None,
    save: Annotated[Path | None, typer.Option("--save", metavar="FILE", help="Save the game here (default: "
                                              "dreizehn-GAME-SEED.json, or the file resumed).")] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the game.")] = False,
) -> None:
    """Play a game in the terminal against bots, or with friends on one screen (docs/tui.md)."""
    import random

    from dreizehn.tui.session import Session

    _speak(lang)
    try:
        if resume is not None:
            session = Session.resume(resume, seed=seed, lang=_language["lang"], save_to=save,
                                     hint_seconds=hint_time, saving=not no_save)
        else:
            if game_id is None:
                raise _fail(UsageError("tui.error.no_game", rule="C2"))
            cls = _class(game_id)
            people = [n.strip() for n in (names or _words()("tui.you")).split(",") if n.strip()]
            specs = [b.strip() for b in bots.split(",") if b.strip()]
            count = players or max(cls.min_players, min(cls.max_players, len(people) + len(specs)))
            seed = random.SystemRandom().randrange(10**9) if seed is None else seed
            session = Session.create(game_id, people, specs, count, seed, options=_parse_options(option),
                                     lang=_language["lang"], path=save, hint_seconds=hint_time,
                                     saving=not no_save)
    except DreizehnError as err:
        raise _fail(err) from None
    if plain:
        from dreizehn.tui.plain import PlainGame

        raise typer.Exit(PlainGame(session, sys.stdin, sys.stdout, hint=show_hint).run())
    from dreizehn.tui.app import PlayApp

    app_ = PlayApp(session, hint=show_hint, pause=pause)
    try:
        app_.run()
    finally:
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP): the game is saved all the same
            console.print(_text(session.saved_line()), highlight=False, soft_wrap=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log warnings only.")] = False,
) -> None:
    """Start the game server (settings from DREIZEHN_* variables and DATABASE_URL; see docs/server.md)."""
    try:
        import uvicorn

        from dreizehn.server.app import create_app
    except ImportError as err:  # the server extra is not installed
        raise _fail(f"the server needs the server extra: pip install 'dreizehn[server]' ({err.name} is missing)") \
            from None
    from dreizehn.server.settings import Settings

    settings = Settings()
    if settings.address is None:  # where the other server processes relay the websockets of this one's tables
        import socket

        named = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
        settings = settings.model_copy(update={"address": f"{named}:{port}"})
    console.print(f"dreizehn serves on http://{host}:{port} (database: {_text(settings.database.split('@')[-1])})",
                  highlight=False)
    import gc

    # What exists now (the modules, the app) lives as long as the server: out of the collector's way. A server makes
    # and drops many small objects a second (views, messages); collecting the youngest every 50,000 allocations
    # instead of 700 costs fewer pauses (make bench-server: p99 lower in each of 5 paired runs at 800 actions/s).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    # websockets' sans-I/O protocol writes a frame straight to the transport; the default (its legacy asyncio
    # protocol) keeps a task and a queue per connection. make bench-server, 800 actions/s, 5 paired runs: CPU per
    # action 0.78-0.97 ms instead of 0.81-1.15 (12% less on average), p99 17-44 ms instead of 22-262.
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning" if quiet else "info",
                ws_max_size=settings.frame_limit, ws_ping_interval=settings.ping_interval,
                ws_per_message_deflate=False, ws="websockets-sansio")


app.add_typer(admin_app(_words, _fail, console, _text), name="admin")
app.add_typer(ratings_app(_words, _fail, console), name="ratings")


def _class(game_id: str) -> type[Game]:
    try:
        return game_class(game_id)
    except DreizehnError as err:
        raise _fail(err) from None


def main() -> None:
    """The console script's entry point."""
    try:
        app()
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
