"""The writer: actions stored from the event loop in groups, one commit for every action waiting."""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import TYPE_CHECKING

from dreizehn.server.storage.rows import Append

if TYPE_CHECKING:
    from dreizehn.server.storage.store import Store


class Writer:
    """Stores actions from the event loop in groups, one commit for every action waiting; each caller awaits its own
    answer.

    On SQLite the group is stored on the event loop itself, once per turn of the loop: a commit without ``fsync``
    (WAL, ``synchronous=NORMAL``) costs tens of microseconds, far less than handing the group to a thread, which
    must wait for the interpreter lock while the loop works (5 ms a wait, several waits a group: most of an action's
    time under load). The write-ahead log is copied into the database file (a checkpoint, which does ``fsync``) by a
    thread instead, every :data:`CHECKPOINT_EVERY` commits. On PostgreSQL, where a commit is a round trip, a thread
    stores the groups, each fenced by ``process``: a row of a table whose home another process holds is not stored
    (:meth:`~dreizehn.server.storage.Actions.append_many`), and its caller hears :class:`Conflict`."""

    def __init__(self, store: Store, process: str | None = None) -> None:
        self.store = store
        self.process = process
        self.inline = not store.postgres
        self._pending: list[tuple[Append, asyncio.Future[bool]]] = []
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._queue: queue.SimpleQueue[tuple[Append, asyncio.AbstractEventLoop, asyncio.Future[bool]] | None] = (
            queue.SimpleQueue())
        self._thread: threading.Thread | None = None
        if not self.inline:
            self._thread = threading.Thread(target=self._run, name="dreizehn-writer", daemon=True)
            self._thread.start()

    async def append(self, row: Append) -> None:
        """Store ``row``; raises :class:`Conflict` if its sequence number is taken (or another process holds its
        table's home)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        if self.inline:
            self._pending.append((row, future))
            if len(self._pending) == 1:
                loop.call_soon(self._flush)
        else:
            self._queue.put((row, loop, future))
        if not await future:
            raise Conflict(f"action {row.seq} of table {row.table_id} is taken")

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)

    def _store(self, rows: list[Append]) -> list[bool | BaseException]:
        """Each row's answer: stored or not, or the error of a database that failed (every caller hears of it)."""
        try:
            return list(self.store.actions.append_many(rows, self.process))
        except Exception as err:
            return [err] * len(rows)

    def _flush(self) -> None:
        """SQLite: store the actions of this turn of the loop in one transaction, and answer their callers."""
        batch, self._pending = self._pending, []
        answers = self._store([row for row, _ in batch])
        _settle([(future, answer) for (_, future), answer in zip(batch, answers, strict=True)])
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and (self._checkpoint is None or self._checkpoint.done()):
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(None, self.store.checkpoint)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < 256:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)
                    break
                batch.append(item)
            answers = self._store([row for row, _, _ in batch])
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[bool], bool | BaseException]]] = {}
            for (_, loop, future), answer in zip(batch, answers, strict=True):
                by_loop.setdefault(loop, []).append((future, answer))
            for loop, settled in by_loop.items():  # one wake-up of each loop for the whole group
                loop.call_soon_threadsafe(_settle, settled)


CHECKPOINT_EVERY = 500
"""SQLite commits of actions between two checkpoints (each commit adds a few pages to the write-ahead log)."""


def _settle(settled: list[tuple[asyncio.Future[bool], bool | BaseException]]) -> None:
    for future, answer in settled:
        if future.done():
            continue
        if isinstance(answer, BaseException):
            future.set_exception(answer)
        else:
            future.set_result(answer)


class Conflict(Exception):
    """An action whose sequence number another action took first, or of a table another process serves now."""
