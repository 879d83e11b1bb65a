"""Exact solving over the real server: `Analyze` with `solve=True` on Connect Four.

Positions come from the published test set Test_L3_R1 (tests/data/connect4).
"""

from __future__ import annotations

import pytest
from testdata import connect4_positions

from kibitz.clients import Bound, Client, ScoreKind
from kibitz.games.connect4 import ConnectFour, solver_score

OUTCOME = {ScoreKind.WIN: 1, ScoreKind.DRAW: 0, ScoreKind.LOSS: -1}
X_WON = list("1212121")  # x completes column 1 with the seventh stone: the game is over


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


def published(outcome: int) -> tuple[str, int]:
    """The first position of the test set whose published result has this sign."""
    for moves, score in connect4_positions("Test_L3_R1"):
        if (score > 0) - (score < 0) == outcome:
            return moves, score
    raise AssertionError(f"no position with outcome {outcome} in Test_L3_R1")


def legal_columns(moves: str) -> set[str]:
    game = ConnectFour.from_position(moves)
    return {game.format_move(move) for move in game.legal_moves()}


@pytest.mark.parametrize("outcome", [1, 0, -1], ids=["win", "draw", "loss"])
async def test_solve_gives_the_published_score(client, outcome: int) -> None:
    moves, expected = published(outcome)
    result = await client.analyze("connect4", moves=list(moves), solve=True)
    assert result.stop_reason == "solved"
    score = result.score
    assert score.bound == Bound.EXACT
    assert solver_score(OUTCOME[score.kind], score.plies, len(moves)) == expected
    assert {root.move for root in result.root_moves} == legal_columns(moves)
    assert len(result.root_moves) == len(legal_columns(moves))
    assert result.root_moves[0].move == result.best_move == result.pv[0]
    await client.describe("connect4", "", [*moves, *result.pv])  # raises if a move is illegal


async def test_solve_on_a_terminal_position_answers_game_over(client) -> None:
    result = await client.analyze("connect4", moves=X_WON, solve=True)
    assert result.stop_reason == "game_over" and result.best_move is None
    assert list(result.game_over.returns) == [1.0, -1.0]
    assert result.score.kind == ScoreKind.LOSS  # o is to move and has lost
    assert list(result.root_moves) == [] and list(result.pv) == []


@pytest.mark.parametrize(
    ("limit", "reason"), [({"nodes": 300}, "nodes"), ({"movetime": 0.2}, "time")], ids=str
)
async def test_interrupted_solve_still_answers(client, limit: dict, reason: str) -> None:
    """The empty board cannot be solved within these limits; the answer is a legal move
    and a score the wire can carry (a bound, or an estimate when nothing was proven)."""
    result = await client.analyze("connect4", solve=True, **limit)
    assert result.stop_reason == reason
    assert result.best_move in legal_columns("")
    assert {root.move for root in result.root_moves} == legal_columns("")
    # the first player wins the empty board: no loss is claimed (a loss score may only be
    # the lower bound "not lost within so many plies" of the quick-loss probe)
    assert result.score.kind != ScoreKind.LOSS or result.score.bound == Bound.LOWER
