"""The server's memory budget (`kibitz serve --max-memory MB`).

Every session and every running analysis reserves what its engine declares it needs for
its options (`Engine.memory_mb`: tables, trees) plus a fixed share for its worker process;
a reservation that does not fit is refused with RESOURCE_EXHAUSTED naming the budget and
what is left, before any worker allocates anything.
"""

from __future__ import annotations

from typing import Any

import grpc

from kibitz.engines import Engine
from kibitz.server.errors import ServiceError

WORKER_MB = 64
"""A worker process's own share: ~22 MB resident measured idle, plus the games' memos (Connect
Four's line-end memo takes up to ~30 MB)."""


class MemoryBudget:
    """Megabytes reserved out of a total."""

    def __init__(self, total_mb: int) -> None:
        self.total_mb = total_mb
        self.reserved_mb = 0

    @staticmethod
    def need_mb(engine: type[Engine], options: dict[str, Any]) -> int:
        """What an engine with `options` (complete: defaults included) may take, worker
        included."""
        return engine.memory_mb(options) + WORKER_MB

    def reserve(self, megabytes: int, what: str) -> None:
        """Take `megabytes` for `what` (e.g. "a connect4 session with Hash 4096")."""
        left = self.total_mb - self.reserved_mb
        if megabytes > left:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{what} needs {megabytes} MB of memory, but the server's budget of "
                f"{self.total_mb} MB (--max-memory) has {left} MB left; close a session or "
                "ask for less (e.g. a smaller Hash)",
            )
        self.reserved_mb += megabytes

    def release(self, megabytes: int) -> None:
        self.reserved_mb = max(0, self.reserved_mb - megabytes)
