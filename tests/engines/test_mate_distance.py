"""Win/loss distances and principal variations.

The fastest win is chosen when several wins exist, the slowest loss when every move loses
(the score's plies is the best distance achievable), in depth-limited and in solve mode.
Every PV replays legally, and the PV behind an exact proven score agrees with that score.
"""

from __future__ import annotations

import pytest
from test_alphabeta import consistent, internal, move_values_solved, run
from toys import ExchangeGame, RandomTreeGame

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.types import WIN, WIN_THRESHOLD, Limits, Result, Score
from kibitz.games.base import Game
from kibitz.games.connect4 import ConnectFour
from kibitz.games.nim import Nim
from kibitz.games.tictactoe import TicTacToe
from kibitz.vocabulary import Bound, ScoreKind

# Positions from Test_L3_R1 (one move further for the first); values checked by brute force.
WIN_IN_1_AND_LONGER = "74223417356477411661335734732425665"
"""o to move: column 5 wins at once; columns 6 (win in 3), 1 and 2 (win in 7) win later."""
WIN_IN_3_AND_7 = "7235431667532555335366227767122741"
"""No immediate win: column 4 wins in 3, column 6 in 7; column 1 loses."""
LOSSES_IN_6_4_2 = "2166166176633734115273317322475724"
"""Every move loses: column 2 in 6 plies, column 4 in 4, column 5 in 2."""
LOSSES_IN_10_8_6 = "473457735543145756116234731734"
"""Every move loses: columns 5 and 6 in 10 plies, column 1 in 8, column 2 in 6."""
TICTACTOE_LOSS = "xo./.x./... o"
"""o must block at c1 (loss in 4); anything else loses in 2."""

MODES = [
    pytest.param(Limits(depth=1), id="depth1"),
    pytest.param(Limits(depth=5), id="depth5"),
    pytest.param(Limits(), id="deepen"),
    pytest.param(Limits(solve=True), id="solve"),
]
ENGINES = [
    pytest.param({}, id="default"),
    pytest.param({"GameHooks": False}, id="nohooks"),
    pytest.param({"Hash": 0}, id="notable"),
]


def win(plies: int) -> int:
    return WIN - plies


def loss(plies: int) -> int:
    return plies - WIN


def test_positions_have_the_documented_values() -> None:
    """The premises of the tests below, by brute force."""
    expected = {
        WIN_IN_1_AND_LONGER: {4: win(1), 5: win(3), 0: win(7), 1: win(7)},
        WIN_IN_3_AND_7: {3: win(3), 5: win(7), 0: loss(6)},
        LOSSES_IN_6_4_2: {1: loss(6), 3: loss(4), 4: loss(2)},
        LOSSES_IN_10_8_6: {4: loss(10), 5: loss(10), 0: loss(8), 1: loss(6)},
    }
    for moves, values in expected.items():
        assert move_values_solved(ConnectFour.from_position(moves)) == values, moves


@pytest.mark.parametrize("option", ENGINES)
@pytest.mark.parametrize("limits", MODES)
def test_connect4_takes_the_immediate_win(limits: Limits, option: dict) -> None:
    game = ConnectFour.from_position(WIN_IN_1_AND_LONGER)
    result, _ = run(game, limits, AlphaBeta(option))
    assert result.best_move == 4
    assert result.score == Score(ScoreKind.WIN, plies=1)
    assert result.pv == [4]


@pytest.mark.parametrize("option", ENGINES)
@pytest.mark.parametrize("limits", MODES[1:])
def test_connect4_takes_the_fastest_of_several_wins(limits: Limits, option: dict) -> None:
    game = ConnectFour.from_position(WIN_IN_3_AND_7)
    result, _ = run(game, limits, AlphaBeta(option))
    assert result.best_move == 3
    assert result.score == Score(ScoreKind.WIN, plies=3)


@pytest.mark.parametrize("moves", [WIN_IN_1_AND_LONGER, WIN_IN_3_AND_7])
def test_solve_multipv_orders_wins_by_distance(moves: str) -> None:
    game = ConnectFour.from_position(moves)
    truth = move_values_solved(game)
    result, _ = run(game, Limits(solve=True, multipv=len(truth)))
    assert [internal(r.score) for r in result.root_moves] == sorted(truth.values(), reverse=True)
    for root in result.root_moves:
        assert root.score.bound == Bound.EXACT
        assert internal(root.score) == truth[root.move], root


@pytest.mark.parametrize("option", ENGINES)
@pytest.mark.parametrize("limits", MODES[2:])
@pytest.mark.parametrize(
    ("cls", "position"),
    [(ConnectFour, LOSSES_IN_6_4_2), (ConnectFour, LOSSES_IN_10_8_6), (TicTacToe, TICTACTOE_LOSS)],
)
def test_the_slowest_loss_is_preferred(cls, position: str, limits: Limits, option: dict) -> None:
    game = cls.from_position(position)
    truth = move_values_solved(game)
    slowest = max(truth.values())
    assert slowest <= -WIN_THRESHOLD and min(truth.values()) < slowest  # faster losses exist
    result, _ = run(game, limits, AlphaBeta(option))
    assert result.score.kind == ScoreKind.LOSS and result.score.bound == Bound.EXACT
    assert internal(result.score) == slowest
    assert result.score.plies == WIN + slowest  # the longest resistance there is
    assert truth[result.best_move] == slowest


def test_depth_limited_search_delays_a_loss_it_sees() -> None:
    """Only a loss in 2 is within a 3-ply horizon of the blocking move: it is avoided."""
    game = TicTacToe.from_position(TICTACTOE_LOSS)
    truth = move_values_solved(game)
    result, _ = run(game, Limits(depth=3))
    assert game.format_move(result.best_move) == "c1"
    assert result.score.kind == ScoreKind.HEURISTIC
    for root in result.root_moves:
        if root.move != result.best_move:
            assert root.score.kind == ScoreKind.LOSS, root
            assert consistent(root.score, truth[root.move]), root


