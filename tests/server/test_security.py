"""A server on a network: TLS with a certificate made at test time, bearer tokens, sessions
private to the token that opened them, the per-client quota (real servers, real clients)."""

from __future__ import annotations

import threading

import grpc
import pytest
from credentials import TOKENS, self_signed, token_file
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2

from kibitz.clients import (
    Client,
    NotFound,
    ResourceExhausted,
    ServerUnavailable,
    Session,
    SyncClient,
    Unauthenticated,
)
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once
ALICE, BOB = TOKENS["alice"], TOKENS["bob"]


@pytest.fixture(scope="module")
def credentials(tmp_path_factory):
    directory = tmp_path_factory.mktemp("credentials")
    return self_signed(directory), self_signed(directory, "stranger"), token_file(directory)


@pytest.fixture
def tls_server(make_server, credentials):
    certificate, _, _ = credentials
    return make_server(tls_cert=str(certificate.cert), tls_key=str(certificate.key))


@pytest.fixture
def token_server(make_server, credentials):
    return make_server(auth_tokens=str(credentials[2]))


# ---------------------------------------------------------------------------- TLS


async def test_a_tls_round_trip(tls_server, credentials):
    certificate, _, _ = credentials
    async with Client(tls_server.address, tls_ca=certificate.cert) as client:
        assert "connect4" in {game.name for game in await client.games()}
        search = client.analyze("tictactoe", X_WINS_AT_C3, depth=2)
        infos = [info async for info in search]
        assert infos and search.result.best_move == "c3"
    # the certificate names localhost too
    async with Client(f"localhost:{tls_server.server.port}", tls_ca=certificate.cert) as client:
        assert (await client.analyze("tictactoe", X_WINS_AT_C3, depth=1)).best_move == "c3"


async def test_the_tls_ca_comes_from_the_environment(tls_server, credentials, monkeypatch):
    monkeypatch.setenv("KIBITZ_TLS_CA", str(credentials[0].cert))
    async with Client(tls_server.address) as client:
        assert client.tls_ca == str(credentials[0].cert)
        assert await client.games()
    async with Client(tls_server.address, tls_ca="") as client:  # "" turns it off
        assert client.tls_ca is None
        with pytest.raises(ServerUnavailable):
            await client.games()


async def test_tls_refuses_plain_clients_and_untrusted_certificates(tls_server, credentials):
    _, stranger, _ = credentials
    async with Client(tls_server.address, tls_ca="") as client:
        with pytest.raises(ServerUnavailable):
            await client.games()
    async with Client(tls_server.address, tls_ca=stranger.cert) as client:
        with pytest.raises(ServerUnavailable, match=r"(?i)handshake"):
            await client.games()


async def test_a_missing_or_unreadable_ca_file_is_a_clear_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read the TLS CA file \S*nothing.pem: No such"):
        Client("127.0.0.1:1", tls_ca=tmp_path / "nothing.pem")
    with pytest.raises(ValueError, match="cannot read the TLS CA file"):
        Client("127.0.0.1:1", tls_ca=tmp_path)  # a directory
    text = tmp_path / "notes.txt"
    text.write_text("not a certificate\n")
    with pytest.raises(ValueError, match=r"notes.txt holds no PEM certificate"):
        Client("127.0.0.1:1", tls_ca=text)
    threads = set(threading.enumerate())
    with pytest.raises(ValueError, match="holds no PEM certificate"):
        SyncClient("127.0.0.1:1", tls_ca=text)
    assert not set(threading.enumerate()) - threads  # its loop thread is gone again


# ---------------------------------------------------------------------------- tokens


async def test_calls_without_a_valid_token_are_unauthenticated(token_server):
    for token, told in (
        ("", "requires a token: send 'authorization: Bearer TOKEN'"),
        ("mallory-0123456789abcdef", "the token was not accepted"),
        ("Bearer " + ALICE, "the token was not accepted"),
    ):
        async with Client(token_server.address, token=token) as client:
            with pytest.raises(Unauthenticated, match=told) as caught:
                await client.games()
            assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
            with pytest.raises(Unauthenticated):
                await client.open("tictactoe")
            with pytest.raises(Unauthenticated):  # a stream is refused too
                await client.analyze("tictactoe", depth=1)
    async with Client(token_server.address, token=ALICE) as client:
        assert await client.games()
        assert (await client.analyze("tictactoe", X_WINS_AT_C3, depth=1)).best_move == "c3"


