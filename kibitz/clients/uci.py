"""`kibitz uci`: a UCI engine on stdin/stdout that forwards to one session of a kibitz server.

A chess GUI (or any UCI host) starts `kibitz uci --server HOST:PORT --game chess --engine
alphabeta` as if it were a local engine. The bridge opens one session on the server and
translates: `setoption` -> SetOptions, `ucinewgame` -> NewGame, `position` + `go` -> Search,
`stop` -> Stop; the Info stream becomes `info` lines and the Result `bestmove`. Other games
work the same, in their own notation. docs/uci.md documents the commands, the options, the
score mapping, the time handling and pondering.

Shape: one asyncio task reads commands (a thread feeds it stdin); each `go` runs as a task of
its own, so that `stop`, `ponderhit`, `isready` and `quit` are answered during a search.
Commands that need an idle session (`position`, `setoption`, `go`, ...) wait, in order, until
the running search has answered `bestmove`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

import grpc

from kibitz import __version__
from kibitz.clients.client import Client, KibitzError, Session
from kibitz.clients.values import Info, Limits, Result, Score
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import Bound, ScoreKind

MULTIPV_MAX = 500
OVERHEAD_DEFAULT_MS = 100
OVERHEAD_MAX_MS = 5000
MIN_TIME_MS = 10
"""The least time a clock or move time is forwarded with, whatever the reserve."""
PING_TIMEOUT = 2.0
"""Seconds `isready` waits for its round-trip probe before answering readyok regardless."""
QUIT_TIMEOUT = 5.0
"""Seconds `quit` waits for the running search's answer, then for the session's close."""

IMMEDIATE = frozenset({"stop", "ponderhit", "isready", "quit"})
"""Commands answered at once, also during a search; the others wait, in order, for its
`bestmove`. `stop` and `ponderhit` are for the latest `go`: behind a `go` that waits, they
wait too (until that `go` has started)."""

_EOF = object()
_SEARCH_DONE = object()


# ---------------------------------------------------------------------------- options


BRIDGE_OPTIONS = (
    pb.OptionInfo(
        name="MultiPV",
        type="spin",
        default="1",
        min=1,
        max=MULTIPV_MAX,
        description="Lines with exact scores, one `info ... multipv k` line each (Limits.multipv).",
    ),
    pb.OptionInfo(
        name="Move Overhead",
        type="spin",
        default=str(OVERHEAD_DEFAULT_MS),
        min=0,
        max=OVERHEAD_MAX_MS,
        description="Milliseconds of the clock kept back for the network and the GUI, besides "
        "the measured round trip.",
    ),
    pb.OptionInfo(
        name="Ponder",
        type="check",
        default="false",
        description="Whether the GUI may send `go ponder` (the bridge ponders when told to).",
    ),
)
"""Options of the bridge itself, offered besides the kibitz engine's."""


def option_line(option: pb.OptionInfo) -> str:
    """A kibitz option (OptionInfo) as a UCI `option name ... type ...` line."""
    default = option.default
    if option.type == "string" and not default:
        default = "<empty>"  # UCI's way of writing an empty default
    line = f"option name {option.name} type {option.type} default {default}"
    if option.type == "spin" and option.HasField("min") and option.HasField("max"):
        line += f" min {option.min} max {option.max}"
    for choice in option.choices:
        line += f" var {choice}"
    return line


def check_bridge_option(option: pb.OptionInfo, value: str) -> int | bool:
    """A bridge option's value parsed; ValueError naming the option when it is not valid."""
    if option.type == "check":
        if value.lower() not in ("true", "false"):
            raise ValueError(f"option {option.name} wants true or false, not {value!r}")
        return value.lower() == "true"
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"option {option.name} wants an integer, not {value!r}") from None
    if not option.min <= number <= option.max:
        raise ValueError(
            f"option {option.name} wants a value in [{option.min}..{option.max}], not {number}"
        )
    return number


# ---------------------------------------------------------------------------- commands


def parse_position(words: Sequence[str]) -> tuple[str, str]:
    """`position startpos|fen TEXT [moves M ...]` (the words after `position`) -> the position
    text ("" = the game's start) and the moves as one text, which the server splits as the
    game writes move lists. ValueError for anything else."""
    if not words or words[0] not in ("startpos", "fen"):
        raise ValueError("position wants `startpos` or `fen TEXT`, then `moves ...`")
    rest = list(words[1:])
    cut = rest.index("moves") if "moves" in rest else len(rest)
    if words[0] == "startpos" and cut:
        raise ValueError(f"unexpected {' '.join(rest[:cut])!r} after startpos")
    if words[0] == "fen" and not cut:
        raise ValueError("position fen wants the position's text")
    return " ".join(rest[:cut]), " ".join(rest[cut + 1 :])


