"""The kibitz.v1.EngineService implementation: validates, routes to workers, streams back."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc

from kibitz.engines import ENGINES, Engine, StopReason
from kibitz.games import GAMES, Game
from kibitz.server import convert
from kibitz.server.errors import ServiceError
from kibitz.server.sessions import SearchSlots, Session, SessionRegistry
from kibitz.server.validation import (
    SearchJob,
    engine_for,
    game_named,
    parse_position,
    prepare_search,
    typed_options,
)
from kibitz.server.worker import Worker, WorkerCrashed, WorkerError
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

log = logging.getLogger("kibitz.server")


@dataclass
class ServerConfig:
    """Tunable limits of one server (the `kibitz serve` flags)."""

    host: str = "127.0.0.1"
    port: int = 50051
    max_sessions: int = 16
    max_searches: int = field(default_factory=lambda: os.cpu_count() or 1)
    idle_timeout: float = 600.0
    """Seconds before an idle session is closed; 0 = never."""
    info_interval: float = 1.0
    """Seconds between periodic Info messages during a long iteration."""
    default_move_time_ms: int = 1000
    """Move time of a search that sets no limit at all."""
    deadline_margin: float = 0.25
    """Seconds past a search's time limit after which the server itself stops it."""
    kill_grace: float = 2.0
    """Seconds after that stop before a worker that has not answered is killed."""


def _status(exc: Exception) -> tuple[grpc.StatusCode, str]:
    """The gRPC status for an error raised while handling a request."""
    if isinstance(exc, ServiceError):
        return exc.code, exc.message
    return grpc.StatusCode.INTERNAL, f"engine worker failed: {exc}"


_HANDLED = (ServiceError, WorkerCrashed, WorkerError)


def _handles_errors(method: Callable) -> Callable:
    """Turn ServiceErrors and worker failures of a unary handler into gRPC statuses."""

    @functools.wraps(method)
    async def wrapper(self: EngineService, request, context: grpc.aio.ServicerContext):
        try:
            return await method(self, request, context)
        except _HANDLED as exc:
            await context.abort(*_status(exc))

    return wrapper


def _streams_errors(method: Callable) -> Callable:
    """The same for server-streaming handlers."""

    @functools.wraps(method)
    async def wrapper(self: EngineService, request, context: grpc.aio.ServicerContext):
        try:
            async for response in method(self, request, context):
                yield response
        except _HANDLED as exc:
            await context.abort(*_status(exc))

    return wrapper


