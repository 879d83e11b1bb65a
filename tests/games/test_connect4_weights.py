"""Connect Four's evaluation weights: the four bit planes sum to the cell weights."""

from __future__ import annotations

import random

from kibitz.games import connect4
from kibitz.games.connect4 import CELL_WEIGHTS, HEIGHT, WIDTH, ConnectFour

CELLS = {
    1 << (7 * col + row): CELL_WEIGHTS[row][col] for row in range(HEIGHT) for col in range(WIDTH)
}


def test_the_planes_sum_to_the_cell_weights() -> None:
    rng = random.Random(36)
    assert connect4._weight(sum(CELLS)) == sum(CELLS.values()) == 276  # 69 fours, 4 cells each
    for _ in range(500):
        stones = sum(bit for bit in CELLS if rng.random() < 0.4)
        assert connect4._weight(stones) == sum(w for bit, w in CELLS.items() if stones & bit)


def test_evaluate_weighs_the_central_stones() -> None:
    # x in the centre (weight 7) and o beside it (weight 5); x to move, no threats yet
    game = ConnectFour.from_position("43")
    assert game.evaluate() == 7 - 5
    assert game.evaluate(player=1) == 5 - 7
