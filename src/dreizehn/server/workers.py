"""The worker processes of a server (bots, hints, analyses): they end with their server however it ends, and a pool
that lost a worker is made again.

A worker asks the kernel (Linux: ``prctl(PR_SET_PDEATHSIG)``) for SIGKILL the moment its server process dies, even
by SIGKILL; and a thread of the worker looks every :data:`WATCH_EVERY` seconds whether its parent is still the server
that started it (a process whose parent died is given to another), for the systems without that signal and for a
server that died before the worker asked for it.

A worker that dies (killed, out of memory) breaks Python's process pool: every decision it was computing, or that was
waiting, fails (the heuristic plays those moves, :meth:`~dreizehn.server.rooms.Hub.decide`), and :class:`Workers`
makes a new pool at once, so the next decision runs in a new worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from dreizehn.server import metrics

log = logging.getLogger("dreizehn.server")

PR_SET_PDEATHSIG = 1
"""prctl's option (linux/prctl.h): the signal a process gets when its parent dies."""
WATCH_EVERY = 0.5
"""Seconds between a worker's looks at its parent."""

T = TypeVar("T")


def follow_parent(parent: int) -> None:
    """In a worker, before anything else: end when the server process ``parent`` ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the signal was asked for
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="dreizehn-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(0)


class Workers(Executor):
    """A pool of ``size`` worker processes (spawned when first needed) that follow their server, made again when
    a worker dies; ``restarts`` counts the pools made again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.restarts = 0
        self._lock = threading.Lock()
        self._closed = False
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=follow_parent, initargs=(os.getpid(),))

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in a worker; in a new pool if the current one is broken."""
        pool = self._pool
        try:
            future = pool.submit(fn, *args, **kwargs)
        except BrokenProcessPool:
            pool = self._renew(pool)
            future = pool.submit(fn, *args, **kwargs)
        future.add_done_callback(lambda done: self._after(done, pool))
        return future

    def _after(self, future: Future[Any], pool: ProcessPoolExecutor) -> None:
        """A task ended; one that failed because its worker died has the pool made again at once."""
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self._renew(pool)

    def _renew(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """A new pool in place of ``broken`` (once, however many of its tasks report it); the current pool."""
        with self._lock:
            if self._pool is broken and not self._closed:
                log.warning("a worker process died: the pool of workers is made again")
                broken.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
                self.restarts += 1
                metrics.WORKER_RESTARTS.inc()
            return self._pool

    def pids(self) -> list[int]:
        """The worker processes started so far by the current pool."""
        return list(self._pool._processes or {})

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the pool works (not broken, every worker it started alive), and what it knows: workers
        started and alive, and pools made again. A broken pool is made again here too."""
        pool = self._pool
        processes = list((pool._processes or {}).values())
        alive = sum(1 for process in processes if process.is_alive())
        broken = bool(pool._broken)
        if broken:
            self._renew(pool)
        ok = not broken and alive == len(processes)
        return ok, {"ok": ok, "size": self.size, "started": len(processes), "alive": alive,
                    "restarts": self.restarts}

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            pool = self._pool
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)