# -- principal variations --------------------------------------------------------------------

PV_GAMES = [
    pytest.param(lambda: TicTacToe.from_position(""), id="tictactoe-start"),
    pytest.param(lambda: TicTacToe.from_position("x../.o./... x"), id="tictactoe"),
    pytest.param(lambda: Nim.from_position("1,2,4"), id="nim"),
    pytest.param(lambda: ConnectFour.from_position(WIN_IN_3_AND_7), id="connect4-win"),
    pytest.param(lambda: ConnectFour.from_position(LOSSES_IN_10_8_6), id="connect4-loss"),
    pytest.param(lambda: ConnectFour.from_position("4453"), id="connect4-opening"),
    pytest.param(lambda: RandomTreeGame(3, noisy_rate=0.3), id="randomtree"),
    pytest.param(lambda: ExchangeGame.from_position("100;300,900;300,500;7"), id="exchange"),
]
PV_LIMITS = [
    pytest.param(Limits(depth=3), id="depth3"),
    pytest.param(Limits(depth=6, multipv=3), id="depth6-multipv3"),
    pytest.param(Limits(nodes=3000), id="nodes"),
    pytest.param(Limits(solve=True, nodes=20_000), id="solve"),
    pytest.param(Limits(solve=True, multipv=3, nodes=20_000), id="solve-multipv3"),
    pytest.param(Limits(solve=True, nodes=200), id="solve-interrupted"),
]


@pytest.mark.parametrize("limits", PV_LIMITS)
@pytest.mark.parametrize("make", PV_GAMES)
def test_every_pv_replays_legally(make, limits: Limits) -> None:
    game = make()
    # `run` replays result.pv, every RootMove.pv and every Info.pv from the root.
    result, infos = run(game, limits)
    assert result.pv[0] == result.best_move == result.root_moves[0].move
    assert sorted(root.move for root in result.root_moves) == sorted(game.legal_moves())
    assert all(info.pv for info in infos)


def pv_disagreement(game: Game, score: Score, pv: list) -> str | None:
    """Why `pv` cannot be the line behind an exact proven `score`; None if it can be.

    A win or loss in n plies has a PV of at most n moves (it may be cut short); a PV that
    reaches the end of the game ends with the score's outcome, at exactly that distance.
    """
    if score.bound != Bound.EXACT or score.kind == ScoreKind.HEURISTIC:
        return None
    mate = score.kind in (ScoreKind.WIN, ScoreKind.LOSS)
    if mate and len(pv) > score.plies:
        return f"{len(pv)} moves for a {score}"
    side = game.to_move()
    for move in pv:
        game.play(move)
    try:
        if not game.is_terminal():
            return None
        outcome = game.returns()[side]
    finally:
        for _ in pv:
            game.undo()
    expected = {ScoreKind.WIN: 1, ScoreKind.LOSS: -1, ScoreKind.DRAW: 0}[score.kind]
    if outcome != expected or (mate and len(pv) != score.plies):
        return f"the line ends after {len(pv)} plies with {outcome:+} for a {score}"
    return None


def disagreements(game: Game, result: Result) -> list[str]:
    lines = [(result.score, result.pv)] + [(r.score, r.pv) for r in result.root_moves]
    found = []
    for score, pv in lines:
        reason = pv_disagreement(game, score, pv)
        if reason:
            found.append(f"{game.format_line(pv)}: {reason}")
    return found


def test_pv_of_a_win_is_not_stale_after_a_mate_distance_cutoff() -> None:
    """No table, so the PV is the search's own. After 3, 6 the side to move wins at once
    with 0. At ply 2, move 6 is searched first and fills the node's PV slot; move 0 then
    reaches the beta narrowed by mate-distance pruning (WIN - 3, below the caller's beta):
    the node's value is exact for the caller, so the slot must hold 0, not 6 3 (which
    gives the PV 3 6 6 3, four moves for a win in 3)."""
    game = RandomTreeGame(45)
    result, _ = run(game, Limits(depth=4), AlphaBeta({"Hash": 0}))
    assert result.score == Score(ScoreKind.WIN, plies=3)
    assert disagreements(game, result) == []


def test_solve_multipv_lines_agree_with_their_scores() -> None:
    """'c3' is a loss in 2 (x wins at once with c1): its PV may not be c3 a1 a2 c1."""
    game = TicTacToe.from_position(TICTACTOE_LOSS)
    result, _ = run(game, Limits(solve=True, multipv=3))
    assert disagreements(game, result) == []


SWEEP_LIMITS = {
    "depth=4": Limits(depth=4),
    "deepen": Limits(),
    "multipv=3": Limits(multipv=3),
    "solve": Limits(solve=True),
    "solve multipv=3": Limits(solve=True, multipv=3),
}


def test_pvs_of_proven_scores_agree_with_them() -> None:
    """A sweep over random trees and tic-tac-toe, depth-limited and solving, multi-PV,
    with and without a table."""
    found = []
    games: list[Game] = [RandomTreeGame(seed) for seed in range(100)]
    games += [TicTacToe.from_position(p) for p in ("", "x../.o./... x", TICTACTOE_LOSS)]
    for option in ({}, {"Hash": 0}):
        for game in games:
            for label, limits in SWEEP_LIMITS.items():
                result, _ = run(game, limits, AlphaBeta(option))
                where = f"{option} {game.name} {game.position()!r} {label}"
                found += [f"{where}: {d}" for d in disagreements(game, result)]
    assert found == []
