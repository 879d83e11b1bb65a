"""`kibitz analysis`: a JSON-lines analysis engine on stdin/stdout, like KataGo's.

Each line of input is one JSON object: a query, or an action. Each line of output is one
JSON object naming the query's `id`. Queries run at once and concurrently (the server's
queue decides how many search at a time); answers come as they are ready, so they may
interleave. End of input waits for the running queries, then exits. docs/protocol.md,
"JSON-lines analysis", documents every field.

No line can crash it: a line is bounded (its length, nesting depth and number sizes are
checked before or while it is parsed) and every bad line gets an error line. A query's
turns are bounded too: at most MAX_TURNS, of which TURNS_AT_ONCE are at the server at once.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, TextIO

from google.protobuf.json_format import MessageToDict

from kibitz import __version__
from kibitz.clients.client import Client, KibitzError
from kibitz.clients.values import Limits

LIMIT_FIELDS = {
    "depth": "depth",
    "nodes": "nodes",
    "moveTimeMs": "movetime",
    "multipv": "multipv",
    "searchMoves": "search_moves",
    "solve": "solve",
}
"""The `limits` object's fields (protobuf's JSON names) and the Limits keyword each sets."""
QUERY_FIELDS = {
    "id", "game", "engine", "options", "position", "moves", "analyzeTurns", "limits",
    "reportDuringSearchEvery", "priority", "action", "terminateId",
}  # fmt: skip
MAX_LINE_BYTES = 1_000_000
"""The longest line read (UTF-8 bytes, without its newline); a longer one is an error."""
MAX_DEPTH = 32
"""The deepest nesting of objects and lists in a line; a deeper one is an error."""
MAX_DIGITS = 100
"""The most digits of a number in a line; a longer one is an error."""
MAX_TURNS = 1000
"""The most entries of a query's `analyzeTurns`."""
TURNS_AT_ONCE = 8
"""The most turns of one query searching (or queued at the server) at once; the others
wait for one of them to end, so that a query's turns never flood the server's queue."""


