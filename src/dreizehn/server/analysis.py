"""The analysis of a finished game for one seat: every decision of that seat rated with the hint search, in the
background, each result stored as it comes.

A *decision* is a position of the game where the seat was to move with more than one legal action; its *version* is
the number of actions before it (the replay step ``/api/tables/{id}/replay/{version}`` shows it). The game is
rebuilt from its stored log, and each decision is rated by :func:`dreizehn.play.hints.analyse` on the seat's view at
that
point (what the seat knew then, never the state), with ``DREIZEHN_ANALYSIS_PLAYOUTS`` playouts and a generator
seeded by the version, so that the same game gives the same analysis. Each decision is one task of the hub's
executor (worker processes, or threads when ``bot_workers`` is 0), so the progress advances decision by decision and
the event loop stays free; at most ``bot_workers - 1`` decisions (at least one) are rated at once, so a worker is
left for the bots and the hints of the tables being played. An analysis left ``running`` that no process works on
(its process stopped: no sign of life for ``DREIZEHN_ANALYSIS_LEASE`` seconds) is taken up by one process, at its
start or while it runs, and continued from the last decision stored.

The stored ratings are language-free (actions in notation); :func:`document` says them in a language.

>>> import dreizehn
>>> game = dreizehn.load_game("holzwurm", 2, {"games": 1})
>>> state = game.new_state(4)
>>> while not state.is_over:
...     state.apply(state.legal_actions()[0])
>>> found = decisions(game, 4, [game.action_to_text(action) for _, action in state.history], 0)
>>> all(len(view.legal_actions) > 1 and view.seat == 0 for _, view, _ in found)
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from dreizehn.core.game import Game, View
from dreizehn.core.registry import load_game
from dreizehn.server.storage import AnalysisRow, DecisionRow, Store, Stored
from dreizehn.words import words

log = logging.getLogger("dreizehn.server")

WORST = 5
"""The most decisions named in ``worst``."""
WORST_LOSS = 0.05
"""The win chance a decision must lose, at least, to be named in ``worst``."""
Z = 1.96
"""The chance's interval: the estimate ± this many standard errors (95 %), within [0, 1]."""


def decisions(game: Game, seed: int, actions: Sequence[str], seat: int) -> list[tuple[int, View, int]]:
    """The decisions of ``seat`` in the game of ``seed`` played as ``actions``: per decision its version, the
    seat's view then, and the action played (its number)."""
    state = game.new_state(seed)
    found = []
    for version, action in enumerate(actions):
        if state.current_player == seat and len(state.legal_actions()) > 1:
            found.append((version, state.view(seat), int(game.parse_action(action))))
        state.apply(action)
    return found


def stored_decisions(stored: Stored, seat: int) -> list[tuple[int, View, int]]:
    """The decisions of ``seat`` in a stored game (:func:`decisions`)."""
    row = stored.row
    game = load_game(row.game_id, row.players, row.options)
    return decisions(game, row.seed, [action for _, action, _ in stored.actions], seat)


def _move(game: Game, rating: Any) -> dict[str, Any]:
    """A rated action as stored: its notation, win chance with its interval, and expected final total."""
    chance = rating.win
    return {
        "action": game.action_to_text(rating.action),
        "chance": round(chance, 4),
        "chance_low": round(max(0.0, chance - Z * rating.win_sd), 4),
        "chance_high": round(min(1.0, chance + Z * rating.win_sd), 4),
        "points": round(rating.points, 2),
    }


def rate_decision(view: View, version: int, played: int, playouts: int, search: str = "auto") -> DecisionRow:
    """Rate one decision (in a worker): every legal action of ``view`` by :func:`dreizehn.play.hints.hint` with
    ``playouts`` playouts, its generator seeded by ``version``; the action ``played`` against the best one (the
    move of ``search``, by default the game's hint level, so a loss is the chance to win given up against it)."""
    from dreizehn.play.hints import hint

    game = load_game(view.game_id, view.players, view.options)
    analysis = hint(view, playouts=playouts, rng=version, game=game, search=search)
    best = _move(game, analysis.best)
    mine = best if analysis.best.action == played else _move(game, analysis.rating(played))
    loss = round(max(0.0, best["chance"] - mine["chance"]), 4)
    return DecisionRow(version, len(view.legal_actions), mine, best, loss)


def worst(rows: Sequence[DecisionRow]) -> list[int]:
    """The versions of the decisions that lost the most win chance (more than :data:`WORST_LOSS`), biggest loss
    first (the earlier of equal ones first), at most :data:`WORST`."""
    costly = sorted((r for r in rows if r.loss > WORST_LOSS), key=lambda r: (-r.loss, r.version))
    return [r.version for r in costly[:WORST]]


