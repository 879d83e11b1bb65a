"""The answer the server makes up when it had to kill a worker that ignored its deadline."""

from __future__ import annotations

from kibitz.games import GAMES
from kibitz.server.service import _best_so_far
from kibitz.server.validation import prepare_search
from kibitz.v1 import engine_pb2 as pb


def _job():
    return prepare_search(GAMES["connect4"], "", ["4453"], pb.Limits(move_time_ms=100), 1000)


def test_best_so_far_lists_every_root_move_from_the_last_info():
    score = pb.Score(kind=pb.Score.HEURISTIC, centi=35, bound=pb.Score.EXACT)
    info = pb.Info(depth=7, score=score, nodes=1234, time_ms=90, pv=["4", "3", "3"])
    result = _best_so_far(_job(), info)
    assert (result.best_move, result.ponder_move, result.depth) == ("4", "3", 7)
    assert result.stop_reason == "time" and result.nodes == 1234
    assert sorted(root.move for root in result.root_moves) == list("1234567")
    assert result.root_moves[0].score == score
    assert all(root.score.bound == pb.Score.UPPER for root in result.root_moves[1:])


def test_best_so_far_without_any_info_still_names_a_legal_move():
    result = _best_so_far(_job(), None)
    assert result.best_move in list("1234567") and len(result.root_moves) == 7
    assert result.score.bound == pb.Score.BOUND_UNSPECIFIED
