"""The kibitz.v1.EngineService implementation: validates, routes to workers, streams back."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, NamedTuple

import grpc

from kibitz.engines import ENGINES, Engine, EngineDefinition
from kibitz.games import GAMES, Game
from kibitz.server import convert, inline, presentation
from kibitz.server.auth import Tokens, identity
from kibitz.server.budget import MemoryBudget
from kibitz.server.config import ServerConfig
from kibitz.server.errors import ServiceError
from kibitz.server.pool import WorkerPool
from kibitz.server.queue import SearchQueue, Turn
from kibitz.server.sessions import Session, SessionRegistry
from kibitz.server.validation import (
    SearchJob,
    checked_options,
    engine_for,
    fresh_options,
    game_named,
    limit_ranges,
    prepare_search,
    typed_options,
)
from kibitz.server.worker import (
    EngineFailed,
    SearchExhausted,
    SearchOrder,
    Worker,
    WorkerCrashed,
    WorkerError,
)
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc
from kibitz.vocabulary import StopReason

log = logging.getLogger("kibitz.server")


def _status(exc: Exception) -> tuple[grpc.StatusCode, str]:
    """The gRPC status for an error raised while handling a request."""
    if isinstance(exc, ServiceError):
        return exc.code, exc.message
    if isinstance(exc, EngineFailed):
        return grpc.StatusCode.ABORTED, str(exc)
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
            async with contextlib.aclosing(method(self, request, context)) as responses:
                async for response in responses:
                    yield response
        except _HANDLED as exc:
            await context.abort(*_status(exc))

    return wrapper


class EngineService(pb_grpc.EngineServiceServicer):
    """kibitz.v1.EngineService: validates each request, then routes it to a worker process.

    Handlers search themselves only where a search is tiny (inline.py, the fast path);
    errors are raised as ServiceError (or worker failures) and turned into gRPC statuses by
    the decorators above.
    """

    def __init__(
        self,
        config: ServerConfig,
        tokens: Tokens | None = None,
        engines: tuple[EngineDefinition, ...] = (),
    ) -> None:
        """`engines`: the definitions of the engines of `--config`, for the workers."""
        self.config = config
        self.tokens = tokens
        self.budget = MemoryBudget(config.max_memory_mb)
        self.sessions = SessionRegistry(
            config.max_sessions,
            config.max_sessions_per_client,
            config.idle_timeout,
            self.budget,
            private=tokens is not None,
        )
        self.queue = SearchQueue(config.max_searches, config.max_queued)
        self.pool = WorkerPool(
            config.spare_workers,
            config.spare_idle_timeout,
            config.heartbeat_timeout,
            engines,
            limit=config.max_searches + config.spare_workers,
            nice=config.worker_nice,
        )
        self._analyses: dict[asyncio.Event, Worker | None] = {}
        """Running and waiting analyses: their stop events and (once started) workers."""
        self.inline_engines = inline.ReadyEngines()
        """The engines of the analyses run here (inline.py)."""
        self.inline_conversions = inline.Conversions()
        """The wire form of their latest answers (inline.py)."""
        self._catalogues: dict[str, tuple[tuple, Any]] = {}
        """ListGames' and ListEngines' answers, with the registries they were made from."""

    def _caller(self, context: grpc.aio.ServicerContext) -> str:
        return identity(context, self.tokens)

    # -- catalogue ------------------------------------------------------------------------

    async def ListGames(self, request, context) -> pb.ListGamesResponse:
        return self._catalogue("games", self._games)

    async def ListEngines(self, request, context) -> pb.ListEnginesResponse:
        return self._catalogue("engines", self._engines)

    def _catalogue(self, name: str, build: Callable[[], Any]) -> Any:
        """The answer `build()` made, made again only where a game or an engine has come
        or gone since (plugins, tests): clients ask often (a load balancer's probe, every
        page load) for what seldom changes, and making it costs a millisecond."""
        registered = (tuple(GAMES.items()), tuple(ENGINES.items()))
        made = self._catalogues.get(name)
        if made is None or made[0] != registered:
            made = self._catalogues[name] = (registered, build())
        return made[1]

    def _games(self) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(games=[convert.game_info(GAMES[n]) for n in sorted(GAMES)])

    def _engines(self) -> pb.ListEnginesResponse:
        games = list(GAMES.values())
        return pb.ListEnginesResponse(
            engines=[convert.engine_info(ENGINES[n], games) for n in sorted(ENGINES)],
            limit_ranges=limit_ranges(
                self.config.default_move_time_ms,
                self.config.max_search_time,
                self.config.move_overhead_ms,
            ),
        )

    @_handles_errors
    async def Describe(self, request: pb.DescribeRequest, context) -> pb.PositionInfo:
        game = game_named(request.game)
        view_of = request.view_of if request.HasField("view_of") else None
        return presentation.position_info(game, request.position, request.moves, view_of)

    @_handles_errors
    async def ExportGame(self, request: pb.ExportRequest, context) -> pb.GameRecord:
        return presentation.game_record(game_named(request.game), request)

    @_handles_errors
    async def ImportGame(self, request: pb.ImportRequest, context) -> pb.GameTree:
        # a long record takes a while to read: in a thread, the other calls go on
        game = game_named(request.game)
        return await asyncio.to_thread(presentation.game_tree, game, request)

    # -- sessions -------------------------------------------------------------------------

    def _session_pb(self, session: Session) -> pb.Session:
        idle = 0.0 if session.searching else time.monotonic() - session.last_used
        return pb.Session(
            id=session.id,
            game=session.game.name,
            engine=session.engine.name,
            options={name: convert.option_text(value) for name, value in session.options.items()},
            searching=session.searching,
            searches=session.searches,
            idle_timeout_seconds=self.config.idle_timeout,  # deprecated twins of the _ms ones
            owner=session.owner,
            idle_seconds=idle,
            idle_timeout_ms=convert.ms(self.config.idle_timeout),
            idle_ms=convert.ms(idle),
        )

    async def _configured_worker(self, setup: tuple[str, str, dict[str, Any]]) -> Worker:
        worker = await self.pool.take()
        try:
            await worker.request("configure", *setup)
        except BaseException:
            await worker.close()
            raise
        return worker

    @_handles_errors
    async def CreateSession(self, request: pb.CreateSessionRequest, context) -> pb.Session:
        game = game_named(request.game)
        engine = engine_for(request.engine, game)
        options = fresh_options(engine, game, request.options)
        owner = self._caller(context)
        session = await self.sessions.open(
            game, engine, options, owner, self._configured_worker, request.session_id
        )
        log.info("session opened for %s: %s with %s", owner, game.name, engine.name)
        log.debug("session %s opened", session.id)
        return self._session_pb(session)

    @_handles_errors
    async def GetSession(self, request: pb.GetSessionRequest, context) -> pb.Session:
        return self._session_pb(self.sessions.get(request.session_id, self._caller(context)))

    @_handles_errors
    async def ListSessions(self, request, context) -> pb.ListSessionsResponse:
        owned = self.sessions.owned_by(self._caller(context))
        return pb.ListSessionsResponse(sessions=[self._session_pb(s) for s in owned])

    def _idle_session(self, session_id: str, context, action: str) -> Session:
        session = self.sessions.get(session_id, self._caller(context))
        if session.searching:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"the session is searching; {action} after the search ends (or Stop it)",
            )
        return session

    @_handles_errors
    async def SetOptions(self, request: pb.SetOptionsRequest, context) -> pb.Session:
        session = self._idle_session(request.session_id, context, "change options")
        changes = typed_options(session.engine, request.options)
        options = checked_options(session.engine, session.game, {**session.options, **changes})
        self.sessions.recharge(session, options)
        async with session.lock:
            worker = await session.live_worker()
            await worker.request("set_options", changes)
        session.options = options
        return self._session_pb(session)

    @_handles_errors
    async def NewGame(self, request: pb.NewGameRequest, context) -> pb.Session:
        session = self._idle_session(request.session_id, context, "start a new game")
        async with session.lock:
            worker = await session.live_worker()
            await worker.request("new_game")
        return self._session_pb(session)

    @_handles_errors
    async def CloseSession(self, request: pb.CloseSessionRequest, context):
        session = self.sessions.get(request.session_id, self._caller(context))
        await self.sessions.close(session)
        log.debug("session %s closed", session.id)
        return pb.CloseSessionResponse()

    # -- searching ------------------------------------------------------------------------

    def _job(
        self,
        game: type[Game],
        engine: type[Engine],
        options: dict[str, Any],
        request: pb.SearchRequest | pb.AnalyzeRequest,
    ) -> SearchJob:
        return prepare_search(
            game,
            engine,
            options,
            request.position,
            request.moves,
            request.limits,
            self.config.default_move_time_ms,
            self.config.max_search_time,
            self.config.move_overhead_ms,
        )

    def _order(
        self, job: SearchJob, started: float, setup=None, progress: bool = True
    ) -> SearchOrder:
        return SearchOrder(
            job.position,
            job.moves,
            job.limits.SerializeToString(),
            self.config.info_interval,
            started,
            self.config.max_search_time,
            setup,
            progress,
        )

    @_streams_errors
    async def Search(self, request: pb.SearchRequest, context) -> AsyncIterator[pb.SearchResponse]:
        started = asyncio.get_running_loop().time()
        session = self._idle_session(request.session_id, context, "start another search")
        job = self._job(session.game, session.engine, session.options, request)
        session.searching = True
        session.stop_requested.clear()
        try:
            async with self.queue.slot(
                request.priority, session.stop_requested, _queue_deadline(job, started)
            ) as turn:
                if self._answers_here(turn, session.engine, session.options):
                    if session.closed:
                        raise ServiceError(grpc.StatusCode.NOT_FOUND, "the session was closed")
                    setup = (session.engine, session.game, session.options)
                    yield self._expired_answer(*setup, job, started, turn.waited)
                else:
                    if turn.waited:
                        yield _queued_info(turn.waited)
                    async with session.lock:
                        if session.closed:
                            raise ServiceError(grpc.StatusCode.NOT_FOUND, "the session was closed")
                        worker = await session.live_worker()
                        order = self._order(job, started)
                        stop = session.stop_requested
                        search = self._supervise(worker, job, order, turn.waited, stop)
                        async with contextlib.aclosing(search):
                            async for response in search:
                                yield response
            session.searches += 1
        finally:
            session.searching = False
            session.touch()

    @_handles_errors
    async def Stop(self, request: pb.StopRequest, context) -> pb.StopResponse:
        session = self.sessions.get(request.session_id, self._caller(context))
        return pb.StopResponse(was_searching=session.request_stop())

    @_streams_errors
    def Analyze(self, request: pb.AnalyzeRequest, context) -> AsyncIterator[pb.SearchResponse]:
        analysis = self._analysis_of(request)  # its errors too become the call's status
        return self._inline_search(analysis) if analysis.inline else self._on_worker(analysis, True)

    @_handles_errors
    async def AnalyzeResult(self, request: pb.AnalyzeRequest, context) -> pb.Result:
        analysis = self._analysis_of(request)
        if analysis.inline:  # the Result alone, without a stream's generators
            instance = self.inline_engines.take(analysis.engine, analysis.game, analysis.options)
            (answer,) = self._run_inline(instance, analysis.job, analysis.started, False, 0.0)
            self._give_back_soon(instance, analysis)
            return answer.result
        # closed at once, not when collected: its timers and its worker must not outlive it
        async with contextlib.aclosing(self._on_worker(analysis, False)) as responses:
            async for response in responses:
                if response.HasField("result"):
                    return response.result
        raise ServiceError(grpc.StatusCode.INTERNAL, "the analysis ended without a result")

    def _analysis_of(self, request: pb.AnalyzeRequest) -> _Analysis:
        """The analysis `request` asks for, checked (its game, engine and options kept
        checked between calls: validation.py)."""
        started = asyncio.get_running_loop().time()
        game = game_named(request.game)
        engine = engine_for(request.engine, game)
        options = fresh_options(engine, game, request.options)
        job = self._job(game, engine, options, request)
        inline_here = inline.eligible(engine, options, job)
        return _Analysis(game, engine, options, job, started, request.priority, inline_here)

    async def _on_worker(
        self, analysis: _Analysis, progress: bool
    ) -> AsyncIterator[pb.SearchResponse]:
        """An analysis on a worker lent by the pool, with a transient engine."""
        game, engine, options, job, started, *_ = analysis
        memory = MemoryBudget.need_mb(engine, options)
        self.budget.reserve(memory, f"a {game.name} analysis with {engine.name}")
        stop = asyncio.Event()
        self._analyses[stop] = None
        try:
            async with self.queue.slot(
                analysis.priority, stop, _queue_deadline(job, started)
            ) as turn:
                if self._answers_here(turn, engine, options):
                    yield self._expired_answer(engine, game, options, job, started, turn.waited)
                    return
                waited = turn.waited
                if waited and progress:
                    yield _queued_info(waited)
                worker = self._analyses[stop] = await self.pool.lend()
                if stop.is_set():
                    worker.stop()
                setup = (game.name, engine.name, options)
                order = self._order(job, started, setup, progress)
                try:
                    search = self._supervise(worker, job, order, waited, stop)
                    async with contextlib.aclosing(search):
                        async for response in search:
                            yield response
                finally:
                    self.pool.give_back(worker)
        finally:
            del self._analyses[stop]
            self.budget.release(memory)

    def _answers_here(self, turn: Turn, engine: type[Engine], options: dict[str, Any]) -> bool:
        """Whether the server answers a search itself once it is past the queue: one whose
        time ran out there (its engine answers without searching: a move, 0 nodes), where
        its engine runs here (inline.py) and `--expired-answers` is `server`. A worker
        would first have to get a CPU, on a machine so busy that searches queue; a session
        then keeps its worker's engine as it was."""
        return (
            turn.expired
            and self.config.expired_answers == "server"
            and inline.runs_here(engine, options)
        )

    async def _inline_search(self, analysis: _Analysis) -> AsyncIterator[pb.SearchResponse]:
        """The stream of a tiny search run here (inline.py) on a kept engine, given back
        once the stream has taken its last response."""
        instance = self.inline_engines.take(analysis.engine, analysis.game, analysis.options)
        responses = self._run_inline(instance, analysis.job, analysis.started, True, 0.0)
        try:
            for response in responses:
                yield response
        finally:
            self._give_back_soon(instance, analysis)

    def _give_back_soon(self, instance: Engine, analysis: _Analysis) -> None:
        """Make an inline search's engine new again for the next, once its answer is on its
        way (the loop sends it first: clearing a table may cost more than the search)."""
        loop = asyncio.get_running_loop()
        loop.call_soon(self.inline_engines.give_back, instance, analysis.game, analysis.options)

    def _expired_answer(
        self,
        engine: type[Engine],
        game: type[Game],
        options: dict[str, Any],
        job: SearchJob,
        started: float,
        waited: float,
    ) -> pb.SearchResponse:
        """The Result of a search whose time ran out in the queue (`_answers_here`), made
        here on a kept engine, which answers without searching. Its engine is given back at
        once (as new already: it searched nothing), for the next such search: these come
        in bursts, and an engine made anew allocates its tables (10 ms for Connect Four)."""
        instance = self.inline_engines.take(engine, game, options)
        (answer,) = self._run_inline(instance, job, started, False, waited)
        self.inline_engines.give_back(instance, game, options)
        return answer

    def _run_inline(
        self, instance: Engine, job: SearchJob, started: float, progress: bool, waited: float
    ) -> list[pb.SearchResponse]:
        """The responses of a search by `instance` here (inline.py), its Result finished
        like a worker's (`waited`: seconds in the queue); an engine that fails is closed."""
        try:
            responses = inline.search(instance, job, started, progress, self.inline_conversions)
        except Exception as exc:  # an engine bug fails this call only
            log.exception("inline search failed")
            instance.close()
            raise ServiceError(grpc.StatusCode.INTERNAL, f"engine failed: {exc}") from None
        _finished(responses[-1].result, job, waited)
        return responses

    async def _supervise(
        self,
        worker: Worker,
        job: SearchJob,
        order: SearchOrder,
        waited: float,
        stop: asyncio.Event,
    ) -> AsyncIterator[pb.SearchResponse]:
        """Stream one search from a worker, enforcing its deadline as a backstop."""
        loop = asyncio.get_running_loop()
        timers = []
        if job.deadline is not None:
            # from its deadline, or from now for a search that got its worker only after it
            # (its time ran out waiting): the engine answers at once, given the same margin
            begin = max(order.started + job.deadline, loop.time())
            stop_at = begin + self.config.deadline_margin
            timers.append(loop.call_at(stop_at, worker.stop))
            timers.append(loop.call_at(stop_at + self.config.kill_grace, worker.kill))
        try:
            await worker.start_search(order)
            if stop.is_set():  # a Stop that came while the search was being set up
                worker.stop()
            async with contextlib.aclosing(worker.results()) as messages:
                async for message in messages:
                    if isinstance(message, pb.Info):
                        yield pb.SearchResponse(info=message)
                    else:
                        yield pb.SearchResponse(result=_finished(message, job, waited))
        except WorkerCrashed as exc:
            if timers and loop.time() >= timers[-1].when():
                log.warning("worker ignored its deadline and was killed; answering best so far")
                yield pb.SearchResponse(result=_finished(_provisional_answer(worker), job, waited))
                return
            raise ServiceError(
                grpc.StatusCode.INTERNAL,
                f"{exc}; the search was lost, the session gets a fresh worker on its next "
                "request (its tables are empty)",
            ) from None
        except EngineFailed as exc:  # an external engine's crash or hang: not a server fault
            raise ServiceError(grpc.StatusCode.ABORTED, str(exc)) from None
        except SearchExhausted as exc:  # over a memory bound: the session lives on
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc)) from None
        except WorkerError as exc:
            raise ServiceError(grpc.StatusCode.INTERNAL, f"engine failed: {exc}") from None
        finally:
            for timer in timers:
                timer.cancel()

    # -- the server's life ----------------------------------------------------------------

    async def start(self) -> list[asyncio.Task]:
        """Start spare workers and the housekeeping tasks (cancel them to stop)."""
        self.pool.replenish()
        return [
            asyncio.create_task(self.sessions.expire_idle_forever()),
            asyncio.create_task(self.pool.reap_forever()),
        ]

    def stop_all_searches(self) -> None:
        self.sessions.stop_all_searches()
        for stop, worker in self._analyses.items():
            stop.set()
            if worker is not None:
                worker.stop()

    async def close(self) -> None:
        await self.sessions.close_all()
        await self.pool.close()
        self.inline_engines.close()


