"""Sessions (engine + game + worker process), their registry and the search-slot budget."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from kibitz.engines import Engine
from kibitz.games import Game
from kibitz.server.errors import ServiceError
from kibitz.server.worker import Worker

log = logging.getLogger("kibitz.server")


@dataclass
class Session:
    """One engine bound to one game, and the worker process that keeps its state."""

    id: str
    game: type[Game]
    engine: type[Engine]
    options: dict[str, Any]
    worker: Worker | None = None
    searching: bool = False
    stop_requested: bool = False
    """Set by Stop; a search that starts after it (e.g. behind a worker restart) stops at once."""
    closed: bool = False
    searches: int = 0
    last_used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the worker serves a request, so requests never interleave on its pipe."""

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def request_stop(self) -> bool:
        """Stop the running search (or the one about to start); True if one was running."""
        if not self.searching:
            return False
        self.stop_requested = True
        if self.worker is not None:
            self.worker.stop()
        return True

    async def live_worker(self) -> Worker:
        """The session's worker, restarted (with a fresh engine) if it died."""
        if self.worker is None or not self.worker.alive:
            self.worker = await Worker.start(self.game.name, self.engine.name, self.options)
        return self.worker

    async def close(self) -> None:
        if self.worker is not None:
            await self.worker.close()
            self.worker = None


class SessionRegistry:
    """All open sessions, bounded in number, with idle expiry."""

    def __init__(self, max_sessions: int, idle_timeout: float) -> None:
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self._sessions: dict[str, Session] = {}
        self._opening = 0  # sessions being created (counted against the bound)

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, session_id: str) -> Session:
        session = self._sessions.get(session_id)
        if session is None:
            raise ServiceError(
                grpc.StatusCode.NOT_FOUND,
                f"no session {session_id!r} (closed, expired, or never created)",
            )
        session.touch()
        return session

    async def open(
        self, game: type[Game], engine: type[Engine], options: dict[str, Any]
    ) -> Session:
        if len(self._sessions) + self._opening >= self.max_sessions:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server holds its maximum of {self.max_sessions} sessions; close one "
                "(CloseSession) or start the server with a larger --max-sessions",
            )
        self._opening += 1
        try:
            session = Session(uuid.uuid4().hex, game, engine, options)
            await session.live_worker()
        finally:
            self._opening -= 1
        self._sessions[session.id] = session
        return session

    async def close(self, session_id: str) -> None:
        session = self.get(session_id)
        del self._sessions[session_id]
        session.closed = True
        session.request_stop()
        async with session.lock:
            await session.close()

    async def close_all(self) -> None:
        for session_id in list(self._sessions):
            await self.close(session_id)

    def stop_all_searches(self) -> None:
        for session in self._sessions.values():
            session.request_stop()

    async def expire_idle_forever(self) -> None:
        """Close sessions idle for longer than the timeout (runs until cancelled)."""
        if self.idle_timeout <= 0:
            return
        while True:
            await asyncio.sleep(min(self.idle_timeout / 4, 5.0))
            deadline = time.monotonic() - self.idle_timeout
            for session in list(self._sessions.values()):
                if not session.searching and session.last_used < deadline:
                    try:
                        await self.close(session.id)
                        log.info(
                            "session %s expired after %.0f s idle", session.id, self.idle_timeout
                        )
                    except ServiceError:
                        pass  # closed meanwhile
                    except Exception:  # keep expiring the others
                        log.exception("closing idle session %s failed", session.id)


class SearchSlots:
    """At most `limit` searches at once; the next one is refused, not queued."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.running = 0

    @contextlib.asynccontextmanager
    async def take(self) -> AsyncIterator[None]:
        if self.running >= self.limit:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server is running its maximum of {self.limit} concurrent searches; "
                "retry when one ends (or raise --max-searches)",
            )
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1
