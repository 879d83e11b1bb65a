"""Worker processes under load (real servers, real clients): a search whose time ran out in
the queue is answered (chance roots included), a worker clearing a large table keeps its
heartbeat, a new worker has longer to say its first word, and a burst of analyses starts
no more workers than the server runs searches plus its spares."""

from __future__ import annotations

import asyncio
import multiprocessing
import time

import pytest
from streams import drain, running

from kibitz.clients import Client
from kibitz.server.worker import STARTING_HEARTBEATS, StopFlag, Worker, WorkerCrashed

CHANCE_ROOTS = {  # (game, position before a roll, engine)
    "backgammon-mcts": ("backgammon", "", "mcts"),
    "backgammon-expectimax": ("backgammon", "", "expectimax"),
    "pig-mcts": ("pig", "3-5 +2 2 roll goal=20 moves=4/12", "mcts"),
}


@pytest.mark.parametrize(("game", "position", "engine"), CHANCE_ROOTS.values(), ids=CHANCE_ROOTS)
async def test_a_search_whose_time_ran_out_in_the_queue_answers_before_the_roll(
    make_server, game, position, engine
):
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        odds = await client.describe(game, position)
        outcomes = zip(odds.legal_moves, odds.probabilities, strict=True)
        likeliest = max(outcomes, key=lambda outcome: outcome[1])[0]  # the first of equals
        busy = await client.open("connect4")
        stream = await running(busy.search(depth=40))  # holds the only slot
        result = await client.analyze_result(game, position, engine=engine, depth=3, movetime=0.005)
        assert result.nodes == 0 and result.stop_reason == "time"
        assert result.stats["queued_ms"] > 0
        assert result.best_move == likeliest  # the most likely outcome, as documented
        assert await busy.stop()
        await drain(stream)
        again = await client.analyze_result(game, position, engine=engine, depth=3, movetime=0.005)
        assert again.best_move in odds.legal_moves  # no queue: whatever fits in 5 ms


async def test_a_clock_before_the_roll_is_the_rollers_and_bounds_the_wait_in_the_queue(
    make_server,
):
    """Before a roll the side to move is chance; the clock that counts is the roller's. A
    search on a clock is timed: it waits in the queue no longer than its time (a clock read
    for nobody gave it no deadline, so it waited for the slot however long that took)."""
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        busy = await client.open("connect4")
        stream = await running(busy.search(depth=40))  # holds the only slot till stopped
        result = await client.analyze_result("backgammon", time_left=(0.05, 0.05))
        assert result.stop_reason == "time" and result.stats["queued_ms"] > 0
        assert await busy.stop()
        await drain(stream)


def never_speaks(conn) -> None:
    """A worker process that holds its end of the pipe and says nothing."""
    time.sleep(60)


async def test_a_new_worker_that_never_speaks_is_killed_once_its_start_up_time_is_over():
    """A process that has not said its first word is starting (on a saturated machine it may
    wait seconds for a CPU), not frozen: it is killed after STARTING_HEARTBEATS heartbeats,
    saying so. Here a process that only sleeps stands for one that never got to run."""
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    process = context.Process(target=never_speaks, args=(child_conn,), daemon=True)
    process.start()
    child_conn.close()
    heartbeat = 0.2
    worker = Worker(process, conn, StopFlag(), heartbeat)
    allowed = STARTING_HEARTBEATS * heartbeat
    with pytest.raises(WorkerCrashed, match=f"did not start within {allowed:g} s"):
        await asyncio.wait_for(worker.request("new_game"), 30)
    await worker.close()
    assert process.exitcode is not None


async def test_a_worker_clearing_a_large_table_keeps_its_heartbeat(make_server):
    server = make_server(heartbeat_timeout=1.0)  # zeroing 4 GB with the GIL took seconds
    async with Client(server.address) as client:
        session = await client.open("connect4", options={"Hash": 4096})
        await session.search(depth=1)
        worker = server.server.service.sessions.get(session.id, None).worker
        await session.new_game()
        await session.new_game()
        result = await session.search(moves=["44"], depth=4)
        assert result.depth == 4
        assert server.server.service.sessions.get(session.id, None).worker is worker
        assert worker.alive and not worker.death
        await session.close()


async def test_a_burst_of_analyses_starts_no_more_workers_than_slots_and_spares(make_server):
    server = make_server(max_searches=2, spare_workers=1)
    pool = server.server.service.pool
    burst = 24  # most of them wait, and their time runs out in the queue
    async with Client(server.address) as client:
        results = await asyncio.gather(
            *(client.analyze_result("connect4", movetime=0.3) for _ in range(burst))
        )
        assert all(result.best_move for result in results)
        # nobody stopped them: a finished analysis's backstop timers never outlive it
        assert {result.stop_reason for result in results} == {"time"}
        queued_out = [result for result in results if result.nodes == 0]
        assert queued_out, "no search ran out of time in the queue: the burst proves nothing"
        games = await client.games()  # the server still answers
        assert games
    assert pool.peak <= 2 + 1, f"{pool.peak} workers at once"
    assert pool.workers <= 2 + 1


async def test_an_analysis_gone_while_waiting_for_a_worker_leaves_it_to_the_next(make_server):
    # the pool holds one worker, which answers even a search whose time ran out in the queue
    server = make_server(max_searches=1, spare_workers=0, expired_answers="worker")
    pool = server.server.service.pool
    async with Client(server.address) as client:
        first = client.analyze("connect4", depth=40)
        stream = await running(first)  # holds the slot and the worker
        late = asyncio.ensure_future(client.analyze_result("connect4", movetime=0.005))
        while pool.waiting < 1:  # its time ran out in the queue: it waits for the worker
            await asyncio.sleep(0.005)
        late.cancel()
        while pool.waiting:
            await asyncio.sleep(0.005)
        first.cancel()  # the server stops its search and takes the worker back
        await drain(stream)
        result = await client.analyze_result("connect4", movetime=0.05)
        assert result.best_move
    assert pool.peak == 1
