"""The ``dreizehn`` command line: list the games, simulate many games, replay and check records, watch a demo.

Run ``dreizehn --help`` for the commands; each has ``--help`` too.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from dreizehn.bots.random import random_action
from dreizehn.core.errors import DreizehnError
from dreizehn.core.game import Game, State
from dreizehn.core.record import load as load_record
from dreizehn.core.record import save as save_record
from dreizehn.core.registry import game_class, game_ids, load_game

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


def _fail(message: str) -> typer.Exit:
    errors.print(f"[bold red]error:[/] {message}", highlight=False)
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


@app.command()
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="knizia13, three-thirteen or holzwurm")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    count: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed+i.")] = 0,
    records: Annotated[Path | None, typer.Option("--records", help="Write one record per game here.")] = None,
    option: OptionList = None,
) -> None:
    """Play GAMES games between random players and summarise the scores and wins per seat."""
    game = _load(game_id, players, option)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _fail(f"cannot create {records}: {err.strerror}") from None
    totals = [0.0] * players
    wins = [0.0] * players
    actions = 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        task = progress.add_task(f"{game_id}, {players} players", total=count)
        for i in range(count):
            state = play_game(game, seed + i)
            actions += len(state.history)
            for seat, points in enumerate(state.totals):
                totals[seat] += points
            for seat, share in enumerate(state.returns()):
                wins[seat] += share
            if records is not None:
                save_record(state, records / f"{game_id}-{seed + i:06d}.json", names=["random"] * players)
            progress.advance(task)
    table = Table(title=f"{count} games of {game_id} ({game.title}), {players} random players, seeds {seed}.."
                        f"{seed + count - 1}", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("mean score", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for seat in range(players):
        table.add_row(str(seat), f"{totals[seat] / count:.2f}", f"{wins[seat]:g}", f"{wins[seat] / count:.1%}")
    console.print(table)
    better = "highest" if game.high_score_wins else "lowest"
    console.print(f"{actions} actions in all; the {better} total wins, a shared win counts as a fraction.")
    if records is not None:
        console.print(f"{count} records written to {records}/")


def play_game(game: Game, seed: int) -> State:
    """One game between random players (who see only their own views)."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(random_action(state.view(state.current_player), rng))
    return state


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, see docs/record-format.md).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only check; print nothing but errors.")] = False,
) -> None:
    """Check a record and print the game's course and scores; exit status 1 if the record is wrong."""
    try:
        state = load_record(file)
    except DreizehnError as err:
        errors.print(f"[bold red]invalid record[/] {file}: {err}", highlight=False)
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
            line.append(f"{seat}:{game.action_to_text(action)}")
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
    option: OptionList = None,
) -> None:
    """Play one game between bots and print its course and scores."""
    cls = _class(game_id)
    game = _load(game_id, players or min(4, cls.max_players), option)
    console.print(f"[bold]{cls.title}[/] ({game_id}), {game.players} random players, seed {seed}")
    print_course(play_game(game, seed))


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
