"""Quiescence search against the horizon effect, on a capture toy (`toys.ExchangeGame`).

A queen takes a defended pawn: one ply deep, the material count after the capture looks
good; the recapture that follows is beyond the horizon. Quiescence keeps searching captures
(the game's `noisy_moves`) at the horizon and sees it.
"""

from __future__ import annotations

import random

import pytest
from test_alphabeta import internal, run
from toys import CLAMP, ExchangeGame, negamax, terminal_value

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.types import WIN, Limits
from kibitz.games.base import Game
from kibitz.vocabulary import Bound

QUEEN_TAKES_DEFENDED_PAWN = "100;900;300;6"
"""Player 0's queen may take player 1's pawn, which a knight defends."""


def horizon_negamax(game: Game, depth: int, ply: int = 0) -> int:
    """Depth-limited negamax trusting the static evaluation at the horizon (no quiescence)."""
    if game.is_terminal():
        return terminal_value(game, ply)
    if depth <= 0:
        return max(-CLAMP, min(CLAMP, game.evaluate()))
    best = -WIN - 1
    for move in game.legal_moves():
        game.play(move)
        best = max(best, -horizon_negamax(game, depth - 1, ply + 1))
        game.undo()
    return best


def root_values(game: Game, depth: int, reference) -> dict:
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = -reference(game, depth - 1, 1)
        game.undo()
    return values


def random_exchanges(count: int) -> list[str]:
    rng = random.Random(7)
    pieces = (100, 300, 300, 500, 900)
    positions = []
    for _ in range(count):
        first = [rng.choice(pieces) for _ in range(rng.randint(1, 3))]
        second = [rng.choice(pieces) for _ in range(rng.randint(0, 3))]
        target = rng.choice(pieces)
        length = rng.randint(4, 9)
        positions.append(
            f"{target};{','.join(map(str, first))};{','.join(map(str, second))};{length}"
        )
    return positions


def test_the_toy_has_a_horizon_effect() -> None:
    """The references themselves disagree at depth 1: the capture only looks good."""
    game = ExchangeGame.from_position(QUEEN_TAKES_DEFENDED_PAWN)
    naive = root_values(game, 1, horizon_negamax)
    quiet = root_values(game, 1, negamax)
    capture, wait = ExchangeGame.CAPTURE, ExchangeGame.WAIT
    assert naive[capture] > naive[wait]  # +600 (a pawn up) against +500
    assert quiet[capture] < quiet[wait]  # -300: the knight takes the queen back
    assert naive[wait] == quiet[wait]


def test_quiescence_avoids_the_poisoned_capture() -> None:
    game = ExchangeGame.from_position(QUEEN_TAKES_DEFENDED_PAWN)
    with_q, _ = run(game, Limits(depth=1), AlphaBeta({"Quiescence": True}))
    without_q, _ = run(game, Limits(depth=1), AlphaBeta({"Quiescence": False}))
    assert with_q.best_move == ExchangeGame.WAIT
    assert internal(with_q.score) == negamax(game, 1) == 500
    assert without_q.best_move == ExchangeGame.CAPTURE  # the horizon effect is real
    assert internal(without_q.score) == horizon_negamax(game, 1) == 600
    assert with_q.score.bound == without_q.score.bound == Bound.EXACT
    assert with_q.seldepth > without_q.seldepth  # quiescence looked past the horizon


@pytest.mark.parametrize("position", [QUEEN_TAKES_DEFENDED_PAWN, *random_exchanges(30)])
def test_depth_limited_values_equal_the_references(position: str) -> None:
    game = ExchangeGame.from_position(position)
    for depth in range(1, game.length):
        reference = root_values(game, depth, negamax)
        naive = root_values(game, depth, horizon_negamax)
        result, _ = run(game, Limits(depth=depth), AlphaBeta({"Quiescence": True}))
        assert internal(result.score) == max(reference.values()), depth
        assert reference[result.best_move] == max(reference.values()), depth
        result, _ = run(game, Limits(depth=depth), AlphaBeta({"Quiescence": False}))
        assert internal(result.score) == max(naive.values()), depth
        assert naive[result.best_move] == max(naive.values()), depth