def parse_setoption(words: Sequence[str]) -> tuple[str, str]:
    """`setoption name NAME [value VALUE]` (the words after `setoption`) -> (NAME, VALUE);
    both may contain spaces. ValueError without a name."""
    if not words or words[0] != "name":
        raise ValueError("setoption wants `name NAME value VALUE`")
    rest = list(words[1:])
    cut = rest.index("value") if "value" in rest else len(rest)
    name = " ".join(rest[:cut])
    if not name:
        raise ValueError("setoption wants an option name")
    return name, " ".join(rest[cut + 1 :])


_MS_MAX = 10**12
"""The longest time a `go` parameter may give, in milliseconds (about 31 years)."""
_GO_NUMBERS = {
    "wtime": (-_MS_MAX, _MS_MAX),  # a clock may have run below zero (the GUI's overhead)
    "btime": (-_MS_MAX, _MS_MAX),
    "winc": (0, _MS_MAX),
    "binc": (0, _MS_MAX),
    "movestogo": (0, 2**31 - 1),
    "depth": (0, 2**31 - 1),
    "nodes": (0, 2**63 - 1),
    "mate": (1, 2**31 - 1),
    "movetime": (0, _MS_MAX),
}
"""The numeric `go` parameters and the integers each accepts."""
_GO_FLAGS = ("infinite", "ponder")


@dataclass
class Go:
    """The parameters of one `go` command (times in milliseconds, as UCI writes them)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int = 0
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    movetime: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)
    skipped: bool = False
    """Whether a parameter could not be read (and was ignored)."""

    @property
    def clock(self) -> bool:
        return self.wtime is not None or self.btime is not None


def parse_go(words: Sequence[str]) -> tuple[Go, list[str]]:
    """The words after `go` -> a Go, and a problem for each word it had to skip (the search
    still runs, on what could be read): an unknown word, or a number that is not an
    integer in its parameter's range (`go depth -5`, `go movetime 1e99`)."""
    go = Go()
    problems = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in _GO_FLAGS:
            setattr(go, word, True)
        elif word == "searchmoves":
            while index < len(words) and words[index] not in (*_GO_NUMBERS, *_GO_FLAGS):
                go.searchmoves.append(words[index].replace(",", " "))
                index += 1
        elif word in _GO_NUMBERS:
            text = words[index] if index < len(words) else ""
            if text not in (*_GO_NUMBERS, *_GO_FLAGS, "searchmoves", ""):
                index += 1  # the value, good or bad
            low, high = _GO_NUMBERS[word]
            number = _integer(text)
            if number is not None and low <= number <= high:
                setattr(go, word, number)
            else:
                go.skipped = True
                problems.append(
                    f"go {word} wants an integer in [{low}..{high}], not {text!r}; ignored"
                )
        else:
            go.skipped = True
            problems.append(f"go: unknown parameter {word!r}; ignored")
    return go, problems


