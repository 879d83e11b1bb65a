"""Alpha-beta on chess: mates proven against python-chess brute force, and the same values
with each of the chess enhancements (null move, LMR, check extension) switched off."""

from __future__ import annotations

import itertools

import chess
import pytest

from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.games.chess.game import CompiledBoard
from kibitz.vocabulary import ScoreKind

MATES = [  # (FEN, the mating move, moves to mate)
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1),
    ("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1", "d1d8", 1),
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6", 2),  # Morphy
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 2),
]
SWITCHES = ("NullMove", "LMR", "CheckExtension")


def forced_mate(board: chess.Board, moves: int) -> bool:
    """Whether the side to move mates in at most `moves` moves (brute force)."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if (
                moves > 1
                and not board.is_game_over()
                and all(
                    _after(board, reply, lambda b: forced_mate(b, moves - 1))
                    for reply in list(board.legal_moves)
                )
            ):
                return True
        finally:
            board.pop()
    return False


def _after(board: chess.Board, move: chess.Move, test) -> bool:
    board.push(move)
    try:
        return test(board)
    finally:
        board.pop()


def search(fen: str, depth: int, **options):
    state = Chess.from_position(fen)
    result = AlphaBeta(options).search(state, Limits(depth=depth), SearchContext())
    return state, result


@pytest.mark.parametrize(("fen", "best", "moves"), MATES)
def test_mates_are_found_at_their_distance(fen, best, moves):
    board = chess.Board(fen)
    assert forced_mate(board, moves)
    assert moves == 1 or not forced_mate(board, moves - 1)
    state, result = search(fen, 2 * moves + 1)
    assert state.format_move(result.best_move) == best
    assert result.score.kind == ScoreKind.WIN and result.score.plies == 2 * moves - 1
    line = chess.Board(fen)
    for move in state.format_line(result.pv):
        line.push_uci(move)
    assert line.is_checkmate()


@pytest.mark.parametrize("off", list(itertools.product((True, False), repeat=3))[1:])
def test_the_enhancements_leave_the_mates_unchanged(off):
    options = dict(zip(SWITCHES, off, strict=True))
    for fen, best, moves in MATES[2:]:
        state, result = search(fen, 2 * moves + 2, **options)
        assert state.format_move(result.best_move) == best
        assert (result.score.kind, result.score.plies) == (ScoreKind.WIN, 2 * moves - 1)


def test_a_mate_in_three_is_the_same_with_every_enhancement_off():
    fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"
    scores = {
        options: (Chess.from_position(fen).format_move(result.best_move), result.score.plies)
        for options in [(True, True, True), (False, False, False)]
        for _, result in [search(fen, 6, **dict(zip(SWITCHES, options, strict=True)))]
    }
    assert set(scores.values()) == {("f8c5", 5)}


def test_null_moves_and_reductions_cut_a_middle_game_search():
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"
    _, full = search(fen, 5, NullMove=False, LMR=False)
    _, pruned = search(fen, 5)
    assert pruned.stats["null_cutoffs"] > 0 and pruned.stats["reductions"] > 0
    assert pruned.nodes < full.nodes
    assert "null_cutoffs" not in full.stats


@pytest.mark.skipif(CompiledBoard is None, reason="the compiled board was not built")
@pytest.mark.parametrize(
    "fen",
    [
        "",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ],
)
def test_a_search_on_the_compiled_board_is_the_reference_search_node_for_node(fen):
    answers = []
    for board in (Board, CompiledBoard):
        state = Chess.on_board(fen, board)
        infos = []
        context = SearchContext(report=infos.append, info_interval=0.0)  # no timed Info
        result = AlphaBeta().search(state, Limits(depth=5), context)
        answers.append(
            (
                result.nodes,
                result.best_move,
                result.score,
                result.pv,
                [(info.depth, info.nodes, info.score, info.pv) for info in infos],
                result.stats["null_cutoffs"],
                result.stats["reductions"],
            )
        )
    assert answers[0] == answers[1]