class QueryError(ValueError):
    """A query that cannot run; `field` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _dump(message: Any) -> dict:
    return MessageToDict(message, preserving_proto_field_name=False)


class AnalysisEngine:
    """Reads queries, runs them on `client`, writes answers through `emit`."""

    def __init__(self, client: Client, emit: Callable[[dict], None]) -> None:
        self.client = client
        self.emit = emit
        self.running: dict[str, list[asyncio.Task]] = {}

    def handle_line(self, raw: bytes, number: int) -> None:
        """One input line (at most MAX_LINE_BYTES + 1 of its bytes: more means too long):
        answer it at once (errors, actions) or start its searches."""
        line = raw.rstrip(b"\r\n")
        if not line.strip():
            return
        try:
            query = _parse(line)
        except LineError as error:
            answer = {"error": f"line {number} {error}", "line": number}
            query_id = _leading_id(line)
            self.emit(answer if query_id is None else {"id": query_id, **answer})
            return
        if not isinstance(query, dict):
            self.emit({"error": f"line {number} is not a JSON object", "line": number})
            return
        query_id = query.get("id")
        if not isinstance(query_id, str | int) or isinstance(query_id, bool):
            self.emit({"error": "every query needs an id (a string or a number)", "line": number})
            return
        try:
            self.start(query)
        except QueryError as error:
            self.emit({"id": query_id, "error": str(error), "field": error.field})

    def start(self, query: dict) -> None:
        unknown = sorted(set(query) - QUERY_FIELDS)
        if unknown:
            raise QueryError(unknown[0], f"unknown field {unknown[0]!r}")
        action = query.get("action")
        if action is not None:
            self.act(action, query)
            return
        game = _text(query, "game", "")
        if not game:
            raise QueryError("game", "a query needs a game (see `kibitz games`)")
        position = _text(query, "position", "")
        engine = _text(query, "engine", "")
        moves = _strings(query, "moves")
        turns = _turns(query, len(moves))
        every = query.get("reportDuringSearchEvery")
        if every is not None and (
            isinstance(every, bool) or not isinstance(every, int | float) or not every > 0
        ):
            raise QueryError("reportDuringSearchEvery", "reportDuringSearchEvery must be > 0 s")
        limits = _limits(query.get("limits", {}), during_search=every is not None)
        options = _options(query.get("options", {}))
        try:  # the limits are checked already: what the wire refuses now is the priority
            requests = [
                self.client.analyze_request(
                    game,
                    position,
                    moves[:turn],
                    engine=engine,
                    options=options,
                    limits=limits,
                    priority=query.get("priority", 0),
                )
                for turn in turns
            ]
        except ValueError as error:
            raise QueryError("priority", str(error)) from None
        tasks = self.running.setdefault(str(query["id"]), [])
        gate = asyncio.Semaphore(TURNS_AT_ONCE)
        for turn, request in zip(turns, requests, strict=True):
            search = self.search(query["id"], turn, request, every, gate)
            task = asyncio.ensure_future(search)
            tasks.append(task)
            task.add_done_callback(
                lambda done, query_id=query["id"], turn=turn: self._finished(query_id, turn, done)
            )

    def act(self, action: Any, query: dict) -> None:
        query_id = query["id"]
        if action == "query_version":
            self.emit({"id": query_id, "action": action, "version": __version__})
        elif action == "terminate":
            target = query.get("terminateId")
            if not isinstance(target, str | int):
                raise QueryError("terminateId", "terminate needs the terminateId of a query")
            tasks = self.running.get(str(target), [])
            for task in tasks:
                task.cancel()
            self.emit({
                "id": query_id, "action": action, "terminateId": target,
                "terminated": len(tasks),
            })  # fmt: skip
        else:
            raise QueryError("action", f"unknown action {action!r} (query_version, terminate)")

    async def search(
        self,
        query_id: Any,
        turn: int,
        request: Any,
        every: float | None,
        gate: asyncio.Semaphore,
    ) -> None:
        """One analysed turn, once `gate` lets it: its results during the search (at most
        one per `every` seconds) and at the end, or its error."""
        head = {"id": query_id, "turnNumber": turn}
        async with gate:
            await self._search(head, request, every)

    async def _search(self, head: dict, request: Any, every: float | None) -> None:
        last = time.monotonic()
        stream = self.client.stream_analysis(request)
        try:
            async for info in stream:
                if every is not None and time.monotonic() - last >= every:
                    last = time.monotonic()
                    self.emit({**head, "isDuringSearch": True, **_dump(info.proto)})
        except KibitzError as error:  # the server's answer, or a broken connection: go on
            self.emit({**head, "error": error.message, "code": error.code.name})
            return
        except Exception as error:  # anything else: answered too
            self.emit({**head, "error": str(error), "code": type(error).__name__})
            return
        if stream.result is not None:
            self.emit({**head, "isDuringSearch": False, **_dump(stream.result.proto)})

    def _finished(self, query_id: Any, turn: int, done: asyncio.Task) -> None:
        """A turn's task ended: forget it, and answer for it if it was terminated."""
        key = str(query_id)
        tasks = self.running.get(key, [])
        if done in tasks:
            tasks.remove(done)
        if not tasks:
            self.running.pop(key, None)
        if done.cancelled():
            self.emit({"id": query_id, "turnNumber": turn, "terminated": True})

    async def drain(self) -> None:
        """Wait for every running query."""
        while self.running:
            running = [task for tasks in list(self.running.values()) for task in tasks]
            await asyncio.gather(*running, return_exceptions=True)


class LineError(ValueError):
    """A line that cannot be read; its message completes "line N ..."."""


