"""A server many clients share: the memory budget, the cap on searches without a time
limit, the search queue, frozen workers, and bad input that is large (real servers, real
clients)."""

from __future__ import annotations

import asyncio
import os
import signal

import grpc
import pytest
from streams import drain

from kibitz.clients import (
    Client,
    FailedPrecondition,
    InvalidArgument,
    KibitzError,
    ResourceExhausted,
)
from kibitz.engines import ENGINES
from kibitz.engines.timeman import MARGIN
from kibitz.games import GAMES
from kibitz.server.budget import WORKER_MB
from kibitz.server.validation import prepare_search
from kibitz.v1 import engine_pb2 as pb


@pytest.fixture
def client_for(server):
    return lambda: Client(server.address)


async def first_info(search):
    """Read the stream until its first Info (the search is then surely running)."""
    iterator = aiter(search)
    return await anext(iterator), iterator


async def queued(server, count: int) -> None:
    """Wait until `count` searches wait in the server's queue (a queued search hears
    nothing until it starts: its first Info then reports the wait)."""
    while server.server.service.queue.waiting < count:
        await asyncio.sleep(0.005)


async def collect(search):
    """(Infos, Result) of a whole search."""
    result = await search
    return search.infos, result


# ---------------------------------------------------------------------------- memory


async def test_the_memory_budget_refuses_what_does_not_fit(make_server):
    budget = 100 + WORKER_MB + 200 + WORKER_MB - 1  # room for one 100 MB and one 199 MB
    server = make_server(max_memory_mb=budget)
    async with Client(server.address) as client:
        with pytest.raises(ResourceExhausted, match=r"--max-memory\) has \d+ MB left"):
            await client.open("connect4", options={"Hash": 4096})
        first = await client.open("connect4", options={"Hash": 100})
        with pytest.raises(ResourceExhausted, match=f"{200 + WORKER_MB} MB"):
            await client.open("connect4", options={"Hash": 200})
        second = await client.open("connect4", options={"Hash": 199})
        with pytest.raises(ResourceExhausted, match="needs"):  # an analysis counts too
            await client.analyze("tictactoe", depth=5)  # (too big to run inline)
        with pytest.raises(ResourceExhausted):  # so does an option change
            await first.set_options(Hash=101)
        assert (await first.refresh()).options["Hash"] == "100"  # refused: unchanged
        await second.close()  # gives its memory back
        assert (await client.analyze("tictactoe", depth=5)).best_move
        await first.set_options(Hash=200)
        await first.close()


# ---------------------------------------------------------------------------- ranges


async def test_the_limit_ranges_are_listed_and_enforced(make_server):
    server = make_server(max_search_time=90, default_move_time_ms=250)
    async with Client(server.address) as client:
        ranges = await client.limit_ranges()
        assert (ranges.default_move_time_ms, ranges.max_search_time_ms) == (250, 90_000)
        assert (ranges.max_depth, ranges.max_multipv) == (1000, 256)
        assert (ranges.max_move_time_ms, ranges.max_clock_ms) == (86_400_000, 8_640_000_000)
        x_wins = "xx./oo./... x"
        at_most = {"depth": ranges.max_depth, "multipv": ranges.max_multipv}
        assert (await client.analyze("tictactoe", x_wins, **at_most)).best_move == "c3"
        clock = {"time_left": (ranges.max_clock_ms / 1000, 1.0), "depth": 2}
        assert (await client.analyze("tictactoe", x_wins, **clock)).best_move == "c3"
        for limits, culprit in (
            ({"depth": ranges.max_depth + 1}, "limits.depth"),
            ({"depth": 0}, "limits.depth"),
            ({"nodes": 0}, "limits.nodes"),
            ({"multipv": ranges.max_multipv + 1}, "limits.multipv"),
            ({"movetime": (ranges.max_move_time_ms + 1) / 1000}, "limits.move_time_ms"),
            ({"movetime": 0}, "limits.move_time_ms"),
            ({"time_left": ((ranges.max_clock_ms + 1) / 1000, 1.0)}, "limits.clock"),
        ):
            with pytest.raises(InvalidArgument, match=culprit):
                await client.analyze("tictactoe", x_wins, **limits)


# ---------------------------------------------------------------------------- move overhead


def prepared(limits: pb.Limits, overhead_ms: int):
    game = GAMES["connect4"]
    return prepare_search(game, ENGINES["alphabeta"], {}, "", [], limits, 1000, 3600, overhead_ms)


