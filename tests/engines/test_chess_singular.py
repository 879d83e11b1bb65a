"""Alpha-beta's singular extensions (option SingularExtension): switched off, the search is
the one before them node for node; switched on, a table move that every other move fails
to come near is searched a ply deeper, on both chess boards alike, and games without
checks search as before."""

from __future__ import annotations

import pytest

from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.games import GAMES
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.games.chess.game import CompiledBoard

WAC_3 = "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1"
WAC_21 = "5rk1/1b3p1p/pp3p2/3n1N2/1P6/P1qB1PP1/3Q3P/4R1K1 w - - 0 1"
WAC_272 = "nrq4r/2k1p3/1p1pPnp1/pRpP1p2/P1P2P2/2P1BB2/1R2Q1P1/6K1 w - - 0 1"
BOARDS = [Board] if CompiledBoard is None else [Board, CompiledBoard]


def search(fen: str, depth: int, board: type | None = None, **options):
    state = Chess.from_position(fen) if board is None else Chess.on_board(fen, board)
    result = AlphaBeta(options).search(state, Limits(depth=depth), SearchContext())
    return state, result


@pytest.mark.parametrize(
    ("fen", "nodes", "best"),
    [(WAC_3, 10488, "e3g3"), (WAC_21, 29848, "d2h6")],
    ids=["wac3", "wac21"],
)
def test_switched_off_the_search_is_the_one_before(fen, nodes, best):
    state, result = search(fen, 7, SingularExtension=False)
    assert (result.nodes, state.format_move(result.best_move)) == (nodes, best)
    assert "singular_extensions" not in result.stats


@pytest.mark.parametrize("board", BOARDS, ids=lambda board: board.__name__)
def test_switched_on_the_table_move_is_extended(board):
    state, result = search(WAC_3, 7, board, SingularExtension=True)
    assert state.format_move(result.best_move) == "e3g3"  # Win At Chess 3: Rg3
    assert (result.nodes, result.stats["singular_extensions"]) == (17990, 1.0)


def test_the_extension_finds_what_the_search_before_missed():
    state, before = search(WAC_272, 7, SingularExtension=False)
    assert (before.nodes, state.format_move(before.best_move)) == (25664, "b2b1")
    state, after = search(WAC_272, 7, SingularExtension=True)
    assert (after.nodes, state.format_move(after.best_move)) == (32924, "e3c5")  # Bxc5
    assert after.stats["singular_extensions"] == 2.0


def test_games_without_checks_search_as_before():
    state = GAMES["connect4"].from_position("4453")
    options = {"Kernel": False, "SingularExtension": True}
    result = AlphaBeta(options).search(state, Limits(depth=9), SearchContext())
    assert (result.nodes, result.pv) == (14828, [3, 2, 2, 5, 4, 4, 2, 2, 3])  # the signature's
    assert "singular_extensions" not in result.stats
