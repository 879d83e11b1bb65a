"""Chess's static exchange evaluation (`Board.exchange`): known exchanges (x-rays, en passant,
promotions, the king as the last attacker), its bounds on random positions, and the compiled
board agreeing with the Python reference on every noisy move of many positions."""

from __future__ import annotations

import random

import pytest

from kibitz.games.chess import Chess
from kibitz.games.chess.board import EXCHANGE_VALUE, PAWN, Board
from kibitz.games.chess.game import CompiledBoard

BOARDS = [Board] if CompiledBoard is None else [Board, CompiledBoard]

KNOWN = [  # (FEN, move, static exchange in centipawns)
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100),  # undefended pawn
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -200),  # N for P
    ("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5", -800),  # the queen for a guarded pawn
    ("3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 500),  # the rook behind wins it
    ("3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0),  # rook for rook
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 100),  # en passant
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 800),  # a free promotion
    ("8/Pk6/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -100),  # the king takes the new queen
    ("8/Pk6/8/8/8/8/8/R3K3 w - - 0 1", "a7a8q", 800),  # ... not with the rook behind
    ("4k3/8/8/3p4/4K3/8/8/8 w - - 0 1", "e4d5", 100),  # the king takes a free pawn
    ("3rk3/8/4K3/3p4/8/8/8/3R4 w - - 0 1", "d1d5", 100),  # the king has the last word
    ("3rk3/3r4/4K3/3p4/8/8/8/3R4 w - - 0 1", "d1d5", -400),  # not into the rook behind
    ("7k/8/8/3q4/8/8/8/3RK1R1 w - - 0 1", "d1d5", 900),  # a free queen
    ("7k/3r4/8/3q4/8/8/8/3R3K w - - 0 1", "d1d5", 400),  # the queen for a rook
]


def random_positions(games: int, seed: int):
    """Every position of seeded random games (on the Python board)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = Chess.on_board("", Board)
        while not state.is_terminal():
            yield state
            state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("board", BOARDS, ids=lambda board: board.__name__)
@pytest.mark.parametrize(("fen", "move", "value"), KNOWN, ids=range(len(KNOWN)))
def test_known_exchanges(board, fen, move, value):
    state = Chess.on_board(fen, board)
    parsed = state.parse_move(move)
    assert parsed in state.noisy_moves()
    before = state.position()
    assert state.exchange(parsed) == value
    assert state.position() == before


def test_exchanges_lie_between_losing_the_mover_and_keeping_the_capture():
    checked = unattacked = 0
    for state in random_positions(games=8, seed=19):
        board = state.board
        squares = board.squares
        for move in state.noisy_moves():
            frm, to, promotion = move & 127, (move >> 7) & 127, move >> 14
            victim = squares[to] & 7 or PAWN * (to == board.ep)
            won = EXCHANGE_VALUE[victim]
            mover = EXCHANGE_VALUE[squares[frm] & 7]
            if promotion:
                won += EXCHANGE_VALUE[promotion] - EXCHANGE_VALUE[PAWN]
                mover = EXCHANGE_VALUE[promotion]
            value = state.exchange(move)
            assert won - mover <= value <= won
            board.play(move)
            if not board.attacked(to, board.turn):
                unattacked += 1
                assert value == won
            board.undo()
            checked += 1
    assert checked > 500 and 0 < unattacked < checked


@pytest.mark.skipif(CompiledBoard is None, reason="the compiled board was not built")
def test_the_compiled_exchange_repeats_the_reference_on_every_noisy_move():
    rng = random.Random(23)
    compared = losing = 0
    for state in random_positions(games=30, seed=29):
        if rng.random() < 0.5:
            continue
        fast = Chess.on_board(state.position(), CompiledBoard)
        reference = Chess.on_board(state.position(), Board)
        noisy = reference.noisy_moves()
        assert fast.noisy_moves() == noisy
        values = [reference.exchange(move) for move in noisy]
        assert [fast.exchange(move) for move in noisy] == values
        compared += len(values)
        losing += sum(value < 0 for value in values)
    assert compared > 1000 and losing > 100
