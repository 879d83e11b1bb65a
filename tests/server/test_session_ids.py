"""Session ids a caller proposes (CreateSessionRequest.session_id), which is what lets a
proxy pin a session to one server: real server, real client and the raw stub. That the
client sends the `x-kibitz-session` header is proven through nginx (tests/cluster/)."""

from __future__ import annotations

import grpc
import pytest

from kibitz.clients import Client
from kibitz.clients.client import new_session_id
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc


@pytest.fixture
async def stub(server):
    async with grpc.aio.insecure_channel(server.address) as channel:
        yield pb_grpc.EngineServiceStub(channel)


async def test_a_proposed_id_is_the_sessions_id_and_reaches_it(stub):
    proposed = "proposed-by-the-caller_0001"
    session = await stub.CreateSession(pb.CreateSessionRequest(game="nim", session_id=proposed))
    assert session.id == proposed
    found = await stub.GetSession(pb.GetSessionRequest(session_id=proposed))
    assert found.game == "nim"
    await stub.CloseSession(pb.CloseSessionRequest(session_id=proposed))


async def test_a_taken_id_is_already_exists_and_the_holder_keeps_its_session(stub):
    taken = new_session_id()
    await stub.CreateSession(pb.CreateSessionRequest(game="nim", session_id=taken))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateSession(pb.CreateSessionRequest(game="tictactoe", session_id=taken))
    assert refused.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert taken in refused.value.details()
    assert (await stub.GetSession(pb.GetSessionRequest(session_id=taken))).game == "nim"
    await stub.CloseSession(pb.CloseSessionRequest(session_id=taken))


@pytest.mark.parametrize(
    "bad", ["short", "x" * 65, "sixteen chars w/ spaces", "é" * 20, "a" * 15 + "\n"]
)
async def test_an_id_of_another_form_is_invalid_argument(stub, bad):
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateSession(pb.CreateSessionRequest(game="nim", session_id=bad))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "16 to 64 letters, digits" in refused.value.details()


async def test_without_a_proposal_the_server_picks_a_random_id(stub):
    ids = set()
    for _ in range(2):
        session = await stub.CreateSession(pb.CreateSessionRequest(game="nim"))
        ids.add(session.id)
        await stub.CloseSession(pb.CloseSessionRequest(session_id=session.id))
    assert len(ids) == 2 and all(len(found) == 32 for found in ids)


async def test_the_client_proposes_a_new_random_id_for_every_session(server):
    async with Client(server.address) as client:
        first, second = await client.open("nim"), await client.open("nim")
        assert first.id != second.id
        assert all(len(s.id) == 32 and int(s.id, 16) >= 0 for s in (first, second))
        await first.close()
        await second.close()
