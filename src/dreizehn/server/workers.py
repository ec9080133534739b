"""The worker processes of a server (bots, hints, analyses): a task past its deadline has its worker killed and
replaced, and every worker ends with its server however it ends.

Each worker is a fresh interpreter (:data:`BOOT`) whose very first statements ask the kernel (Linux:
``prctl(PR_SET_PDEATHSIG)``) for SIGKILL the moment the thread of the server that started it ends, even by SIGKILL,
and end at once if the server is gone already; only then does it import anything of the package. A thread of the
worker also looks every :data:`WATCH_EVERY` seconds whether its parent is still the server that started it, for the
systems without that signal. The server's side is one thread, the dispatcher, which starts the workers, hands each
task to an idle one, and waits for their answers and their deadlines together:

- a task given a deadline (:meth:`Workers.submit_within`; a bot's decision: ``DREIZEHN_BOT_TIMEOUT``) that is still
  running when it passes has its worker killed (SIGKILL: compiled code is stopped too) and replaced; its future
  fails with :class:`DeadlinePassed`. One still waiting for a worker then is dropped unrun. So no request can hold a
  worker past its deadline, and the others' tasks never queue behind an overrun;
- a worker that dies (killed, out of memory) fails only the task it was running (:class:`WorkerLost`) and is
  replaced at once; the other workers and their tasks go on.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from dreizehn.server import metrics

log = logging.getLogger("dreizehn.server")

PR_SET_PDEATHSIG = 1
"""prctl's option (linux/prctl.h): the signal a process gets when its parent dies."""
WATCH_EVERY = 0.5
"""Seconds between a worker's looks at its parent (where the kernel's signal is missing)."""

BOOT = f"""\
import ctypes, os, signal, sys
if sys.platform.startswith("linux"):
    ctypes.CDLL(None).prctl({PR_SET_PDEATHSIG}, signal.SIGKILL, 0, 0, 0)
if os.getppid() != int(sys.argv[1]):
    os._exit(0)
signal.signal(signal.SIGINT, signal.SIG_IGN)
from dreizehn.server.workers import work
work(int(sys.argv[1]), int(sys.argv[2]))
"""
"""A worker's program (``python -c``; its arguments the server's process id and the socket's descriptor): it
follows its parent before it imports anything of the package."""

T = TypeVar("T")


class DeadlinePassed(TimeoutError):
    """A task's deadline passed: its worker was killed (or it never started)."""


class WorkerLost(RuntimeError):
    """The worker running a task died before it answered."""


