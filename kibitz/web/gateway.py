"""`kibitz web`: the page and a small HTTP gateway to kibitz servers (docs/web.md).

The gateway is a client of the gRPC service, like the CLI: JSON requests become calls of the
async client (kibitz/clients/client.py), a search's progress stream becomes server-sent
events. It talks to the servers named on the command line only (the page picks one by its
index), with the TLS and token settings of the other commands.

Starlette routes the requests, uvicorn serves them (docs/web.md says why). Every request
passes the guard first (guard.py): this gateway's host only, and changes from its own page
only.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import math
import signal
import socket
import sys
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from google.protobuf import json_format
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kibitz.clients.client import (
    Client,
    KibitzError,
    NotFound,
    SearchStream,
    ServerUnavailable,
    Session,
    check_credentials,
)
from kibitz.clients.values import Score
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import ScoreKind
from kibitz.web.guard import Guard, allowed_names, is_loopback
from kibitz.web.match import MatchUnreadable, match_state

STATIC = resources.files("kibitz.web") / "static"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}
"""HTTP status of each gRPC status the server answers (others: 502)."""


class RequestError(Exception):
    """A request the gateway itself refuses (400 unless said otherwise)."""

    def __init__(self, message: str, status: int = 400, code: str = "BAD_REQUEST") -> None:
        super().__init__(message)
        self.message, self.status, self.code = message, status, code


def _as_dict(message: Any) -> dict[str, Any]:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


# ---------------------------------------------------------------------------- scores


GRAPH_RESULTS = {ScoreKind.WIN: 1000.0, ScoreKind.LOSS: -1000.0, ScoreKind.DRAW: 0.0}


def score_value(score: Score) -> float | None:
    """A score as one number from the first player's point of view, for the evaluation
    graph: heuristic values in units (centi / 100, or the expected value), a proven win
    +1000 (a loss -1000, a draw 0). None where the first player's view is undefined, and for
    a bound on a result (">= draw" is no value). A game of three players or more: the first
    player's own value (`player_values[0]`, in the game's units of returns), whoever moves."""
    if score.player_values:
        first_value = score.player_values[0]
        return first_value if math.isfinite(first_value) else None
    try:
        first = score.for_player(0)
    except ValueError:
        return None
    if first.kind is not ScoreKind.HEURISTIC:
        return GRAPH_RESULTS[first.kind] if first.proven else None
    value = first.expected_value if first.expected_value is not None else first.centi / 100
    return value if math.isfinite(value) else None


def first_player_plies(score: Score) -> int | None:
    """A proven win or loss as plies to the end, positive when the first player wins (a
    record's `RecordNode.eval_plies`); None for anything else, and for a score of three
    players or more that is not the first player's own (no other player's win is its loss)."""
    if score.player_values and score.player != 0:
        return None
    try:
        first = score.for_player(0)
    except ValueError:
        return None
    if not first.proven or first.kind not in (ScoreKind.WIN, ScoreKind.LOSS):
        return None
    return first.plies if first.kind is ScoreKind.WIN else -first.plies


def _score_fields(message: pb.Score) -> dict[str, Any]:
    score = Score.from_pb(message)
    fields = {"text": str(score), "firstPlayerValue": score_value(score), "proven": score.proven}
    plies = first_player_plies(score)
    if plies is not None:
        fields["firstPlayerPlies"] = plies
    return fields


def _annotate(data: dict[str, Any], message: pb.Info | pb.Result) -> None:
    """Adds to each score of an Info's or a Result's JSON its `text` (the server's label, as
    the CLI shows it), `firstPlayerValue` and `proven`. Moves come labelled from the server
    (`pvLabels`, `moveLabel`, `bestMoveLabel`)."""
    if message.HasField("score"):
        data["score"].update(_score_fields(message.score))
    for root, root_data in zip(message.root_moves, data.get("rootMoves", []), strict=True):
        root_data["score"].update(_score_fields(root.score))


# ---------------------------------------------------------------------------- state


@dataclass
class GatewaySession:
    """A session the page opened: its server, how to open it again, the open session."""

    server: int
    game: str
    engine: str
    options: dict[str, str]
    session: Session | None = None
    searching: SearchStream | None = None


@dataclass
class Gateway:
    """The servers the page may use and the sessions it opened."""

    addresses: Sequence[str]
    tls_ca: str | None = None
    token: str | None = None
    match_dir: Path | None = None
    """A `kibitz match --out` directory whose match the page may watch."""
    clients: list[Client] = field(default_factory=list)
    sessions: dict[str, GatewaySession] = field(default_factory=dict)

    def connect(self) -> None:
        """Opens a client per server (on the running event loop)."""
        self.clients = [
            Client(address, tls_ca=self.tls_ca or "", token=self.token or "")
            for address in self.addresses
        ]

    async def close(self) -> None:
        for record in list(self.sessions.values()):
            if record.session is not None:
                with contextlib.suppress(KibitzError):
                    await record.session.close()
        self.sessions.clear()
        for client in self.clients:
            await client.close()

    def client(self, index: Any) -> Client:
        try:
            number = int(index if index is not None else 0)
            if number < 0:
                raise IndexError
            return self.clients[number]
        except (ValueError, TypeError, IndexError):
            raise RequestError(
                f"no server {index!r}: this gateway knows servers 0 to {len(self.clients) - 1}",
                404,
                "NOT_FOUND",
            ) from None

    def record(self, session_id: str) -> GatewaySession:
        record = self.sessions.get(session_id)
        if record is None:
            raise RequestError(f"no session {session_id!r} (closed?)", 404, "NOT_FOUND")
        return record

    async def open(self, record: GatewaySession) -> Session:
        """The record's session, opened if it is not yet; it opens itself again when the
        server has closed it (e.g. after its idle timeout)."""
        if record.session is None:
            record.session = await self.client(record.server).open(
                record.game, record.engine, record.options, reopen=True
            )
        return record.session


# ---------------------------------------------------------------------------- requests


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RequestError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


def _text(data: dict[str, Any], name: str, default: str | None = None) -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise RequestError(f"{name} must be a string" if value is not None else f"{name} missing")
    return value


def _moves(data: dict[str, Any]) -> list[str]:
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise RequestError("moves must be a list of strings")
    return moves


MAX_NODES = 10_000
"""The most nodes an export may send (the server's limit)."""


def _nodes(data: dict[str, Any]) -> list[pb.RecordNode]:
    """An export's tree of moves: RecordNodes in their JSON form (`parent`, `move`,
    `comment`, `clockMs`, `evalCenti`, `evalPlies`)."""
    nodes = data.get("nodes") or []
    if not isinstance(nodes, list) or len(nodes) > MAX_NODES:
        raise RequestError(f"nodes must be a list of at most {MAX_NODES} moves")
    if not all(isinstance(node, dict) for node in nodes):
        raise RequestError("nodes must be objects (parent, move, ...)")
    try:
        return [json_format.ParseDict(node, pb.RecordNode()) for node in nodes]
    except json_format.ParseError as exc:
        raise RequestError(f"nodes: {str(exc)[:200]}") from None


def _options(data: dict[str, Any]) -> dict[str, str]:
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RequestError("options must be an object of NAME: VALUE")
    return {
        str(name): ("true" if value else "false") if isinstance(value, bool) else str(value)
        for name, value in options.items()
    }


def _limits(data: dict[str, Any]) -> pb.Limits:
    """The request's `limits`: the Limits message in protobuf's JSON mapping."""
    limits = data.get("limits") or {}
    if not isinstance(limits, dict):
        raise RequestError('limits must be an object such as {"depth": 8}')
    try:
        return json_format.ParseDict(limits, pb.Limits())
    except json_format.ParseError as exc:
        raise RequestError(f"limits: {exc}") from None


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "code": code, **extra}, status_code=status)