def _parse(line: bytes) -> Any:
    """The JSON value of `line`, read only if it is bounded: its length, its nesting depth
    (scanned before parsing, so that the parser never recurses deeply) and its numbers'
    digits (checked as they are parsed); LineError otherwise."""
    if len(line) > MAX_LINE_BYTES:
        raise LineError(f"is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise LineError("is not UTF-8") from None
    if _depth(text) > MAX_DEPTH:
        raise LineError(f"is nested deeper than {MAX_DEPTH} objects and lists")
    try:
        return json.loads(text, parse_int=_bounded_int)
    except LineError:
        raise
    except json.JSONDecodeError as error:
        raise LineError(f"is not JSON: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # a safety net: the bounds come first
        raise LineError(f"cannot be read: {error}") from None


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """How deep the objects and lists of JSON `text` nest (brackets in strings aside)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise LineError(f"has a number of more than {MAX_DIGITS} digits")
    return int(digits)


_LEADING_ID = re.compile(
    rb'\s*\{\s*"id"\s*:\s*("[^"\\\x00-\x1f]{0,200}"|-?(?:0|[1-9][0-9]{0,%d})(?![0-9.eE]))'
    % (MAX_DIGITS - 1)
)


def _leading_id(line: bytes) -> str | int | None:
    """The id of a line that cannot be read, if it is the line's first field (a plain
    string of at most 200 characters, or an integer); None otherwise."""
    match = _LEADING_ID.match(line)
    if match is None:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:  # not UTF-8
        return None


def _turns(query: dict, moves: int) -> list[int]:
    """The query's `analyzeTurns` (default: after every move), checked."""
    turns = query.get("analyzeTurns", [moves])
    if isinstance(turns, list) and len(turns) > MAX_TURNS:
        raise QueryError("analyzeTurns", f"analyzeTurns lists at most {MAX_TURNS} turns")
    if (
        isinstance(turns, list)
        and turns
        and all(isinstance(turn, int) and not isinstance(turn, bool) for turn in turns)
        and all(0 <= turn <= moves for turn in turns)
    ):
        return turns
    raise QueryError("analyzeTurns", f"analyzeTurns must list move counts from 0 to {moves}")


def _sendable(text: str) -> bool:
    """Whether the wire (UTF-8) can carry `text`: JSON may spell lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(query: dict, field: str, default: str) -> str:
    value = query.get(field, default)
    if not isinstance(value, str) or not _sendable(value):
        raise QueryError(field, f"{field} must be a string (of valid Unicode)")
    return value


def _strings(query: dict, field: str) -> list[str]:
    value = query.get(field, [])
    if not isinstance(value, list) or not all(
        isinstance(item, str) and _sendable(item) for item in value
    ):
        raise QueryError(field, f"{field} must be a list of strings (of valid Unicode)")
    return value


def _options(value: Any) -> dict[str, str | int | float | bool]:
    if not isinstance(value, dict):
        raise QueryError("options", "options must be an object of names and values")
    for name, item in value.items():
        if not _sendable(name) or not (
            isinstance(item, str | int | float) and _sendable(str(item))
        ):
            raise QueryError(
                f"options.{name}", "an option's value must be a string, number or boolean"
            )
    return value


def _limits(value: Any, during_search: bool) -> Limits:
    if not isinstance(value, dict):
        raise QueryError("limits", "limits must be an object")
    unknown = sorted(set(value) - set(LIMIT_FIELDS))
    if unknown:
        raise QueryError(
            f"limits.{unknown[0]}",
            f"unknown limit {unknown[0]!r} (limits: {', '.join(LIMIT_FIELDS)})",
        )
    keywords = {LIMIT_FIELDS[name]: item for name, item in value.items()}
    if "movetime" in keywords and isinstance(keywords["movetime"], int | float):
        keywords["movetime"] = keywords["movetime"] / 1000
    try:
        limits = Limits.from_keywords(root_moves=during_search, **keywords)
        limits.to_pb()  # a value the wire cannot carry fails here, naming the field
    except (TypeError, ValueError) as error:
        raise QueryError("limits", str(error)) from None
    return limits


def _read_lines(stream: BinaryIO) -> Iterator[bytes]:
    """The lines of `stream`, each cut at MAX_LINE_BYTES + 1 bytes (the rest of a longer
    line is skipped, never held in memory), so a longer line reads as too long."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass
        yield line


async def serve(client: Client, stdin: TextIO, stdout: TextIO) -> int:
    """Answer the queries on `stdin` (read through its bytes, `stdin.buffer`: each line is
    bounded before it is decoded) until it ends and every query is answered."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[bytes | None] = asyncio.Queue()
    stream = stdin.buffer

    def read() -> None:  # a thread: reading stdin blocks
        for line in _read_lines(stream):
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=read, daemon=True).start()

    def emit(answer: dict) -> None:
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()

    engine = AnalysisEngine(client, emit)
    number = 0
    while (line := await lines.get()) is not None:
        number += 1
        engine.handle_line(line, number)
    await engine.drain()
    return 0