def follow_parent(parent: int) -> None:
    """In a worker: end when the server process ``parent`` ends (the kernel's signal, where there is one, and a
    watching thread)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the signal was asked for
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="dreizehn-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(0)


def work(parent: int, fd: int) -> None:
    """A worker's loop: take the server's ``sys.path``, then run each task it sends and answer ``(True, result)``
    or ``(False, error)``, until the server closes the socket."""
    follow_parent(parent)
    conn = Connection(fd)
    sys.path[:] = conn.recv()
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except BaseException as err:  # the task's own error, handed to its future
            answer = (False, err)
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as err:
            conn.send((False, RuntimeError(f"the task's answer could not be sent: {err}")))


@dataclass(eq=False)
class _Task:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    deadline: float | None
    future: Future[Any] = field(default_factory=Future)


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    conn: Connection
    task: _Task | None = None


class Workers(Executor):
    """``size`` worker processes (started when first needed), each running one task at a time; ``restarts``
    counts the workers replaced (died, or killed at a task's deadline)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.restarts = 0
        self._lock = threading.Lock()
        self._closed = False
        self._workers: list[_Worker] = []
        self._queue: deque[_Task] = deque()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._thread: threading.Thread | None = None

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in a worker, however long it takes."""
        return self._put(_Task(fn, args, kwargs, None))

    def submit_within(self, seconds: float, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in a worker within ``seconds`` from now: past them the future fails with
        :class:`DeadlinePassed`, the worker running it (if one does) killed and replaced."""
        return self._put(_Task(fn, args, kwargs, time.monotonic() + seconds))

    def _put(self, task: _Task) -> Future[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the workers are shut down")
            self._queue.append(task)
            if self._thread is None:  # the dispatcher starts the workers: they follow its thread (PDEATHSIG)
                self._thread = threading.Thread(target=self._dispatch, name="dreizehn-workers", daemon=True)
                self._thread.start()
        self._wake()
        return task.future

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")

    def _dispatch(self) -> None:
        """The dispatcher's loop: hand out tasks, read answers, enforce deadlines, replace lost workers."""
        while True:
            with self._lock:
                if self._closed:
                    break
                self._hand_out()
                conns = [worker.conn for worker in self._workers]
                timeout = self._next_deadline()
            ready = wait([*conns, self._wake_r], timeout)
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    self._wake_r.recv(4096)
            with self._lock:
                for worker in list(self._workers):
                    if worker.conn in ready:
                        self._answer(worker)
                self._enforce_deadlines()
        self._stop_all()

    def _hand_out(self) -> None:
        """Give queued tasks to idle workers, starting workers up to ``size``; drop tasks cancelled or past their
        deadline before they start."""
        now = time.monotonic()
        while self._queue:
            task = self._queue[0]
            if task.deadline is not None and now >= task.deadline:
                self._queue.popleft()
                if task.future.set_running_or_notify_cancel():
                    task.future.set_exception(DeadlinePassed("no worker was free before the deadline"))
                continue
            worker = next((w for w in self._workers if w.task is None), None)
            if worker is None and len(self._workers) < self.size:
                worker = self._start()
            if worker is None:
                return
            self._queue.popleft()
            if not task.future.set_running_or_notify_cancel():
                continue
            try:
                worker.conn.send((task.fn, task.args, task.kwargs))
            except Exception as err:  # the task cannot be sent (not picklable), or the worker is gone
                task.future.set_exception(err)
                continue
            worker.task = task

    def _next_deadline(self) -> float | None:
        deadlines = [w.task.deadline for w in self._workers if w.task is not None and w.task.deadline is not None]
        deadlines += [t.deadline for t in self._queue if t.deadline is not None]
        return max(0.0, min(deadlines) - time.monotonic()) if deadlines else None

    def _answer(self, worker: _Worker) -> None:
        """A worker's socket is readable: its answer, or its end."""
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker, WorkerLost("the worker process died"), "a worker process died")
            return
        task, worker.task = worker.task, None
        if task is not None and not task.future.done():
            if ok:
                task.future.set_result(value)
            else:
                task.future.set_exception(value)

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            task = worker.task
            if task is not None and task.deadline is not None and now >= task.deadline:
                self._replace(worker, DeadlinePassed("the task ran past its deadline: its worker was killed"),
                              f"a task ({getattr(task.fn, '__name__', task.fn)}) ran past its deadline")

    def _replace(self, worker: _Worker, error: BaseException, why: str) -> None:
        """Kill ``worker`` (if it still runs), fail its task with ``error``, and start another in its place."""
        log.warning("%s: its worker process is killed and replaced", why)
        self._workers.remove(worker)
        _kill(worker)
        self.restarts += 1
        metrics.WORKER_RESTARTS.inc()
        if not self._closed:
            self._start()
        if worker.task is not None and not worker.task.future.done():  # last: who waits sees the worker replaced
            worker.task.future.set_exception(error)

    def _start(self) -> _Worker | None:
        """A new worker process, or ``None`` (logged) if none can be started."""
        ours, theirs = socket.socketpair()
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", BOOT, str(os.getpid()), str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
            )
        except OSError:
            log.exception("a worker process could not be started")
            ours.close()
            return None
        finally:
            theirs.close()
        conn = Connection(ours.detach())
        conn.send(list(sys.path))
        worker = _Worker(process, conn)
        self._workers.append(worker)
        return worker

    def _stop_all(self) -> None:
        with self._lock:
            workers, self._workers = self._workers, []
            queued = list(self._queue)
            self._queue.clear()
        for worker in workers:
            _kill(worker)
            if worker.task is not None and not worker.task.future.done():
                worker.task.future.set_exception(WorkerLost("the workers were shut down"))
        for task in queued:
            if task.future.set_running_or_notify_cancel():
                task.future.set_exception(WorkerLost("the workers were shut down"))

    def pids(self) -> list[int]:
        """The worker processes running now."""
        with self._lock:
            return [worker.process.pid for worker in self._workers]

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the workers work (every worker started is alive, none shut down), and what they know: workers
        started and alive, and workers replaced."""
        with self._lock:
            started = len(self._workers)
            alive = sum(1 for worker in self._workers if worker.process.poll() is None)
        ok = not self._closed and alive == started
        return ok, {"ok": ok, "size": self.size, "started": started, "alive": alive, "restarts": self.restarts}

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            queued = list(self._queue) if cancel_futures else []
            if cancel_futures:
                self._queue.clear()
        for task in queued:
            task.future.cancel()
        self._wake()
        thread = self._thread
        if thread is None:
            return
        if wait:
            thread.join()


def _kill(worker: _Worker) -> None:
    """End a worker process at once and reap it."""
    with contextlib.suppress(ProcessLookupError):
        worker.process.kill()
    with contextlib.suppress(OSError):
        worker.conn.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        worker.process.wait(5)
