"""The metadata the client sends with each call, as a real gRPC server receives it: the
token's `authorization` on every call, the `x-kibitz-session` header on calls about a
session (unary and streams, the raw stub's too), a caller's own metadata kept."""

from __future__ import annotations

import grpc
import pytest

from kibitz.clients import Client
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

TOKEN = "alice-0123456789abcdef"
SESSION = "3f9c2a61d0b84e7aa5c1f0e2d9b7c463"


class Recorder(pb_grpc.EngineServiceServicer):
    """Answers three RPCs and keeps each call's metadata (but gRPC's own)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str]]] = []

    def _record(self, method: str, context: grpc.aio.ServicerContext) -> None:
        metadata = {key: value for key, value in context.invocation_metadata()}
        metadata.pop("user-agent", None)
        self.calls.append((method, metadata))

    async def ListGames(self, request, context):
        self._record("ListGames", context)
        return pb.ListGamesResponse()

    async def GetSession(self, request, context):
        self._record("GetSession", context)
        return pb.Session(id=request.session_id, game="tictactoe", engine="alphabeta")

    async def Search(self, request, context):
        self._record("Search", context)
        yield pb.SearchResponse(result=pb.Result(best_move="b2"))


@pytest.fixture
async def recorder():
    server = grpc.aio.server()
    servicer = Recorder()
    pb_grpc.add_EngineServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    yield servicer, f"127.0.0.1:{port}"
    await server.stop(None)


async def test_every_call_carries_the_token_and_calls_about_a_session_its_header(recorder):
    servicer, address = recorder
    bearer = {"authorization": f"Bearer {TOKEN}"}
    async with Client(address, tls_ca="", token=TOKEN) as client:
        assert await client.games() == []
        session = await client.session(SESSION)
        assert (await session.search(depth=1)).best_move == "b2"
        extra = (("x-trace", "7"),)
        await client.stub.ListGames(pb.ListGamesRequest(), metadata=extra)
        await client.stub.GetSession(pb.GetSessionRequest(session_id=SESSION), metadata=extra)
        await client.stub.GetSession(pb.GetSessionRequest(session_id="not a session id!"))
    header = {"x-kibitz-session": SESSION}
    assert servicer.calls == [
        ("ListGames", bearer),
        ("GetSession", bearer | header),
        ("Search", bearer | header),
        ("ListGames", {"x-trace": "7"} | bearer),
        ("GetSession", {"x-trace": "7"} | bearer | header),
        ("GetSession", bearer),  # an id no server makes: no header
    ]


async def test_without_a_token_only_the_session_header(recorder):
    servicer, address = recorder
    async with Client(address, tls_ca="", token="") as client:
        await client.games()
        await (await client.session(SESSION)).search(depth=1)
    assert servicer.calls == [
        ("ListGames", {}),
        ("GetSession", {"x-kibitz-session": SESSION}),
        ("Search", {"x-kibitz-session": SESSION}),
    ]
