"""Fuzzing every RPC: seeded random requests, field by field from the protocol's descriptors,
against a real server. Only the documented status codes may come back, and the server must
keep serving. Bounded: a fixed number of requests, a server cap on search time.

Every registered game is fuzzed (the example plugin's included): its name, its start
position and moves, bloated and broken (test_notation_property.py tries each game's
notation systematically)."""

from __future__ import annotations

import random

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from grpc_health.v1 import health_pb2, health_pb2_grpc

from kibitz.games import GAMES as REGISTERED
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

REQUESTS = 900
SEED = 20261123
MAX_MESSAGES = 50
"""Responses read from one stream before it is cancelled."""

DOCUMENTED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.CANCELLED,  # only our own cancellation of a long stream
}
SERVICE = pb.DESCRIPTOR.services_by_name["EngineService"]

GAMES = tuple(sorted(REGISTERED))
"""Every registered game: the built-ins and the example plugin's race21."""
NAMES = [*GAMES, "alphabeta", "mcts", "expectimax", "random"]
WORDS = ["", "Hash", "hash", "PVS", "Kernel", "Aspiration", "true", "0", "-1", "4453", "x"]
HOSTILE = ["9" * 5000, "2147483648", "0000", "--", "Z0", "@@@@", "[" * 1000, "\x00\x01"]


def _start_moves(name: str) -> list[str]:
    state = REGISTERED[name].from_position("")
    return [state.format_move(move) for move in state.legal_moves()[:4]]


POSITIONS = [
    "1000," * 15 + "1000",
    "......./......./......./......./...o.../..oxx..",
    "xx./oo./... x",
    "3,4,5 2",
    "13 2",
    "b2/1w1/3 b",
    "7 swap",
    "12-7 +5 1 roll goal=20 moves=9/40",
    "4HPwATDgc/ABMA:31",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2147483648 1",
    *(REGISTERED[name].default_position for name in GAMES),
]
MOVES = [
    *["4", "4453", "a1", "c3", "1:1", "2:3", "0", "8", "b2", "1", "zz", " "],
    *["e2e4", "Nf3", "e7e8q", "8/5 6/5", "31:", "roll", "hold", "swap", "d4"],
    *(move for name in GAMES for move in _start_moves(name)),
]


