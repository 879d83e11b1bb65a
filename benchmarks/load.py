"""The service under load, and its round trips: a real `kibitz serve` subprocess, the real
async client (`kibitz.clients.Client`) in this process.

Round trips: one client calls a gRPC health check, ListGames, Describe (a legal move, and
hostile texts the server must refuse as quickly: a chess null move, 20 KB of junk, a number
of 5,000 digits), tiny analyses (run inline in the server process), AnalyzeResult and an
analysis big enough to need a worker process, and two calls through the web page's gateway
(`kibitz web`, a subprocess too, over one kept-alive HTTP connection as a browser's),
interleaved call by call so that the machine's drift hits every kind alike; each median is
given as a multiple of the health check's. Then the first worker-bound analysis on a fresh
server against the next ones.

Load: N clients, each with its own Connect Four session, search back to back at a fixed
move time for a fixed wall time while one more client calls ListGames in a loop (the larger
N three times: the second time with the workers nicer than the server, `--worker-nice`, the
third with a move overhead, `--move-overhead`, time kept back for the answer's way). Reported:
searches per second, how late each answer came against its own deadline (the time its
Search call was sent plus the move time), the queue, errors by status code, ListGames'
latency meanwhile, the resident memory of the server and its worker processes, and the CPU
time of each process (the server's a search: its load-independent cost).

The server runs as its own process (never in this one: the GIL would be shared with the
clients); each measurement starts one of its own and stops it with SIGTERM.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from kibitz.clients import Client, KibitzError
from kibitz.server.nginx import find_nginx

MOVE_TIME = 0.3
"""Seconds per search in the load benchmark."""
LOAD_SECONDS = 20.0
QUICK_LOAD_SECONDS = 5.0
CLIENT_COUNTS = (16, 64)
NICE = ("--worker-nice", "10")
OVERHEAD = ("--move-overhead", "0.05")
"""A move overhead for 64 clients on a 2-core machine (what it keeps back: docs/production.md)."""
"""The server's flags of one more run with the larger client count: its workers nicer."""
CLUSTER_SERVERS = (1, 2, 3)
"""Servers behind nginx in the cluster's load runs (with the larger client count)."""
CALLS = 300
QUICK_CALLS = 50
WARM_UP = 20
FRESH_SERVERS = 3
"""Fresh servers per row of the first-call table (each gives one first call)."""
NEXT_CALLS = 20
POSITIONS = ("", "4453", "3345", "4343", "44455", "123456", "444333", "2416615552")
"""Connect Four positions (moves from the empty board) the load clients take turns on; on an
idle server a search of each took 0.10-0.28 s of its 0.3 s, at depth 15-20."""


# ---------------------------------------------------------------------------- the server


