"""Expectimax's outcome chances (win, gammon, backgammon) on backgammon's root moves: the
game's estimate after each move, consistent, from the root player's side, and the root's
own chances those of its best move (before the roll: the outcomes' average)."""

from __future__ import annotations

import pytest

from kibitz.engines.base import SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.types import Limits
from kibitz.games.backgammon.game import OUTCOMES, Backgammon
from kibitz.games.capabilities import Chances
from kibitz.games.pig import Pig

FORMULA = {"Evaluation": "formula"}
"""The estimate the position itself answers with (`outcome_chances` below)."""


def search(position: str, depth: int = 1):
    state = Backgammon.from_position(position)
    return state, Expectimax(FORMULA).search(state, Limits(depth=depth), SearchContext())


def test_every_root_move_carries_the_estimate_after_it():
    state, result = search("4HPwATDgc/ABMA:31")
    assert len(result.root_moves) == len(state.legal_moves())
    for root in result.root_moves:
        chances = root.score.chances
        assert chances is not None
        assert 0 <= chances.win_backgammon <= chances.win_gammon <= chances.win <= 1
        assert 0 <= chances.loss_backgammon <= chances.loss_gammon <= chances.loss <= 1
        state.play(root.move)
        assert chances == state.outcome_chances(0)  # player 0 rolled: the root's side
        state.undo()
    assert result.score.chances == result.root_moves[0].score.chances


def test_the_chances_take_the_root_players_side():
    """Player 2 on roll (a Match ID): its chances, not player 1's."""
    state, result = search("4HPwATDgc/ABMA:cIkFAAAAAAAA")
    assert state.on_roll == 1 and state.dice is not None
    best = result.root_moves[0]
    state.play(best.move)
    assert best.score.chances == state.outcome_chances(1)
    assert best.score.chances == state.outcome_chances(0).flipped()


def test_a_checker_borne_off_rules_out_the_gammon_after_every_move():
    """The player on roll has borne one checker off and trails a race: whatever it plays,
    it cannot be gammoned, and its opponent (nothing borne off, 4 pips left) can lose no
    gammon either way round: its chances say so exactly."""
    state = Backgammon()
    state.sides = [[0] * 25, [0] * 25]
    state.sides[0][5], state.sides[0][4], state.sides[0][12] = 4, 5, 5  # 14: one is off
    state.sides[1][0], state.sides[1][1] = 2, 2  # the other: 4 checkers left
    state.dice = (6, 5)
    result = Expectimax(FORMULA).search(state, Limits(depth=1), SearchContext())
    for root in result.root_moves:
        assert root.score.chances.loss_gammon == 0.0
        assert root.score.chances.loss_backgammon == 0.0
        assert root.score.chances.win < 0.05


def test_before_the_roll_the_score_averages_the_outcomes_chances():
    state, result = search("4HPwATDgc/ABMA")
    probabilities = dict(OUTCOMES)
    assert {root.move for root in result.root_moves} == set(probabilities)
    expected = Chances.average(
        [(probabilities[root.move], root.score.chances) for root in result.root_moves]
    )
    assert result.score.chances == pytest.approx(expected)
    for root in result.root_moves:  # each the estimate after the outcome's best play
        state.play(root.move)
        state.play(root.pv[1])
        assert root.score.chances == state.outcome_chances(0)
        state.undo()
        state.undo()


def test_a_game_without_outcome_chances_gets_none():
    result = Expectimax().search(Pig(), Limits(depth=2), SearchContext())
    assert result.score.chances is None
    assert all(root.score.chances is None for root in result.root_moves)
