"""Pig: notation and its errors, move counts against OpenSpiel's pig, the rules at the goal
and the horizon, and a decision with a known answer."""

from __future__ import annotations

import pytest

from kibitz.games import CHANCE, IllegalMoveError, NotationError
from kibitz.games.pig import HOLD, ROLL, Pig


def perft(state: Pig, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


# Leaf counts (chance outcomes count as plies) from OpenSpiel 2.0.2's pig with the same
# winscore, horizon 1000, by the same recursion over `legal_actions()`.
PERFT = {
    "0-0 +0 1 goal=100 moves=0/1000": [2, 8, 20, 68, 188, 596, 1724, 5300],
    "0-0 +0 1 goal=6 moves=0/1000": [2, 8, 19, 60, 143, 353, 862, 2037, 4791],
}


@pytest.mark.parametrize("position", PERFT)
def test_move_counts_match_openspiel(position):
    state = Pig.from_position(position)
    assert [perft(state, depth) for depth in range(1, len(PERFT[position]) + 1)] == PERFT[position]


def test_a_turn_rolls_holds_and_loses_its_total_on_a_one():
    state = Pig.from_position("")
    assert state.position() == Pig.default_position
    state.play_line(["roll", "5"])
    assert state.turn_total == 5 and state.to_move() == 0
    state.play_line(["r", "1"])
    assert state.turn_total == 0 and state.to_move() == 1 and state.scores == [0, 0]
    state.play_line(["roll", "4", "hold"])
    assert state.scores == [0, 4] and state.to_move() == 0
    assert state.position() == "0-4 +0 1 goal=100 moves=4/1000"


def test_a_chance_node_belongs_to_the_roller():
    state = Pig.from_position("3-5 +2 2 roll goal=10 moves=4/20")
    assert state.to_move() == CHANCE and state.perspective() == 1
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)]
    assert state.format_move(6) == "6" and state.parse_move("6") == 6


def test_reaching_the_goal_forces_the_hold_that_wins():
    state = Pig.from_position("8-3 +2 1 goal=10 moves=5/20")
    assert state.legal_moves() == [HOLD]
    with pytest.raises(IllegalMoveError, match="holding reaches the goal"):
        state.parse_move("roll")
    state.play(HOLD)
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.terminal_reason() == "player 1 reached 10"


def test_the_horizon_ends_the_game_in_a_draw_after_the_last_roll():
    state = Pig.from_position("3-5 +2 2 goal=10 moves=9/10")
    state.play(ROLL)
    assert not state.is_terminal() and state.to_move() == CHANCE
    state.play(4)
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    assert "draw" in state.terminal_reason()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0-0 0 1 goal=10 moves=0/10", "cannot read Pig position"),
        ("0-0 +0 3 goal=10 moves=0/10", "cannot read Pig position"),
        ("0-0 +0 1 goal=0 moves=0/10", "goal must be"),
        ("0-0 +0 1 goal=10 moves=11/10", "past the horizon"),
        ("10-0 +3 1 goal=10 moves=4/10", "the game is over"),
        ("0-0 +0 1 roll goal=10 moves=0/10", "a roll comes after a decision"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(NotationError, match=message):
        Pig.from_position(text)


def test_bad_moves_are_refused_with_a_reason():
    state = Pig.from_position("")
    with pytest.raises(NotationError, match="'roll' or 'hold'"):
        state.parse_move("pass")
    state.play(ROLL)
    with pytest.raises(NotationError, match="1 to 6"):
        state.parse_move("7")


def test_the_estimate_favours_the_leader_within_the_bounds():
    state = Pig.from_position("50-20 +10 1 goal=100 moves=30/1000")
    assert 0 < state.expected_return(0) <= 1 and state.expected_return(1) == -state.expected_return(
        0
    )
