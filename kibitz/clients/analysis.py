"""`kibitz analysis`: a JSON-lines analysis engine on stdin/stdout, like KataGo's.

Each line of input is one JSON object: a query, or an action. Each line of output is one
JSON object naming the query's `id`. Queries run at once and concurrently (the server's
queue decides how many search at a time); answers come as they are ready, so they may
interleave. End of input waits for the running queries, then exits. docs/protocol.md,
"JSON-lines analysis", documents every field.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from google.protobuf.json_format import MessageToDict

from kibitz import __version__
from kibitz.clients.client import Client, _analyze_request
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

    def handle_line(self, text: str, number: int) -> None:
        """One input line: answer it at once (errors, actions) or start its searches."""
        if not text.strip():
            return
        try:
            query = json.loads(text)
        except json.JSONDecodeError as error:
            self.emit({"error": f"line {number} is not JSON: {error.msg}", "line": number})
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
        game = query.get("game")
        if not isinstance(game, str) or not game:
            raise QueryError("game", "a query needs a game (see `kibitz games`)")
        moves = _strings(query, "moves")
        turns = _turns(query, len(moves))
        every = query.get("reportDuringSearchEvery")
        if every is not None and (not isinstance(every, int | float) or every <= 0):
            raise QueryError("reportDuringSearchEvery", "reportDuringSearchEvery must be > 0 s")
        limits = _limits(query.get("limits", {}), during_search=every is not None)
        options = query.get("options", {})
        if not isinstance(options, dict):
            raise QueryError("options", "options must be an object of names and values")
        priority = query.get("priority", 0)
        try:
            requests = [
                _analyze_request(
                    game,
                    str(query.get("position", "")),
                    moves[:turn],
                    str(query.get("engine", "")),
                    options,
                    limits,
                    priority,
                    {},
                )
                for turn in turns
            ]
        except ValueError as error:  # the priority is the one field left to check
            raise QueryError("priority", str(error)) from None
        tasks = self.running.setdefault(str(query["id"]), [])
        for turn, request in zip(turns, requests, strict=True):
            task = asyncio.ensure_future(self.search(query["id"], turn, request, every))
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

    async def search(self, query_id: Any, turn: int, request: Any, every: float | None) -> None:
        """One analysed turn: its results during the search (at most one per `every`
        seconds) and at the end, or its error."""
        head = {"id": query_id, "turnNumber": turn}
        last = time.monotonic()
        try:
            async for response in self.client.stub.Analyze(request):
                if response.HasField("result"):
                    self.emit({**head, "isDuringSearch": False, **_dump(response.result)})
                elif every is not None and time.monotonic() - last >= every:
                    last = time.monotonic()
                    self.emit({**head, "isDuringSearch": True, **_dump(response.info)})
        except Exception as error:  # a gRPC error or a broken connection: answer, go on
            details = error.details() if hasattr(error, "details") else str(error)
            code = error.code().name if hasattr(error, "code") else type(error).__name__
            self.emit({**head, "error": details, "code": code})

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


def _turns(query: dict, moves: int) -> list[int]:
    """The query's `analyzeTurns` (default: after every move), checked."""
    turns = query.get("analyzeTurns", [moves])
    if (
        isinstance(turns, list)
        and turns
        and all(isinstance(turn, int) and not isinstance(turn, bool) for turn in turns)
        and all(0 <= turn <= moves for turn in turns)
    ):
        return turns
    raise QueryError("analyzeTurns", f"analyzeTurns must list move counts from 0 to {moves}")


def _strings(query: dict, field: str) -> list[str]:
    value = query.get(field, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise QueryError(field, f"{field} must be a list of strings")
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


async def serve(client: Client, stdin: TextIO, stdout: TextIO) -> int:
    """Answer the queries on `stdin` until it ends and every query is answered."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:  # a thread: reading stdin blocks
        for line in stdin:
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
