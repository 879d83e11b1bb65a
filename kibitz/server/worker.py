"""Worker processes: where searches run, so the server's event loop never does.

See docs/architecture.md, "A search request, end to end".

One worker holds one engine instance and its state (tables, trees) between searches. The
parent talks to it over a pipe with pickled tuples:

    parent -> worker   ("configure", game, engine, options) | ("set_options", options)
                       | ("new_game",) | ("search", SearchOrder) | ("exit",)
    worker -> parent   ("ok", payload) | ("error", message)
                       | ("info", pb.Info bytes or b"", provisional pb.Result bytes)*
                         then ("result", pb.Result bytes) or ("failed", message)
                         or ("exhausted", message)
                       | ("alive",) every `heartbeat / 5` seconds, from a thread of its own

The provisional Result of an Info is what the engine would answer if stopped then (from
`Info.root_moves`, the best PROVISIONAL_ROOT_MOVES of them; empty bytes for Infos without
root moves); the server keeps the latest and answers with it if it has to kill the worker.
A worker that stays silent (no heartbeat) for `heartbeat` seconds is frozen or wedged and
is killed, searching or not; a new one has STARTING_HEARTBEATS times as long to say its
first word. A search is stopped through a shared flag that the engine polls every few
hundred nodes (`StopFlag`: a byte of shared memory without a lock, so that a worker frozen
while reading it cannot block the server setting it).

("failed", message) ends a search whose engine raised `EngineFailure` (an external engine
process crashed or hung): the worker lives on and its engine restarts the process at the
next search. ("exhausted", message) ends a search that raised MemoryError: it outgrew a
memory bound (an engine's own, such as `astar`'s Memory option, or the process's); the
worker lives on too. Engines defined at run time (the server's `--config` engines) come as
definitions with the process's arguments and are registered before the first request; a
worker closes its engines (`Engine.close()`) when it replaces them or exits. A worker runs
as a batch job, and `--worker-nice` steps nicer than the server (`_yield_to_the_server`).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from kibitz.engines import (
    ENGINES,
    Engine,
    EngineDefinition,
    EngineFailure,
    Info,
    SearchContext,
    register_engines,
)
from kibitz.games import GAMES, Game
from kibitz.server import convert
from kibitz.v1 import engine_pb2 as pb

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["kibitz.server.preload"])

STARTING_HEARTBEATS = 4
"""A new worker's first word (its first heartbeat) may take this many `heartbeat`s: on a
saturated machine a new process, a batch job, may wait seconds for a CPU before it runs at
all, and it is not frozen for that."""

PROVISIONAL_ROOT_MOVES = 64
"""Root moves a provisional answer lists at most (formatting thousands on every Info, as
in Nim with 16 heaps of 1000, would cost more than the search)."""


@dataclass(frozen=True)
class SearchOrder:
    """One search, as the worker gets it."""

    position: str
    moves: list[str]
    limits: bytes
    """A serialized pb.Limits, checked by the server."""
    info_interval: float
    started: float
    """The `time.monotonic()` reading the limits count from: the request's arrival."""
    time_cap: float | None
    """The server's cap for searches without a time limit (`Limits.max_time`)."""
    setup: tuple[str, str, dict[str, Any]] | None = None
    """(game, engine, typed options) of a transient engine for this search alone (Analyze);
    None: the worker's configured engine (a session's)."""
    progress: bool = True
    """Whether the caller streams Infos; if not, Infos go out only as provisional answers,
    at most one an `info_interval` (a short search then costs one message)."""


class StopFlag:
    """A stop signal shared with a worker process: one byte of shared memory, no lock.

    (A multiprocessing.Event takes a shared lock in `is_set()`: a worker frozen while the
    engine polled it would block the server's `set()`, and with it the event loop.)"""

    def __init__(self) -> None:
        self._value = _context.RawValue("b", 0)

    def is_set(self) -> bool:
        return bool(self._value.value)

    def set(self) -> None:
        self._value.value = 1

    def clear(self) -> None:
        self._value.value = 0


