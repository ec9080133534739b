"""The ``dreizehn`` command line: list the games, simulate many games, replay and check records, watch a demo.

Run ``dreizehn --help`` for the commands; each has ``--help`` too.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import Game, State
from dreizehn.core.record import load as load_record
from dreizehn.core.registry import game_class, game_ids, load_game
from dreizehn.plots import plot_ratings, plot_scores
from dreizehn.sim import Run, check_backend, play, seating
from dreizehn.sim import simulate as sim_simulate
from dreizehn.sim import tournament as sim_tournament
from dreizehn.stats import mean_sd

app = typer.Typer(
    help="dreizehn: three card games built on the number 13 (knizia13, three-thirteen, holzwurm).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
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


def _fail(message: str) -> typer.Exit:
    errors.print(f"[bold red]error:[/] {_text(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


def _parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise _fail(f"an option is written NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _load(game_id: str, players: int, pairs: list[str] | None) -> Game:
    try:
        return load_game(game_id, players, _parse_options(pairs))
    except DreizehnError as err:
        raise _fail(str(err)) from None


@app.command()
def games() -> None:
    """List the games with their player counts and options."""
    for game_id in game_ids():
        cls = game_class(game_id)
        table = Table(title=f"{game_id}: {cls.title}, {cls.min_players} to {cls.max_players} players",
                      title_justify="left", show_lines=False)
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


def _check_backend(backend: Backend, address: str | None) -> None:
    try:
        check_backend(backend.value, address)
    except ValueError as err:
        raise _fail(str(err)) from None


def _progress() -> Progress:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("eta"), TimeRemainingColumn())
    return Progress(*columns, console=errors, transient=True)


def _prepare_dir(path: Path | None) -> None:
    if path is not None:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _fail(f"cannot create {path}: {err.strerror}") from None


@app.command()
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="knizia13, three-thirteen or holzwurm")],
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
) -> None:
    """Play GAMES games between bots and summarise each bot: win rate with its 95% interval, scores, move times."""
    _check_backend(backend, address)
    game = _load(game_id, players, option)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    _prepare_dir(records)
    try:
        seating(specs, players, 0)
        with _progress() as progress:
            task = progress.add_task(f"{game_id}, {players} players", total=count)
            run = sim_simulate(game_id, players, specs, games=count, seed=seed, options=game.options, jobs=jobs,
                               records=records, progress=lambda k: progress.advance(task, k),
                               backend=backend.value, address=address)
    except (DreizehnError, ValueError) as err:
        raise _fail(str(err)) from None
    _print_run(run, game)
    if json_file is not None:
        json_file.write_text(json.dumps(run.to_json(), indent=1) + "\n")
        console.print(f"numbers written to {_text(json_file)}", highlight=False)
    if plot is not None:
        plot_scores(run, plot)
        console.print(f"score distributions drawn in {_text(plot)}", highlight=False)
    if records is not None:
        console.print(f"{count} records written to {_text(records)}/", highlight=False)


def _print_run(run: Run, game: Game) -> None:
    table = Table(title=f"{len(run.games)} games of {run.game_id} ({game.title}), {run.players} players, seeds "
                        f"{run.seed}..{run.seed + len(run.games) - 1}", title_justify="left")
    for name, justify in (("bot", "left"), ("games", "right"), ("win rate", "right"), ("95% interval", "right"),
                          ("mean score", "right"), ("sd", "right"), ("mean move", "right"), ("worst move", "right")):
        table.add_column(name, justify=justify, no_wrap=name == "bot")  # type: ignore[arg-type]
    for s in run.summaries():
        mean, sd = mean_sd(s.scores)
        low, high = s.interval
        table.add_row(_text(s.bot), str(s.games), f"{s.win_rate:.1%}", f"{low:.1%} to {high:.1%}", f"{mean:.2f}",
                      f"{sd:.2f}", _ms(s.mean_move), _ms(s.worst))
    console.print(table)
    better = "highest" if game.high_score_wins else "lowest"
    console.print(f"The {better} total wins; a shared win counts as a fraction. Seats rotate from game to game.")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


@app.command()
def tournament(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="knizia13, three-thirteen or holzwurm")],
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
) -> None:
    """Every bot meets every other in rotated seatings: an openskill ratings table and the head-to-head matrix."""
    _check_backend(backend, address)
    cls = _class(game_id)
    game = _load(game_id, players or cls.min_players, option)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        with _progress() as progress:
            task = progress.add_task(f"{game_id} tournament", total=count)
            result = sim_tournament(game_id, game.players, specs, games=count, seed=seed, options=game.options,
                                    jobs=jobs, progress=lambda k: progress.advance(task, k),
                                    backend=backend.value, address=address)
    except (DreizehnError, ValueError) as err:
        raise _fail(str(err)) from None
    ratings = result.ratings()
    table = Table(title=f"{len(result.run.games)} games of {game_id}, {game.players} players: ratings",
                  title_justify="left")
    for name in ("rank", "bot", "rating (mu - 3 sigma)", "mu", "sigma"):
        table.add_column(name, justify="left" if name == "bot" else "right", no_wrap=name == "bot")
    for place, r in enumerate(ratings, 1):
        table.add_row(str(place), _text(r.bot), f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}")
    console.print(table)
    pairs = result.head_to_head()
    names = [r.bot for r in ratings]
    matrix = Table(title="head to head: the row bot's score against the column bot (1 ahead, 1/2 level)",
                   title_justify="left")
    matrix.add_column("", no_wrap=True)
    for name in names:
        matrix.add_column(_text(name), justify="right")
    for a in names:
        cells = []
        for b in names:
            score, met = pairs.get((a, b), (0.0, 0))
            cells.append("" if a == b or not met else f"{score / met:.0%} of {met}")
        matrix.add_row(_text(a), *cells)
    console.print(matrix)
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
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, see docs/record-format.md).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only check; print nothing but errors.")] = False,
) -> None:
    """Check a record and print the game's course and scores; exit status 1 if the record is wrong."""
    try:
        state = load_record(file)
    except DreizehnError as err:
        errors.print(f"[bold red]invalid record[/] {_text(file)}: {_text(err)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    if not quiet:
        print_course(state)
        console.print(f"[green]valid record[/]: {len(state.history)} actions replayed and every score checked.")


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
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="knizia13, three-thirteen or holzwurm")] = "knizia13",
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
        raise _fail(str(err)) from None
    console.print(f"[bold]{cls.title}[/] ({game_id}), seed {seed}: " +
                  ", ".join(f"seat {seat} {_text(bot)}" for seat, bot in enumerate(seats)), highlight=False)
    print_course(state)


@app.command()
def schema(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="knizia13, three-thirteen or holzwurm")],
) -> None:
    """Print the JSON Schema of the game's view documents, with its events in $defs (docs/wire.md)."""
    from dreizehn.wire import schema as wire_schema

    cls = _class(game_id)
    print(json.dumps(wire_schema(cls.id), indent=1))


def _class(game_id: str) -> type[Game]:
    try:
        return game_class(game_id)
    except DreizehnError as err:
        raise _fail(str(err)) from None


def main() -> None:
    """The console script's entry point."""
    try:
        app()
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
