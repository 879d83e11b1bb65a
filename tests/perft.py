"""Perft through the Game interface alone: the leaves `depth` plies down (a position where
the game ended earlier counts as none), for the games' move-count tests."""

from __future__ import annotations

from kibitz.games import Game


def perft(state: Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total
