"""A search whose time ran out while it waited in the queue (issue 36): the server answers
it itself, at once, where its engine can run in the server (`--expired-answers server`, the
default), with the answer its worker would have given (`--expired-answers worker`): the
engine's move without searching. Real servers, real clients."""

from __future__ import annotations

import time

import pytest
from streams import drain, running

from kibitz.cli import build_parser
from kibitz.clients import Client
from kibitz.engines import ENGINES, SearchContext
from kibitz.games import GAMES
from kibitz.games.tictactoe import TicTacToe
from kibitz.server import cli as server_cli
from kibitz.server import convert, inline
from kibitz.server.validation import parse_position
from kibitz.v1 import engine_pb2 as pb
from tests.server.test_hop_caches import Counting

POSITION = ["4453"]
"""Connect Four moves of the position the late searches ask about."""


def unsearched_move() -> str:
    """What a fresh alpha-beta engine answers at POSITION when its time is already up."""
    state, _ = parse_position(GAMES["connect4"], "", POSITION)
    root = state.clone()
    limits = convert.limits_from_pb(pb.Limits(move_time_ms=50), root)
    context = SearchContext(started=time.monotonic() - 1.0)  # its time ran out a second ago
    result = ENGINES["alphabeta"]().search(state, limits, context)
    assert result.nodes == 0
    return root.format_move(result.best_move)


@pytest.mark.parametrize("answerer", ["server", "worker"])
async def test_a_session_search_whose_time_ran_out_in_the_queue(make_server, answerer):
    server = make_server(max_searches=1, expired_answers=answerer)
    kept = server.server.service.inline_engines
    async with Client(server.address) as client:
        busy = await client.open("connect4")
        stream = await running(busy.search(infinite=True))  # holds the only slot
        late = await client.open("connect4")
        search = late.search(moves=POSITION, movetime=0.05)
        result = await search  # answered while the other search still runs
        assert await busy.stop()
        await drain(stream)
        again = await late.search(moves=POSITION, depth=1)  # the session searches on
    assert (result.nodes, result.depth, result.stop_reason) == (0, 0, "time")
    move = unsearched_move()  # the move the engine orders first: the same either way
    assert result.best_move == move and result.pv == (move,)
    assert result.stats["queued_ms"] > 0
    if answerer == "server":  # the Result alone, from an engine kept in the server
        assert search.infos == [] and len(kept) == 1
    else:  # the worker's stream opens with the Info that says it waited
        assert search.infos[0].proto.queued_ms == result.stats["queued_ms"]
        assert len(kept) == 0
    assert again.depth == 1 and again.nodes > 0


async def test_an_analysis_whose_time_ran_out_waits_for_no_worker(make_server):
    server = make_server(max_searches=1, spare_workers=0)  # the pool holds one worker
    pool = server.server.service.pool
    async with Client(server.address) as client:
        first = client.analyze("connect4", depth=40)
        stream = await running(first)  # holds the slot and the only worker
        late = client.analyze("connect4", moves=POSITION, movetime=0.05)
        result = await late  # with `worker`, it would wait for the first to end
        assert (result.nodes, result.stop_reason) == (0, "time")
        assert result.best_move == unsearched_move()
        assert late.infos == [] and result.stats["queued_ms"] > 0
        first.cancel()
        await drain(stream)
    assert pool.peak == 1


async def test_an_engine_that_cannot_run_in_the_server_is_answered_by_its_worker(make_server):
    server = make_server(max_searches=1)
    async with Client(server.address) as client:
        busy = await client.open("connect4")
        stream = await running(busy.search(infinite=True))
        big = await client.open("connect4", options={"Hash": 64})  # tables too big to keep
        search = big.search(moves=POSITION, movetime=0.05)
        result = await search
        assert await busy.stop()
        await drain(stream)
    assert (result.nodes, result.stop_reason, result.best_move) == (0, "time", unsearched_move())
    assert search.infos[0].queued > 0  # the worker's stream
    assert len(server.server.service.inline_engines) == 0


def test_searches_that_overlap_keep_an_engine_each():
    """Expired searches come in bursts: each engine given back is kept, none made anew."""
    Counting.made.clear()
    engines = inline.ReadyEngines(size=3)
    options = Counting.default_options()
    first = engines.take(Counting, TicTacToe, options)
    second = engines.take(Counting, TicTacToe, options)  # the first is still out
    assert first is not second and len(Counting.made) == 2
    engines.give_back(first, TicTacToe, options)
    engines.give_back(second, TicTacToe, options)
    assert len(engines) == 2
    assert engines.take(Counting, TicTacToe, options) is second  # the latest first
    assert engines.take(Counting, TicTacToe, options) is first
    assert len(Counting.made) == 2 and len(engines) == 0


def test_the_flag_takes_server_or_worker(capsys):
    def answerer(*flags: str) -> str:
        args = build_parser().parse_args(["serve", *flags])
        return server_cli.config_from(args).expired_answers

    assert answerer() == "server"
    assert answerer("--expired-answers", "worker") == "worker"
    with pytest.raises(SystemExit):
        answerer("--expired-answers", "nobody")
    assert "must be server or worker, not 'nobody'" in capsys.readouterr().err
