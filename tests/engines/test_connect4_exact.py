"""Alpha-beta solves published Connect Four positions exactly (win/draw/loss and distance).

Samples the published test sets shipped in tests/data/connect4.
"""

from __future__ import annotations

import pytest
from testdata import connect4_sample

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import SearchContext
from kibitz.engines.types import Limits
from kibitz.games.connect4 import ConnectFour, solver_score
from kibitz.vocabulary import ScoreKind

OUTCOME = {ScoreKind.WIN: 1, ScoreKind.DRAW: 0, ScoreKind.LOSS: -1}
SAMPLE = {"Test_L3_R1": 40, "Test_L2_R1": 12}  # every k-th line, so the sample spans the set


def test_solver_score_convention():
    assert solver_score(1, 1, 0) == 21  # impossible in practice: a win with the first stone
    assert solver_score(1, 1, 6) == 18  # 4th own stone wins on the next move
    assert solver_score(-1, 2, 7) == -(22 - (4 + 1))
    assert solver_score(0, 5, 20) == 0


@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_published_scores_are_reproduced(name):
    engine = AlphaBeta({"Hash": 16})
    mismatches = []
    for moves, expected in connect4_sample(name, SAMPLE[name]):
        engine.new_game()
        result = engine.search(
            ConnectFour.from_position(moves), Limits(infinite=True), SearchContext()
        )
        assert result.stop_reason == "solved", moves
        got = solver_score(OUTCOME[result.score.kind], result.score.plies, len(moves))
        if got != expected:
            mismatches.append((moves, expected, got))
    assert not mismatches


@pytest.mark.parametrize(
    "moves",
    ["52753311433677442422121", "2252576253462244111563365343671351441", "6614446666373154"],
)
def test_a_solved_line_plays_out_to_the_proven_end(moves):
    state = ConnectFour.from_position(moves)
    result = AlphaBeta().search(state, Limits(solve=True), SearchContext())
    assert result.score.kind in (ScoreKind.WIN, ScoreKind.LOSS)
    assert len(result.pv) == result.score.plies
    mover = state.to_move()
    for move in result.pv:
        assert move in state.legal_moves()
        state.play(move)
    assert state.is_terminal()
    assert state.returns()[mover] == OUTCOME[result.score.kind]
