"""Sessions (engine + game + worker process) and their registry: owners, quotas, memory,
idle expiry."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc

from kibitz.engines import Engine
from kibitz.games import Game, quoted
from kibitz.server.budget import MemoryBudget
from kibitz.server.errors import ServiceError
from kibitz.server.worker import Worker

log = logging.getLogger("kibitz.server")

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""A session id a caller may propose: long enough to be unguessable when made at random."""

WorkerFactory = Callable[[tuple[str, str, dict[str, Any]]], Awaitable[Worker]]
"""Gives a worker configured with (game, engine, options)."""


@dataclass
class Session:
    """One engine bound to one game, and the worker process that keeps its state."""

    id: str
    game: type[Game]
    engine: type[Engine]
    options: dict[str, Any]
    """Every option's typed value, defaults included."""
    owner: str
    """The caller identity that created it (`auth.identity`)."""
    memory_mb: int
    """What it holds of the memory budget."""
    start_worker: WorkerFactory
    worker: Worker | None = None
    searching: bool = False
    stop_requested: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by Stop; a search waiting for a slot or a worker then stops at once."""
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
        self.stop_requested.set()
        if self.worker is not None:
            self.worker.stop()
        return True

    async def live_worker(self) -> Worker:
        """The session's worker, restarted (with a fresh engine) if it died."""
        if self.worker is None or not self.worker.alive:
            if self.worker is not None:
                await self.worker.close()
            self.worker = await self.start_worker((self.game.name, self.engine.name, self.options))
        return self.worker

    async def close(self) -> None:
        if self.worker is not None:
            await self.worker.close()
            self.worker = None


class SessionRegistry:
    """All open sessions: bounded in number overall and per owner, charged to the memory
    budget, visible only to their owner when `private`, closed when idle too long."""

    def __init__(
        self,
        max_sessions: int,
        max_per_owner: int,
        idle_timeout: float,
        budget: MemoryBudget,
        private: bool,
    ) -> None:
        self.max_sessions = max_sessions
        self.max_per_owner = max_per_owner
        self.idle_timeout = idle_timeout
        self.budget = budget
        self.private = private
        """Whether only a session's owner may see it (the server requires tokens)."""
        self._sessions: dict[str, Session] = {}
        self._opening: list[str] = []  # owners of sessions being created (counted too)
        self._opening_ids: set[str] = set()

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, session_id: str, caller: str | None) -> Session:
        """The session with that id, if `caller` may see it (None: the server itself)."""
        session = self._sessions.get(session_id)
        if session is None or (self.private and caller is not None and session.owner != caller):
            raise ServiceError(
                grpc.StatusCode.NOT_FOUND,
                f"no session {quoted(session_id)} on this server (closed, expired, never "
                "created, or held by a server that is gone)",
            )
        session.touch()
        return session

    def owned_by(self, owner: str) -> list[Session]:
        """The owner's sessions, oldest first."""
        return [session for session in self._sessions.values() if session.owner == owner]

    async def open(
        self,
        game: type[Game],
        engine: type[Engine],
        options: dict[str, Any],
        owner: str,
        start_worker: WorkerFactory,
        proposed_id: str = "",
    ) -> Session:
        """A new session with a started worker, under `proposed_id` if given (else a new
        random id); RESOURCE_EXHAUSTED when a limit is hit."""
        session_id = self._free_id(proposed_id)
        if len(self._sessions) + len(self._opening) >= self.max_sessions:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server holds its maximum of {self.max_sessions} sessions; close one "
                "(CloseSession, `kibitz sessions close`) or start the server with a larger "
                "--max-sessions",
            )
        held = len(self.owned_by(owner)) + self._opening.count(owner)
        if held >= self.max_per_owner:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"you hold {held} sessions, the most one client may (--max-sessions-per-client "
                f"{self.max_per_owner}); close one (`kibitz sessions close`)",
            )
        memory = MemoryBudget.need_mb(engine, options)
        self.budget.reserve(memory, f"a {game.name} session with {engine.name}")
        self._opening.append(owner)
        self._opening_ids.add(session_id)
        try:
            session = Session(session_id, game, engine, options, owner, memory, start_worker)
            await session.live_worker()
        except BaseException:
            self.budget.release(memory)
            raise
        finally:
            self._opening.remove(owner)
            self._opening_ids.discard(session_id)
        self._sessions[session.id] = session
        return session

    def _free_id(self, proposed: str) -> str:
        """`proposed` if it is a well-formed id no session has, else INVALID_ARGUMENT or
        ALREADY_EXISTS; a new random id when none is proposed."""
        if not proposed:
            return uuid.uuid4().hex
        if not SESSION_ID.fullmatch(proposed):
            raise ServiceError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"session_id {quoted(proposed)} is not 16 to 64 letters, digits, '-' or '_'",
            )
        if proposed in self._sessions or proposed in self._opening_ids:
            raise _taken(proposed)
        return proposed

    def recharge(self, session: Session, options: dict[str, Any]) -> None:
        """Charge the budget for `options` (all of them) instead of the session's current
        ones; RESOURCE_EXHAUSTED (and nothing changed) when they do not fit."""
        memory = MemoryBudget.need_mb(session.engine, options)
        self.budget.release(session.memory_mb)
        try:
            self.budget.reserve(memory, f"the {session.game.name} session with these options")
        except ServiceError:
            self.budget.reserve(session.memory_mb, "the session's current options")
            raise
        session.memory_mb = memory

    async def close(self, session: Session) -> None:
        if self._sessions.pop(session.id, None) is None:
            return
        self.budget.release(session.memory_mb)
        session.closed = True
        session.request_stop()
        async with session.lock:
            await session.close()

    async def close_all(self) -> None:
        for session in list(self._sessions.values()):
            await self.close(session)

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
                        await self.close(session)
                        log.info(
                            "a %s session of %s expired after %.0f s idle",
                            session.game.name,
                            session.owner,
                            self.idle_timeout,
                        )
                    except Exception:  # keep expiring the others
                        log.exception("closing an idle session failed")


def _taken(session_id: str) -> ServiceError:
    return ServiceError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"a session with id {quoted(session_id)} exists; propose another (a random one)",
    )
