"""Print the speed tables: random games through the public API, the meld solver, and the bots.

Run with ``make bench`` (or ``python benchmarks/run.py [--seconds S]``). Timings belong here, never in a test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dreizehn
from benchmarks import bench_kernels
from benchmarks.bench_api import bench_games
from benchmarks.bench_envs import print_envs_table
from benchmarks.bench_ismcts import speed_table
from benchmarks.bench_learn import print_learn_table
from benchmarks.bench_melds import bench_melds
from benchmarks.hint_calibration import hint_times


def heuristic_times() -> list[tuple[str, int, float, float]]:
    """Mean and worst seconds per move of the heuristic bot over positions of random games."""
    from benchmarks.bench_ismcts import ROWS, move_times, positions

    rows = []
    for game_id, players in ROWS:
        game = dreizehn.load_game(game_id, players)
        mean, worst = move_times(game, positions(game, 200), spec="heuristic")
        rows.append((game_id, players, mean, worst))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    args = parser.parse_args()
    bench_kernels.main(args.seconds)
    print()
    print(f"Random games through the public API ({args.seconds:g} s a row, one core)")
    print(f"{'game':<16}{'players':>8}  {'options':<20}{'games/s':>10}{'actions/s':>12}")
    rows: list[tuple[str, int, dict[str, object]]] = [
        ("knizia13", 4, {}),
        ("holzwurm", 4, {}),
        ("three-thirteen", 4, {"stock_out": "end-round"}),
        ("three-thirteen", 2, {"stock_out": "end-round"}),
    ]
    for game_id, players, options in rows:
        games, actions = bench_games(game_id, players, args.seconds, **options)
        shown = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        print(f"{game_id:<16}{players:>8}  {shown:<20}{games:>10.1f}{actions:>12,.0f}")
    print()
    print(f"Three Thirteen meld solver ({args.seconds:g} s a row, random hands with wilds, one core)")
    print(f"{'what':<44}{'hands/s':>12}")
    for name, rate in bench_melds(args.seconds):
        print(f"{name:<44}{rate:>12,.0f}")
    print()
    print("Bots: ISMCTS iterations per second and time per move at its default budget (20 positions a row)")
    print(f"{'game':<16}{'players':>8}{'iterations':>12}{'iter/s':>10}{'mean s/move':>13}{'worst s/move':>14}")
    for game_id, players, default, rate, mean, worst in speed_table(20):
        print(f"{game_id:<16}{players:>8}{default:>12}{rate:>10,.0f}{mean:>13.3f}{worst:>14.3f}", flush=True)
    print()
    print("Bots: heuristic time per move (200 positions a row)")
    for game_id, players, mean, worst in heuristic_times():
        print(f"{game_id:<16}{players:>8}  mean {mean * 1e6:8.0f} µs   worst {worst * 1e6:8.0f} µs")
    print()
    print("Hints: seconds per hint of 100 playouts (4 positions of a game between heuristic bots a row)")
    for game_id, players, mean, worst in hint_times():
        print(f"{game_id:<16}{players:>8}  mean {mean:6.2f} s   worst {worst:6.2f} s", flush=True)
    print()
    try:
        from benchmarks.bench_room import print_table, room_table
    except ImportError:
        print("The server's room: left out (pip install 'dreizehn[server]')")
    else:
        print("The server's room: CPU per action to check, apply and write each receiver's update (no network, "
              "no database; make bench-server measures those)")
        print_table(room_table())
    print()
    print_envs_table(args.seconds)
    print()
    print_learn_table()


if __name__ == "__main__":
    main()