def _server_error(exc: KibitzError, address: str) -> JSONResponse:
    message = exc.message
    if isinstance(exc, ServerUnavailable):  # the gRPC text goes in "detail", for the curious
        message = f"cannot reach the server at {address} — is kibitz serve running?"
        return _error(503, exc.code.name, message, server=address, detail=exc.message)
    elif exc.code == grpc.StatusCode.UNAUTHENTICATED:
        message = (
            f"the server at {address} requires a valid token: start `kibitz web` with --token "
            f"or KIBITZ_TOKEN ({exc.message})"
        )
    return _error(STATUS.get(exc.code, 502), exc.code.name, message, server=address)


def _endpoint(handler):
    """Wraps a handler: RequestErrors and the servers' errors become JSON error answers."""

    async def endpoint(request: Request) -> Response:
        gateway: Gateway = request.app.state.gateway
        try:
            return await handler(request, gateway)
        except RequestError as exc:
            return _error(exc.status, exc.code, exc.message)
        except KibitzError as exc:
            return _server_error(exc, await _address(request, gateway))

    return endpoint


async def _address(request: Request, gateway: Gateway) -> str:
    """The address of the server a request went to (for error messages)."""
    server: Any = request.query_params.get("server")
    record = gateway.sessions.get(request.path_params.get("id", ""))
    if record is not None:
        server = record.server
    elif server is None and request.method == "POST":
        with contextlib.suppress(Exception):
            server = (await request.json()).get("server")
    try:
        return gateway.client(server).address
    except RequestError:
        return ""


