"""Nothing is lost (issue 13 item 8): a real server process killed with SIGKILL in the middle of games starts again on
the same data directory with every table exactly where it stood; the bots' tables go on by themselves to their end;
a person who reconnects gets the same view; no action acknowledged before the kill is lost."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .kit import Peer, ServerProcess, play_to_end, spectator_hello, tokens


def _acknowledged(peer: Peer) -> list[tuple[int, int, str]]:
    """The actions a client was told of: (version, seat, action)."""
    return [(m["version"], m["seat"], m["action"]) for m in peer.received if m["type"] == "update"]


def _without_history(view: dict[str, Any] | None) -> dict[str, Any]:
    assert view is not None
    return {k: v for k, v in view.items() if k != "history"}


def test_a_killed_server_loses_nothing(processes: Callable[..., ServerProcess], tmp_path: Path) -> None:
    """Item 8: SIGKILL mid-game, then a new process on the same data directory: the person's table continues at
    the same version with the same view (the person reconnects and plays on); the bots' table, killed while its
    bots played, goes on by itself to its end; every action a client was told of before the kill is in the
    stored games, in its place."""
    env = {"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_PAUSE": 0.05, "DREIZEHN_BOT_WORKERS": 1,
           "DREIZEHN_GRACE_PERIOD": 600}
    server = processes(env)
    people = server.create("knizia13", ["person", "medium", "medium"])
    person = server.connect(token=tokens(people)[0])
    version = play_to_end({0: person}, turns=3)
    bots = server.create("holzwurm", ["random", "random"], {"games": 2})
    watcher = server.connect(**spectator_hello(bots))
    watcher.until(lambda m: m["type"] == "update" and m["version"] >= 6, timeout=30)
    before = person.view
    told = {"people": _acknowledged(person), "bots": _acknowledged(watcher)}
    assert server.get(f"/api/tables/{bots['table']['id']}").json()["status"] == "playing"
    server.kill()  # mid-game: the bots' table is being played

    again = processes({**env, "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 0})  # the same data directory
    back = again.connect(token=tokens(people)[0])
    assert back.view is not None and back.view["version"] == version
    assert _without_history(back.view) == _without_history(before)
    history = back.view["history"]
    for number, seat, action in told["people"]:
        assert history[number - 1] == {"seat": seat, "action": action}
    finished = again.wait_finished(bots["table"]["id"], timeout=60)
    record = again.get(f"/api/tables/{bots['table']['id']}/record").json()
    assert len(record["actions"]) > told["bots"][-1][0]
    for number, seat, action in told["bots"]:
        assert record["actions"][number - 1] == [seat, action]
    assert finished["totals"] is not None
    play_to_end({0: back}, turns=2, after=version - 1)  # and the person's game goes on