class WorkerCrashed(RuntimeError):
    """The worker process died (killed, out of memory, interpreter crash)."""


class WorkerError(RuntimeError):
    """The worker reported an unexpected exception while serving a request."""


class EngineFailed(WorkerError):
    """The search's external engine failed (crashed, hung); the worker itself is fine."""


class SearchExhausted(WorkerError):
    """The search ran out of memory (MemoryError: an engine's bound or the process's); the
    worker itself is fine."""


# ---------------------------------------------------------------------------- worker side


def _worker_main(
    conn: Connection,
    stop_flag: StopFlag,
    heartbeat: float,
    engines: tuple[EngineDefinition, ...] = (),
    nice: int = 0,
) -> None:
    """Serve requests from the parent until it says exit or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when workers stop
    _yield_to_the_server(nice)
    lock = threading.Lock()

    def send(message: tuple) -> None:
        with lock:
            conn.send(message)

    def beat() -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe closed: we are ending
            while True:
                threading.Event().wait(heartbeat / 5)
                send(("alive",))

    threading.Thread(target=beat, daemon=True).start()
    register_engines(engines)
    engine: Engine | None = None
    game_cls: type[Game] | None = None
    while True:
        try:
            op, *args = conn.recv()
        except (EOFError, OSError):
            _close(engine)
            return
        try:
            if op == "configure":
                game_name, engine_name, options = args
                game_cls = GAMES[game_name]
                _close(engine)
                engine = ENGINES[engine_name](options)
                send(("ok", None))
            elif op == "set_options":
                engine.set_options(args[0])
                send(("ok", None))
            elif op == "new_game":
                engine.new_game()
                send(("ok", None))
            elif op == "search":
                order: SearchOrder = args[0]
                if order.setup is None:
                    _run_search(send, engine, game_cls, order, stop_flag)
                else:
                    game_name, engine_name, options = order.setup
                    transient = ENGINES[engine_name](options)
                    try:
                        _run_search(send, transient, GAMES[game_name], order, stop_flag)
                    finally:
                        _close(transient)
            elif op == "exit":
                _close(engine)
                return
            else:
                send(("error", f"unknown request {op!r}"))
        except EngineFailure as exc:  # an external engine failed: this search is lost
            send(("failed", str(exc)))
        except MemoryError as exc:  # a memory bound: this search is lost, not the worker
            send(("exhausted", str(exc) or "the search ran out of memory"))
        except Exception as exc:  # report, keep serving: one bad request must not kill us
            send(("error", f"{type(exc).__name__}: {exc}"))


def _yield_to_the_server(nice: int) -> None:
    """Schedule this process as a batch job (Linux's SCHED_BATCH), and `nice` steps nicer
    than the server; before any thread starts (Linux keeps both per thread, and threads and
    child processes inherit them).

    As a batch job the worker gets its fair share of the CPU as before, but the server's
    order no longer makes it preempt the server on waking: on a busy machine the server's
    event loop, every call's, stalled in the pipe's write for the first millisecond or so of
    the worker's work (cProfile, 1,000 searches: 1.0-1.6 ms a write before, 0.03 after)."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    if nice:
        os.nice(nice)


def _close(engine: Engine | None) -> None:
    """Let an engine release its processes (a failure to do so must not end the worker)."""
    if engine is not None:
        with contextlib.suppress(Exception):
            engine.close()


def _run_search(
    send: Callable[[tuple], None],
    engine: Engine,
    game_cls: type[Game],
    order: SearchOrder,
    stop_flag: StopFlag,
) -> None:
    state = game_cls.from_position(order.position)
    state.play_line(order.moves)
    if state.is_terminal():
        send(("result", convert.game_over_result(state).SerializeToString()))
        return
    root = state.clone()  # untouched, to format moves while the engine walks `state`
    wire_limits = pb.Limits.FromString(order.limits)
    limits = convert.limits_from_pb(wire_limits, root)
    limits.max_time = order.time_cap

    quiet_until = order.started + order.info_interval

    def report(info: Info) -> None:
        nonlocal quiet_until
        if not order.progress:
            if info.time + order.started < quiet_until:
                return
            quiet_until = info.time + order.started + order.info_interval
        wanted = info.root_moves if wire_limits.report_root_moves and order.progress else ()
        roots = [convert.root_move_to_pb(move, root) for move in wanted]
        message = convert.info_to_pb(info, root, roots)
        # unasked, only the best move (the one a provisional answer plays) gets its labels
        best = roots[:PROVISIONAL_ROOT_MOVES] or [
            convert.root_move_to_pb(move, root, labelled=index == 0)
            for index, move in enumerate(info.root_moves[:PROVISIONAL_ROOT_MOVES])
        ]
        provisional = convert.provisional_result(info, best).SerializeToString() if best else b""
        send(("info", message.SerializeToString() if order.progress else b"", provisional))

    context = SearchContext(
        report=report, stop=stop_flag, info_interval=order.info_interval, started=order.started
    )
    result = engine.search(state, limits, context)
    send(("result", convert.result_to_pb(result, root).SerializeToString()))


# ---------------------------------------------------------------------------- server side

_DEAD = ("dead", None)


class Worker:
    """The server's handle on one worker process; one request at a time.

    A watchdog kills the process when it stays silent (no heartbeat) for `heartbeat`
    seconds (STARTING_HEARTBEATS times as long before its first word): a frozen or wedged
    worker then fails its caller with WorkerCrashed. Made by `start()`.
    """

    def __init__(
        self,
        process: multiprocessing.process.BaseProcess,
        conn: Connection,
        stop_flag: StopFlag,
        heartbeat: float,
    ) -> None:
        """`process`: started, serving `_worker_main` on the other end of `conn`."""
        self.process = process
        self._conn = conn
        self._stop_flag = stop_flag
        self._queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self._conn.fileno(), self._on_readable)
        self.alive = True
        self._abandoned_search = False
        self.provisional = b""
        """The running search's provisional answer (a serialized pb.Result) from its last
        Info that had one; empty before the first."""
        self.last_heard = self._loop.time()
        self.heard = False
        """Whether the process has said anything yet (it has started)."""
        self.idle_since = self._loop.time()
        self.death = ""
        """Why the server killed the process, if it did."""
        """When the worker last finished a request (for reaping idle spares)."""
        self._watchdog = self._loop.create_task(self._watch(heartbeat))

    @classmethod
    async def start(
        cls,
        heartbeat: float,
        setup: tuple[str, str, dict[str, Any]] | None = None,
        engines: tuple[EngineDefinition, ...] = (),
        nice: int = 0,
    ) -> Worker:
        """A new worker; with `setup` = (game, engine, options), a configured engine.
        `engines`: the definitions of the engines made at run time (`--config`); `nice`:
        how much nicer than the server the process runs (`--worker-nice`: on a saturated
        machine the scheduler then gives the server's event loop the CPU first, and the
        engine processes the worker starts inherit it)."""
        conn, child_conn = _context.Pipe()
        stop_flag = StopFlag()
        process = _context.Process(
            target=_worker_main,
            args=(child_conn, stop_flag, heartbeat, engines, nice),
            daemon=True,
        )
        # in a thread: the start waits for the forkserver to fork (for its start too, the
        # first time), which on a busy machine held the event loop for up to seconds. (If
        # this call is cancelled meanwhile, the process ends at once: its pipe is closed.)
        await asyncio.to_thread(process.start)
        child_conn.close()
        worker = cls(process, conn, stop_flag, heartbeat)
        if setup is not None:
            try:
                await worker.request("configure", *setup)
            except BaseException:
                await worker.close()
                raise
        return worker

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def _on_readable(self) -> None:
        """One message: the loop calls again while the pipe holds more (`Connection.poll`
        would make a selector for each message)."""
        try:
            message = self._conn.recv()
        except (EOFError, OSError):
            self._mark_dead()
            return
        self.last_heard = self._loop.time()
        self.heard = True
        if message[0] != "alive":
            self._queue.put_nowait(message)

    async def _watch(self, heartbeat: float) -> None:
        """Kill the process once it has been silent for `heartbeat` seconds (a new one: for
        STARTING_HEARTBEATS times as long)."""
        while self.alive:
            await asyncio.sleep(heartbeat / 4)
            allowed = heartbeat if self.heard else STARTING_HEARTBEATS * heartbeat
            if self.alive and self._loop.time() - self.last_heard > allowed:
                self.death = (
                    f"the engine worker stopped responding (no heartbeat for {allowed:g} s) "
                    "and was killed"
                    if self.heard
                    else f"the engine worker did not start within {allowed:g} s and was killed"
                )
                self.kill()
                self._mark_dead()

    def _mark_dead(self) -> None:
        if self.alive:
            self.alive = False
            self._loop.remove_reader(self._conn.fileno())
            self._queue.put_nowait(_DEAD)

    async def _receive(self) -> tuple[Any, ...]:
        message = await self._queue.get()
        if message is _DEAD:
            self._queue.put_nowait(_DEAD)  # for whoever waits next
            await asyncio.to_thread(self.process.join, 2.0)
            raise WorkerCrashed(
                self.death or f"engine worker died (exit code {self.process.exitcode})"
            )
        if message[0] == "error":
            raise WorkerError(message[1])
        if message[0] == "failed":
            raise EngineFailed(message[1])
        if message[0] == "exhausted":
            raise SearchExhausted(message[1])
        return message

    def _send(self, *message: Any) -> None:
        if not self.alive:
            raise WorkerCrashed("engine worker is not running")
        try:
            self._conn.send(message)
        except OSError:
            self._mark_dead()
            raise WorkerCrashed("engine worker is not running") from None

    async def request(self, op: str, *args: Any) -> Any:
        """Send a request and wait for its ("ok", payload) reply."""
        await self._discard_abandoned_search()
        self._send(op, *args)
        try:
            return (await self._receive())[1]
        finally:
            self.idle_since = self._loop.time()

    async def _discard_abandoned_search(self) -> None:
        """Stop a search whose caller went away and drop its remaining output."""
        if not self._abandoned_search:
            return
        self.stop()
        try:
            while (await self._receive())[0] != "result":
                pass
        except WorkerError:
            pass
        self._abandoned_search = False

    async def start_search(self, order: SearchOrder) -> None:
        """Send a search; read its messages with `results()`. A `stop()` from now on counts."""
        await self._discard_abandoned_search()
        self._stop_flag.clear()
        self.provisional = b""
        self._send("search", order)
        self._abandoned_search = True  # until the result has been read

    async def results(self) -> AsyncIterator[pb.Info | pb.Result]:
        """The running search's Info messages, then its Result."""
        try:
            while True:
                kind, payload, *provisional = await self._receive()
                if kind == "info":
                    if provisional[0]:
                        self.provisional = provisional[0]
                    if payload:
                        yield pb.Info.FromString(payload)
                else:
                    self._abandoned_search = False
                    yield pb.Result.FromString(payload)
                    return
        except (WorkerError, WorkerCrashed):
            self._abandoned_search = False  # nothing more will come
            raise
        finally:
            self.idle_since = self._loop.time()
            if self._abandoned_search:  # the caller went away: stop now, drain on next use
                self.stop()

    def stop(self) -> None:
        """Ask the running search (if any) to stop soon."""
        self._stop_flag.set()

    def kill(self) -> None:
        """End the process at once (a search that ignores stop, a frozen worker, shutdown)."""
        if self.process.is_alive():
            self.process.kill()

    async def close(self) -> None:
        """Ask the process to exit; kill it if it does not."""
        if self.alive:
            self._stop_flag.set()
            with contextlib.suppress(WorkerCrashed):
                self._send("exit")
        self._mark_dead()
        self._watchdog.cancel()
        await asyncio.to_thread(self.process.join, 2.0)
        self.kill()
        self._conn.close()