# ---------------------------------------------------------------------------- endpoints


PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: its own files only (no inline script), and no
framing by other sites."""


async def index(request: Request) -> Response:
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return FileResponse(str(STATIC / "index.html"), headers=headers)


async def servers(request: Request, gateway: Gateway) -> Response:
    return JSONResponse(
        {
            "servers": [
                {
                    "index": index,
                    "address": client.address,
                    "tls": client.tls_ca is not None,
                    "token": client.authenticated,
                }
                for index, client in enumerate(gateway.clients)
            ],
            "match": gateway.match_dir is not None,
        }
    )


async def match(request: Request, gateway: Gateway) -> Response:
    """The match of `--match DIR`: its games being played and those finished."""
    if gateway.match_dir is None:
        raise RequestError("no match to watch: start kibitz web with --match DIR", 404, "NO_MATCH")
    try:
        return JSONResponse(match_state(gateway.match_dir))
    except MatchUnreadable as exc:
        raise RequestError(str(exc), 404, "NO_MATCH") from None


async def games(request: Request, gateway: Gateway) -> Response:
    client = gateway.client(request.query_params.get("server"))
    return JSONResponse({"games": [_as_dict(game) for game in await client.games()]})


async def engines(request: Request, gateway: Gateway) -> Response:
    client = gateway.client(request.query_params.get("server"))
    return JSONResponse({"engines": [_as_dict(engine) for engine in await client.engines()]})


async def describe(request: Request, gateway: Gateway) -> Response:
    """A position described; `viewOf` (a player): as that player sees it (hidden
    information: DescribeRequest.view_of)."""
    data = await _body(request)
    client = gateway.client(data.get("server"))
    game, position, moves = _text(data, "game"), _text(data, "position", ""), _moves(data)
    view_of = data.get("viewOf")
    if view_of is not None and (not isinstance(view_of, int) or isinstance(view_of, bool)):
        raise RequestError("viewOf must be a player's index (0 = first player)")
    answer = await client.describe(game, position, moves, view_of=view_of)
    return JSONResponse(_as_dict(answer))


async def open_session(request: Request, gateway: Gateway) -> Response:
    data = await _body(request)
    server = data.get("server", 0)
    client = gateway.client(server)
    record = GatewaySession(
        server=int(server),
        game=_text(data, "game"),
        engine=_text(data, "engine", ""),
        options=_options(data),
    )
    session = await gateway.open(record)
    gateway_id = uuid.uuid4().hex[:16]
    gateway.sessions[gateway_id] = record
    return JSONResponse(
        {
            "id": gateway_id,
            "server": record.server,
            "address": client.address,
            "session": _as_dict(session.info),
        }
    )


async def close_session(request: Request, gateway: Gateway) -> Response:
    record = gateway.sessions.pop(request.path_params["id"], None)
    if record is None:
        raise RequestError(f"no session {request.path_params['id']!r}", 404, "NOT_FOUND")
    if record.searching is not None:
        record.searching.cancel()
    if record.session is not None:
        with contextlib.suppress(NotFound):
            await record.session.close()
    return JSONResponse({})


async def stop(request: Request, gateway: Gateway) -> Response:
    record = gateway.record(request.path_params["id"])
    was = False
    if record.session is not None:
        with contextlib.suppress(NotFound):
            was = await record.session.stop()
    return JSONResponse({"wasSearching": was})


async def search(request: Request, gateway: Gateway) -> Response:
    record = gateway.record(request.path_params["id"])
    data = await _body(request)
    position, moves, limits = _text(data, "position", ""), _moves(data), _limits(data)
    client = gateway.client(record.server)
    await client.describe(record.game, position, moves)  # a bad position: 400
    priority = data.get("priority", 0)
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise RequestError("priority must be an integer")

    session = await gateway.open(record)
    try:
        stream = session.search(position, moves, limits, priority=priority)
    except ValueError as exc:  # a priority the wire cannot carry
        raise RequestError(str(exc)) from None
    events = aiter(stream)
    first = await anext(events, None)  # an error before the first event: its HTTP status
    record.searching = stream
    return StreamingResponse(
        _events(record, stream, events, first),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def _events(
    record: GatewaySession,
    stream: SearchStream,
    events: AsyncIterator,
    first: Any,
) -> AsyncIterator[str]:
    """`info` events, then one `result` (or an `error`); leaving early cancels the search."""
    try:
        info = first
        while info is not None:
            data = _as_dict(info.proto)
            _annotate(data, info.proto)
            yield _event("info", data)
            info = await anext(events, None)
        result = stream.result
        if result is not None:
            data = _as_dict(result.proto)
            _annotate(data, result.proto)
            yield _event("result", data)
    except KibitzError as exc:
        yield _event(
            "error",
            {"error": exc.message, "code": exc.code.name, "status": STATUS.get(exc.code, 502)},
        )
    finally:
        if record.searching is stream:
            record.searching = None
        if stream.result is None:
            stream.cancel()


async def export(request: Request, gateway: Gateway) -> Response:
    """A finished (or unfinished) game to download, in its game's record format as the
    server writes it (`ExportGame`: PGN for chess, JSON otherwise); a JSON record gets the
    server, the date and the page's evaluations added."""
    data = await _body(request)
    client = gateway.client(data.get("server"))
    game, position, moves = _text(data, "game"), _text(data, "position", ""), _moves(data)
    players = data.get("players") or ["", ""]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RequestError("players must be a list of names")
    stamp = datetime.datetime.now(datetime.UTC)
    headers = {
        "Event": str(data.get("event") or "kibitz game"),
        "Site": "kibitz",
        "Date": stamp.strftime("%Y.%m.%d"),
    }
    record = await client.export(game, position, moves, players, headers, nodes=_nodes(data))
    text = record.text
    if record.format == "json":
        written = json.loads(text)
        written.update(
            server=client.address,
            date=stamp.isoformat(timespec="seconds"),
            evaluations=data.get("evaluations") or [],
        )
        text = json.dumps(written, indent=2)
    disposition = f'attachment; filename="kibitz-{game}.{record.format}"'
    return Response(
        text, media_type=record.media_type, headers={"Content-Disposition": disposition}
    )