class _Analysis(NamedTuple):
    """An analysis checked (`EngineService._analysis_of`)."""

    game: type[Game]
    engine: type[Engine]
    options: dict[str, Any]
    job: SearchJob
    started: float
    priority: int
    inline: bool
    """Whether it runs here (inline.py)."""


def _queue_deadline(job: SearchJob, started: float) -> float | None:
    """When a search of `job` stops waiting for a slot: its own time limit's deadline."""
    return None if job.deadline is None or not job.timed else started + job.deadline


def _queued_ms(waited: float) -> int:
    """Seconds waited for a slot as the wire's whole milliseconds: at least 1 if any."""
    return max(1, round(waited * 1000)) if waited else 0


def _queued_info(waited: float) -> pb.SearchResponse:
    """The Info that opens the stream of a search that waited for a slot."""
    return pb.SearchResponse(info=pb.Info(queued_ms=_queued_ms(waited)))


def _finished(result: pb.Result, job: SearchJob, waited: float) -> pb.Result:
    """The worker's Result with what the server adds: the time queued (the opening Info's
    `queued_ms`), and TIME_CAP for a search without a time limit of its own that the
    server's cap ended."""
    result.stats["queued_ms"] = _queued_ms(waited)
    if result.stopped_by == pb.Result.TIME and not job.timed:
        result.MergeFrom(pb.Result(**convert.stop_fields(StopReason.TIME_CAP)))
    return result


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
