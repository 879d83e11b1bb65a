"""Every search enhancement is value-neutral: switching one off changes no root value.

Each option of AlphaBeta (table, aspiration, PVS, ETC, killers, history, quiescence, game
hooks, compiled kernel) is turned off in turn; the root score (kind, value, plies, bound) must be
identical to the default engine's and to a brute-force reference: plain negamax at fixed
depths on random trees (no transpositions, so a table cannot legitimately change a
depth-limited value), exact values on tic-tac-toe, Nim and published Connect Four positions.
"""

from __future__ import annotations

from functools import cache

import pytest
from test_alphabeta import internal, move_values_solved, run
from testdata import connect4_sample
from toys import ExchangeGame, RandomTreeGame, negamax, published_internal

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.types import Limits, Score
from kibitz.games.base import Game
from kibitz.games.connect4 import ConnectFour, solver_score
from kibitz.games.nim import MisereNim, Nim
from kibitz.games.tictactoe import TicTacToe
from kibitz.vocabulary import Bound, ScoreKind

OFF = [
    pytest.param({"Hash": 0}, id="Hash=0"),
    pytest.param({"Aspiration": 0}, id="Aspiration=0"),
    pytest.param({"PVS": False}, id="PVS=false"),
    pytest.param({"ETC": False}, id="ETC=false"),
    pytest.param({"Killers": False}, id="Killers=false"),
    pytest.param({"History": False}, id="History=false"),
    pytest.param({"Quiescence": False}, id="Quiescence=false"),
    pytest.param({"GameHooks": False}, id="GameHooks=false"),
    pytest.param({"Kernel": False}, id="Kernel=false"),
]
"""Quiescence=false only changes values where there are noisy moves: those games use none."""

TREE_SEEDS = range(24)
TREE_DEPTHS = range(1, 7)
TICTACTOE = [
    ".../.../... x",
    ".../.../.x. o",
    "..o/.../.x. x",
    "oxx/.../... o",
    ".o./.x./x.. o",
    ".oo/x../x.. x",
    ".ox/.x./o.x o",
    ".x./o../..x o",
]
NIM = [(Nim, "1,2,3"), (Nim, "2,2"), (Nim, "2,3,4"), (Nim, "1,1,3"), (MisereNim, "1,2,3")]
NIM += [(MisereNim, "1,1,1"), (MisereNim, "2,2,1")]
EXCHANGES = ["100;900;300;6", "100;300,900;300,500;7", "300;100,100,900;100,500;8"]
OUTCOME = {ScoreKind.WIN: 1, ScoreKind.DRAW: 0, ScoreKind.LOSS: -1}


def signature(score: Score) -> tuple:
    return (score.kind, score.value, score.plies, score.bound)


def noisy(option: dict) -> bool:
    return "Quiescence" not in option


@cache
def tree(seed: int, noisy_rate: float) -> RandomTreeGame:
    return RandomTreeGame(seed, noisy_rate=noisy_rate)


@cache
def default_tree_score(seed: int, noisy_rate: float, depth: int) -> tuple:
    game = tree(seed, noisy_rate)
    result, _ = run(game, Limits(depth=depth))
    assert internal(result.score) == negamax(game, depth)
    return signature(result.score)


@cache
def default_score(game: Game, limits_key: tuple) -> tuple:
    """The default engine's root score; `game` objects are cached, so hashing by identity."""
    depth, solve = limits_key
    result, _ = run(game, Limits(depth=depth, solve=solve))
    return signature(result.score)


@cache
def make(cls: type[Game], position: str) -> Game:
    """One object per position, so that `default_score` is computed once per position."""
    return cls.from_position(position)


@pytest.mark.parametrize("option", OFF)
def test_random_trees_at_fixed_depths(option: dict) -> None:
    for seed in TREE_SEEDS:
        noisy_rate = 0.3 if seed % 2 and noisy(option) else 0.0
        game = tree(seed, noisy_rate)
        for depth in TREE_DEPTHS:
            result, _ = run(game, Limits(depth=depth), AlphaBeta(option))
            assert internal(result.score) == negamax(game, depth), (seed, depth)
            assert result.score.bound == Bound.EXACT
            assert signature(result.score) == default_tree_score(seed, noisy_rate, depth), (
                seed,
                depth,
            )


@pytest.mark.parametrize("option", OFF)
def test_tictactoe_exact_values(option: dict) -> None:
    for position in TICTACTOE:
        game = make(TicTacToe, position)
        truth = max(move_values_solved(game).values())
        for solve in (False, True):
            result, _ = run(game, Limits(solve=solve), AlphaBeta(option))
            assert result.stop_reason == "solved", (position, solve)
            assert internal(result.score) == truth, (position, solve)
            assert result.score.kind != ScoreKind.HEURISTIC
            assert signature(result.score) == default_score(game, (None, solve)), position


@pytest.mark.parametrize("option", OFF)
def test_nim_exact_values(option: dict) -> None:
    for cls, position in NIM:
        game = make(cls, position)
        truth = max(move_values_solved(game).values())
        for limits_key in ((2, False), (None, False), (None, True)):
            depth, solve = limits_key
            result, _ = run(game, Limits(depth=depth, solve=solve), AlphaBeta(option))
            assert signature(result.score) == default_score(game, limits_key), (position, depth)
            if depth is None:
                assert internal(result.score) == truth, (cls.name, position, solve)
                assert result.score.bound == Bound.EXACT


@pytest.mark.parametrize("option", [p for p in OFF if p.id != "Quiescence=false"])
def test_exchange_game_with_noisy_moves(option: dict) -> None:
    for position in EXCHANGES:
        game = make(ExchangeGame, position)
        for depth in range(1, game.length + 1):
            result, _ = run(game, Limits(depth=depth), AlphaBeta(option))
            assert internal(result.score) == negamax(game, depth), (position, depth)
            assert signature(result.score) == default_score(game, (depth, False))


@pytest.mark.parametrize("option", OFF)
def test_connect4_published_scores_in_solve_mode(option: dict) -> None:
    positions = connect4_sample("Test_L3_R1", 20)
    for moves, expected in positions:
        game = ConnectFour.from_position(moves)
        default, _ = run(game, Limits(solve=True))
        result, _ = run(game, Limits(solve=True), AlphaBeta(option))
        assert result.stop_reason == "solved", moves
        assert result.score.bound == Bound.EXACT
        score = result.score
        assert solver_score(OUTCOME[score.kind], score.plies, len(moves)) == expected, moves
        assert internal(score) == published_internal(expected, len(moves)), moves
        assert signature(score) == signature(default.score), moves


def test_etc_cuts_nodes_without_changing_values() -> None:
    """ETC is not a no-op: the children's table entries end some nodes before a search."""
    nodes = {True: 0, False: 0}
    for moves, expected in connect4_sample("Test_L2_R1", 5):
        game = ConnectFour.from_position(moves)
        for etc in nodes:
            result, _ = run(game, Limits(solve=True), AlphaBeta({"ETC": etc, "Kernel": False}))
            score = result.score
            assert solver_score(OUTCOME[score.kind], score.plies, len(moves)) == expected
            nodes[etc] += result.nodes
    assert nodes[True] < nodes[False]
