"""Search slots and the queue in front of them.

At most `slots` searches run at once; the next ones wait, highest priority first and
first come first served among equals (like KataGo's analysis queries), up to `capacity`
waiting; beyond that a search is refused with RESOURCE_EXHAUSTED. A waiting search whose
`give_up` event is set (a Stop, shutdown), or whose deadline passes while it waits, leaves
the queue and runs at once without a slot: its engine answers immediately with its best
move so far (0 nodes), so that waiting never makes an answer later than its time limit.
Such a search still needs a worker: an analysis waits for one the pool lends (pool.py),
which never holds more than the slots plus the spare workers, so a burst of them starts no
processes of its own; unless the server answers it itself (`Turn.expired`, see
service.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc

from kibitz.server.errors import ServiceError


@dataclass(frozen=True)
class Turn:
    """How a search got past the queue."""

    waited: float
    """Seconds it waited in the queue (0.0 when a slot was free at once)."""
    expired: bool = False
    """Whether it left the queue because its deadline passed (it holds no slot)."""


class SearchQueue:
    """Counts running searches; a `slot()` waits its turn."""

    def __init__(self, slots: int, capacity: int) -> None:
        self.slots = slots
        self.capacity = capacity
        self.running = 0
        self._waiting: list[tuple[int, int, asyncio.Future[bool]]] = []
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
    ) -> AsyncIterator[Turn]:
        """Hold a search slot for the block (or run without one, see the module docstring);
        yields how it got past the queue. `deadline`: the loop time at which a waiting search
        stops waiting."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        queued = self.running >= self.slots or self.waiting > 0
        holding = await self._acquire(priority, give_up, deadline)
        expired = not holding and not (give_up is not None and give_up.is_set())
        try:
            yield Turn(loop.time() - start if queued else 0.0, expired)
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
        # the turn settles True when a slot passes to it, False when it gives up: the
        # deadline is a timer, not a sleeping task (every search of a busy server waits
        # here); only a stop to watch takes a task
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[bool] = loop.create_future()
        heapq.heappush(self._waiting, (-priority, next(self._order), turn))
        timer = watcher = None
        if deadline is not None:
            timer = loop.call_at(deadline, _settle, turn, False)
        if give_up is not None:
            watcher = loop.create_task(give_up.wait())
            watcher.add_done_callback(lambda _: _settle(turn, False))
        try:
            holding = await turn
        except asyncio.CancelledError:  # the call went away while waiting
            if turn.done() and not turn.cancelled() and turn.result():
                self._release()  # the slot came to us just as we left: pass it on
            raise
        finally:
            if timer is not None:
                timer.cancel()
            if watcher is not None:
                watcher.cancel()
        if not holding:  # given up: leave the queue
            self._forget_done()
        return holding

    def _release(self) -> None:
        """Hand the slot to the next waiter, or free it."""
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(True)  # the slot passes on: `running` stays
                return
        self.running -= 1

    def _forget_done(self) -> None:
        self._waiting = [entry for entry in self._waiting if not entry[2].done()]
        heapq.heapify(self._waiting)


def _settle(turn: asyncio.Future[bool], holding: bool) -> None:
    """End a wait in the queue (unless it ended already)."""
    if not turn.done():
        turn.set_result(holding)
