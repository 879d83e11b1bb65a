"""The Python client: sessions as objects, searches as streams, errors as exceptions.

async with Client("127.0.0.1:50051") as client:
    session = await client.open("connect4")
    search = session.search(moves=["4453"], depth=12)
    async for info in search:
        print(info.depth, info.pv)
    print(search.result.best_move)
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import grpc

from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

DEFAULT_ADDRESS = "127.0.0.1:50051"


def default_address() -> str:
    """`KIBITZ_SERVER` if set, else 127.0.0.1:50051."""
    return os.environ.get("KIBITZ_SERVER") or DEFAULT_ADDRESS


# ---------------------------------------------------------------------------- errors


class KibitzError(Exception):
    """An error answered by the server; `code` is the gRPC status, `message` its text."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidArgument(KibitzError):
    """The request was malformed: bad position, illegal move, bad option or limit."""


class NotFound(KibitzError):
    """Unknown game, engine or session."""


class FailedPrecondition(KibitzError):
    """The session is busy (e.g. already searching)."""


class ResourceExhausted(KibitzError):
    """The server is full (sessions or concurrent searches)."""


class ServerUnavailable(KibitzError):
    """No server answers at the address."""


_ERRORS: dict[grpc.StatusCode, type[KibitzError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.UNAVAILABLE: ServerUnavailable,
}


def _translate(error: grpc.aio.AioRpcError) -> KibitzError:
    cls = _ERRORS.get(error.code(), KibitzError)
    return cls(error.code(), error.details() or error.code().name)


# ---------------------------------------------------------------------------- limits


def make_limits(
    *,
    depth: int | None = None,
    nodes: int | None = None,
    movetime: float | None = None,
    time_left: Iterable[float] = (),
    increment: Iterable[float] = (),
    moves_to_go: int = 0,
    infinite: bool = False,
    search_moves: Iterable[str] = (),
    multipv: int = 1,
    solve: bool = False,
) -> pb.Limits:
    """Limits from Python values; times are in seconds (the wire uses milliseconds).

    Raises ValueError for values the wire cannot carry (negative, not finite); the server
    checks the rest (e.g. depth 0).
    """
    for name, value in (("depth", depth), ("nodes", nodes), ("multipv", multipv)):
        if value is not None and not 0 <= value < 2**63:
            raise ValueError(f"{name} must be a non-negative integer, not {value}")
    for value in (movetime, *time_left, *increment):
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise ValueError(f"times must be finite and non-negative, not {value}")
    limits = pb.Limits(
        infinite=infinite, search_moves=list(search_moves), multipv=multipv, solve=solve
    )
    if depth is not None:
        limits.depth = depth
    if nodes is not None:
        limits.nodes = nodes
    if movetime is not None:
        limits.move_time_ms = round(movetime * 1000)
    left = [round(t * 1000) for t in time_left]
    if left:
        limits.clock.time_left_ms.extend(left)
        limits.clock.increment_ms.extend(round(t * 1000) for t in increment)
        limits.clock.moves_to_go = moves_to_go
    return limits


# ---------------------------------------------------------------------------- streams


class SearchStream:
    """A running search: iterate it for Info messages; `result` is set when it ends.

    `await stream` runs it to the end and returns the Result. Leaving the iteration early
    cancels the call, which stops the search on the server.
    """

    def __init__(self, call: grpc.aio.UnaryStreamCall) -> None:
        self._call = call
        self._cancelled = False
        self.result: pb.Result | None = None
        self.infos: list[pb.Info] = []

    def __aiter__(self) -> AsyncIterator[pb.Info]:
        return self._infos()

    async def _infos(self) -> AsyncIterator[pb.Info]:
        try:
            async for response in self._call:
                if response.HasField("info"):
                    self.infos.append(response.info)
                    yield response.info
                else:
                    self.result = response.result
        except grpc.aio.AioRpcError as error:
            raise _translate(error) from None
        except asyncio.CancelledError:
            if not self._cancelled:
                raise
        finally:
            if self.result is None:
                self._call.cancel()

    def __await__(self):
        return self._run().__await__()

    async def _run(self) -> pb.Result:
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


class RemoteSession:
    """A session on the server; methods map one-to-one onto the session RPCs."""

    def __init__(self, client: Client, info: pb.Session) -> None:
        self._client = client
        self.info = info

    @property
    def id(self) -> str:
        return self.info.id

    def search(self, position: str = "", moves: Iterable[str] = (), **limits: Any) -> SearchStream:
        """Search `position` after `moves`; keyword arguments are `make_limits` limits."""
        request = pb.SearchRequest(
            session_id=self.id, position=position, moves=list(moves), limits=make_limits(**limits)
        )
        return SearchStream(self._client.stub.Search(request))

    async def stop(self) -> bool:
        """Stop the running search; True if one was running."""
        response = await self._client.call("Stop", pb.StopRequest(session_id=self.id))
        return response.was_searching

    async def refresh(self) -> pb.Session:
        self.info = await self._client.call("GetSession", pb.GetSessionRequest(session_id=self.id))
        return self.info

    async def set_options(self, **options: Any) -> pb.Session:
        request = pb.SetOptionsRequest(session_id=self.id, options=_option_texts(options))
        self.info = await self._client.call("SetOptions", request)
        return self.info

    async def new_game(self) -> pb.Session:
        self.info = await self._client.call("NewGame", pb.NewGameRequest(session_id=self.id))
        return self.info

    async def close(self) -> None:
        await self._client.call("CloseSession", pb.CloseSessionRequest(session_id=self.id))


def _option_texts(options: Mapping[str, Any]) -> dict[str, str]:
    """Option values as text, as the wire carries them (booleans as true/false, like UCI)."""
    return {
        name: ("true" if value else "false") if isinstance(value, bool) else str(value)
        for name, value in options.items()
    }


class Client:
    """Async client for a kibitz server (grpc.aio)."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address or default_address()
        self._channel = grpc.aio.insecure_channel(self.address)
        self.stub = pb_grpc.EngineServiceStub(self._channel)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close()

    async def call(self, method: str, request: Any, timeout: float | None = 30.0) -> Any:
        """Call a unary RPC by name, translating gRPC errors into KibitzErrors."""
        try:
            return await getattr(self.stub, method)(request, timeout=timeout)
        except grpc.aio.AioRpcError as error:
            raise _translate(error) from None

    async def games(self) -> list[pb.GameInfo]:
        return list((await self.call("ListGames", pb.ListGamesRequest())).games)

    async def engines(self) -> list[pb.EngineInfo]:
        return list((await self.call("ListEngines", pb.ListEnginesRequest())).engines)

    async def describe(
        self, game: str, position: str = "", moves: Iterable[str] = ()
    ) -> pb.PositionInfo:
        """Check a position and get its board drawing, legal moves and result."""
        request = pb.DescribeRequest(game=game, position=position, moves=list(moves))
        return await self.call("Describe", request)

    async def open(
        self, game: str, engine: str = "", options: Mapping[str, Any] | None = None
    ) -> RemoteSession:
        """Create a session for `game` with `engine` (default alphabeta)."""
        request = pb.CreateSessionRequest(
            game=game, engine=engine, options=_option_texts(options or {})
        )
        return RemoteSession(self, await self.call("CreateSession", request))

    async def session(self, session_id: str) -> RemoteSession:
        """Attach to an existing session by id."""
        info = await self.call("GetSession", pb.GetSessionRequest(session_id=session_id))
        return RemoteSession(self, info)

    def analyze(
        self,
        game: str,
        position: str = "",
        moves: Iterable[str] = (),
        *,
        engine: str = "",
        options: Mapping[str, Any] | None = None,
        **limits: Any,
    ) -> SearchStream:
        """A one-shot search without a session."""
        request = pb.AnalyzeRequest(
            game=game,
            engine=engine,
            options=_option_texts(options or {}),
            position=position,
            moves=list(moves),
            limits=make_limits(**limits),
        )
        return SearchStream(self.stub.Analyze(request))