def document(row: AnalysisRow, game: Game, lang: str) -> dict[str, Any]:
    """The analysis as the API answers it, each action said in ``lang`` (the game's ``say_action`` words)."""
    w = words(lang)

    def said(move: dict[str, Any]) -> dict[str, Any]:
        return {**move, "text": game.say_action(w, int(game.parse_action(move["action"])))}

    return {
        "table": row.table_id, "seat": row.seat, "status": row.status, "done": row.done, "total": row.total,
        "playouts": row.playouts,
        "decisions": [{"version": d.version, "options": d.options, "played": said(d.played), "best": said(d.best),
                       "loss": d.loss} for d in row.decisions],
        "worst": worst(row.decisions),
    }


class Analyst:
    """The analyses being worked on in this process: one task per analysis, one executor task per decision.

    Several processes may share the database: an analysis is worked on by the process that began it or took it up.
    A keeper task gives a sign of life of this process's analyses every third of ``lease`` seconds, and takes up
    those left ``running`` without one for ``lease`` seconds (their process stopped or was killed), at the start
    and then every half ``lease``."""

    def __init__(self, store: Store, executor: Executor | None, playouts: int, slots: int = 1,
                 lease: float = 30.0, search: str = "auto") -> None:
        self.store = store
        self.executor = executor
        self.playouts = playouts
        self.search = search
        self.lease = lease
        self.slots = asyncio.Semaphore(max(1, slots))
        self.jobs: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._keeper: asyncio.Task[None] | None = None

    def start(self, table_id: str, seat: int) -> None:
        """Work on the analysis of (``table_id``, ``seat``) unless this process does already (call it once this
        process has the analysis: it made it, or :meth:`take_up` got it)."""
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is not None and not job.done():
            return
        task = asyncio.create_task(self._run(table_id, seat), name=f"analysis {table_id} {seat}")
        self.jobs[key] = task
        task.add_done_callback(lambda done: self.jobs.pop(key, None) if self.jobs.get(key) is done else None)

    async def take_up(self, table_id: str, seat: int) -> bool:
        """Work on an analysis that failed or that nobody works on; whether this process got it."""
        if not await asyncio.to_thread(self.store.analyses.claim, table_id, seat, self.lease):
            return False
        self.start(table_id, seat)
        return True

    async def resume_all(self) -> None:
        """After a start: take up every analysis left ``running`` that nobody works on, then keep doing so."""
        await self._sweep()
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep(), name="analyses kept")

    async def _sweep(self) -> None:
        for table_id, seat in await asyncio.to_thread(self.store.analyses.running, self.lease):
            if (table_id, seat) not in self.jobs:
                await self.take_up(table_id, seat)

    async def _keep(self) -> None:
        beat, sweep = self.lease / 3, self.lease / 2
        last_sweep = time.monotonic()
        while True:
            await asyncio.sleep(beat)
            try:
                await asyncio.to_thread(self.store.analyses.touch, list(self.jobs))
                if time.monotonic() - last_sweep >= sweep:
                    last_sweep = time.monotonic()
                    await self._sweep()
            except Exception:  # the database is away for a moment: try again at the next beat
                log.warning("keeping the analyses failed", exc_info=True)

    async def close(self) -> None:
        """Stop working (what is stored stays; an analysis left ``running`` is taken up by another process once its
        lease runs out, or at the next start)."""
        jobs = [*self.jobs.values(), *([self._keeper] if self._keeper is not None else [])]
        for job in jobs:
            job.cancel()
        for job in jobs:
            with contextlib.suppress(asyncio.CancelledError):
                await job

    async def _run(self, table_id: str, seat: int) -> None:
        try:
            stored = await asyncio.to_thread(self.store.tables.load, table_id)
            row = await asyncio.to_thread(self.store.analyses.load, table_id, seat)
            if stored is None or row is None or row.status != "running":
                return
            have = {d.version for d in row.decisions}
            todo = [d for d in await asyncio.to_thread(stored_decisions, stored, seat) if d[0] not in have]
            loop = asyncio.get_running_loop()
            for version, view, played in todo:
                async with self.slots:
                    rated = await loop.run_in_executor(self.executor, rate_decision, view, version, played,
                                                       row.playouts, self.search)
                await asyncio.to_thread(self.store.analyses.add_decision, table_id, seat, rated)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the analysis of seat %s of table %s failed", seat, table_id)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.analyses.set_status, table_id, seat, "failed")