async def import_game(request: Request, gateway: Gateway) -> Response:
    """A game record (PGN for chess, else the JSON record an export writes) read by the
    server (`ImportGame`): the start position, the headers and the tree of moves."""
    data = await _body(request)
    client = gateway.client(data.get("server"))
    tree = await client.import_game(_text(data, "game"), _text(data, "text"))
    return JSONResponse(_as_dict(tree))


async def unknown_route(request: Request, exc: HTTPException) -> Response:
    """404 and 405 as JSON, like every other error of the gateway."""
    if exc.status_code == 405:
        message = f"{request.url.path} does not take {request.method} (see docs/web.md)"
        return _error(405, "METHOD_NOT_ALLOWED", message)
    return _error(exc.status_code, "NOT_FOUND", f"no endpoint {request.url.path} (see docs/web.md)")


# ---------------------------------------------------------------------------- app


def create_app(
    addresses: Sequence[str],
    *,
    tls_ca: str | None = None,
    token: str | None = None,
    match_dir: str | None = None,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] = (),
) -> Starlette:
    """The gateway for the servers at `addresses` (index 0 is the default); with
    `match_dir`, the match recorded there can be watched. It answers requests for `host`
    (the address it listens on), loopback names and `allowed_hosts` (`--allow-host`) only
    (guard.py; ValueError for a malformed name)."""
    guard = Middleware(Guard, host=host, allowed=allowed_names(allowed_hosts))
    gateway = Gateway(
        list(addresses),
        tls_ca=tls_ca,
        token=token,
        match_dir=Path(match_dir) if match_dir else None,
    )
    check_credentials(tls_ca, token)  # a bad CA file or token: ValueError now, not later

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        gateway.connect()
        try:
            yield
        finally:
            await gateway.close()

    routes = [
        Route("/", index),
        Route("/api/servers", _endpoint(servers)),
        Route("/api/games", _endpoint(games)),
        Route("/api/engines", _endpoint(engines)),
        Route("/api/describe", _endpoint(describe), methods=["POST"]),
        Route("/api/sessions", _endpoint(open_session), methods=["POST"]),
        Route("/api/sessions/{id}", _endpoint(close_session), methods=["DELETE"]),
        Route("/api/sessions/{id}/search", _endpoint(search), methods=["POST"]),
        Route("/api/sessions/{id}/stop", _endpoint(stop), methods=["POST"]),
        Route("/api/export", _endpoint(export), methods=["POST"]),
        Route("/api/import", _endpoint(import_game), methods=["POST"]),
        Route("/api/match", _endpoint(match)),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers = {404: unknown_route, 405: unknown_route}
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=[guard]
    )
    app.state.gateway = gateway
    return app


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (OSError when the port is taken).

    Its protocol is named (IPPROTO_TCP, not 0): asyncio turns Nagle's algorithm off only on
    connections whose socket says TCP, and with it on, a response written as headers then
    body waited for the browser's delayed ACK, 40 ms a request."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def web_server(app: Starlette) -> uvicorn.Server:
    """A uvicorn server for `app`; `await server.serve(sockets=[sock])` runs it until
    `server.should_exit` is set (or Ctrl-C)."""
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def exposure_warning(host: str) -> str:
    """A warning when others can reach the page ("" on loopback)."""
    if is_loopback(host):
        return ""
    return (
        f"serving the page on {host}: it has no access control of its own, whoever can reach "
        "this address can use the servers with this gateway's token and settings; keep it "
        "on loopback or put your own access control in front of it (docs/web.md)"
    )


