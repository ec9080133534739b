"""The worker processes under faults (issue 26 items 1 and 4; issue 43 items 1 and 6): a server killed with SIGKILL
leaves no process of its own behind, even while its workers start; a task past its deadline has its worker killed and
replaced; a worker killed has the heuristic play that move, and is replaced."""

from __future__ import annotations

import asyncio
import copy
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dreizehn.bots.base import make_bot
from dreizehn.play.table import Seat
from dreizehn.server.rooms import build_table
from dreizehn.server.settings import Settings
from dreizehn.server.workers import DeadlinePassed, Workers

from .kit import ServerProcess, hub, make_settings, quick, store_table
from .test_ops import metric, poll

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def group(pgid: int) -> dict[int, str]:
    """The processes of process group ``pgid`` that still run (zombies are ended), with their command lines."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile
            continue
        state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            found[int(entry)] = command
    return found


def workers_of(pgid: int) -> dict[int, str]:
    """The worker processes in a server's process group."""
    return {pid: command for pid, command in group(pgid).items() if "dreizehn.server.workers import work" in command}


@linux_only
def test_a_server_killed_with_sigkill_leaves_no_process(processes: Callable[..., ServerProcess],
                                                        tmp_path: Path) -> None:
    """Item 1: a real server with its bots playing in two worker processes, killed with SIGKILL (the server alone,
    not its group): every process it started ends with it."""
    env = {"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 2}
    server = processes(env)
    for _ in range(4):  # tables played at once: both workers are needed
        server.create("holzwurm", ["random", "random"], {"games": 20})
    assert server.process is not None
    pid = server.process.pid
    assert poll(lambda: len(workers_of(pid)) == 2, timeout=60), group(pid)
    assert len(group(pid)) >= 3  # the server and its two workers
    os.kill(pid, signal.SIGKILL)
    server.process.wait(10)
    left = group(pid)
    deadline = time.monotonic() + 10
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = group(pid)
    assert left == {}, f"left behind: {left}"


def test_a_killed_worker_has_the_heuristic_play_and_comes_back(serve: Callable[[Settings], TestClient],
                                                                 tmp_path: Path) -> None:
    """Item 4: the worker computing a bot's move is killed: the heuristic plays that move (the same action it
    chooses on that view and generator); the pool is made again at once (``/health`` counts a restart, and so
    do the metrics), and the next decision runs in a new worker process."""
    client = serve(make_settings(tmp_path / "data", bot_workers=1, bot_timeout=60))
    the_hub = hub(client)
    workers = the_hub.executor
    assert isinstance(workers, Workers)
    restarts = metric(client, "dreizehn_worker_restarts_total")
    row, _ = store_table(the_hub.store, "holzwurm", [Seat("a", bot="medium"), Seat("b", bot="medium")],
                         options=quick("holzwurm"))
    stored = the_hub.store.tables.load(row.id)
    assert stored is not None
    table = build_table(stored)
    request = table.bot_request()
    expected = make_bot("heuristic", table.game).act(request.view, copy.deepcopy(request.rng))

    async def first() -> tuple[tuple[int, Any], list[int]]:
        task = asyncio.ensure_future(the_hub.decide(request, table.game))
        while not workers.pids():  # the decision is handed to the pool, which starts its worker
            await asyncio.sleep(0)
        killed = workers.pids()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        return await task, killed

    portal = client.portal
    assert portal is not None
    (action, _), killed = portal.call(first)
    assert action == expected
    assert workers.restarts == 1
    assert metric(client, "dreizehn_worker_restarts_total") - restarts == 1

    async def second() -> tuple[int, Any]:
        return await the_hub.decide(build_table(stored).bot_request(), table.game)

    again, _ = portal.call(second)
    assert again in request.view.legal_actions
    fresh = workers.pids()
    assert len(fresh) == 1 and fresh[0] not in killed
    assert workers.restarts == 1
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["workers"]["restarts"] == 1 and health["workers"]["alive"] == 1


def test_a_dead_idle_worker_is_replaced_at_once(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """A worker killed while idle is replaced at once: ``/health`` answers 200 with the replacement alive and one
    restart counted, and the next task runs in the new worker."""
    client = serve(make_settings(tmp_path / "data", bot_workers=1))
    the_hub = hub(client)
    workers = the_hub.executor
    assert isinstance(workers, Workers)
    assert workers.submit(sum, [1, 2]).result(60) == 3
    (pid,) = workers.pids()
    os.kill(pid, signal.SIGKILL)
    assert poll(lambda: workers.restarts == 1 and len(workers.pids()) == 1 and workers.pids() != [pid])
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["workers"]["restarts"] == 1 and body["workers"]["alive"] == 1, body
    assert workers.submit(sum, [3, 4]).result(60) == 7
    assert workers.pids() != [pid]


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended and not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@linux_only
def test_a_task_past_its_deadline_has_its_worker_killed_and_the_others_go_on() -> None:
    """Issue 43 item 1: a task that overruns its deadline (here a sleep of ten minutes, as a bot of
    ``ismcts:time=600`` would think) fails with ``DeadlinePassed``, its worker process is killed (it computes no
    more) and replaced; the task queued behind it on the one worker runs, and one whose own deadline passed while
    it waited is dropped unrun."""
    with Workers(1) as workers:
        assert workers.submit(sum, [1, 1]).result(60) == 2  # the worker started
        (pid,) = workers.pids()
        slow = workers.submit_within(0.5, time.sleep, 600)
        dropped = workers.submit_within(0.1, sum, [5, 5])
        after = workers.submit(sum, [2, 3])
        with pytest.raises(DeadlinePassed):
            slow.result(60)
        with pytest.raises(DeadlinePassed):
            dropped.result(60)
        assert after.result(60) == 5
        assert not alive(pid)
        assert workers.restarts == 1 and len(workers.pids()) == 1 and workers.pids() != [pid]
        ok, state = workers.health()
        assert ok and state["restarts"] == 1


@linux_only
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_workers_that_are_starting_end_with_a_killed_server(processes: Callable[..., ServerProcess],
                                                            tmp_path: Path, backend: str,
                                                            request: pytest.FixtureRequest) -> None:
    """Issue 43 item 6: the server killed with SIGKILL the moment its workers appear, before they imported
    anything: they end with it at once (the kernel's signal is asked for by a worker's first statements, not after
    it loaded the package, which took seconds)."""
    env = {"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 2}
    if backend == "postgres":
        env["DATABASE_URL"] = request.getfixturevalue("pg_database")
    server = processes(env)
    assert server.process is not None
    pid = server.process.pid
    for _ in range(2):
        server.create("holzwurm", ["random", "random"], {"games": 20})
    assert poll(lambda: len(workers_of(pid)) == 2, timeout=60), group(pid)
    started = list(workers_of(pid))
    os.kill(pid, signal.SIGKILL)
    server.process.wait(10)
    assert poll(lambda: not any(alive(worker) for worker in started), timeout=60), \
        f"left behind: {[w for w in started if alive(w)]}"


def test_a_table_of_a_bot_past_its_deadline_plays_on(serve: Callable[[Settings], TestClient],
                                                     db_settings: Settings) -> None:
    """Issue 43 item 1 at a table: a table stored with a bot that would think ten minutes a move (as tables made
    before bot specifications were bounded may be) plays on, each of its moves the heuristic's at the deadline, its
    worker killed each time; the workers stay healthy."""
    client = serve(db_settings.model_copy(update={"bot_workers": 1, "bot_timeout": 0.5}))
    the_hub = hub(client)
    workers = the_hub.executor
    assert isinstance(workers, Workers)
    slow = "ismcts:time=600"
    row, _ = store_table(the_hub.store, "holzwurm", [Seat("a", bot=slow), Seat("b", bot=slow)],
                         options=quick("holzwurm"))
    the_hub_room = client.portal
    assert the_hub_room is not None

    async def wake() -> None:
        room = await the_hub.room(row.id)
        assert room is not None
        room.after_change()

    the_hub_room.call(wake)
    assert poll(lambda: len(the_hub.store.tables.load(row.id).actions) >= 3 and workers.restarts >= 3,  # type: ignore[union-attr]
                timeout=60)
    assert client.get("/health").json()["workers"]["ok"]
