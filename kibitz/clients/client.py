"""The Python client: sessions as objects, searches as streams, errors as exceptions.

    async with Client("127.0.0.1:50051") as client:
        async with await client.open("connect4") as session:
            search = session.search(moves=["4453"], depth=12)
            async for info in search:
                print(info.depth, info.score, info.pv)
            print(search.result.best_move)

Searches take `Limits` (or their fields as keywords) and answer typed values (`Info`,
`Result`; kibitz/clients/values.py). `client.open(..., reopen=True)` makes a session that
opens itself again when the server has closed it (its idle timeout, a restart, CloseSession
from elsewhere); tools that build their own requests use `analyze_request` and
`stream_analysis`, never the raw stub.

On a network: `Client(address, tls_ca="cert.pem", token="...")` speaks TLS, trusting the
certificates that file holds, and sends the token as `authorization: Bearer TOKEN` metadata
with every call; the defaults come from KIBITZ_TLS_CA and KIBITZ_TOKEN.

Behind a proxy that pins sessions to servers (`kibitz cluster`, docs/scale-out.md): the
client proposes each session's id and sends it as `x-kibitz-session` metadata with every
call about the session, so the proxy sends them all to the server that holds it; a session
opened with ``reopen=True`` whose server is gone opens again on one that is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import grpc

from kibitz.clients.values import Info, Limits, Result
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

DEFAULT_ADDRESS = "127.0.0.1:50051"
TLS_CA_VARIABLE = "KIBITZ_TLS_CA"
TOKEN_VARIABLE = "KIBITZ_TOKEN"


def default_address() -> str:
    """`KIBITZ_SERVER` if set, else 127.0.0.1:50051."""
    return os.environ.get("KIBITZ_SERVER") or DEFAULT_ADDRESS


def default_tls_ca() -> str | None:
    """`KIBITZ_TLS_CA` if set (a PEM file of the certificates to trust), else None."""
    return os.environ.get(TLS_CA_VARIABLE) or None


def default_token() -> str | None:
    """`KIBITZ_TOKEN` if set, else None."""
    return os.environ.get(TOKEN_VARIABLE) or None


# ---------------------------------------------------------------------------- errors


class KibitzError(Exception):
    """An error answered by the server; `code` is the gRPC status, `message` its text."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code: grpc.StatusCode = code
        """The gRPC status code, e.g. `grpc.StatusCode.INVALID_ARGUMENT`."""
        self.message: str = message
        """The server's message: what was wrong, in words."""


class InvalidArgument(KibitzError):
    """The request was malformed: bad position, illegal move, bad option or limit."""


class NotFound(KibitzError):
    """Unknown game, engine or session."""


class FailedPrecondition(KibitzError):
    """The session is busy (e.g. already searching)."""


class ResourceExhausted(KibitzError):
    """The server is full (sessions, the caller's share of them, memory, or the search
    queue), or one search outgrew its own bound (`astar`'s Memory option): the message says
    which; only the first kind passes by waiting."""


class ServerUnavailable(KibitzError):
    """No server answers at the address (or the TLS handshake with it failed)."""


class Unauthenticated(KibitzError):
    """The server requires a token and the call carried none, or one it does not know."""


class DeadlineExceeded(KibitzError):
    """The call's deadline passed, or an engine ignored its own and never reported a move."""


