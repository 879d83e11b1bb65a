"""Worker processes started ahead of need, and the reaping of idle ones.

Starting a worker costs a process (the first one also starts the forkserver: ~0.2 s);
configuring it costs one round trip. So the pool keeps `spare_workers` unconfigured workers
ready: a new session or an analysis takes one at once and the pool starts its replacement
in the background. Workers given back after an analysis stay for the next one; those idle
for longer than `idle_timeout` beyond the first `spare_workers` are stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from kibitz.engines import EngineDefinition
from kibitz.server.worker import Worker

log = logging.getLogger("kibitz.server")


class WorkerPool:
    """Idle, unconfigured workers; `take()` one, `give_back()` it when done."""

    def __init__(
        self,
        spares: int,
        idle_timeout: float,
        heartbeat: float,
        engines: tuple[EngineDefinition, ...] = (),
    ) -> None:
        self.spares = spares
        self.idle_timeout = idle_timeout
        self.heartbeat = heartbeat
        self.engines = engines
        """Definitions of the engines made at run time, for every worker (`Worker`)."""
        self._idle: list[Worker] = []
        self._starting = 0
        self._tasks: set[asyncio.Task] = set()  # keeps background starts and closes alive

    def __len__(self) -> int:
        return len(self._idle)

    async def take(self) -> Worker:
        """An idle worker (a new one if none is ready); a replacement starts behind it."""
        worker = None
        while self._idle and worker is None:
            candidate = self._idle.pop()
            if candidate.alive:
                worker = candidate
            else:
                self._background(candidate.close())
        if worker is None:
            worker = await Worker.start(self.heartbeat, engines=self.engines)
        self.replenish()
        return worker

    def give_back(self, worker: Worker) -> None:
        """Keep a worker that finished its work (alive, its engine transient) for reuse."""
        if worker.alive:
            self._idle.append(worker)
        else:
            self._background(worker.close())

    def replenish(self) -> None:
        """Start workers in the background until `spares` are idle or starting."""
        while len(self._idle) + self._starting < self.spares:
            self._starting += 1
            self._background(self._start_one())

    async def _start_one(self) -> None:
        try:
            self._idle.append(await Worker.start(self.heartbeat, engines=self.engines))
        except Exception:  # a failed start leaves the pool one short, no more
            log.exception("starting a spare worker failed")
        finally:
            self._starting -= 1

    def reap(self, now: float) -> None:
        """Stop idle workers beyond `spares` that have been idle for `idle_timeout`."""
        keep = sorted(self._idle, key=lambda worker: worker.idle_since, reverse=True)
        for worker in keep[self.spares :]:
            if now - worker.idle_since >= self.idle_timeout:
                self._idle.remove(worker)
                self._background(worker.close())

    async def reap_forever(self) -> None:
        """`reap()` every little while (runs until cancelled)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(self.idle_timeout / 4, 5.0))
            self.reap(loop.time())

    def _background(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
        for worker in self._idle:
            await worker.close()
        self._idle.clear()