class Fuzzer:
    """Random values for protobuf fields, with a bias towards the interesting ones."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.session_ids: list[str] = []

    def text(self, field: str) -> str:
        rng = self.rng
        roll = rng.random()
        if field == "session_id" and self.session_ids and roll < 0.6:
            return rng.choice(self.session_ids)
        if roll < 0.25:
            return rng.choice(NAMES)
        if roll < 0.45:
            return rng.choice([*MOVES, *HOSTILE] if field in ("moves", "search_moves") else WORDS)
        if roll < 0.55:
            return rng.choice(["x" * 100_000, "é" * 5000, "\x00\x01\n", "🂡" * 10, *HOSTILE])
        if roll < 0.65 and field == "position":
            return rng.choice(POSITIONS)
        return "".join(rng.choice("abcxo.,/ 0123456789:") for _ in range(rng.randint(1, 12)))

    def number(self, descriptor: FieldDescriptor) -> int:
        rng = self.rng
        unsigned = descriptor.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64)
        bits = (
            64
            if descriptor.type in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_INT64)
            else 32
        )
        top = 2**bits - 1 if unsigned else 2 ** (bits - 1) - 1
        low = 0 if unsigned else -(2 ** (bits - 1))
        return rng.choice([0, 1, 2, 3, 9, 40, 1000, 10**6, top, low, rng.randint(low, top)])

    def value(self, field: FieldDescriptor):
        if field.type == FieldDescriptor.TYPE_STRING:
            return self.text(field.name)
        if field.type == FieldDescriptor.TYPE_BOOL:
            return self.rng.random() < 0.3
        if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return self.rng.choice([0.0, -1.0, 1e300, float("nan"), 0.5])
        if field.type == FieldDescriptor.TYPE_ENUM:
            return self.rng.choice([value.number for value in field.enum_type.values])
        return self.number(field)

    def fill(self, message) -> None:
        rng = self.rng
        for field in message.DESCRIPTOR.fields:
            if rng.random() < 0.4:
                continue
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                target = getattr(message, field.name)
                for _ in range(rng.randint(0, 3)):
                    key = rng.choice([*WORDS, "H" * 300])
                    target[key] = self.text("value")
            elif field.type == FieldDescriptor.TYPE_MESSAGE:
                if field.is_repeated:
                    for _ in range(rng.randint(0, 2)):
                        self.fill(getattr(message, field.name).add())
                else:
                    self.fill(getattr(message, field.name))
            elif field.is_repeated:
                getattr(message, field.name).extend(
                    self.value(field) for _ in range(rng.randint(0, 3))
                )
            else:
                setattr(message, field.name, self.value(field))


SEARCHES = ("Search", "Analyze", "AnalyzeResult")


def request_for(fuzzer: Fuzzer, method):
    """A random request; for Describe, CreateSession and searches, half the time a valid one
    with a few fields randomised (fully random ones seldom get past validation)."""
    request = getattr(pb, method.input_type.name)()
    rng = fuzzer.rng
    if method.name == "CreateSession" and rng.random() < 0.5:
        request.game = rng.choice(GAMES)
        request.engine = rng.choice(["", "alphabeta", "random", fuzzer.text("engine")])
        return request
    if method.name == "Describe" and rng.random() < 0.5:
        request.game = rng.choice(GAMES)
        start = REGISTERED[request.game].default_position
        if rng.random() < 0.5:  # the start as it is: some Describes must get through
            request.position = start
            return request
        request.position = rng.choice([start, *POSITIONS, *HOSTILE])
        request.moves.extend(fuzzer.text("moves") for _ in range(rng.randint(0, 3)))
        return request
    if method.name not in SEARCHES or rng.random() < 0.5:
        fuzzer.fill(request)
        return request
    if method.name == "Search":
        request.session_id = rng.choice(fuzzer.session_ids or ["none"])
    else:
        request.game = rng.choice(GAMES)
        request.engine = rng.choice(["", "alphabeta", "random"])
        if rng.random() < 0.5:
            request.position = rng.choice([REGISTERED[request.game].default_position, *POSITIONS])
    limits = request.limits
    rng.choice(
        [
            lambda: setattr(limits, "depth", rng.randint(1, 6)),
            lambda: setattr(limits, "nodes", rng.randint(1, 3000)),
            lambda: setattr(limits, "move_time_ms", rng.randint(1, 60)),
            lambda: setattr(limits, "infinite", True),
            lambda: setattr(limits, "solve", True),
        ]
    )()
    limits.multipv = rng.choice([0, 1, 3])
    limits.report_root_moves = rng.random() < 0.3
    request.priority = rng.randint(-3, 3)
    if rng.random() < 0.3:
        fuzzer.fill(limits)  # and now break some of it
    return request


async def call(stub, method, request) -> grpc.StatusCode:
    rpc = getattr(stub, method.name)
    try:
        if method.server_streaming:
            stream = rpc(request, timeout=30)
            read = 0
            async for _ in stream:
                read += 1
                if read >= MAX_MESSAGES:
                    stream.cancel()
                    return grpc.StatusCode.CANCELLED
        else:
            response = await rpc(request, timeout=30)
            if method.name == "CreateSession":
                return response
    except grpc.aio.AioRpcError as error:
        assert error.code() != grpc.StatusCode.DEADLINE_EXCEEDED, f"{method.name} hung"
        limit = 300 if method.name == "Describe" else 1001  # notation errors are short
        assert len(error.details() or "") < limit, (
            f"{method.name}: an error of {len(error.details())} characters"
        )
        return error.code()
    return grpc.StatusCode.OK


@pytest.mark.timeout(300)
async def test_random_requests_get_documented_answers_and_the_server_keeps_serving(make_server):
    server = make_server(
        max_search_time=0.3, max_memory_mb=1024, default_move_time_ms=50, max_sessions=12
    )
    fuzzer = Fuzzer(SEED)
    seen: dict[str, set[grpc.StatusCode]] = {}
    async with grpc.aio.insecure_channel(server.address) as channel:
        stub = pb_grpc.EngineServiceStub(channel)
        for _ in range(REQUESTS):
            method = fuzzer.rng.choice(SERVICE.methods)
            request = request_for(fuzzer, method)
            code = await call(stub, method, request)
            if isinstance(code, pb.Session):
                fuzzer.session_ids.append(code.id)
                code = grpc.StatusCode.OK
            assert code in DOCUMENTED, f"{method.name}({request}) answered {code}"
            seen.setdefault(method.name, set()).add(code)
        health = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        games = await stub.ListGames(pb.ListGamesRequest())
        assert len(games.games) >= 4
        answer = await stub.AnalyzeResult(
            pb.AnalyzeRequest(game="tictactoe", position="xx./oo./... x", limits=pb.Limits(depth=3))
        )
        assert answer.best_move == "c3"
    assert set(seen) == {method.name for method in SERVICE.methods}  # every RPC was tried
    for name in ("CreateSession", "Describe", *SEARCHES):  # random requests got through too
        assert grpc.StatusCode.OK in seen[name], name
