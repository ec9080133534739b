"""bench-server on PostgreSQL with one server process and with two, in one run on one throwaway cluster (that of
the tests, tests/server/conftest.py), alternating, each run on a new database, the machine's load (``uptime``)
printed before each; the arguments after ``--`` go to every run of benchmarks/bench_server.py.

    PYTHONPATH=src python benchmarks/bench_servers_pg.py --runs 3 -- --tables 200 --seconds 20 --flat-out
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2, help="runs of each (default 2), 1 and 2 processes in turn")
    parser.add_argument("--servers", default="1,2", help="the numbers of processes, in turn (default 1,2)")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="-- then bench_server.py's arguments")
    args = parser.parse_args()
    rest = [a for a in args.rest if a != "--"]
    sys.path.insert(0, str(ROOT / "tests"))
    import psycopg

    postgres_cluster = importlib.import_module("server.conftest").postgres_cluster  # the tests' throwaway cluster
    with postgres_cluster() as cluster:
        base = cluster.url.rsplit("/", 1)[0]
        for run in range(args.runs):
            for servers in (int(n) for n in args.servers.split(",")):
                name = f"bench_{uuid.uuid4().hex[:12]}"
                with psycopg.connect(f"{base}/postgres", autocommit=True) as c:
                    c.execute(f"CREATE DATABASE {name}")
                load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
                print(f"\n== run {run + 1}, {servers} process(es); load: {load}", flush=True)
                subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_server.py"), "--database",
                                f"{base}/{name}", "--servers", str(servers), *rest], check=False)


if __name__ == "__main__":
    main()
