"""Play the games of a simulation or tournament as tasks on a Ray cluster (``backend="ray"`` in
:mod:`dreizehn.study.sim`).

Ray is an optional dependency (the ``research`` extra): it is imported only when the ray backend is used, so the rest
of the package never needs it.

The games are split into the same kind of batches as on local processes; each batch is one Ray task asking for one
CPU. Every game depends only on its index and the run's seed, so the results are the same as on the process backend.
The workers send back each game's result and, when records are asked for, the record's text; the records are written
by the calling process, so the record directory need not be shared between the machines of a cluster. Every machine
of the cluster needs the same version of this package installed.

Connecting: a process already connected to Ray (``ray.init`` called before) keeps its connection. Otherwise
``address`` is passed to ``ray.init``: a cluster's ``HOST:PORT`` (``ray start --head`` prints it), ``"auto"`` for the
cluster started on this machine, or ``ray://HOST:PORT`` for Ray Client; with no address, Ray connects to a cluster
started on this machine with ``ray start`` (or named by the environment variable ``RAY_ADDRESS``) and otherwise
starts a local instance, which stops when the calling process ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from dreizehn.core.errors import BackendError
from dreizehn.core.record import dumps
from dreizehn.study.jobs import GameResult, Job, played, record_file, split


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise BackendError("backend.missing", rule="C4") from None
    return ray


def connect(address: str | None = None) -> None:
    """Connect this process to Ray (see the module's description), unless it is connected already.

    Raises :class:`~dreizehn.study.sim.BackendError` when Ray is not installed, when no cluster answers at ``address``,
    or
    when this process is already connected to a different cluster than the ``HOST:PORT`` asked for.
    """
    ray = _ray()
    if ray.is_initialized():
        current = ray.get_runtime_context().gcs_address
        if address is not None and address != "auto" and "://" not in address and address != current:
            raise BackendError("backend.other_cluster", rule="C4", current=current, address=address)
        return
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as err:
        if address:
            raise BackendError("backend.unreachable_at", rule="C4", address=address, reason=str(err)) from None
        raise BackendError("backend.unreachable", rule="C4", reason=str(err)) from None


def cluster_cpus() -> int:
    """The number of CPUs of the cluster this process is connected to (at least 1)."""
    return max(1, int(_ray().cluster_resources().get("CPU", 1)))


def _run_batch(job: Job, keep_records: bool) -> list[tuple[GameResult, str | None]]:
    """Play one batch on a Ray worker: each game's result and, if asked, its record as JSON text."""
    return [(result, dumps(state, names=list(seats)) if keep_records else None) for result, state, seats in played(job)]


def run_on_ray(
    game_id: str,
    players: int,
    options: Mapping[str, object],
    seed: int,
    tasks: Sequence[tuple[int, tuple[str, ...]]],
    *,
    address: str | None = None,
    jobs: int | None = None,
    records: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play ``tasks`` (game index and seating) as Ray tasks, at most ``jobs`` batches at a time (default: the
    cluster's CPUs); results in game order. Records, if asked for, are written here into ``records``. The input is
    expected to be checked already (:func:`dreizehn.study.sim.run_games` does)."""
    ray = _ray()
    connect(address)
    if not tasks:
        return []
    parallel = max(1, min(jobs or cluster_cpus(), len(tasks)))
    remote = ray.remote(num_cpus=1)(_run_batch)
    batches = [Job(game_id, players, dict(options), seed, None, batch) for batch in split(tasks, parallel)]
    keep = records is not None
    waiting = list(reversed(batches))
    pending: list[Any] = []
    results: list[GameResult] = []
    try:
        while waiting or pending:
            while waiting and len(pending) < parallel:
                pending.append(remote.remote(waiting.pop(), keep))
            done, pending = ray.wait(pending, num_returns=1)
            played: list[tuple[GameResult, str | None]] = ray.get(done[0])
            for result, text in played:
                if records is not None and text is not None:
                    record_file(records, game_id, result.seed).write_text(text, encoding="utf-8")
                results.append(result)
            if progress:
                progress(len(played))
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return sorted(results, key=lambda r: r.index)