def test_the_move_overhead_comes_off_the_move_time_and_the_clocks():
    job = prepared(pb.Limits(move_time_ms=300), 100)
    assert (job.limits.move_time_ms, job.engine_limits.movetime) == (200, 0.2)
    assert job.deadline == pytest.approx(0.2 - MARGIN)  # what the server waits for
    for left, kept in (([60_000, 50], [59_900, 1]), ([50, 0], [1, 0])):  # 1 ms at least,
        clocked = prepared(pb.Limits(clock=pb.Clock(time_left_ms=left)), 100)  # 0 stays 0
        assert list(clocked.limits.clock.time_left_ms) == kept
    unset = prepared(pb.Limits(), 100)  # the server's default move time, less the overhead
    assert unset.limits.move_time_ms == 900
    untimed = prepared(pb.Limits(depth=3), 100).limits  # nothing to take off
    assert untimed.depth == 3 and not untimed.HasField("move_time_ms")
    assert prepared(pb.Limits(move_time_ms=300), 0).limits.move_time_ms == 300


async def test_the_move_overhead_is_listed_with_the_ranges(make_server):
    server = make_server(move_overhead_ms=120)
    async with Client(server.address) as client:
        assert (await client.limit_ranges()).move_overhead_ms == 120


# ---------------------------------------------------------------------------- time cap


@pytest.mark.parametrize(
    ("game", "limits"),
    [("connect4", {"infinite": True}), ("connect4", {"depth": 40}), ("nim", {"solve": True})],
)
async def test_searches_without_a_time_limit_end_at_the_servers_cap(make_server, game, limits):
    server = make_server(max_search_time=0.3)
    async with Client(server.address) as client:
        position = "1000," * 15 + "1000" if game == "nim" else ""
        result = await client.analyze(game, position, **limits)
        assert result.stop_reason == "time_cap" and result.best_move


async def test_a_search_with_its_own_time_limit_ends_with_time_not_the_cap(make_server):
    server = make_server(max_search_time=3600)
    async with Client(server.address) as client:
        result = await client.analyze("connect4", movetime=0.1)
        assert result.stop_reason == "time"


# ---------------------------------------------------------------------------- the queue
# (tic-tac-toe to depth 5 at the least: smaller analyses run inline and never queue)


async def test_sixteen_concurrent_analyses_all_answer(make_server):
    server = make_server(max_searches=2)  # 14 of them wait in the queue
    async with Client(server.address) as client:
        results = await asyncio.gather(*(client.analyze("tictactoe", depth=9) for _ in range(16)))
    assert all(result.score.kind == "draw" for result in results)
    assert any(result.stats["queued_ms"] > 0 for result in results)


async def test_a_full_queue_refuses(make_server):
    server = make_server(max_searches=1, max_queued=1)
    async with Client(server.address) as client:
        session = await client.open("connect4")
        _, running = await first_info(session.search(infinite=True))
        waiting = asyncio.ensure_future(collect(client.analyze("tictactoe", depth=5)))
        await queued(server, 1)
        with pytest.raises(ResourceExhausted, match="1 more are waiting"):
            await client.analyze("tictactoe", depth=5)
        await session.stop()
        await drain(running)
        infos, result = await waiting
        assert infos[0].queued > 0 and infos[0].depth == 0  # the Info that says it waited
        assert result.best_move and result.stats["queued_ms"] > 0
        # the Result's stats say the same whole number of milliseconds as the Info
        assert result.stats["queued_ms"] == infos[0].proto.queued_ms


async def test_the_queue_serves_higher_priority_first(make_server):
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        session = await client.open("connect4")
        _, running = await first_info(session.search(infinite=True))
        finished: list[str] = []

        async def analyse(name: str, priority: int) -> None:
            await client.analyze("tictactoe", depth=5, priority=priority)
            finished.append(name)

        low = asyncio.create_task(analyse("low", 0))
        await queued(server, 1)  # low is in the queue first
        high = asyncio.create_task(analyse("high", 5))
        await queued(server, 2)
        await session.stop()
        await drain(running)
        await asyncio.gather(low, high)
    assert finished == ["high", "low"]