class EngineService(pb_grpc.EngineServiceServicer):
    """kibitz.v1.EngineService: validates each request, then routes it to a worker process.

    Handlers never search themselves; errors are raised as ServiceError (or worker
    failures) and turned into gRPC statuses by the decorators above.
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.sessions = SessionRegistry(config.max_sessions, config.idle_timeout)
        self.slots = SearchSlots(config.max_searches)
        self._spare_workers: dict[tuple[str, str], list[Worker]] = {}
        self._analyzing: set[Worker] = set()
        self._closing: set[asyncio.Task] = set()  # keeps close tasks alive until done

    # -- catalogue ------------------------------------------------------------------------

    async def ListGames(self, request, context) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(games=[convert.game_info(GAMES[n]) for n in sorted(GAMES)])

    async def ListEngines(self, request, context) -> pb.ListEnginesResponse:
        games = list(GAMES.values())
        return pb.ListEnginesResponse(
            engines=[convert.engine_info(ENGINES[n], games) for n in sorted(ENGINES)]
        )

    @_handles_errors
    async def Describe(self, request: pb.DescribeRequest, context) -> pb.PositionInfo:
        game = game_named(request.game)
        state, _ = parse_position(game, request.position, request.moves)
        message = pb.PositionInfo(
            game=game.name,
            position=state.position(),
            board=state.render(),
            to_move=state.to_move(),
            legal_moves=[state.format_move(move) for move in state.legal_moves()],
        )
        if state.is_terminal():
            message.game_over.CopyFrom(convert.game_over_result(state).game_over)
        return message

    # -- sessions -------------------------------------------------------------------------

    def _session_pb(self, session: Session) -> pb.Session:
        effective = {spec.name: spec.default for spec in session.engine.option_specs}
        effective.update(session.options)
        return pb.Session(
            id=session.id,
            game=session.game.name,
            engine=session.engine.name,
            options={name: convert.option_text(value) for name, value in effective.items()},
            searching=session.searching,
            searches=session.searches,
            idle_timeout_seconds=self.config.idle_timeout,
        )

    @_handles_errors
    async def CreateSession(self, request: pb.CreateSessionRequest, context) -> pb.Session:
        game = game_named(request.game)
        engine = engine_for(request.engine, game)
        options = typed_options(engine, request.options)
        session = await self.sessions.open(game, engine, options)
        log.info("session %s opened: %s with %s", session.id, game.name, engine.name)
        return self._session_pb(session)

    @_handles_errors
    async def GetSession(self, request: pb.GetSessionRequest, context) -> pb.Session:
        return self._session_pb(self.sessions.get(request.session_id))

    def _idle_session(self, session_id: str, action: str) -> Session:
        session = self.sessions.get(session_id)
        if session.searching:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"session {session_id} is searching; {action} after the search ends (or Stop it)",
            )
        return session

    @_handles_errors
    async def SetOptions(self, request: pb.SetOptionsRequest, context) -> pb.Session:
        session = self._idle_session(request.session_id, "change options")
        options = typed_options(session.engine, request.options)
        async with session.lock:
            worker = await session.live_worker()
            await worker.request("set_options", options)
        session.options.update(options)
        return self._session_pb(session)

    @_handles_errors
    async def NewGame(self, request: pb.NewGameRequest, context) -> pb.Session:
        session = self._idle_session(request.session_id, "start a new game")
        async with session.lock:
            worker = await session.live_worker()
            await worker.request("new_game")
        return self._session_pb(session)

    @_handles_errors
    async def CloseSession(self, request: pb.CloseSessionRequest, context):
        await self.sessions.close(request.session_id)
        log.info("session %s closed", request.session_id)
        return pb.CloseSessionResponse()

    # -- searching ------------------------------------------------------------------------

    def _job(
        self, game: type[Game], engine: type[Engine], request: pb.SearchRequest | pb.AnalyzeRequest
    ) -> SearchJob:
        return prepare_search(
            game,
            engine,
            request.position,
            request.moves,
            request.limits,
            self.config.default_move_time_ms,
        )

    @_streams_errors
    async def Search(self, request: pb.SearchRequest, context) -> AsyncIterator[pb.SearchResponse]:
        session = self._idle_session(request.session_id, "start another search")
        job = self._job(session.game, session.engine, request)
        async with self.slots.take():
            session.searching = True
            session.stop_requested = False
            try:
                async with session.lock:
                    if session.closed:
                        raise ServiceError(
                            grpc.StatusCode.NOT_FOUND, f"session {session.id} was closed"
                        )
                    worker = await session.live_worker()
                    async for response in self._supervise(
                        worker, job, lambda: session.stop_requested
                    ):
                        yield response
                session.searches += 1
            finally:
                session.searching = False
                session.touch()

    @_handles_errors
    async def Stop(self, request: pb.StopRequest, context) -> pb.StopResponse:
        session = self.sessions.get(request.session_id)
        return pb.StopResponse(was_searching=session.request_stop())

    @_streams_errors
    async def Analyze(
        self, request: pb.AnalyzeRequest, context
    ) -> AsyncIterator[pb.SearchResponse]:
        game = game_named(request.game)
        engine = engine_for(request.engine, game)
        options = typed_options(engine, request.options)
        job = self._job(game, engine, request)
        async with self.slots.take():
            worker = await self._spare_worker(game.name, engine.name)
            self._analyzing.add(worker)
            try:
                await worker.request("set_options", options)
                async for response in self._supervise(worker, job):
                    yield response
            finally:
                self._analyzing.discard(worker)
                self._return_spare(game.name, engine.name, worker)

    async def _spare_worker(self, game: str, engine: str) -> Worker:
        """An idle worker configured for (game, engine) with a fresh engine state."""
        spares = self._spare_workers.setdefault((game, engine), [])
        while spares:
            worker = spares.pop()
            if worker.alive:
                await worker.request("configure", game, engine, {})
                return worker
        return await Worker.start(game, engine, {})

    def _return_spare(self, game: str, engine: str, worker: Worker) -> None:
        spares = self._spare_workers.setdefault((game, engine), [])
        if worker.alive and len(spares) < self.config.max_searches:
            spares.append(worker)
        else:
            task = asyncio.get_running_loop().create_task(worker.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _supervise(
        self, worker: Worker, job: SearchJob, stop_requested: Callable[[], bool] = lambda: False
    ) -> AsyncIterator[pb.SearchResponse]:
        """Stream one search from a worker, enforcing its deadline as a backstop."""
        loop = asyncio.get_running_loop()
        timers = []
        if job.deadline is not None:
            stop_at = loop.time() + job.deadline + self.config.deadline_margin
            timers.append(loop.call_at(stop_at, worker.stop))
            timers.append(loop.call_at(stop_at + self.config.kill_grace, worker.kill))
        try:
            await worker.start_search(
                job.position, job.moves, job.limits, self.config.info_interval
            )
            if stop_requested():  # a Stop that came while the worker was being readied
                worker.stop()
            async for message in worker.results():
                if isinstance(message, pb.Info):
                    yield pb.SearchResponse(info=message)
                else:
                    yield pb.SearchResponse(result=message)
        except WorkerCrashed as exc:
            if job.deadline is not None and loop.time() >= timers[-1].when():
                log.warning("worker ignored its deadline and was killed; answering best so far")
                yield pb.SearchResponse(result=_provisional_answer(worker))
                return
            raise ServiceError(
                grpc.StatusCode.INTERNAL,
                f"{exc}; the search was lost, the session gets a fresh worker on its next "
                "request (its tables are empty)",
            ) from None
        except WorkerError as exc:
            raise ServiceError(grpc.StatusCode.INTERNAL, f"engine failed: {exc}") from None
        finally:
            for timer in timers:
                timer.cancel()

    def stop_all_searches(self) -> None:
        self.sessions.stop_all_searches()
        for worker in self._analyzing:
            worker.stop()

    async def close(self) -> None:
        await self.sessions.close_all()
        for spares in self._spare_workers.values():
            for worker in spares:
                await worker.close()
        self._spare_workers.clear()


def _provisional_answer(worker: Worker) -> pb.Result:
    """The engine's own provisional answer from its last Info, for a search the server had
    to cut (the engine ignored its deadline); an error if it never sent one."""
    if not worker.provisional:
        raise ServiceError(
            grpc.StatusCode.DEADLINE_EXCEEDED,
            "the engine ignored its deadline before reporting any move and was stopped; "
            "the session gets a fresh worker on its next request (its tables are empty)",
        )
    result = pb.Result.FromString(worker.provisional)
    result.MergeFrom(pb.Result(**convert.stop_fields(StopReason.TIME)))  # sets the stop fields
    return result
