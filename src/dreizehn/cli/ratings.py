"""``dreizehn ratings calibrate``: the bot levels placed on the players' rating scale (issue 47 item 2, rule G5 of
docs/ratings.md); ``dreizehn ratings store``: levels measured elsewhere (a ``calibrate --out`` file) stored.
``calibrate`` plays the levels of each game against each other
(:func:`~dreizehn.server.ratings.calibrate.calibrate`), prints each level's rating with its interval, and stores
them in the server's database (``DATABASE_URL`` and ``DREIZEHN_DATA_DIR``, as ``dreizehn serve`` reads them; table
``bot_ratings``), where a rated game with a bot seat finds its level's rating. :func:`ratings_app` makes the
commands, given the command line's words and its way to fail (as :mod:`dreizehn.cli.admin` does).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from dreizehn.core.errors import DreizehnError, UsageError
from dreizehn.core.registry import game_class, game_ids
from dreizehn.words import Words

if TYPE_CHECKING:
    from dreizehn.server.ratings.model import LevelRating

GAMES_DEFAULT = 8
"""Calibration games a game by default: about 155 s of CPU for all three games (3.2 s a game of 13, 3.1 of Holzwurm,
13 of Three Thirteen, whose `expert` searches), a minute or two on two cores; the levels' order is rough at this size
(docs/bots.md gives larger runs' figures)."""


def _save(measured: Sequence[LevelRating]) -> None:
    """Store calibrated levels in the server's database (migrated to the newest schema first, as the server does)."""
    try:
        from dreizehn.server.ratings.store import RatingStore
        from dreizehn.server.settings import Settings
        from dreizehn.server.storage import make_engine, migrate
    except ImportError as err:  # the server extra is not installed
        raise UsageError("cli.needs_server", rule="C11", missing=str(err.name)) from None
    settings = Settings()
    engine = make_engine(settings.database, settings.data_dir)
    try:
        migrate(engine)
        RatingStore(engine).save_levels(measured)
    finally:
        engine.dispose()


def read_levels(path: Path) -> list[LevelRating]:
    """The levels a file written by ``calibrate --out`` holds (:func:`to_json`); refused naming the file where it
    cannot be read or holds no such levels (``cli.cannot_read``, C5), or naming a level its game does not offer
    (``ratings.level``, G5)."""
    import datetime as dt

    from dreizehn.bots.levels import game_levels
    from dreizehn.core.errors import SimulationError
    from dreizehn.server.ratings.model import LevelRating, Skill

    try:
        found = [LevelRating(str(x["game"]), int(x["players"]), str(x["level"]),
                             Skill(float(x["mu"]), float(x["sigma"]), int(x["games"])),
                             dt.datetime.fromisoformat(str(x["measured_at"])))
                 for x in json.loads(path.read_text(encoding="utf-8"))["levels"]]
    except OSError as err:
        raise UsageError("cli.cannot_read", rule="C5", path=str(path), reason=str(err.strerror or err)) from None
    except (ValueError, TypeError, KeyError) as err:
        raise UsageError("cli.cannot_read", rule="C5", path=str(path),
                         reason=f"not the levels of 'calibrate --out' ({err!r})") from None
    for m in found:
        offered = game_levels(m.game_id) if m.game_id in game_ids() else ()
        if m.level not in offered:
            raise SimulationError("ratings.level", rule="G5", field="levels", level=m.level, game=m.game_id,
                                  offered=", ".join(offered))
    return found


def level_table(w: Words, game_id: str, players: int, measured: Sequence[LevelRating]) -> Table:
    """A game's calibrated levels as a printed table, the weakest first."""
    table = Table(w("cli.ratings.level"), w("cli.ratings.rating"), w("cli.ratings.interval"), "mu", "sigma",
                  w("cli.ratings.games"), title=w("cli.ratings.title", game=game_class(game_id).title,
                                                   players=players), title_justify="left")
    for m in sorted(measured, key=lambda m: m.skill.mu):
        table.add_row(m.level, str(m.skill.shown), f"{m.low}–{m.high}", f"{m.skill.mu:.2f}", f"{m.skill.sigma:.2f}",
                      str(m.skill.games))
    return table


def to_json(measured: Sequence[LevelRating], games: int, seed: int) -> dict[str, object]:
    """Calibrated levels as JSON data (for ``--out`` and benchmarks/results)."""
    return {"games": games, "seed": seed, "levels": [
        {"game": m.game_id, "players": m.players, "level": m.level, "mu": m.skill.mu, "sigma": m.skill.sigma,
         "games": m.skill.games, "rating": m.skill.shown, "low": m.low, "high": m.high,
         "measured_at": m.measured_at.isoformat()} for m in measured]}


def ratings_app(say: Callable[[], Words], fail: Callable[[Exception], typer.Exit], console: Console) -> typer.Typer:
    """The ``ratings`` commands: ``say`` gives the words of the run's language, ``fail`` the exit of a refusal."""
    ratings = typer.Typer(help="Ratings: the bot levels on the players' scale.", no_args_is_help=True)

    @ratings.command()
    def calibrate(
        game: Annotated[list[str] | None, typer.Option("--game", "-g", help="A game to calibrate (repeat for"
                                                       f" several; default: all): {', '.join(game_ids())}.")] = None,
        players: Annotated[int, typer.Option("--players", "-p", min=2, help="Seats a game (one level each).")] = 3,
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games a game.")] = GAMES_DEFAULT,
        levels: Annotated[str | None, typer.Option("--levels", help="The levels, comma-separated (default: every"
                                                   " level the game offers but master, about a minute of CPU a"
                                                   " game in 13 and Holzwurm).")] = None,
        seed: Annotated[int, typer.Option("--seed", help="Game i is dealt with seed + i.")] = 0,
        jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Processes (default: all cores).")] = None,
        save: Annotated[bool, typer.Option("--save/--no-save", help="Store the ratings in the server's database"
                                           " (DATABASE_URL), where rated games with bots find them.")] = True,
        out: Annotated[Path | None, typer.Option("--out", help="Also write the ratings to this JSON file.")] = None,
    ) -> None:
        """Play the bot levels of each game against each other and place them on the players' rating scale."""
        from dreizehn.server.ratings.calibrate import calibrate as run_calibration

        chosen = game or list(game_ids())
        names = [n for n in levels.split(",") if n.strip()] if levels else None
        measured: list[LevelRating] = []
        try:
            for game_id in chosen:
                found = run_calibration(game_id, players, games, levels=names, seed=seed, jobs=jobs)
                console.print(level_table(say(), game_id, players, found))
                measured.extend(found)
            if save:
                _save(measured)
        except DreizehnError as err:
            raise fail(err) from None
        if out is not None:
            out.write_text(json.dumps(to_json(measured, games, seed), indent=1) + "\n", encoding="utf-8")
        console.print(say()("cli.ratings.saved" if save else "cli.ratings.not_saved", count=len(measured)),
                      highlight=False)

    @ratings.command()
    def store(
        files: Annotated[list[Path], typer.Argument(help="Files written by 'calibrate --out' (the repository's"
                                                    " measurements: benchmarks/results/calibrate_levels*.json).")],
    ) -> None:
        """Store levels calibrated elsewhere in the server's database, each in place of the one stored (a long run,
        such as one with master, measured once and kept in a file)."""
        try:
            measured = [m for path in files for m in read_levels(path)]
            for game_id, players in sorted({(m.game_id, m.players) for m in measured}):
                console.print(level_table(say(), game_id, players,
                                          [m for m in measured if (m.game_id, m.players) == (game_id, players)]))
            _save(measured)
        except DreizehnError as err:
            raise fail(err) from None
        console.print(say()("cli.ratings.saved", count=len(measured)), highlight=False)

    return ratings