class LoggedProcess:
    """A kibitz command (`arguments` after ``python -m kibitz``) as a subprocess, started
    once `ready(line)` says so of a line of its log; `log` holds its log lines (read all
    along, so that it never blocks on a full pipe). A context manager: leaving stops it with
    SIGTERM."""

    def __init__(self, arguments: Sequence[str], ready: Callable[[str], bool]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kibitz", *arguments],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        for line in self.process.stderr:
            self.log.append(line)
            if ready(line):
                break
        else:
            self.process.wait()
            raise RuntimeError(f"kibitz {' '.join(arguments)} did not start: {''.join(self.log)}")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        for line in self.process.stderr:
            self.log.append(line)

    def problems(self) -> list[str]:
        """The log's warnings and errors so far."""
        return [line.rstrip() for line in self.log if " WARNING " in line or " ERROR " in line]

    def stop(self) -> int:
        """SIGTERM, then the exit code (killed after 30 s)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._reader.join(timeout=5)
        return code

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ServerProcess(LoggedProcess):
    """`kibitz serve --port 0 FLAGS` as a subprocess, or with `servers` (N > 0) `kibitz
    cluster --servers N --port 0 FLAGS` (N servers behind nginx); `address` is where it
    listens (read from its log line "serving on HOST:PORT", or the cluster's "behind nginx
    on HOST:PORT"), `backends` the cluster's servers."""

    def __init__(self, *flags: str, servers: int = 0) -> None:
        self.flags = flags
        self.backends: list[str] = []
        command = ["cluster", "--servers", str(servers)] if servers else ["serve"]

        def ready(line: str) -> bool:
            if backend := re.match(r"  server \d+: (\S+)", line):
                self.backends.append(backend.group(1))
            match = re.search(r"(?:serving|behind nginx) on (\S+):(\d+)", line)
            if match:
                self.address = f"{match.group(1)}:{match.group(2)}"
            return bool(match and not servers) or line.startswith("In another terminal")

        super().__init__([*command, "--port", "0", *flags], ready)


class GatewayProcess(LoggedProcess):
    """`kibitz --server ADDRESS web --port 0`: the web page's HTTP gateway for the server at
    `address`, listening at `host`:`port` (read from its line "open http://HOST:PORT/")."""

    def __init__(self, address: str) -> None:
        def ready(line: str) -> bool:
            match = re.search(r"open http://([^\s/]+):(\d+)/", line)
            if match:
                self.host, self.port = match.group(1), int(match.group(2))
            return match is not None

        super().__init__(["--server", address, "web", "--port", "0"], ready)


# ---------------------------------------------------------------------------- memory


def _children() -> dict[int, list[int]]:
    """Every process's children, from the parent ids in /proc/PID/stat."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # gone meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold blanks and ")"
        children.setdefault(parent, []).append(int(entry))
    return children


def process_tree(pid: int) -> list[int]:
    """`pid` and all its descendants (the workers are children of the forkserver, a child of
    the server)."""
    children = _children()
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(children.get(current, ()))
    return tree


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by `pid` itself and by its living
    descendants (forkserver and workers)."""
    own = others = 0
    for member in process_tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        if member == pid:
            own = ticks
        else:
            others += ticks
    tick = os.sysconf("SC_CLK_TCK")
    return own / tick, others / tick


def machine_cpu() -> tuple[float, float]:
    """CPU seconds this machine spent busy (all processes, all cores) and stolen by its host
    (a virtual machine's steal time) since boot, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def _own_cpu() -> float:
    """CPU seconds used so far by this process (the clients), all threads."""
    times = os.times()
    return times.user + times.system


def _kb(path: str, key: str) -> int:
    """The `key:  N kB` line of a /proc file (0 if the process is gone or has none)."""
    try:
        text = Path(path).read_text()
    except OSError:
        return 0
    match = re.search(rf"^{key}:\s+(\d+) kB", text, re.MULTILINE)
    return int(match.group(1)) if match else 0


@dataclass(frozen=True)
class Memory:
    """A process tree's memory: VmRSS summed (pages shared between processes count in each)
    and Pss summed (shared pages split among their sharers: the tree's real share)."""

    rss_kb: int = 0
    pss_kb: int = 0
    processes: int = 0

    @property
    def rss_mb(self) -> float:
        return self.rss_kb / 1024

    @property
    def pss_mb(self) -> float:
        return self.pss_kb / 1024


def tree_memory(pid: int) -> Memory:
    tree = process_tree(pid)
    return Memory(
        sum(_kb(f"/proc/{member}/status", "VmRSS") for member in tree),
        sum(_kb(f"/proc/{member}/smaps_rollup", "Pss") for member in tree),
        len(tree),
    )


# ---------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank q-th percentile (q in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


# ---------------------------------------------------------------------------- round trips


async def _refused(call: Awaitable[object]) -> None:
    """Awaits a call made to be refused (INVALID_ARGUMENT); any other answer is a defect."""
    try:
        await call
    except KibitzError as error:
        if error.code != grpc.StatusCode.INVALID_ARGUMENT:
            raise
    else:
        raise AssertionError("a hostile text was accepted")


class Http:
    """HTTP/1.1 calls on one kept-alive connection to the web gateway, as the page makes
    them (a browser keeps its connection too); blocking, which the calls timed one at a
    time allow."""

    def __init__(self, gateway: GatewayProcess) -> None:
        self.connection = http.client.HTTPConnection(gateway.host, gateway.port, timeout=30)

    async def call(self, method: str, path: str, body: object = None) -> object:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: HTTP {response.status}: {answer}")
        return answer

    def close(self) -> None:
        self.connection.close()


def _round_trip_calls(
    client: Client, web: Http | None = None
) -> dict[str, Callable[[], Awaitable[object]]]:
    """The calls timed, by the name they have in the table; the health check first; with
    `web`, two calls through the web page's gateway too."""
    health = health_pb2_grpc.HealthStub(client._channel)  # the same channel as the client's
    through_the_page = {}
    if web is not None:
        describe = {"game": "chess", "position": "", "moves": ["e2e4"]}
        through_the_page = {
            "Gateway GET /api/servers (HTTP)": lambda: web.call("GET", "/api/servers"),
            "Gateway Describe chess after e2e4 (HTTP)": lambda: web.call(
                "POST", "/api/describe", describe
            ),
        }
    return {
        "Health Check (grpc.health.v1)": lambda: health.Check(health_pb2.HealthCheckRequest()),
        "ListGames": client.games,
        "Describe chess after e2e4": lambda: client.describe("chess", "", ["e2e4"]),
        "Describe chess, null move (refused)": lambda: _refused(
            client.describe("chess", "", ["e2e4", "0000"])
        ),
        "Describe chess, 20 KB of junk (refused)": lambda: _refused(
            client.describe("chess", "x" * 20_000)
        ),
        "Describe backgammon, 5000 9s (refused)": lambda: _refused(
            client.describe("backgammon", "9" * 5000)
        ),
        "Analyze tictactoe depth 1 (inline)": lambda: client.analyze("tictactoe", depth=1),
        "AnalyzeResult tictactoe depth 1 (inline)": lambda: client.analyze_result(
            "tictactoe", depth=1
        ),
        "Analyze connect4 depth 1 (inline)": lambda: client.analyze("connect4", depth=1),
        "Analyze tictactoe depth 6 (worker)": lambda: client.analyze("tictactoe", depth=6),
        **through_the_page,
    }


async def _time(call: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await call()
    return time.perf_counter() - start


async def _round_trips(address: str, web: Http, calls: int) -> dict[str, list[float]]:
    async with Client(address, tls_ca="", token="") as client:
        kinds = _round_trip_calls(client, web)
        for call in kinds.values():
            for _ in range(WARM_UP):
                await call()
        times: dict[str, list[float]] = {name: [] for name in kinds}
        for _ in range(calls):
            for name, call in kinds.items():
                times[name].append(await _time(call))
        return times


CPU_CALLS = (
    "Health Check (grpc.health.v1)",
    "AnalyzeResult tictactoe depth 1 (inline)",
    "Analyze tictactoe depth 1 (inline)",
    "Analyze tictactoe depth 6 (worker)",
)
"""The round trips whose CPU time a call is measured too (`cpu_per_call`)."""


async def _cpu_per_call(server: ServerProcess, calls: int) -> dict[str, tuple[float, ...]]:
    """{call: CPU seconds a call of the server process, its workers and this process (the
    client)}, each kind `calls` times back to back: what depends least on the machine's
    load."""
    async with Client(server.address, tls_ca="", token="") as client:
        kinds = _round_trip_calls(client)
        cpu = {}
        for name in CPU_CALLS:
            for _ in range(WARM_UP):
                await kinds[name]()
            before, client_before = tree_cpu(server.pid), _own_cpu()
            for _ in range(calls):
                await kinds[name]()
            after, client_after = tree_cpu(server.pid), _own_cpu()
            spent = (after[0] - before[0], after[1] - before[1], client_after - client_before)
            cpu[name] = tuple(seconds / calls for seconds in spent)
        return cpu


@dataclass
class FirstCalls:
    """The first worker-bound analysis on fresh servers, and the median of the next ones."""

    wait: float
    """Seconds between the server's "serving on" line and the first analysis."""
    firsts: list[float] = field(default_factory=list)
    nexts: list[float] = field(default_factory=list)
    """The median of the next NEXT_CALLS, per server."""


async def _first_calls(address: str, wait: float) -> tuple[float, list[float]]:
    async with Client(address, tls_ca="", token="") as client:
        call = _round_trip_calls(client)["Analyze tictactoe depth 6 (worker)"]
        await health_pb2_grpc.HealthStub(client._channel).Check(health_pb2.HealthCheckRequest())
        await asyncio.sleep(wait)  # the connection is up: the first call times the server only
        first = await _time(call)
        return first, [await _time(call) for _ in range(NEXT_CALLS)]


def round_trips(
    calls: int,
) -> tuple[dict[str, list[float]], dict[str, tuple[float, ...]], list[FirstCalls]]:
    """The round trips' times, their CPU a call (`_cpu_per_call`), the first calls."""
    with ServerProcess() as server:
        with GatewayProcess(server.address) as gateway, closing(Http(gateway)) as web:
            times = asyncio.run(_round_trips(server.address, web, calls))
        cpu = asyncio.run(_cpu_per_call(server, calls))
    rows = [FirstCalls(0.0), FirstCalls(2.0)]
    for _ in range(FRESH_SERVERS):
        for row in rows:
            with ServerProcess() as server:
                first, nexts = asyncio.run(_first_calls(server.address, row.wait))
            row.firsts.append(first)
            row.nexts.append(statistics.median(nexts))
    return times, cpu, rows


def print_round_trips(
    times: dict[str, list[float]],
    cpu: dict[str, tuple[float, ...]],
    rows: list[FirstCalls],
    calls: int,
) -> None:
    base = statistics.median(next(iter(times.values())))
    print(
        f"\nRound trips over loopback to `kibitz serve` (default flags; {calls} calls each, "
        "interleaved)"
    )
    print(f"{'call':<40} {'median ms':>10} {'p90 ms':>8} {'x health':>9}")
    for name, sample in times.items():
        median = statistics.median(sample)
        print(
            f"{name:<40} {median * 1000:>10.2f} {percentile(sample, 90) * 1000:>8.2f} "
            f"{median / base:>9.1f}"
        )
    print(f"\nCPU a call ({calls} calls of each kind back to back, the same server)")
    print(f"{'call':<40} {'server ms':>10} {'workers ms':>11} {'client ms':>10}")
    for name, (server, workers, client) in cpu.items():
        print(f"{name:<40} {server * 1000:>10.3f} {workers * 1000:>11.3f} {client * 1000:>10.3f}")
    print(
        f"\nFirst worker-bound call on a fresh server (Analyze tictactoe depth 6; "
        f"{FRESH_SERVERS} fresh servers per row)"
    )
    print(f"{'first call':<40} {'first ms':>10} {'range ms':>15} {'next ms':>8} {'x next':>7}")
    for row in rows:
        when = "right after it listens" if not row.wait else f"{row.wait:g} s after it listens"
        first = statistics.median(row.firsts)
        nexts = statistics.median(row.nexts)
        spread = f"{min(row.firsts) * 1000:.1f}-{max(row.firsts) * 1000:.1f}"
        print(
            f"{when:<40} {first * 1000:>10.1f} {spread:>15} {nexts * 1000:>8.1f} "
            f"{first / nexts:>7.1f}"
        )
    print(
        "first ms: median over the fresh servers (range: all of them); next ms: median of the "
        f"next {NEXT_CALLS}\n  calls, the median over the servers."
    )


# ---------------------------------------------------------------------------- load


@dataclass(frozen=True)
class Answer:
    """One search of the load: when it was sent and answered (perf_counter seconds)."""

    sent: float
    done: float
    queued_ms: float
    """Result.stats["queued_ms"]: how long it waited for a search slot."""
    depth: int
    """The deepest iteration it completed."""
    best_move: bool
    """Whether it answered a move."""
    engine_time: float = 0.0
    """Result.time: seconds from the call's arrival at the server to its engine's answer."""


@dataclass
class Load:
    """One load run: N clients searching back to back against one server, or against
    `servers` servers behind nginx (`kibitz cluster`)."""

    clients: int
    flags: tuple[str, ...]
    seconds: float
    move_time: float
    servers: int = 0
    extra: tuple[str, ...] = ()
    """The server's flags beyond what the client count needs (`load_flags`)."""

    @property
    def column(self) -> str:
        if self.servers:
            return f"{self.servers} server{'s' if self.servers > 1 else ''}"
        return " ".join((f"N={self.clients}", *self.extra))

    opened: int = 0
    open_seconds: float = 0.0
    open_errors: Counter = field(default_factory=Counter)
    start: float = 0.0
    """The start of the window (perf_counter seconds)."""
    answers: list[Answer] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    list_games: list[float] = field(default_factory=list)
    idle: Memory = Memory()
    sessions: Memory = Memory()
    """With every session open, before the first search."""
    peak: Memory = Memory()
    """The largest sample during the load."""
    tail: float = 0.0
    """Seconds after the end of the window until the last search answered."""
    problems: list[str] = field(default_factory=list)
    server_cpu: tuple[float, float] = (0.0, 0.0)
    """CPU seconds the server process and its workers used from the start of the window to
    the last answer."""
    client_cpu: float = 0.0
    """The same for this process (the clients)."""
    machine_cpu: tuple[float, float] = (0.0, 0.0)
    """The same for the whole machine: busy and stolen by its host."""
    wall: float = 0.0
    """Seconds from the start of the window to the last answer."""

    def late(self, answer: Answer) -> float:
        """How late an answer came: against the time its call was sent plus the move time."""
        return answer.done - (answer.sent + self.move_time)

    @property
    def in_window(self) -> int:
        return sum(1 for answer in self.answers if answer.done - self.start <= self.seconds)


def _search_moves(client: int, turn: int) -> list[str]:
    moves = POSITIONS[(client + turn) % len(POSITIONS)]
    return [moves] if moves else []


async def _load(server: ServerProcess, load: Load) -> None:
    clients = [Client(server.address, tls_ca="", token="") for _ in range(load.clients)]
    prober = Client(server.address, tls_ca="", token="")
    try:
        await prober.games()
        await asyncio.sleep(1.0)  # the spare worker starts behind the "serving on" line
        load.idle = tree_memory(server.pid)
        start = time.perf_counter()
        opened = await asyncio.gather(
            *(client.open("connect4") for client in clients), return_exceptions=True
        )
        load.open_seconds = time.perf_counter() - start
        sessions = []
        for session in opened:
            if isinstance(session, KibitzError):
                load.open_errors[session.code.name] += 1
            elif isinstance(session, BaseException):
                raise session
            else:
                sessions.append(session)
        load.opened = len(sessions)
        load.sessions = await asyncio.to_thread(tree_memory, server.pid)
        server_cpu = await asyncio.to_thread(tree_cpu, server.pid)
        client_cpu = _own_cpu()
        machine = machine_cpu()
        load.start = time.perf_counter()
        end = load.start + load.seconds

        async def search(index: int, session) -> None:
            turn = 0
            while time.perf_counter() < end:
                moves = _search_moves(index, turn)
                turn += 1
                sent = time.perf_counter()
                try:
                    result = await session.search(moves=moves, movetime=load.move_time)
                except KibitzError as exc:
                    load.errors[exc.code.name] += 1
                    await asyncio.sleep(0.05)
                    continue
                queued = result.stats.get("queued_ms", 0.0)
                done = time.perf_counter()
                made = result.best_move is not None
                answer = Answer(sent, done, queued, result.depth, made, result.time)
                load.answers.append(answer)

        async def list_games() -> None:
            while time.perf_counter() < end:
                load.list_games.append(await _time(prober.games))

        async def sample_memory() -> None:
            while time.perf_counter() < end:
                memory = await asyncio.to_thread(tree_memory, server.pid)
                if memory.rss_kb > load.peak.rss_kb:
                    load.peak = memory
                await asyncio.sleep(max(0.0, min(1.0, end - time.perf_counter())))

        await asyncio.gather(
            *(search(index, session) for index, session in enumerate(sessions)),
            list_games(),
            sample_memory(),
        )
        load.tail = max((answer.done for answer in load.answers), default=end) - end
        load.client_cpu = _own_cpu() - client_cpu
        busy, stolen = machine_cpu()
        load.machine_cpu = (busy - machine[0], stolen - machine[1])
        load.wall = time.perf_counter() - load.start
        own, workers = await asyncio.to_thread(tree_cpu, server.pid)
        load.server_cpu = (own - server_cpu[0], workers - server_cpu[1])
        await asyncio.gather(*(session.close() for session in sessions))
    finally:
        for client in [*clients, prober]:
            await client.close()


def load_flags(clients: int) -> tuple[str, ...]:
    """What the server needs beyond its defaults to hold `clients` sessions from one host
    (the server holds 16 sessions, a client 8)."""
    flags: list[str] = []
    if clients > 16:
        flags += ["--max-sessions", str(clients)]
    if clients > 8:
        flags += ["--max-sessions-per-client", str(clients)]
    return tuple(flags)


def run_load(
    clients: int,
    seconds: float,
    move_time: float = MOVE_TIME,
    servers: int = 0,
    flags: tuple[str, ...] = (),
) -> Load:
    """One load run; `flags`: the server's beyond what `clients` needs (`load_flags`)."""
    load = Load(clients, load_flags(clients) + flags, seconds, move_time, servers, flags)
    server = ServerProcess(*load.flags, servers=servers)
    try:
        asyncio.run(_load(server, load))
    finally:
        code = server.stop()
    load.problems = server.problems()
    if code:
        load.problems.append(f"kibitz exited with code {code} on SIGTERM")
    return load


def _late(q: float, waited: bool | None = None) -> Callable[[Load], str]:
    """The q-th percentile of lateness, in ms: of every search, or only those that waited in
    the queue (`waited` True) or not (False)."""

    def cell(load: Load) -> str:
        sample = [
            load.late(answer)
            for answer in load.answers
            if waited is None or (answer.queued_ms > 0) == waited
        ]
        return _ms(percentile(sample, q)) if sample else "-"

    return cell


def _split(part: Callable[[Load, Answer], float]) -> Callable[[Load], str]:
    """p50 / p99 in ms of one part of the lateness (`part` of an answer)."""

    def cell(load: Load) -> str:
        sample = [part(load, answer) for answer in load.answers]
        return f"{_ms(percentile(sample, 50))} / {_ms(percentile(sample, 99))}" if sample else "-"

    return cell


def _at_the_server(load: Load, answer: Answer) -> float:
    return answer.engine_time - load.move_time


def _on_the_way(load: Load, answer: Answer) -> float:
    return load.late(answer) - _at_the_server(load, answer)


def _opened(load: Load) -> str:
    text = f"{load.opened} in {load.open_seconds:.1f} s"
    if load.open_errors:
        text += " (" + ", ".join(f"{k} {v}" for k, v in load.open_errors.items()) + ")"
    return text


def _queued(load: Load) -> str:
    waited = sum(1 for answer in load.answers if answer.queued_ms > 0)
    return f"{waited} of {len(load.answers)} ({100 * waited / max(1, len(load.answers)):.0f}%)"


def _queued_ms(load: Load) -> str:
    sample = [answer.queued_ms for answer in load.answers if answer.queued_ms > 0]
    return f"{percentile(sample, 50):.0f} / {max(sample):.0f}" if sample else "-"


def _not_queued(load: Load) -> str:
    count = sum(1 for answer in load.answers if not answer.queued_ms)
    p50 = _late(50, False)(load)
    return "-" if p50 == "-" else f"{p50} / {_late(100, False)(load)} ({count})"


def _depths(load: Load) -> str:
    depths = [answer.depth for answer in load.answers]
    return f"{statistics.median(depths):g} / {min(depths)}" if depths else "-"


def _errors(load: Load) -> str:
    if not load.errors:
        return "none"
    return ", ".join(f"{code} {count}" for code, count in load.errors.most_common())


def _list_games(load: Load) -> str:
    if not load.list_games:
        return "-"
    return f"{_ms(percentile(load.list_games, 50))} / {_ms(percentile(load.list_games, 99))}"


def _memory(which: str) -> Callable[[Load], str]:
    def cell(load: Load) -> str:
        value: Memory = getattr(load, which)
        return f"{value.rss_mb:.0f} / {value.pss_mb:.0f} ({value.processes} proc)"

    return cell


def _per_session(load: Load) -> str:
    if not load.opened:
        return "-"
    return f"{load.peak.rss_mb / load.opened:.1f} / {load.peak.pss_mb / load.opened:.1f}"


def _cpu(load: Load) -> str:
    own, workers = load.server_cpu
    return f"{own:.1f} / {workers:.1f} / {load.client_cpu:.1f}"


def _cpu_per_search(load: Load) -> str:
    own, workers = load.server_cpu
    searches = max(1, len(load.answers))
    return f"{own / searches * 1000:.2f} / {workers / searches * 1000:.2f}"


def _machine(load: Load) -> str:
    busy, stolen = load.machine_cpu
    return f"{busy:.1f} / {stolen:.1f} (of {load.wall * (os.cpu_count() or 1):.0f})"


def _count(test: Callable[[Answer], bool]) -> Callable[[Load], str]:
    def cell(load: Load) -> str:
        count = sum(1 for answer in load.answers if test(answer))
        return f"{count} ({100 * count / max(1, len(load.answers)):.0f}%)"

    return cell


ROWS: tuple[tuple[str, Callable[[Load], str]], ...] = (
    ("sessions opened", _opened),
    ("searches answered in the window", lambda load: str(load.in_window)),
    ("searches per second", lambda load: f"{load.in_window / load.seconds:.2f}"),
    ("late p50 ms (< 0: before the deadline)", _late(50)),
    ("late p99 ms", _late(99)),
    ("late max ms", _late(100)),
    ("  of which at the server p50 / p99 ms (Result.time - move time)", _split(_at_the_server)),
    ("  of which on the way p50 / p99 ms (the rest)", _split(_on_the_way)),
    ("waited in the queue (queued_ms > 0)", _queued),
    ("queued_ms p50 / max", _queued_ms),
    ("late p50 / max ms (count) of those that did not wait", _not_queued),
    ("depth reached p50 / min", _depths),
    ("answers at depth 0 (no iteration completed)", _count(lambda answer: answer.depth == 0)),
    ("answers without a best move", _count(lambda answer: not answer.best_move)),
    ("errors (by status code)", _errors),
    ("ListGames p50 / p99 ms", _list_games),
    ("ListGames calls", lambda load: str(len(load.list_games))),
    ("RSS / PSS MB idle", _memory("idle")),
    ("RSS / PSS MB sessions open, before searching", _memory("sessions")),
    ("RSS / PSS MB at the RSS peak of the load", _memory("peak")),
    ("RSS / PSS MB per session (peak / sessions)", _per_session),
    ("last answer after the window, s", lambda load: f"{load.tail:.1f}"),
    ("CPU s: server process / workers / clients", _cpu),
    ("CPU ms a search: server process / workers", _cpu_per_search),
    ("CPU s: machine busy / stolen by its host", _machine),
)


def print_loads(loads: Sequence[Load]) -> None:
    first = loads[0]
    if first.servers:
        print(
            f"\nLoad through `kibitz cluster` (nginx in front, sessions pinned by header): "
            f"{first.clients} clients, each\nwith its own connect4 session, searching back to "
            f"back at {first.move_time:g} s a move for {first.seconds:g} s while one more\n"
            f"client calls ListGames in a loop; each server with {os.cpu_count()} search "
            f"slots, all on this one machine, and"
        )
    else:
        print(
            f"\nLoad: N clients, each with its own connect4 session, searching back to back at "
            f"{first.move_time:g} s a move\nfor {first.seconds:g} s while one more client calls "
            f"ListGames in a loop; kibitz serve with {os.cpu_count()} search slots\n"
            "(--max-searches = CPUs), queue 64, and"
        )
    for load in loads:
        print(f"  {load.column}: {' '.join(load.flags) or '(default flags)'}")
    table = [(name, [cell(load) for load in loads]) for name, cell in ROWS]
    width = max(len(name) for name, _ in table)
    cells = max(len(value) for _, values in table for value in values)
    print(f"{'':<{width}}" + "".join(f"  {load.column:>{cells}}" for load in loads))
    for name, values in table:
        print(f"{name:<{width}}" + "".join(f"  {value:>{cells}}" for value in values))
    cores = os.cpu_count()
    print(
        "late: when the Result arrived, against the search's own deadline (the time its Search "
        "call was\n  sent + the move time; < 0: before it); every search sent within the window "
        "counts, also those\n  answered after it. At the server: the engine's answer (Result."
        "time counts from the call's\n  arrival) against the move time; on the way: the rest "
        "(the call's way in, the Result's\n  way out, through both processes' event loops).\n"
        "RSS / PSS: VmRSS / Pss summed over the server, its forkserver and workers (RSS counts a "
        "shared\n  page in each process, PSS splits it among them); sampled every second.\n"
        f"CPU s: from the start of the window to the last answer ({cores} cores: at most {cores} "
        "CPU seconds a\n  second); machine busy beyond the three others is someone else's work. "
        "A search: over every\n  search sent in the window (ListGames' calls count in the "
        "server's)."
    )
    for load in loads:
        if load.problems:
            print(f"{load.column}: the server logged {len(load.problems)} warnings/errors:")
            for line in load.problems[:5]:
                print(f"  {line}")


# ---------------------------------------------------------------------------- the proxy hop


def _hop_calls(client: Client, session) -> dict[str, Callable[[], Awaitable[object]]]:
    health = health_pb2_grpc.HealthStub(client._channel)  # the same channel as the client's
    return {
        "Health Check": lambda: health.Check(health_pb2.HealthCheckRequest()),
        "AnalyzeResult tictactoe depth 1": lambda: client.analyze_result("tictactoe", depth=1),
        "Search tictactoe depth 1 (a session)": lambda: session.search(depth=1),
    }


async def _proxy_hop(direct_address: str, front_address: str, calls: int) -> dict:
    """{call: {"direct": seconds..., "nginx": seconds...}}, interleaved call by call."""
    times: dict[str, dict[str, list[float]]] = {}
    async with (
        Client(direct_address, tls_ca="", token="") as direct,
        Client(front_address, tls_ca="", token="") as front,
    ):
        routes = {}
        for name, client in (("direct", direct), ("nginx", front)):
            routes[name] = _hop_calls(client, await client.open("tictactoe"))
        for route in routes.values():
            for call in route.values():
                for _ in range(WARM_UP):
                    await call()
        for _ in range(calls):
            for route_name, route in routes.items():
                for call_name, call in route.items():
                    times.setdefault(call_name, {}).setdefault(route_name, []).append(
                        await _time(call)
                    )
    return times


def proxy_hop(calls: int) -> dict[str, dict[str, list[float]]]:
    """The same calls straight to a server and through nginx in front of it (`kibitz
    cluster --servers 1`)."""
    with ServerProcess(servers=1) as cluster:
        return asyncio.run(_proxy_hop(cluster.backends[0], cluster.address, calls))


def print_proxy_hop(times: dict[str, dict[str, list[float]]], calls: int) -> None:
    print(
        f"\nThe proxy's hop: `kibitz cluster --servers 1`, the same calls straight to the "
        f"server and through\nnginx ({calls} calls each, interleaved)"
    )
    print(f"{'call':<38} {'direct ms':>10} {'nginx ms':>9} {'x direct':>9} {'+ ms':>6}")
    for name, routes in times.items():
        direct, through = (statistics.median(routes[route]) for route in ("direct", "nginx"))
        print(
            f"{name:<38} {_ms(direct):>10} {_ms(through):>9} {through / direct:>9.2f} "
            f"{_ms(through - direct):>6}"
        )
    print("medians; + ms: what the hop adds to a call.")


# ---------------------------------------------------------------------------- entry point


def run(quick: bool = False, load_seconds: float | None = None, cluster: bool = True) -> None:
    """Round trips, then the load for each N, then (`cluster`) the proxy's cost and the load
    through `kibitz cluster` (see the module docstring)."""
    calls = QUICK_CALLS if quick else CALLS
    times, cpu, rows = round_trips(calls)
    print_round_trips(times, cpu, rows, calls)
    seconds = load_seconds or (QUICK_LOAD_SECONDS if quick else LOAD_SECONDS)
    loads = [run_load(clients, seconds) for clients in CLIENT_COUNTS]
    most = CLIENT_COUNTS[-1]
    print_loads([*loads, *(run_load(most, seconds, flags=flags) for flags in (NICE, OVERHEAD))])
    if not cluster:
        return
    if find_nginx() is None:
        print("\nThe cluster: skipped, nginx is missing (scripts/peers.sh installs it)")
        return
    print_proxy_hop(proxy_hop(calls), calls)
    print_loads([run_load(most, seconds, servers=count) for count in CLUSTER_SERVERS])


if __name__ == "__main__":
    run()
