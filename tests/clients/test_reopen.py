"""Sessions that open themselves again (`Client.open(..., reopen=True)`), and the requests
tools build without the raw stub (`analyze_request`, `stream_analysis`): real server, real
client; a session is lost by closing it from another client, as the server's idle timeout
or a restart would."""

from __future__ import annotations

import asyncio

import pytest

from kibitz.clients import Client, Limits, NotFound, SyncClient
from kibitz.v1 import engine_pb2 as pb

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def lose(server, session_id: str) -> None:
    """Close the session from another client: to its owner, the server lost it."""
    async with Client(server.address) as other:
        await (await other.session(session_id)).close()


async def test_a_lost_session_opens_itself_again_with_its_options(server, client):
    heard = []
    session = await client.open(
        "connect4", "alphabeta", {"Hash": 8}, reopen=True, on_reopen=heard.append
    )
    await session.set_options(Hash=16)
    lost = session.id
    await lose(server, lost)
    result = await session.search(moves="4453", depth=3)
    assert result.best_move in list("1234567")
    assert session.id != lost and session.reopened == 1 and heard == [session]
    assert session.info.options["Hash"] == "16"  # what set_options changed comes along

    calls = {
        "refresh": session.refresh,
        "new_game": session.new_game,
        "stop": session.stop,
        "set_options": lambda: session.set_options(Hash=4),
    }
    for name, call in calls.items():
        lost = session.id
        await lose(server, lost)
        await call()
        assert session.id != lost, name
    assert session.reopened == 5 and len(heard) == 5
    assert (await session.refresh()).options["Hash"] == "4"
    await session.close()
    with pytest.raises(NotFound):  # close never reopens
        await session.close()


async def test_without_reopen_a_lost_session_is_not_found(server, client):
    session = await client.open("connect4")
    await lose(server, session.id)
    with pytest.raises(NotFound):
        await session.search(depth=1)
    with pytest.raises(NotFound):
        await session.refresh()
    assert session.reopened == 0


async def test_calls_that_find_the_session_gone_together_reopen_it_once(server, client):
    session = await client.open("tictactoe", reopen=True)
    await lose(server, session.id)
    results = await asyncio.gather(session.refresh(), session.new_game(), session.refresh())
    assert session.reopened == 1
    assert {info.id for info in results} == {session.id}
    await session.close()


def test_the_blocking_client_reopens_too(server):
    with SyncClient(server.address) as client, client.open("tictactoe", reopen=True) as session:
        lost = session.id
        asyncio.run(lose(server, lost))
        assert session.search(X_WINS_AT_C3, depth=1).wait().best_move == "c3"
        assert session.id != lost and session.reopened == 1


async def test_tools_build_requests_and_stream_them_without_the_stub(client):
    request = client.analyze_request(
        "tictactoe", X_WINS_AT_C3, engine="alphabeta", options={"Hash": 1}, depth=2, priority=3
    )
    assert request == pb.AnalyzeRequest(
        game="tictactoe",
        engine="alphabeta",
        options={"Hash": "1"},
        position=X_WINS_AT_C3,
        limits=Limits(depth=2).to_pb(),
        priority=3,
    )
    stream = client.stream_analysis(request)
    infos = [info async for info in stream]
    assert infos and all(isinstance(info.proto, pb.Info) for info in infos)
    assert stream.result.best_move == "c3" and stream.result.proto.best_move == "c3"
    with pytest.raises(ValueError, match="priority must be"):
        client.analyze_request("tictactoe", depth=1, priority=2**31)
    with pytest.raises(ValueError, match="unknown limit"):
        client.analyze_request("tictactoe", dpeth=1)


async def test_a_search_takes_the_wire_limits_as_they_are(client):
    async with await client.open("tictactoe") as session:
        result = await session.search(X_WINS_AT_C3, limits=pb.Limits(depth=1))
        assert result.best_move == "c3" and result.depth == 1
        with pytest.raises(ValueError, match="not both"):
            session.search(limits=pb.Limits(depth=1), depth=2)