def run_web(
    addresses: Sequence[str],
    host: str,
    port: int,
    *,
    tls_ca: str | None = None,
    token: str | None = None,
    match_dir: str | None = None,
    allowed_hosts: Sequence[str] = (),
) -> int:
    """`kibitz web`: serve the page for the servers at `addresses` until Ctrl-C; the exit
    code (1 for a bad --tls-ca or --allow-host, or a port that is taken)."""
    try:
        app = create_app(
            addresses,
            tls_ca=tls_ca,
            token=token,
            match_dir=match_dir,
            host=host,
            allowed_hosts=allowed_hosts,
        )
        sock = bind(host, port)
    except (ValueError, OSError) as exc:
        print(f"kibitz: cannot serve the web page on {host}:{port}: {exc}", file=sys.stderr)
        return 1
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(
        f"kibitz web: open http://{shown}:{bound}/ (servers: {', '.join(addresses)}; "
        "Ctrl-C stops it)",
        file=sys.stderr,
        flush=True,
    )
    warning = exposure_warning(host)
    if warning:
        print(f"kibitz web: warning: {warning}", file=sys.stderr, flush=True)
    # uvicorn stops on Ctrl-C and SIGTERM, then raises the signal again for the handler it
    # found: a quiet one, so that stopping the page is a clean exit.
    quiet = {number: signal.signal(number, lambda *_: None) for number in STOP_SIGNALS}
    try:
        asyncio.run(web_server(app).serve(sockets=[sock]))
    finally:
        for number, handler in quiet.items():
            signal.signal(number, handler)
    return 0
