"""Search slots and the queue in front of them.

At most `slots` searches run at once; the next ones wait, highest priority first and
first come first served among equals (like KataGo's analysis queries), up to `capacity`
waiting; beyond that a search is refused with RESOURCE_EXHAUSTED. A waiting search whose
`give_up` event is set (a Stop, shutdown), or whose deadline passes while it waits, leaves
the queue and runs at once without a slot: its engine answers immediately with its best
move so far (0 nodes), so that waiting never makes an answer later than its time limit.
Such a search still needs a worker: an analysis waits for one the pool lends (pool.py),
which never holds more than the slots plus the spare workers, so a burst of them starts no
processes of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

import grpc

from kibitz.server.errors import ServiceError


class SearchQueue:
    """Counts running searches; a `slot()` waits its turn."""

    def __init__(self, slots: int, capacity: int) -> None:
        self.slots = slots
        self.capacity = capacity
        self.running = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, future in self._waiting if not future.done())

    @contextlib.asynccontextmanager
    async def slot(
        self,
        priority: int = 0,
        give_up: asyncio.Event | None = None,
        deadline: float | None = None,
    ) -> AsyncIterator[float]:
        """Hold a search slot for the block (or run without one, see the module docstring);
        yields the seconds it waited in the queue (0.0 when a slot was free at once).
        `deadline`: the loop time at which a waiting search stops waiting."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        queued = self.running >= self.slots or self.waiting > 0
        holding = await self._acquire(priority, give_up, deadline)
        try:
            yield loop.time() - start if queued else 0.0
        finally:
            if holding:
                self._release()

    async def _acquire(
        self, priority: int, give_up: asyncio.Event | None, deadline: float | None
    ) -> bool:
        """True once a slot is ours; False when it gave up waiting (`give_up`, `deadline`)."""
        if self.running < self.slots and not self.waiting:
            self.running += 1
            return True
        if self.waiting >= self.capacity:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server runs its maximum of {self.slots} searches and {self.capacity} "
                "more are waiting; retry later (or raise --max-searches / --max-queued)",
            )
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (-priority, next(self._order), future))
        waiters = [future]
        if give_up is not None:
            waiters.append(asyncio.ensure_future(give_up.wait()))
        if deadline is not None:
            waiters.append(asyncio.ensure_future(_sleep_until(deadline)))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the call went away while waiting
            if future.done():
                self._release()  # the slot came to us just as we left: pass it on
            else:
                future.cancel()
            raise
        finally:
            for waiter in waiters[1:]:
                waiter.cancel()
        if not future.done():  # given up: leave the queue
            future.cancel()
            self._forget_done()
            return False
        return True

    def _release(self) -> None:
        """Hand the slot to the next waiter, or free it."""
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)  # the slot passes on: `running` stays
                return
        self.running -= 1

    def _forget_done(self) -> None:
        self._waiting = [entry for entry in self._waiting if not entry[2].done()]
        heapq.heapify(self._waiting)


async def _sleep_until(when: float) -> None:
    await asyncio.sleep(max(0.0, when - asyncio.get_running_loop().time()))