async def _games_with(address: str, metadata: tuple[tuple[str, str], ...], tls_ca=None):
    """ListGames over a raw channel with exactly `metadata` (no client to tidy it up)."""
    if tls_ca is None:
        channel = grpc.aio.insecure_channel(address)
    else:
        channel = grpc.aio.secure_channel(
            address, grpc.ssl_channel_credentials(tls_ca.read_bytes())
        )
    async with channel:
        stub = pb_grpc.EngineServiceStub(channel)
        return await stub.ListGames(pb.ListGamesRequest(), metadata=metadata)


@pytest.mark.parametrize(
    "value",
    [f"Bearer {ALICE}", f"bearer {ALICE}", f"BEARER {ALICE}", f"beArer    {ALICE}"],
)
async def test_the_bearer_scheme_is_case_insensitive_and_blanks_are_tolerated(token_server, value):
    reply = await _games_with(token_server.address, (("authorization", value),))
    assert "connect4" in {game.name for game in reply.games}


@pytest.mark.parametrize(
    ("value", "told"),
    [
        (None, "requires a token"),
        ("Bearer", "requires a token"),
        ("Bearer   ", "requires a token"),
        (f"Basic {ALICE}", "requires a token"),
        (ALICE, "requires a token"),  # no scheme at all
        ("bearer mallory-0123456789abcdef", "the token was not accepted"),
        (f"Bearer {ALICE}x", "the token was not accepted"),
    ],
)
async def test_a_missing_token_and_a_refused_one_are_told_apart(token_server, value, told):
    metadata = (("authorization", value),) if value is not None else ()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _games_with(token_server.address, metadata)
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert told in caught.value.details()


REFLECTION = {
    "v1": "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    "v1alpha": "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
}