_ERRORS: dict[grpc.StatusCode, type[KibitzError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.UNAVAILABLE: ServerUnavailable,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
}


_PROXY_STATUS = re.compile(r"Received http2 header with status: (50[234])")
"""What gRPC says when a proxy in front of the server answers instead of a server."""


def _translate(error: grpc.aio.AioRpcError) -> KibitzError:
    cls = _ERRORS.get(error.code(), KibitzError)
    details = error.details() or error.code().name
    if proxy := _PROXY_STATUS.search(details):
        details = (
            f"the proxy in front of the servers reached none for this call (HTTP "
            f"{proxy.group(1)}): the server that held it went away during the call, or none "
            "is up"
        )
    return cls(error.code(), details)


# ---------------------------------------------------------------------------- requests


def _limits(limits: Limits | pb.Limits | None, keywords: Mapping[str, Any]) -> pb.Limits:
    """The wire limits from `limits` (a `Limits`, or the wire message itself) or from limit
    keywords (not both)."""
    if limits is None:
        return Limits.from_keywords(**keywords).to_pb()
    if keywords:
        raise ValueError(
            f"pass limits=Limits(...) or limit keywords, not both (got {', '.join(keywords)})"
        )
    if isinstance(limits, pb.Limits):
        return limits
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a kibitz.clients.Limits, not {type(limits).__name__}")
    return limits.to_pb()


_INT32 = 2**31


def _priority(priority: int) -> int:
    """A queue priority as the wire carries it (int32); ValueError otherwise."""
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise ValueError(f"priority must be an integer, not {priority!r}")
    if not -_INT32 <= priority < _INT32:
        raise ValueError(f"priority must be within [{-_INT32}, {_INT32 - 1}], not {priority}")
    return priority


def _moves(moves: Iterable[str]) -> list[str]:
    """Moves as the wire carries them; a string is one entry (a move, or a run of moves in
    the game's move-list form such as Connect Four's "4453"), not a list of characters."""
    return [moves] if isinstance(moves, str) else list(moves)


# ---------------------------------------------------------------------------- streams


Restart = Callable[[], Awaitable["grpc.aio.UnaryStreamCall | None"]]
"""Makes the call of a search again on a session opened anew; None when it may not."""


class SearchStream:
    """A running search: iterate it for `Info`s; `result` (a `Result`) is set when it ends.

    `await stream` runs it to the end and returns the Result. Leaving the iteration early
    cancels the call, which stops the search on the server. A stream with `restart` (a
    search of a session opened with ``reopen=True``) whose call fails as NotFound before the
    search started (while it waited in the server's queue at most) makes the call once more
    through it.
    """

    def __init__(self, call: grpc.aio.UnaryStreamCall, restart: Restart | None = None) -> None:
        self._call = call
        self._restart = restart
        self._cancelled = False
        self.result: Result | None = None
        """The final answer, once the stream has ended (None before)."""
        self.infos: list[Info] = []
        """Every progress report received so far, in order."""

    def __aiter__(self) -> AsyncIterator[Info]:
        return self._infos()

    async def _infos(self) -> AsyncIterator[Info]:
        try:
            while True:
                try:
                    async for response in self._call:
                        if response.HasField("info"):
                            info = Info.from_pb(response.info)
                            if info.depth or not info.queued:  # past the queue: searching,
                                self._restart = None  # so a later error is the search's own
                            self.infos.append(info)
                            yield info
                        else:
                            self._restart = None
                            self.result = Result.from_pb(response.result)
                    return
                except grpc.aio.AioRpcError as error:
                    call = await self._restarted(error)
                    if call is None:
                        raise _translate(error) from None
                    self._call = call
        except asyncio.CancelledError:
            if not self._cancelled:
                raise
        finally:
            if self.result is None:
                self._call.cancel()

    async def _restarted(self, error: grpc.aio.AioRpcError) -> grpc.aio.UnaryStreamCall | None:
        """The call made again, where the server no longer knew the session and the stream
        may restart (once); else None."""
        restart, self._restart = self._restart, None
        if restart is None or self._cancelled or error.code() != grpc.StatusCode.NOT_FOUND:
            return None
        return await restart()

    def __await__(self):
        return self._run().__await__()

    async def _run(self) -> Result:
        async for _ in self:
            pass
        if self.result is None:
            raise KibitzError(grpc.StatusCode.CANCELLED, "the search ended without a Result")
        return self.result

    def cancel(self) -> None:
        """Cancel the call (the server stops the search); iteration then ends quietly."""
        self._cancelled = True
        self._call.cancel()


# ---------------------------------------------------------------------------- client


OnReopen = Callable[["Session"], None]
"""Hears that a session was opened again (after the server had closed it)."""


class Session:
    """A session on the server; methods map one-to-one onto the session RPCs.

    An async context manager: leaving ``async with await client.open(...) as session:``
    closes the session (one that already expired is fine).

    With `reopen` (``client.open(..., reopen=True)``), a call that the server answers with
    NotFound, because it closed the session (its idle timeout, a restart, CloseSession from
    another client), opens a new session with the same game, engine and options (those
    `set_options` changed included) and is made once more on it; `id` and `info` are then
    the new session's. Everything the old session held (tables, the running search) is
    gone, as after `new_game`. `close` never reopens.
    """

    def __init__(
        self,
        client: Client,
        info: pb.Session,
        *,
        reopen: bool = False,
        options: Mapping[str, Any] | None = None,
        on_reopen: OnReopen | None = None,
    ) -> None:
        self._client = client
        self.info = info
        """The session as the server last described it (game, engine, options, state)."""
        self.reopen = reopen
        """Whether a call that finds the session gone opens it again (once per call)."""
        self.reopened = 0
        """How often the session has been opened again."""
        self._options = _option_texts(options or {})
        self._on_reopen = on_reopen
        self._reopening = asyncio.Lock()

    @property
    def id(self) -> str:
        """The session's id, as the server gave it."""
        return self.info.id

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, exc_type: object, *exc: object) -> None:
        # NotFound: it expired, or was closed in the block. With an error on its way out,
        # a failed close (e.g. the server went away) must not replace it.
        with contextlib.suppress(NotFound if exc_type is None else KibitzError):
            await self.close()

    def search(
        self,
        position: str = "",
        moves: Iterable[str] = (),
        limits: Limits | pb.Limits | None = None,
        *,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> SearchStream:
        """Search `position` (empty = the start position) after `moves` under `limits` (a
        `Limits`, or the wire message `pb.Limits`), or under limits given as keywords
        (``depth=8``; see `Limits`), not both.

        `priority` orders searches waiting for a free search slot on a busy server (higher
        first, equal ones in the order they came); a search that waited starts its stream
        with an `Info` that has only `queued` set, unless its time ran out while it waited
        and the server answered it at once (the Result alone, its `stats["queued_ms"]`
        set)."""
        request = pb.SearchRequest(
            session_id=self.id,
            position=position,
            moves=_moves(moves),
            limits=_limits(limits, limit_keywords),
            priority=_priority(priority),
        )

        async def restart() -> grpc.aio.UnaryStreamCall | None:
            if not await self._reopened(request.session_id):
                return None
            request.session_id = self.id
            return self._client.stub.Search(request)

        return SearchStream(self._client.stub.Search(request), restart if self.reopen else None)

    async def stop(self) -> bool:
        """Stop the running search; True if one was running."""
        response = await self._call("Stop", lambda sid: pb.StopRequest(session_id=sid))
        return response.was_searching

    async def refresh(self) -> pb.Session:
        """Ask the server for the session's current state (`info`), and return it."""
        self.info = await self._call("GetSession", lambda sid: pb.GetSessionRequest(session_id=sid))
        return self.info

    async def set_options(self, **options: Any) -> pb.Session:
        """Set engine options by name (``Hash=64``); values are sent as their text."""
        texts = _option_texts(options)
        self.info = await self._call(
            "SetOptions", lambda sid: pb.SetOptionsRequest(session_id=sid, options=texts)
        )
        self._options.update(texts)
        return self.info

    async def new_game(self) -> pb.Session:
        """Forget what the engine learnt in this session (tables, trees): a fresh game."""
        self.info = await self._call("NewGame", lambda sid: pb.NewGameRequest(session_id=sid))
        return self.info

    async def close(self) -> None:
        """Close the session (NotFound if it is already gone)."""
        await self._client.call("CloseSession", pb.CloseSessionRequest(session_id=self.id))

    async def _call(self, method: str, request: Callable[[str], Any]) -> Any:
        """Call `method` with `request(session id)`; once more on a session opened anew if
        the server no longer knows this one and the session may reopen."""
        session_id = self.id
        try:
            return await self._client.call(method, request(session_id))
        except NotFound:
            if not await self._reopened(session_id):
                raise
        return await self._client.call(method, request(self.id))

    async def _reopened(self, lost: str) -> bool:
        """Whether a call that found the session `lost` gone may be made again on `id`:
        with `reopen`, after opening a new session (unless a concurrent call already did)."""
        if not self.reopen:
            return False
        async with self._reopening:
            if self.id == lost:
                request = pb.CreateSessionRequest(
                    game=self.info.game,
                    engine=self.info.engine,
                    options=self._options,
                    session_id=new_session_id(),
                )
                self.info = await self._client.call("CreateSession", request)
                self.reopened += 1
                if self._on_reopen is not None:
                    self._on_reopen(self)
        return True


def _option_texts(options: Mapping[str, Any]) -> dict[str, str]:
    """Option values as text, as the wire carries them (booleans as true/false, like UCI)."""
    return {
        name: ("true" if value else "false") if isinstance(value, bool) else str(value)
        for name, value in options.items()
    }


SESSION_HEADER = "x-kibitz-session"
"""The metadata that carries a call's session id, for proxies that pin sessions to servers."""


_ROUTABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A session id as servers make and accept them, hence one worth a header."""


def new_session_id() -> str:
    """A random session id to propose (128 bits: as unguessable as the server's own)."""
    return secrets.token_hex(16)


class _Metadata:
    """A call's metadata: `authorization: Bearer TOKEN` when the client has a token, and
    `x-kibitz-session: ID` when the request concerns a session."""

    def __init__(self, token: str | None) -> None:
        self._token = ("authorization", f"Bearer {token}") if token is not None else None

    def of(self, request: Any, given: Any = None) -> tuple[tuple[str, str], ...] | None:
        """The metadata of a call of `request`: the caller's own (`given`) and ours."""
        metadata = tuple(given or ())
        if self._token is not None:
            metadata += (self._token,)
        session_id = getattr(request, "session_id", "")
        if session_id and _ROUTABLE_ID.fullmatch(session_id):  # another names no session
            metadata += ((SESSION_HEADER, session_id),)
        return metadata or None


class _MetadataStub:
    """The raw stub, each of its calls with the client's metadata (`_Metadata`).

    Passed with each call rather than added by channel interceptors: grpc.aio runs an
    intercepted call as a task of its own and passes a stream's every message through a
    wrapper of its own (a fifth of a short stream's client CPU)."""

    def __init__(self, stub: pb_grpc.EngineServiceStub, metadata: _Metadata) -> None:
        self._stub = stub
        self._metadata = metadata

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._stub, name)
        of = self._metadata.of

        def call(request: Any, **keywords: Any) -> Any:
            keywords["metadata"] = of(request, keywords.get("metadata"))
            return method(request, **keywords)

        setattr(self, name, call)  # made once a method: found as an attribute from now on
        return call


def _token(token: str | None) -> str | None:
    """The token as metadata carries it (surrounding blanks dropped; "" is none)."""
    token = (token or "").strip()
    if not token:
        return None
    if not (token.isascii() and token.isprintable()):
        raise ValueError("a token must be printable ASCII (it travels as gRPC metadata)")
    return token


def _read_tls_ca(path: str | os.PathLike) -> bytes:
    """The PEM certificates in `path`; ValueError naming the file when it cannot be read or
    holds no certificate."""
    try:
        pem = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the TLS CA file {path}: {exc.strerror}") from None
    if b"-----BEGIN CERTIFICATE-----" not in pem:
        raise ValueError(f"the TLS CA file {path} holds no PEM certificate")
    return pem


def check_credentials(tls_ca: str | os.PathLike | None, token: str | None) -> None:
    """The ValueErrors `Client(tls_ca=..., token=...)` would raise (a CA file that cannot be
    read or holds no certificate, a token that is not printable ASCII), without a channel:
    for programs that make their clients later, inside an event loop."""
    if tls_ca:
        _read_tls_ca(tls_ca)
    _token(token)


class Client:
    """Async client for a kibitz server (grpc.aio). `stub` is the raw gRPC stub.

    `tls_ca`: a PEM file of the certificates to trust (the server's own certificate when it
    is self-signed, else the CA's that signed it); the client then speaks TLS. `token`: sent
    as `authorization: Bearer TOKEN` metadata with every call. When not given (None), they
    come from KIBITZ_TLS_CA and KIBITZ_TOKEN; pass "" for none whatever the environment.
    A CA file that cannot be read (or holds no certificate) and a token that is not
    printable ASCII are ValueErrors.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        tls_ca: str | os.PathLike | None = None,
        token: str | None = None,
    ) -> None:
        self.address = address or default_address()
        """The server's HOST:PORT."""
        self.tls_ca = default_tls_ca() if tls_ca is None else (tls_ca or None)
        """The trusted certificates' file, or None for a plain channel."""
        token = _token(default_token() if token is None else token)
        self.authenticated = token is not None
        """Whether calls carry a token."""
        if self.tls_ca is None:
            self._channel = grpc.aio.insecure_channel(self.address)
        else:
            credentials = grpc.ssl_channel_credentials(root_certificates=_read_tls_ca(self.tls_ca))
            self._channel = grpc.aio.secure_channel(self.address, credentials)
        self.stub = _MetadataStub(pb_grpc.EngineServiceStub(self._channel), _Metadata(token))
        """The raw gRPC stub, for calls this client does not wrap (they carry its token and
        session header too)."""

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the channel (the server closes idle sessions by itself)."""
        await self._channel.close()

    async def call(self, method: str, request: Any, timeout: float | None = 30.0) -> Any:
        """Call a unary RPC by name, translating gRPC errors into KibitzErrors."""
        try:
            return await getattr(self.stub, method)(request, timeout=timeout)
        except grpc.aio.AioRpcError as error:
            raise _translate(error) from None

    async def games(self) -> list[pb.GameInfo]:
        """The games the server plays: names, titles, notations, players, engines."""
        return list((await self.call("ListGames", pb.ListGamesRequest())).games)

    async def engines(self) -> list[pb.EngineInfo]:
        """The engines the server hosts, with their options and the games they play."""
        return list((await self.call("ListEngines", pb.ListEnginesRequest())).engines)

    async def limit_ranges(self) -> pb.LimitRanges:
        """The search limits the server accepts (largest depth, move time, multipv, clock)
        and its defaults (move time, cap on untimed searches), in milliseconds."""
        return (await self.call("ListEngines", pb.ListEnginesRequest())).limit_ranges

    async def describe(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        view_of: int | None = None,
    ) -> pb.PositionInfo:
        """Check a position and get its board drawing, legal moves and result; with
        `view_of`, a full state of a game with hidden information as that player sees it
        (its `position` is their view: what to send an engine playing that seat)."""
        request = pb.DescribeRequest(
            game=game, position=position, moves=_moves(moves), view_of=view_of
        )
        return await self.call("Describe", request)

    async def export(
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
        """The game written down in its game's record format (PGN for chess, else JSON);
        `nodes`, a tree of moves with variations (as `import_game` answers it), replaces
        `moves` and `comments` where given."""
        request = pb.ExportRequest(
            game=game,
            position=position,
            moves=_moves(moves),
            players=list(players),
            headers=dict(headers or {}),
            comments=list(comments),
            nodes=list(nodes),
        )
        return await self.call("ExportGame", request)

    async def import_game(self, game: str, text: str) -> pb.GameTree:
        """A game record (PGN for chess, the JSON `export` writes otherwise) read into its
        start position, headers and tree of moves (`GameTree.nodes`: variations, comments,
        clock times, evaluations)."""
        return await self.call("ImportGame", pb.ImportRequest(game=game, text=text))

    async def open(
        self,
        game: str,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        reopen: bool = False,
        on_reopen: OnReopen | None = None,
    ) -> Session:
        """Create a session for `game` with `engine` (empty = the game's default engine).

        `reopen`: when the server has closed the session (its idle timeout, a restart,
        CloseSession from another client), a call opens it again and is made once more
        (see `Session`); `on_reopen(session)` hears each time."""
        request = pb.CreateSessionRequest(
            game=game,
            engine=engine,
            options=_option_texts(options or {}),
            session_id=new_session_id(),
        )
        info = await self.call("CreateSession", request)
        return Session(self, info, reopen=reopen, options=options, on_reopen=on_reopen)

    async def session(self, session_id: str) -> Session:
        """Attach to an existing session by id."""
        info = await self.call("GetSession", pb.GetSessionRequest(session_id=session_id))
        return Session(self, info)

    async def sessions(self) -> list[pb.Session]:
        """The caller's open sessions, oldest first: those created with the same token, or
        from the same host when the server requires no tokens."""
        return list((await self.call("ListSessions", pb.ListSessionsRequest())).sessions)

    def analyze(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        limits: Limits | pb.Limits | None = None,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> SearchStream:
        """A one-shot search without a session (`engine` empty = the game's default), under
        `limits` or limits given as keywords, not both; `priority` as in `Session.search`."""
        return self.stream_analysis(
            self.analyze_request(
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

    async def analyze_result(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        limits: Limits | pb.Limits | None = None,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> Result:
        """`analyze` without the progress stream (the AnalyzeResult RPC): just its Result,
        at about half the cost of a stream for a short search."""
        request = self.analyze_request(
            game,
            position,
            moves,
            engine=engine,
            options=options,
            limits=limits,
            priority=priority,
            **limit_keywords,
        )
        return Result.from_pb(await self.call("AnalyzeResult", request, timeout=None))

    def analyze_request(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        limits: Limits | pb.Limits | None = None,
        priority: int = 0,
        **limit_keywords: Any,
    ) -> pb.AnalyzeRequest:
        """The request `analyze` sends for these arguments, without sending it: ValueError
        (TypeError) now for limits or a priority the wire cannot carry. For tools that
        check every request before they send any (`stream_analysis` sends one)."""
        return pb.AnalyzeRequest(
            game=game,
            engine=engine,
            options=_option_texts(options or {}),
            position=position,
            moves=_moves(moves),
            limits=_limits(limits, limit_keywords),
            priority=_priority(priority),
        )

    def stream_analysis(self, request: pb.AnalyzeRequest) -> SearchStream:
        """A one-shot search from a request made beforehand (`analyze_request`); the
        `Info`s and the `Result` keep their messages (`Info.proto`, `Result.proto`)."""
        return SearchStream(self.stub.Analyze(request))
