"""Chess's `ordered_moves()`: the noisy moves (MVV-LVA), then every other legal move in
generation order, computed by the board (`ordered_moves()`); the compiled board
agrees with the Python reference over random games in tests/games/test_chess.py."""

from __future__ import annotations

import pytest

from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.games.chess.game import CompiledBoard

BOARDS = [Board] if CompiledBoard is None else [Board, CompiledBoard]
EN_PASSANT_AND_PROMOTIONS = "3q3k/4P3/8/3r4/2N1PpP1/8/8/K7 b - g3 0 1"


@pytest.mark.parametrize("board", BOARDS, ids=lambda board: board.__name__)
def test_noisy_first_then_the_rest_in_generation_order(board):
    state = Chess.on_board(EN_PASSANT_AND_PROMOTIONS, board)
    ordered = [state.format_move(move) for move in state.ordered_moves()]
    noisy = [state.format_move(move) for move in state.noisy_moves()]
    assert noisy == ["f4g3", "d8e7"]  # the en-passant capture is noisy, a pawn push is not
    quiet = [state.format_move(m) for m in state.legal_moves() if m not in state.noisy_moves()]
    assert ordered == noisy + quiet
    assert "f4f3" in quiet and len(ordered) == len(state.legal_moves()) == 30
    white = Chess.on_board("3q3k/4P3/8/3r4/2N1P3/8/8/K7 w - - 0 1", board)
    ordered = [white.format_move(move) for move in white.ordered_moves()]
    assert ordered[:6] == ["e7d8q", "e7d8r", "e7d8n", "e7d8b", "e7e8q", "e4d5"]
    assert {"e7e8r", "e7e8b", "e7e8n"} <= set(ordered[6:])  # underpromotions: not noisy
