"""The client's calls and errors beyond the typed values: priorities, deadlines, the
caller's sessions (real server, real client)."""

from __future__ import annotations

import grpc
import pytest

from kibitz.clients import Client, DeadlineExceeded, KibitzError, SyncClient
from kibitz.v1 import engine_pb2 as pb

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


@pytest.mark.parametrize("priority", [2**31, -(2**31) - 1, 1.5, True, "1"])
async def test_priorities_the_wire_cannot_carry_are_value_errors(client, priority):
    with pytest.raises(ValueError, match="priority must be"):
        client.analyze("tictactoe", depth=1, priority=priority)
    async with await client.open("tictactoe") as session:
        with pytest.raises(ValueError, match="priority must be"):
            session.search(depth=1, priority=priority)


async def test_a_priority_is_a_request_field_not_a_limit(client):
    for priority in (-(2**31), 0, 7, 2**31 - 1):
        result = await client.analyze("tictactoe", X_WINS_AT_C3, depth=1, priority=priority)
        assert result.best_move == "c3"
    async with await client.open("tictactoe") as session:
        assert (await session.search(X_WINS_AT_C3, depth=1, priority=3)).best_move == "c3"


async def test_a_passed_deadline_is_deadline_exceeded(client):
    with pytest.raises(DeadlineExceeded) as caught:
        await client.call("ListGames", pb.ListGamesRequest(), timeout=-1)  # already passed
    assert isinstance(caught.value, KibitzError)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_sessions_lists_the_callers_open_sessions(client):
    async with await client.open("nim") as session:
        listed = {s.id: s for s in await client.sessions()}
        assert listed[session.id].game == "nim" and listed[session.id].engine == "alphabeta"
    assert session.id not in {s.id for s in await client.sessions()}


def test_a_token_metadata_cannot_carry_is_a_value_error():
    with pytest.raises(ValueError, match="printable ASCII"):
        SyncClient("127.0.0.1:1", token="tok\nen")
    with pytest.raises(ValueError, match="printable ASCII"):
        SyncClient("127.0.0.1:1", token="tökenß")


async def test_blanks_around_a_token_are_dropped_and_blank_is_none(server):
    async with Client(server.address, token="  \n") as client:
        assert not client.authenticated
    async with Client(server.address, token=" abc \n") as client:
        assert client.authenticated
        assert await client.games()  # a server without tokens ignores one
