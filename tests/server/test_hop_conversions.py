"""What the service keeps between analyses since issue 36's second pass: the checked options
of a request, and the wire form of inline answers (inline.Conversions). Each must answer as
if nothing were kept."""

from __future__ import annotations

import dataclasses
import time

import pytest

from kibitz.clients import Client, InvalidArgument, NotFound
from kibitz.engines import Limits, Result, SearchContext
from kibitz.engines.alphabeta import AlphaBeta
from kibitz.games import GAMES
from kibitz.games.tictactoe import TicTacToe
from kibitz.server import convert
from kibitz.server.inline import Conversions
from kibitz.server.validation import fresh_options


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


# ---------------------------------------------------------------------------- checked options


def test_checked_options_are_a_dict_of_each_call():
    first = fresh_options(AlphaBeta, TicTacToe, {"hash": "2", "PVS": "false"})
    assert first == {**AlphaBeta.default_options(), "Hash": 2, "PVS": False}
    first["Hash"] = 64  # a caller's change reaches no other call
    again = fresh_options(AlphaBeta, TicTacToe, {"hash": "2", "PVS": "false"})
    assert again is not first and again["Hash"] == 2
    assert fresh_options(AlphaBeta, TicTacToe, {}) == AlphaBeta.default_options()
    # two texts for one option: the later holds, as when nothing was kept
    assert fresh_options(AlphaBeta, TicTacToe, {"Hash": "2", "hash": "3"})["Hash"] == 3


async def test_bad_options_are_refused_every_time(client):
    for _ in range(2):
        with pytest.raises(InvalidArgument, match="Hash"):
            await client.analyze_result("tictactoe", options={"Hash": "lots"}, depth=1)
        with pytest.raises(InvalidArgument, match=r"no option .*Colour"):
            await client.analyze_result("tictactoe", options={"Colour": "red"}, depth=1)
        with pytest.raises(NotFound, match="unknown engine"):
            await client.analyze_result("tictactoe", engine="deep-thought", depth=1)
    # and the same options on a good request still search
    result = await client.analyze_result("tictactoe", options={"Hash": "2"}, depth=1)
    assert result.best_move == "b2" and result.nodes == 10


# ---------------------------------------------------------------------------- conversions


def _search(state, multipv: int = 1, depth: int = 2):
    """A fresh alpha-beta's search of `state`, its Infos and Result."""
    infos = []
    context = SearchContext(report=infos.append, started=time.monotonic())
    limits = Limits(depth=depth, multipv=multipv)
    return infos, AlphaBeta().search(state, limits, context)


def _later(answer):
    """`answer` as an alike search a moment later answers it: other times, rates, stats."""
    if isinstance(answer, Result):
        return dataclasses.replace(answer, time=answer.time + 0.25, stats={"nps": 7.0})
    return dataclasses.replace(answer, time=answer.time + 0.25, nps=answer.nps + 9, hashfull=3)


def test_a_kept_conversion_is_the_fresh_one_with_its_own_times():
    conversions = Conversions()
    root = TicTacToe.read_position("")
    position = (TicTacToe, "", ())
    infos, result = _search(root, multipv=3)
    assert len(infos) >= 2
    for answer in (result, _later(result), result):
        kept = conversions.result(answer, root, position)
        assert kept == convert.result_to_pb(answer, root)
    kept.stats["queued_ms"] = 5  # a call's own message: the next is not changed
    assert "queued_ms" not in conversions.result(result, root, position).stats
    for with_roots in (True, False):
        for info in infos + [_later(info) for info in infos]:
            kept = conversions.info(info, root, position, with_roots)
            assert kept == convert.wire_info(info, root, with_roots)
    assert len(conversions) == 1 + 2 * len({(i.depth, i.multipv) for i in infos})


def test_conversions_are_kept_by_position_and_the_latest_only():
    conversions = Conversions(size=2)
    chess = GAMES["chess"]
    for count, moves in enumerate([(), ("e2e4",), ("d2d4",), ()], start=1):
        root = chess.read_position("")
        root.play_line(moves)
        _, answer = _search(root, depth=1)
        kept = conversions.result(answer, root, (chess, "", moves))
        assert kept == convert.result_to_pb(answer, root) and kept.best_move_label
        assert len(conversions) == min(count, 2)  # the least recently used goes
    # one answer, two positions: each converted in its own (the score is the mover's)
    start = TicTacToe.read_position("")
    _, answer = _search(start)
    after = TicTacToe.read_position("")
    after.play_line(["a1"])
    assert conversions.result(answer, start, (TicTacToe, "", ())).score.player == 0
    assert conversions.result(answer, after, (TicTacToe, "", ("a1",))).score.player == 1


async def test_a_repeated_analysis_streams_what_a_first_one_does(client):
    def answers(search) -> list:
        messages = [info.proto for info in search.infos] + [search.result.proto]
        for message in messages:  # what varies between alike searches
            message.time_ms = 0
            if message.DESCRIPTOR.name == "Info":
                message.nodes_per_second = message.hash_full = 0
            else:
                message.stats.clear()
        return messages

    searches = []
    for _ in range(3):
        search = client.analyze("connect4", moves=["4453"], depth=3, root_moves=True)
        await search
        searches.append(answers(search))
    assert searches[0] == searches[1] == searches[2]
    assert len(searches[0]) == 4 and searches[0][-1].depth == 3
    assert all(len(message.root_moves) == 7 for message in searches[0])