def _integer(text: str) -> int | None:
    """`text` as a plain integer (`-5`, `300`), or None (`1e99`, `x`, 40 digits and more)."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
        return None
    return int(text)


def go_limits(
    go: Go,
    *,
    multipv: int = 1,
    reserve: float = 0.0,
    round_trip: float = 0.0,
    spent: float = 0.0,
    infinite: bool = False,
) -> Limits:
    """The kibitz limits of `go`.

    `reserve` (seconds: Move Overhead plus the round trip) is kept back from the clocks,
    `round_trip` from a move time; `spent` (seconds since the clock started running, e.g.
    since `ponderhit`) is taken off both. Neither falls below MIN_TIME_MS. `go mate N` is a
    depth limit of 2N-1 plies. `infinite` (pondering), `go infinite` and a bare `go` (no
    limit given) search until stopped; a `go` whose limits were all skipped (unreadable)
    gets the server's default move time instead.
    """
    common = {"multipv": multipv, "search_moves": tuple(go.searchmoves)}
    if infinite or go.infinite:
        return Limits(infinite=True, **common)
    floor = MIN_TIME_MS / 1000
    limits: dict = {}
    depths = [d for d in (go.depth, 2 * go.mate - 1 if go.mate else None) if d is not None]
    if depths:
        limits["depth"] = max(0, min(depths))
    if go.nodes is not None:
        limits["nodes"] = max(0, go.nodes)
    if go.movetime is not None:
        limits["movetime"] = max(floor, go.movetime / 1000 - round_trip - spent)
    if go.clock:
        white = go.wtime if go.wtime is not None else go.btime
        black = go.btime if go.btime is not None else go.wtime
        limits["time_left"] = tuple(
            max(floor, t / 1000 - reserve - spent) for t in (white or 0, black or 0)
        )
        limits["increment"] = (max(0, go.winc) / 1000, max(0, go.binc) / 1000)
        limits["moves_to_go"] = max(0, go.movestogo)
    if not limits:
        return Limits(**common) if go.skipped else Limits(infinite=True, **common)
    return Limits(**limits, **common)


# ---------------------------------------------------------------------------- output


def uci_move(move: str) -> str:
    """A move as one UCI word: a move the game writes with spaces (a backgammon play such as
    `8/5 6/5`) gets commas, which the server reads back as the same move."""
    return move.replace(" ", ",")


def uci_score(score: Score) -> str:
    """`cp N` or `mate N` (moves, negative when losing), with `lowerbound`/`upperbound`."""
    if score.kind is ScoreKind.WIN:
        text = f"mate {(score.plies + 1) // 2}"
    elif score.kind is ScoreKind.LOSS:
        text = f"mate {-((score.plies + 1) // 2)}"
    elif score.kind is ScoreKind.DRAW:
        text = "cp 0"
    else:
        text = f"cp {score.centi}"
    if score.bound is Bound.LOWER:
        text += " lowerbound"
    elif score.bound is Bound.UPPER:
        text += " upperbound"
    return text


def info_line(info: Info) -> str:
    """An Info as a UCI `info` line."""
    if info.queued and not info.depth:
        return f"info string queued for {info.queued:.2f} s: every search slot was busy"
    line = f"info depth {info.depth}"
    if info.seldepth:
        line += f" seldepth {info.seldepth}"
    line += f" multipv {info.multipv} score {uci_score(info.score)}"
    line += f" nodes {info.nodes} nps {info.nps} time {round(info.time * 1000)}"
    if info.hashfull:
        line += f" hashfull {info.hashfull}"
    if info.pv:
        line += " pv " + " ".join(uci_move(move) for move in info.pv)
    return line


def result_info_line(result: Result) -> str:
    """The final line of a search, from its Result (what `bestmove` is based on)."""
    nps = round(result.nodes / result.time) if result.time > 0 else 0
    info = Info(
        depth=result.depth,
        seldepth=result.seldepth,
        score=result.score,
        nodes=result.nodes,
        nps=nps,
        time=result.time,
        pv=result.pv,
    )
    return info_line(info)


def bestmove_line(result: Result | None) -> str:
    if result is None or result.best_move is None:
        return "bestmove (none)"
    line = f"bestmove {uci_move(result.best_move)}"
    if result.ponder_move:
        line += f" ponder {uci_move(result.ponder_move)}"
    return line


# ---------------------------------------------------------------------------- the bridge


class RoundTrip:
    """Recent round trips to the server in seconds; `estimate` is the largest of the last few
    (cautious: a clock is better kept back a little too much than too little)."""

    def __init__(self, keep: int = 5) -> None:
        self._samples: deque[float] = deque(maxlen=keep)

    def add(self, seconds: float) -> None:
        if seconds >= 0:
            self._samples.append(seconds)

    @property
    def estimate(self) -> float:
        return max(self._samples, default=0.0)


@dataclass
class _Run:
    """One `go`: its parameters, the task answering it, and what the GUI said since."""

    go: Go
    clock_started: float
    """When this side's clock started (monotonic): the `go`, or the `ponderhit`."""
    pondering: bool = False
    stopped: bool = False
    interrupt: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by `stop`, and by `ponderhit` while pondering: the running search is to end."""
    task: asyncio.Task | None = None

    def stop(self) -> None:
        self.stopped = True
        self.interrupt.set()

    def ponderhit(self) -> None:
        if self.pondering:
            self.pondering = False
            self.clock_started = time.monotonic()
            self.interrupt.set()


class UciBridge:
    """Speaks UCI through `write` (one line per call), forwarding to one session of a kibitz
    server for `game` with `engine` ("" = the game's default) and engine `options`."""

    def __init__(
        self,
        game: str,
        engine: str = "",
        options: Mapping[str, str] | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        self.game = game
        self.engine = engine
        self.engine_options = dict(options or {})
        """Engine options to (re)open the session with: the command line's, then each
        `setoption` the server accepted."""
        self._stdout = stdout
        self.client: Client | None = None
        self.catalogue: list[pb.OptionInfo] = []
        self.session: Session | None = None
        self.startup_error: str | None = None
        self.position = ""
        self.moves = ""
        self.multipv = 1
        self.overhead_ms = OVERHEAD_DEFAULT_MS
        self.ponder = False
        self.round_trip = RoundTrip()
        self._run: _Run | None = None
        self._pending: deque[str] = deque()
        self._events: asyncio.Queue[object] | None = None
        self._task: asyncio.Task | None = None

    # -------------------------------------------------------------------- output

    def write(self, line: str) -> None:
        """One line to the GUI, flushed at once."""
        if self._stdout is None:
            return
        try:
            self._stdout.write(line + "\n")
            self._stdout.flush()
        except (BrokenPipeError, ValueError):  # the GUI is gone: nobody to answer
            self._stdout = None
            if self._events is not None:
                self._events.put_nowait(_EOF)

    def say(self, text: str) -> None:
        self.write(f"info string {text}")

    # -------------------------------------------------------------------- life

    async def serve(self, client: Client, stdin: TextIO | BinaryIO) -> int:
        """Answer the commands on `stdin` until `quit` or its end; 0.

        The server must answer the first call (ServerUnavailable, Unauthenticated
        otherwise); any later error becomes an `info string`."""
        self.client = client
        self._task = asyncio.current_task()
        self._events = asyncio.Queue()
        await self.start()
        _read_in_thread(stdin, asyncio.get_running_loop(), self._events)
        try:
            while (event := await self._events.get()) is not _EOF:
                if event is _SEARCH_DONE:
                    await self._search_done()
                elif not await self.handle(str(event)):
                    break
        finally:
            await self.shutdown()
        return 0

    async def abort(self) -> None:
        """Cancel `serve` (Ctrl-C, SIGTERM): it still stops the search and closes the session."""
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})

    async def start(self) -> None:
        """Read the engine catalogue (the call that must succeed), open the session and
        measure the round trip; a session that cannot be opened is reported at `uci` and
        tried again when needed."""
        assert self.client is not None
        engines = await self.client.engines()
        try:
            await self._ensure_session()
            await self.ping()
        except KibitzError as error:
            self.startup_error = error.message
        name = self.session.info.engine if self.session else self.engine
        if not name:
            with contextlib.suppress(KibitzError):
                games = {game.name: game for game in await self.client.games()}
                name = games[self.game].default_engine if self.game in games else ""
        self.engine = self.engine or name
        bridge_names = {option.name.lower() for option in BRIDGE_OPTIONS}
        for info in engines:
            if info.name == name:
                self.catalogue = [o for o in info.options if o.name.lower() not in bridge_names]

    async def shutdown(self) -> None:
        """Stop the running search (its `bestmove` is written) and close the session."""
        run = self._run
        if run is not None and run.task is not None:
            run.stop()
            done, _ = await asyncio.wait({run.task}, timeout=QUIT_TIMEOUT)
            if not done:
                run.task.cancel()
                await asyncio.wait({run.task})
        if self.session is not None:
            with contextlib.suppress(KibitzError, TimeoutError):
                await asyncio.wait_for(self.session.close(), QUIT_TIMEOUT)
            self.session = None

    # -------------------------------------------------------------------- commands

    async def handle(self, line: str) -> bool:
        """One line from the GUI; False for `quit`."""
        words = line.split()
        if not words:
            return True
        if words[0] == "quit":
            return False
        if words[0] == "isready":
            waits = False
        elif words[0] in IMMEDIATE:  # stop, ponderhit: for the latest go
            waits = any(waiting.split()[0] == "go" for waiting in self._pending)
        else:
            waits = bool(self._pending) or self._run is not None
        if waits:
            self._pending.append(line)  # in order, after what waits already
        else:
            await self._execute(words)
        return True

    async def _execute(self, words: list[str]) -> None:
        if words[0] in IMMEDIATE:
            await self._immediate(words[0])
        else:
            await self._command(words[0], words[1:])

    async def _immediate(self, command: str) -> None:
        if command == "isready":
            try:
                rtt = await self.ping()
            except KibitzError as error:
                self.say(f"error: {error.message}")
            else:
                if rtt is not None:
                    self.say(f"round trip to {self._address()}: {rtt * 1000:.1f} ms")
            self.write("readyok")
        elif self._run is not None and command == "stop":
            self._run.stop()
        elif self._run is not None and command == "ponderhit":
            self._run.ponderhit()

    async def _command(self, command: str, words: list[str]) -> None:
        handlers: dict[str, Callable[[list[str]], Awaitable[None]]] = {
            "uci": self._uci,
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
        }
        if command in handlers:
            await handlers[command](words)
        elif command not in ("debug", "register"):
            self.say(f"unknown command: {' '.join([command, *words])}")

    async def _search_done(self) -> None:
        """The running `go` answered: run the commands that waited, in order. Once one of
        them starts a search, only the immediate ones go on (a `stop` sent after that `go`
        is its stop); the rest wait for its `bestmove` in turn."""
        self._run = None
        while self._pending:
            words = self._pending[0].split()
            if self._run is not None and words[0] not in IMMEDIATE:
                return
            self._pending.popleft()
            await self._execute(words)

    async def _uci(self, words: list[str]) -> None:
        self.write(f"id name kibitz {self.engine or self.game} ({self.game}) {__version__}")
        self.write("id author the kibitz authors")
        for option in (*self.catalogue, *BRIDGE_OPTIONS):
            self.write(option_line(option))
        if self.startup_error is not None:
            self.say(f"error: {self.startup_error}")
        else:
            self.say(
                f"{self.game} with {self.engine} on {self._address()}, "
                f"round trip {self.round_trip.estimate * 1000:.1f} ms"
            )
        self.write("uciok")

    async def _setoption(self, words: list[str]) -> None:
        try:
            name, value = parse_setoption(words)
        except ValueError as error:
            self.say(f"error: {error}")
            return
        for option in BRIDGE_OPTIONS:
            if option.name.lower() == name.lower():
                self._set_bridge_option(option, value)
                return
        known = {option.name.lower(): option.name for option in self.catalogue}
        name = known.get(name.lower(), name)
        try:
            await (await self._ensure_session()).set_options(**{name: value})
        except KibitzError as error:
            self.say(f"error: {error.message}")
            return
        self.engine_options[name] = value

    def _set_bridge_option(self, option: pb.OptionInfo, value: str) -> None:
        try:
            parsed = check_bridge_option(option, value)
        except ValueError as error:
            self.say(f"error: {error}")
            return
        if option.name == "MultiPV":
            self.multipv = int(parsed)
        elif option.name == "Move Overhead":
            self.overhead_ms = int(parsed)
        else:
            self.ponder = bool(parsed)

    async def _ucinewgame(self, words: list[str]) -> None:
        self.position, self.moves = "", ""
        try:
            await (await self._ensure_session()).new_game()
        except KibitzError as error:
            self.say(f"error: {error.message}")

    async def _position(self, words: list[str]) -> None:
        try:
            self.position, self.moves = parse_position(words)
        except ValueError as error:
            self.say(f"error: {error}")

    async def _go(self, words: list[str]) -> None:
        go, problems = parse_go(words)
        for problem in problems:
            self.say(f"error: {problem}")
        run = _Run(go, clock_started=time.monotonic(), pondering=go.ponder)
        self._run = run
        run.task = asyncio.ensure_future(self._answer(run))
        events = self._events
        assert events is not None
        run.task.add_done_callback(lambda _: events.put_nowait(_SEARCH_DONE))

    # -------------------------------------------------------------------- searching

    async def _answer(self, run: _Run) -> None:
        """Search for one `go` and answer `bestmove`, exactly once, whatever happens.

        `go ponder` searches without limits until `ponderhit` (then the real search, with
        the go's limits, from the clock's start at the ponderhit) or `stop` (then the
        ponder search's move). `go infinite` holds its answer until `stop`."""
        result: Result | None = None
        try:
            if run.go.ponder:
                result = await self._search(run, infinite=True)
                await run.interrupt.wait()
                if not run.stopped:  # ponderhit
                    run.interrupt.clear()
                    result = await self._search(run)
            else:
                result = await self._search(run)
                if run.go.infinite:
                    await run.interrupt.wait()
        except KibitzError as error:
            self.say(f"error: {error.message}")
        except ValueError as error:  # limits the wire cannot carry
            self.say(f"error: {error}")
        except Exception as error:  # anything else: still answered, and the bridge goes on
            self.say(f"error: {type(error).__name__}: {error}")
        finally:
            self._answer_result(result)

    def _answer_result(self, result: Result | None) -> None:
        if result is not None and result.game_over is not None:
            self.write(f"info depth 0 score {uci_score(result.score)}")
            self.say(f"no legal move: game over, {result.game_over.reason}")
        self.write(bestmove_line(result))

    def _limits(self, run: _Run, infinite: bool) -> Limits:
        round_trip = self.round_trip.estimate
        return go_limits(
            run.go,
            multipv=self.multipv,
            reserve=self.overhead_ms / 1000 + round_trip,
            round_trip=round_trip,
            spent=time.monotonic() - run.clock_started,
            infinite=infinite,
        )

    async def _search(self, run: _Run, infinite: bool = False) -> Result:
        """One search of the current position, its Infos written as they come, ended early
        when `run.interrupt` is set."""

        session = await self._ensure_session()
        return await self._stream(run, session, self._limits(run, infinite))

    async def _stream(self, run: _Run, session: Session, limits: Limits) -> Result:
        stream = session.search(self.position, [self.moves] if self.moves else [], limits)
        sent = time.monotonic()
        confirmed = False  # the server said a search was running when asked to stop

        async def stop() -> None:
            nonlocal confirmed
            try:
                confirmed = await session.stop()
            except KibitzError:
                confirmed = True  # nothing more to do; the stream will end or fail

        async def pump() -> Result:
            last: Info | None = None
            async for info in stream:
                self.write(info_line(info))
                if info.multipv == 1 and info.depth:
                    last = info
                if run.interrupt.is_set() and not confirmed:
                    await stop()  # the first Stop came before the search had started
            if stream.result is None:
                raise KibitzError(grpc.StatusCode.CANCELLED, "the search ended without a Result")
            if stream.result.best_move and not _agrees(last, stream.result):
                self.write(result_info_line(stream.result))
            return stream.result

        pumping = asyncio.ensure_future(pump())
        waiting = asyncio.ensure_future(run.interrupt.wait())
        try:
            await asyncio.wait({pumping, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if not pumping.done():
                await stop()
            result = await pumping
        finally:
            waiting.cancel()
            if not pumping.done():
                stream.cancel()
                pumping.cancel()
        if result.time:
            self.round_trip.add(time.monotonic() - sent - result.time)
        return result

    # -------------------------------------------------------------------- the session

    async def _ensure_session(self) -> Session:
        """The open session, opened now if there is none (KibitzError if it cannot be). It
        opens itself again when the server has closed it (after its idle timeout, or a
        restart), and says so."""
        if self.session is None:
            assert self.client is not None
            self.session = await self.client.open(
                self.game,
                self.engine,
                self.engine_options,
                reopen=True,
                on_reopen=lambda _: self.say("the server had closed the session; opened a new one"),
            )
            self.startup_error = None
        return self.session

    async def ping(self) -> float | None:
        """Time a cheap call (GetSession) and remember it; None if it took longer than
        PING_TIMEOUT, KibitzError if it failed (e.g. the session cannot be opened)."""

        session = await self._ensure_session()
        started = time.monotonic()
        try:
            await asyncio.wait_for(session.refresh(), PING_TIMEOUT)
        except TimeoutError:
            return None
        seconds = time.monotonic() - started
        self.round_trip.add(seconds)
        return seconds

    def _address(self) -> str:
        return self.client.address if self.client is not None else "?"


def _agrees(info: Info | None, result: Result) -> bool:
    """Whether the last Info written already says what the Result says."""
    return (
        info is not None
        and info.pv == result.pv
        and info.score == result.score
        and info.depth == result.depth
    )


def _read_in_thread(
    stdin: TextIO | BinaryIO, loop: asyncio.AbstractEventLoop, events: asyncio.Queue
) -> None:
    """Feed the lines of `stdin` into `events` from a thread (reading blocks), then _EOF.
    A text stream is read through its bytes, and bytes that are not UTF-8 become U+FFFD: a
    GUI that writes them gets an unknown command, not a reader that stops for good."""
    stream = getattr(stdin, "buffer", stdin)

    def read() -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: kibitz is exiting
            for line in stream:
                text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
                loop.call_soon_threadsafe(events.put_nowait, text)
            loop.call_soon_threadsafe(events.put_nowait, _EOF)

    threading.Thread(target=read, name="kibitz-uci-stdin", daemon=True).start()