async def _reflect(channel: grpc.aio.Channel, version: str, **request: str):
    """One reflection request and its answer. v1 and v1alpha share their messages field for
    field (v1 only renamed the package), so v1alpha's classes encode a v1 client's bytes."""
    call = channel.stream_stream(
        REFLECTION[version],
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    async for response in call(iter([reflection_pb2.ServerReflectionRequest(**request)])):
        return response
    raise AssertionError("no reflection answer")


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
async def test_reflection_v1_and_v1alpha_need_no_token(make_server, credentials, version):
    certificate, _, tokens = credentials
    server = make_server(
        tls_cert=str(certificate.cert), tls_key=str(certificate.key), auth_tokens=str(tokens)
    )
    trust = grpc.ssl_channel_credentials(certificate.cert.read_bytes())
    async with grpc.aio.secure_channel(server.address, trust) as channel:
        listed = await _reflect(channel, version, list_services="")
        names = {service.name for service in listed.list_services_response.service}
        assert {
            "kibitz.v1.EngineService",
            "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection",
        } <= names
        for symbol, package in (
            ("kibitz.v1.EngineService", "kibitz.v1"),
            (f"grpc.reflection.{version}.ServerReflection", f"grpc.reflection.{version}"),
        ):
            found = await _reflect(channel, version, file_containing_symbol=symbol)
            files = [
                descriptor_pb2.FileDescriptorProto.FromString(data)
                for data in found.file_descriptor_response.file_descriptor_proto
            ]
            assert package in {file.package for file in files}, symbol
        # the service itself still needs a token
        with pytest.raises(grpc.aio.AioRpcError, match="requires a token"):
            await pb_grpc.EngineServiceStub(channel).ListGames(pb.ListGamesRequest())


async def test_health_checking_needs_no_token(token_server):
    async with grpc.aio.insecure_channel(token_server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        reply = await health.Check(health_pb2.HealthCheckRequest(service="kibitz.v1.EngineService"))
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_the_token_comes_from_the_environment(token_server, monkeypatch):
    monkeypatch.setenv("KIBITZ_TOKEN", BOB)
    async with Client(token_server.address) as client:
        assert client.authenticated
        session = await client.open("tictactoe")
        assert session.info.owner == "bob"
        await session.close()
    async with Client(token_server.address, token="") as client:  # "" turns it off
        with pytest.raises(Unauthenticated):
            await client.games()


async def test_tls_and_tokens_together(make_server, credentials):
    certificate, _, tokens = credentials
    server = make_server(
        tls_cert=str(certificate.cert), tls_key=str(certificate.key), auth_tokens=str(tokens)
    )
    async with Client(server.address, tls_ca=certificate.cert) as client:
        with pytest.raises(Unauthenticated):
            await client.games()
    client = Client(server.address, tls_ca=certificate.cert, token=ALICE)
    async with client, await client.open("connect4") as session:
        assert (await client.sessions())[0].owner == "alice"
        assert (await session.search(moves="4453", depth=3)).depth == 3
    # a lower-case scheme over TLS (as grpc-js and curl users write it)
    reply = await _games_with(
        server.address, (("authorization", f"bearer {ALICE}"),), tls_ca=certificate.cert
    )
    assert reply.games
    with pytest.raises(grpc.aio.AioRpcError, match="the token was not accepted"):
        await _games_with(
            server.address, (("authorization", "bearer wrong-0123456789"),), certificate.cert
        )


# ---------------------------------------------------------------------------- ownership


STEALS = {
    "GetSession": lambda session: session.refresh(),
    "Stop": lambda session: session.stop(),
    "SetOptions": lambda session: session.set_options(Hash=1),
    "NewGame": lambda session: session.new_game(),
    "CloseSession": lambda session: session.close(),
    "Search": lambda session: session.search(depth=1),  # awaited: runs the stream
}


@pytest.mark.parametrize("call", list(STEALS))
async def test_a_session_is_invisible_to_another_token(token_server, call):
    async with (
        Client(token_server.address, token=ALICE) as alice,
        Client(token_server.address, token=BOB) as bob,
    ):
        session = await alice.open("connect4")
        stolen = Session(bob, session.info)  # bob learnt the id
        with pytest.raises(NotFound, match="no session"):
            await STEALS[call](stolen)
        with pytest.raises(NotFound):
            await bob.session(session.id)
        # alice's session survived the attempt, unchanged
        info = await session.refresh()
        assert info.owner == "alice" and info.options["Hash"] == "16" and not info.searching
        assert (await session.search(moves="4453", depth=2)).depth == 2
        await session.close()


async def test_each_token_lists_only_its_own_sessions(token_server):
    async with (
        Client(token_server.address, token=ALICE) as alice,
        Client(token_server.address, token=BOB) as bob,
    ):
        session = await alice.open("connect4")
        assert [(s.id, s.owner) for s in await alice.sessions()] == [(session.id, "alice")]
        assert await bob.sessions() == []
        bobs = await bob.open("tictactoe")
        listed = await bob.sessions()
        assert [(s.id, s.owner, s.game) for s in listed] == [(bobs.id, "bob", "tictactoe")]
        assert [s.id for s in await alice.sessions()] == [session.id]
        await session.close()
        await bobs.close()
        assert await alice.sessions() == [] and await bob.sessions() == []


async def test_sessions_list_what_they_are_doing(token_server):
    async with Client(token_server.address, token=ALICE) as client:
        first = await client.open("connect4")
        second = await client.open("nim")
        iterator = aiter(first.search(infinite=True))
        await anext(iterator)  # the search runs
        listed = {s.id: s for s in await client.sessions()}
        assert list(listed) == [first.id, second.id]  # oldest first
        assert listed[first.id].searching and not listed[second.id].searching
        assert (listed[first.id].game, listed[first.id].engine) == ("connect4", "alphabeta")
        assert all(s.idle_seconds >= 0 for s in listed.values())
        await first.stop()
        async for _ in iterator:
            pass
        assert (await client.sessions())[0].searches == 1
        await first.close()
        await second.close()


async def test_without_tokens_sessions_belong_to_the_host(server):
    async with Client(server.address) as client, await client.open("tictactoe") as session:
        assert session.info.owner == "host:127.0.0.1"
        mine = {s.id: s.owner for s in await client.sessions()}
        assert mine[session.id] == "host:127.0.0.1"
        assert set(mine.values()) == {"host:127.0.0.1"}


def test_the_sync_client_lists_sessions_and_takes_a_token(token_server):
    with SyncClient(token_server.address, token=ALICE) as client:
        assert client.authenticated
        with client.open("tictactoe") as session:
            assert [s.id for s in client.sessions()] == [session.id]
            assert session.search(X_WINS_AT_C3, depth=2, priority=3).wait().best_move == "c3"
        assert client.sessions() == []


# ---------------------------------------------------------------------------- quota


async def test_the_per_client_quota(make_server, credentials):
    server = make_server(auth_tokens=str(credentials[2]), max_sessions_per_client=2)
    async with (
        Client(server.address, token=ALICE) as alice,
        Client(server.address, token=BOB) as bob,
    ):
        first = await alice.open("tictactoe")
        await alice.open("nim")
        with pytest.raises(ResourceExhausted, match="--max-sessions-per-client 2") as caught:
            await alice.open("tictactoe")
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        bobs = await bob.open("tictactoe")  # another token still can
        assert bobs.info.owner == "bob"
        await first.close()  # a freed place can be taken again
        assert (await alice.open("connect4")).info.owner == "alice"
        assert len(await alice.sessions()) == 2 and len(await bob.sessions()) == 1


async def test_the_raw_stub_carries_the_token_too(token_server):
    async with Client(token_server.address, token=ALICE) as client:
        reply = await client.stub.ListSessions(pb.ListSessionsRequest())
        assert list(reply.sessions) == []
