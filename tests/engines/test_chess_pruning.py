"""Alpha-beta's chess pruning (options SEE, Futility, LateMovePruning): switched off, the
search is the one before them node for node; switched on, each cuts nodes without changing
proven mates, and both boards still search the same nodes."""

from __future__ import annotations

import pytest

from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.games.chess.game import CompiledBoard
from kibitz.vocabulary import ScoreKind

SWITCHES = ("SEE", "Futility", "LateMovePruning")
OFF = dict.fromkeys(SWITCHES, False)
MIDDLE_GAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"
WAC_1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
NODES = [  # (FEN, nodes to depth 5 with the switches off (the search before they came), on)
    ("", 4875, 3411),
    (MIDDLE_GAME, 18172, 4825),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3008, 1506),
    (WAC_1, 8002, 2756),
]
BOARDS = [Board] if CompiledBoard is None else [Board, CompiledBoard]


def search(fen: str, depth: int, board: type | None = None, **options):
    state = Chess.from_position(fen) if board is None else Chess.on_board(fen, board)
    result = AlphaBeta(options).search(state, Limits(depth=depth), SearchContext())
    return state, result


@pytest.mark.parametrize(("fen", "before", "after"), NODES, ids=range(len(NODES)))
def test_switched_off_the_search_is_the_one_before(fen, before, after):
    _, result = search(fen, 5, **OFF)
    assert result.nodes == before
    assert "pruned" not in result.stats


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_switch_alone_cuts_nodes(switch):
    _, before = search(MIDDLE_GAME, 5, **OFF)
    state, after = search(MIDDLE_GAME, 5, **{**OFF, switch: True})
    assert after.nodes < before.nodes
    assert (state.format_move(after.best_move), after.score) == ("f1e2", before.score)
    assert ("pruned" in after.stats) == (switch != "SEE")


@pytest.mark.parametrize("on", [(), *((switch,) for switch in SWITCHES), SWITCHES])
def test_the_mates_stay_found(on):
    options = {switch: switch in on for switch in SWITCHES}
    for fen, best, plies in [
        (WAC_1, "g3g6", 3),
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6", 3),
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "f8c5", 5),
    ]:
        state, result = search(fen, plies + 1, **options)
        assert state.format_move(result.best_move) == best
        assert (result.score.kind, result.score.plies) == (ScoreKind.WIN, plies)


@pytest.mark.parametrize(("fen", "before", "after"), NODES, ids=range(len(NODES)))
def test_the_default_search_is_cheaper(fen, before, after):
    _, result = search(fen, 5)
    assert result.nodes == after < before


@pytest.mark.parametrize(("fen", "before", "after"), NODES[2:], ids=range(2, len(NODES)))
def test_the_default_search_is_the_same_on_both_boards(fen, before, after):
    answers = []
    for board in BOARDS:
        state, result = search(fen, 5, board)
        answers.append((result.nodes, state.format_move(result.best_move), result.score))
    assert answers.count(answers[0]) == len(answers)
    assert answers[0][0] == after
