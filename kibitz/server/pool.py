"""Worker processes started ahead of need, lent to analyses, and the reaping of idle ones.

Starting a worker costs a process (the first one also starts the forkserver: ~0.2 s);
configuring it costs one round trip. So the pool keeps `spares` unconfigured workers
ready: a new session or an analysis takes one at once and the pool starts its replacement
in the background. Workers given back after an analysis stay for the next one; those idle
for longer than `idle_timeout` beyond the first `spares` are stopped.

The pool holds at most `limit` workers at once, idle, starting and lent together (the
server's `--max-searches` plus `--spare-workers`): an analysis that finds none idle while
the pool is full waits for the next one given back, first come first served. So a burst of
requests (also those whose time ran out in the queue, which run without a search slot)
never starts more processes than the server runs searches. A session's worker is its own:
`take()` hands it over, and it no longer counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable

from kibitz.engines import EngineDefinition
from kibitz.server.worker import Worker, WorkerCrashed

log = logging.getLogger("kibitz.server")


class WorkerPool:
    """Idle, unconfigured workers: `take()` one to keep (a session), or `lend()` one and
    `give_back()` it when done (an analysis)."""

    def __init__(
        self,
        spares: int,
        idle_timeout: float,
        heartbeat: float,
        engines: tuple[EngineDefinition, ...] = (),
        limit: int | None = None,
        nice: int = 0,
    ) -> None:
        """`limit`: the most workers the pool holds at once (None: no limit); `nice`: how
        much nicer than the server its workers run (`Worker.start`)."""
        self.spares = spares
        self.idle_timeout = idle_timeout
        self.heartbeat = heartbeat
        self.engines = engines
        """Definitions of the engines made at run time, for every worker (`Worker`)."""
        self.limit = limit
        self.nice = nice
        self.workers = 0
        """Worker processes the pool holds now: idle, starting and lent."""
        self.peak = 0
        """The most it ever held at once (`workers`' high-water mark)."""
        self._idle: list[Worker] = []
        self._starting = 0
        self._waiting: deque[asyncio.Future[Worker]] = deque()
        self._tasks: set[asyncio.Task] = set()  # keeps background starts and closes alive

    def __len__(self) -> int:
        return len(self._idle)

    @property
    def waiting(self) -> int:
        """Analyses waiting for a worker (the pool is full and none is idle)."""
        return sum(1 for future in self._waiting if not future.done())

    async def take(self) -> Worker:
        """A worker to keep (a session's): an idle one, which then leaves the pool, else a
        new one outside it; a replacement starts behind it."""
        worker = self._pop_idle()
        if worker is not None:
            self.workers -= 1
        else:
            worker = await self._new_worker()
        self.replenish()
        return worker

    async def lend(self) -> Worker:
        """A worker for one analysis, to `give_back()`: an idle one, else a new one while
        the pool holds fewer than `limit`, else the next one given back."""
        worker = None if self.waiting else self._pop_idle()
        if worker is None and not self.waiting and self._has_room():
            self._grow()
            try:
                worker = await self._new_worker()
            except BaseException:
                self._shrink()
                raise
        if worker is None:
            worker = await self._wait_turn()
        self.replenish()
        return worker

    def give_back(self, worker: Worker) -> None:
        """Return a lent worker: alive (its engine transient), it serves the next analysis
        waiting or stays idle for reuse; dead, its place is freed."""
        if worker.alive:
            self._deliver(worker)
        else:
            self._background(worker.close())
            self._shrink()
            self.replenish()

    def replenish(self) -> None:
        """Start workers in the background until `spares` are idle or starting (as far as
        the limit allows)."""
        while len(self._idle) + self._starting < self.spares and self._has_room():
            self._start_one()

    def reap(self, now: float) -> None:
        """Stop idle workers beyond `spares` that have been idle for `idle_timeout`."""
        keep = sorted(self._idle, key=lambda worker: worker.idle_since, reverse=True)
        for worker in keep[self.spares :]:
            if now - worker.idle_since >= self.idle_timeout:
                self._idle.remove(worker)
                self._background(worker.close())
                self.workers -= 1

    async def reap_forever(self) -> None:
        """`reap()` every little while (runs until cancelled)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(self.idle_timeout / 4, 5.0))
            self.reap(loop.time())

    async def close(self) -> None:
        while (future := self._next_waiting()) is not None:
            future.set_exception(WorkerCrashed("the server is shutting down"))
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
        for worker in self._idle:
            await worker.close()
        self._idle.clear()

    # -- bookkeeping ------------------------------------------------------------------------

    def _has_room(self) -> bool:
        return self.limit is None or self.workers < self.limit

    def _grow(self) -> None:
        self.workers += 1
        self.peak = max(self.peak, self.workers)

    def _shrink(self) -> None:
        """One worker fewer: start one for each analysis waiting that no start serves."""
        self.workers -= 1
        while self.waiting > self._starting and self._has_room():
            self._start_one()

    def _pop_idle(self) -> Worker | None:
        """An idle worker that is alive (dead ones are closed and forgotten)."""
        while self._idle:
            worker = self._idle.pop()
            if worker.alive:
                return worker
            self._background(worker.close())
            self.workers -= 1
        return None

    async def _wait_turn(self) -> Worker:
        future: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        try:
            return await future
        except asyncio.CancelledError:  # the call went away while waiting
            if future.done() and not future.cancelled() and future.exception() is None:
                self.give_back(future.result())  # it came to us just as we left: pass it on
            raise
        finally:
            with contextlib.suppress(ValueError):
                self._waiting.remove(future)

    def _deliver(self, worker: Worker) -> None:
        """Hand a free worker to the first analysis waiting, or keep it idle."""
        future = self._next_waiting()
        if future is not None:
            future.set_result(worker)
        else:
            self._idle.append(worker)

    def _next_waiting(self) -> asyncio.Future[Worker] | None:
        """The first analysis waiting (taken off the line), None if none waits (a waiter
        that went away may still be in line: it is skipped)."""
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():
                return future
        return None

    def _new_worker(self) -> Awaitable[Worker]:
        return Worker.start(self.heartbeat, engines=self.engines, nice=self.nice)

    def _start_one(self) -> None:
        self._grow()
        self._starting += 1
        self._background(self._start())

    async def _start(self) -> None:
        try:
            worker = await self._new_worker()
        except Exception as exc:  # a failed start leaves the pool one short, no more
            log.exception("starting a worker failed")
            self._starting -= 1
            future = self._next_waiting()
            if future is not None:  # it fails the first analysis waiting (no endless retries)
                future.set_exception(WorkerCrashed(f"starting an engine worker failed: {exc}"))
            self._shrink()
            return
        self._starting -= 1
        self._deliver(worker)

    def _background(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