async def test_a_tiny_analysis_runs_inline_beside_a_full_queue(make_server):
    server = make_server(max_searches=1, max_queued=0)
    async with Client(server.address) as client:
        session = await client.open("connect4")
        _, running = await first_info(session.search(infinite=True))
        result = await client.analyze("tictactoe", depth=2)  # 81 nodes at most: inline
        assert result.stats["queued_ms"] == 0 and result.score.kind == "heuristic"
        await session.stop()
        await drain(running)


async def test_inline_and_worker_searches_are_the_same_search(client_for):
    async with client_for() as client:
        inline = await client.analyze("connect4", moves=["4453"], depth=2)  # 49 nodes
        alone = await client.analyze_result("connect4", moves=["4453"], depth=2)
        assert (alone.nodes, alone.pv, alone.root_moves) == (
            inline.nodes,
            inline.pv,
            inline.root_moves,
        )
        async with await client.open("connect4") as session:
            in_worker = await session.search(moves=["4453"], depth=2)
    assert (inline.nodes, inline.pv, inline.score, inline.root_moves) == (
        in_worker.nodes,
        in_worker.pv,
        in_worker.score,
        in_worker.root_moves,
    )


async def test_a_search_whose_time_runs_out_in_the_queue_is_answered_then(make_server):
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        session = await client.open("connect4")
        _, running = await first_info(session.search(infinite=True))  # holds the only slot
        result = await client.analyze("connect4", moves=["4453"], movetime=0.2)
        assert result.stop_reason == "time" and result.best_move  # answered while it runs
        assert result.stats["queued_ms"] > 0
        await session.stop()
        await drain(running)


async def test_a_stop_answers_a_queued_search_at_once(make_server):
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        busy = await client.open("connect4")
        _, running = await first_info(busy.search(infinite=True))
        queued_session = await client.open("connect4")
        search = queued_session.search(depth=30)
        waiting = asyncio.ensure_future(collect(search))
        await queued(server, 1)
        with pytest.raises(FailedPrecondition):  # queued counts as searching
            await queued_session.search(depth=1)
        assert await queued_session.stop()
        infos, result = await waiting  # answered while the other search still runs
        assert infos[0].queued > 0
        assert result.stop_reason == "stopped" and result.best_move
        await busy.stop()
        await drain(running)


# ---------------------------------------------------------------------------- frozen workers


async def test_a_frozen_worker_is_killed_and_its_session_recovers(make_server):
    server = make_server(heartbeat_timeout=1.0)
    async with Client(server.address) as client:
        session = await client.open("connect4")
        search = session.search(depth=40)
        _, stream = await first_info(search)
        worker = server.server.service.sessions.get(session.id, None).worker
        os.kill(worker.pid, signal.SIGSTOP)
        assert await session.stop()  # the frozen worker cannot answer; the heartbeat tells
        with pytest.raises(KibitzError, match="stopped responding") as caught:
            await drain(stream)
        assert caught.value.code == grpc.StatusCode.INTERNAL
        assert not (await session.refresh()).searching
        result = await session.search(moves=["4453"], depth=4)  # a fresh worker took over
        assert result.depth == 4
        await session.close()


# ---------------------------------------------------------------------------- large bad input


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda c: c.describe("g" * 20_000), grpc.StatusCode.NOT_FOUND),
        (
            lambda c: c.describe("connect4", moves=["x" * 1_000_000]),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (lambda c: c.describe("nim", "1," * 300_000), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda c: c.session("s" * 100_000), grpc.StatusCode.NOT_FOUND),
        (lambda c: c.open("nim", "e" * 50_000), grpc.StatusCode.NOT_FOUND),
        (lambda c: c.open("nim", options={"H" * 50_000: "1"}), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda c: c.open("nim", options={"Hash": "9" * 50_000}), grpc.StatusCode.INVALID_ARGUMENT),
        (
            lambda c: c.analyze("nim", search_moves=["x" * 90_000], depth=1),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
    ],
)
async def test_large_bad_input_gets_a_short_error(client_for, call, code):
    async with client_for() as client:
        with pytest.raises(KibitzError) as caught:
            await call(client)
    assert caught.value.code == code
    assert len(caught.value.message) < 400, caught.value.message
    assert "…" in caught.value.message


async def test_search_moves_on_a_finished_game_are_refused(client_for):
    async with client_for() as client:
        with pytest.raises(KibitzError, match="the game is over") as caught:
            await client.analyze("connect4", moves=["4545454"], search_moves=["zz"], depth=1)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
