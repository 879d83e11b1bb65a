"""A blocking wrapper over the async client, for scripts and notebooks.

    with SyncClient() as client:
        result = client.analyze("tictactoe", depth=9).wait()
        print(result.best_move, result.score)
        with client.open("connect4") as session:  # closed when the block ends
            for info in session.search(moves=["4453"], depth=8):
                print(info.depth, info.score, " ".join(info.pv))

It runs the async client on a private event loop in a background thread, so there is one
implementation of the protocol.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import queue
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

import grpc

from kibitz.clients.client import Client, KibitzError, NotFound, SearchStream, Session
from kibitz.clients.values import Info, Limits, Result
from kibitz.v1 import engine_pb2 as pb

T = TypeVar("T")
_END = object()
WAKE_EVERY = 0.1
"""Seconds the calling thread's waits last at most before they look at the signals again:
Python runs a signal's handler (Ctrl-C's KeyboardInterrupt) in the main thread only, and a
signal that the system hands to another thread (the client's loop, gRPC's) does not wake a
wait of the main thread, so an endless wait would ignore Ctrl-C until the next event."""


class _LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, awaitable: Awaitable[T]) -> T:
        async def wrapper() -> T:
            return await awaitable

        future = asyncio.run_coroutine_threadsafe(wrapper(), self.loop)
        while True:
            with contextlib.suppress(concurrent.futures.TimeoutError):
                return future.result(timeout=WAKE_EVERY)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


class SyncSearch:
    """Iterate for `Info`s; `result` (a `Result`) is set at the end; `wait()` returns it.

    A task on the client's loop reads the stream into a queue, so an interrupted iteration
    (Ctrl-C) can simply be resumed, e.g. after `SyncSession.stop()`, to reach the Result.
    """

    def __init__(self, runner: _LoopThread, stream: SearchStream) -> None:
        self._runner = runner
        self._stream = stream
        self._events: queue.Queue[Any] = queue.Queue()
        runner.loop.call_soon_threadsafe(runner.loop.create_task, self._pump())

    async def _pump(self) -> None:
        try:
            async for info in self._stream:
                self._events.put(info)
            self._events.put(_END)
        except BaseException as exc:  # delivered to the reading thread
            self._events.put(exc)

    @property
    def result(self) -> Result | None:
        return self._stream.result

    def __iter__(self) -> Iterator[Info]:
        while True:
            try:
                event = self._events.get(timeout=WAKE_EVERY)
            except queue.Empty:
                continue
            if event is _END:
                self._events.put(_END)  # iterating again ends at once
                return
            if isinstance(event, BaseException):
                raise event
            yield event

    def wait(self) -> Result:
        for _ in self:
            pass
        if self.result is None:
            raise KibitzError(grpc.StatusCode.CANCELLED, "the search was cancelled")
        return self.result

    def cancel(self) -> None:
        self._runner.loop.call_soon_threadsafe(self._stream.cancel)


class SyncSession:
    """Blocking counterpart of Session; a context manager: leaving
    ``with client.open(...) as session:`` closes the session (one that already expired is
    fine)."""

    def __init__(self, runner: _LoopThread, session: Session) -> None:
        self._runner = runner
        self._session = session

    @property
    def id(self) -> str:
        return self._session.id

    @property
    def info(self) -> pb.Session:
        return self._session.info

    @property
    def reopened(self) -> int:
        """See Session.reopened."""
        return self._session.reopened

    def __enter__(self) -> SyncSession:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        # as Session.__aexit__: NotFound is fine; an error on its way out is not replaced
        with contextlib.suppress(NotFound if exc_type is None else KibitzError):
            self.close()

    def search(
        self,
        position: str = "",
        moves: Iterable[str] = (),
        limits: Limits | None = None,
        *,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> SyncSearch:
        """See Session.search."""

        async def start() -> SearchStream:
            return self._session.search(
                position, moves, limits, priority=priority, **limit_keywords
            )

        return SyncSearch(self._runner, self._runner.run(start()))

    def stop(self) -> bool:
        return self._runner.run(self._session.stop())

    def set_options(self, **options: Any) -> pb.Session:
        return self._runner.run(self._session.set_options(**options))

    def new_game(self) -> pb.Session:
        return self._runner.run(self._session.new_game())

    def refresh(self) -> pb.Session:
        return self._runner.run(self._session.refresh())

    def close(self) -> None:
        self._runner.run(self._session.close())


class SyncClient:
    """Blocking counterpart of Client (the same arguments); use as a context manager or
    call close()."""

    def __init__(
        self,
        address: str | None = None,
        *,
        tls_ca: str | os.PathLike | None = None,
        token: str | None = None,
    ) -> None:
        self._runner = _LoopThread()

        async def connect() -> Client:
            return Client(address, tls_ca=tls_ca, token=token)

        try:
            self._client = self._runner.run(connect())
        except BaseException:  # e.g. an unreadable CA file: no thread left behind
            self._runner.close()
            raise

    def run(self, work: Callable[[Client], Awaitable[T]]) -> T:
        """Run `work(client)` with the async Client on this client's event loop and return
        its result (for tools built on the async API, such as `kibitz analysis`)."""
        return self._runner.run(work(self._client))

    @property
    def address(self) -> str:
        return self._client.address

    @property
    def tls_ca(self) -> str | os.PathLike | None:
        return self._client.tls_ca

    @property
    def authenticated(self) -> bool:
        return self._client.authenticated

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._runner.run(self._client.close())
        self._runner.close()

    def games(self) -> list[pb.GameInfo]:
        return self._runner.run(self._client.games())

    def engines(self) -> list[pb.EngineInfo]:
        return self._runner.run(self._client.engines())

    def limit_ranges(self) -> pb.LimitRanges:
        return self._runner.run(self._client.limit_ranges())

    def describe(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        view_of: int | None = None,
    ) -> pb.PositionInfo:
        return self._runner.run(self._client.describe(game, position, moves, view_of=view_of))

    def export(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        players: Iterable[str] = (),
        headers: Mapping[str, str] | None = None,
        comments: Iterable[str] = (),
        *,
        nodes: Iterable[pb.RecordNode] = (),
    ) -> pb.GameRecord:
        return self._runner.run(
            self._client.export(game, position, moves, players, headers, comments, nodes=nodes)
        )

    def import_game(self, game: str, text: str) -> pb.GameTree:
        return self._runner.run(self._client.import_game(game, text))

    def open(
        self,
        game: str,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        reopen: bool = False,
    ) -> SyncSession:
        """See Client.open."""
        opening = self._client.open(game, engine, options, reopen=reopen)
        return SyncSession(self._runner, self._runner.run(opening))

    def session(self, session_id: str) -> SyncSession:
        return SyncSession(self._runner, self._runner.run(self._client.session(session_id)))

    def sessions(self) -> list[pb.Session]:
        """See Client.sessions."""
        return self._runner.run(self._client.sessions())

    def analyze(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> SyncSearch:
        """See Client.analyze."""

        async def start() -> SearchStream:
            return self._client.analyze(
                game,
                position,
                moves,
                engine=engine,
                options=options,
                limits=limits,
                priority=priority,
                **limit_keywords,
            )

        return SyncSearch(self._runner, self._runner.run(start()))

    def analyze_result(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> Result:
        """See Client.analyze_result."""
        return self._runner.run(
            self._client.analyze_result(
                game,
                position,
                moves,
                engine=engine,
                options=options,
                limits=limits,
                priority=priority,
                **limit_keywords,
            )
        )
