"""Exact-solve mode (`Limits(solve=True)`): null-window probes at unlimited depth.

Against brute force on random trees (every leaf terminal) and tic-tac-toe, multi-PV, and
interrupted solves (node limit, stop signal) that must still answer with a legal move and the
best bound they proved.
"""

from __future__ import annotations

import pytest
from test_alphabeta import (
    CountingStop,
    FakeClock,
    consistent,
    internal,
    move_values_solved,
    one_ply_further,
    run,
)
from testdata import connect4_sample
from toys import RandomTreeGame, negamax, published_internal, solve

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.types import Limits, Score
from kibitz.games.base import Game
from kibitz.games.connect4 import ConnectFour
from kibitz.games.tictactoe import TicTacToe
from kibitz.vocabulary import Bound, ScoreKind

TT_VARIANTS = [None, 0, 3]
"""Default table, no table, a 3-slot table (constant collisions)."""

# Published scores (Pons's convention) of positions from Test_L2_R1, hard-coded so that these
# tests run without the data; most need hundreds to thousands of nodes to solve.
HARD = [
    ("664111771115734446237", 6),
    ("2556433363141147", 8),
    ("73456313216733265273265117", 2),
    ("5554224333234511764415115", 4),
    ("", 1),  # the empty board: the first player wins with the last stone
]


def tree_params(seed: int) -> dict:
    return {
        "max_depth": (4, 6, 7)[seed % 3],
        "p_terminal": (0.15, 0.4)[seed % 2],
        "noisy_rate": (0.0, 0.3)[seed % 5 == 0],
    }


@pytest.mark.parametrize("seed", range(30))
def test_random_tree_solve_equals_negamax(seed: int) -> None:
    params = tree_params(seed)
    game = RandomTreeGame(seed + 300, **params)
    value = solve(game)
    assert negamax(game, params["max_depth"]) == value  # every leaf is terminal
    truth = move_values_solved(game)
    for entries in TT_VARIANTS:
        result, _ = run(game, Limits(solve=True), AlphaBeta(tt_entries=entries))
        assert internal(result.score) == value, entries
        assert result.score.bound == Bound.EXACT
        assert result.score.kind != ScoreKind.HEURISTIC
        assert result.stop_reason == "solved" and result.stats["solved"] == 1.0
        assert truth[result.best_move] == value
        assert sorted(root.move for root in result.root_moves) == sorted(truth)
        for root in result.root_moves:
            assert consistent(root.score, truth[root.move]), (entries, root)


def test_tictactoe_start_solves_to_a_draw() -> None:
    game = TicTacToe.from_position("")
    result, infos = run(game, Limits(solve=True))
    assert result.score == Score(ScoreKind.DRAW, bound=Bound.EXACT)
    assert result.stop_reason == "solved" and result.stats["solved"] == 1.0
    assert len(result.root_moves) == 9
    assert infos and infos[-1].score == result.score


MULTIPV_GAMES = [
    pytest.param(lambda: TicTacToe.from_position("x../.o./... x"), id="tictactoe-1"),
    pytest.param(lambda: TicTacToe.from_position(".o./.x./x.. o"), id="tictactoe-2"),
    pytest.param(lambda: TicTacToe.from_position(""), id="tictactoe-start"),
    *[pytest.param(lambda s=s: RandomTreeGame(s + 400), id=f"randomtree-{s}") for s in range(8)],
]


@pytest.mark.parametrize("make", MULTIPV_GAMES)
def test_solve_multipv_gives_exact_lines(make) -> None:
    game = make()
    truth = move_values_solved(game)
    k = min(3, len(truth))
    result, infos = run(game, Limits(solve=True, multipv=3))
    top = result.root_moves[:k]
    assert all(root.score.bound == Bound.EXACT for root in top)
    assert [internal(root.score) for root in top] == sorted(truth.values(), reverse=True)[:k]
    for root in top:
        assert internal(root.score) == truth[root.move], root
    for root in result.root_moves:
        assert consistent(root.score, truth[root.move]), root
    assert result.stop_reason == "solved"
    assert [info.multipv for info in infos[-k:]] == list(range(1, k + 1))
    assert [info.pv[0] for info in infos[-k:]] == [root.move for root in top]


def child_value(game: Game, move) -> int:
    """The solved value of `move` (for the side to move before it)."""
    game.play(move)
    try:
        result, _ = run(game, Limits(solve=True))
    finally:
        game.undo()
    assert result.stop_reason in ("solved", "game_over")
    return one_ply_further(-internal(result.score))


def proven_claims_are_true(result, truth: dict) -> list:
    """Root scores claiming a proven result (win, loss, draw) that the truth contradicts."""
    return [
        (root.move, str(root.score), truth[root.move])
        for root in result.root_moves
        if root.score.kind != ScoreKind.HEURISTIC
        and (root.score.plies < 0 or not consistent(root.score, truth[root.move]))
    ]


def assert_best_proven_bound(game: Game, result, infos, truth: int) -> None:
    """An interrupted solve answers with a legal move and the best bound it proved.

    The probes report each proven bound in an Info (bound LOWER or UPPER). Nothing is lost
    at the end: the result's score is a bound at least as strong as the best lower bound
    reported or, with none, the best upper bound. Only when nothing was proven may it be a
    heuristic estimate. Any claim it makes is true.
    """
    assert result.best_move in game.legal_moves()
    assert result.pv[0] == result.best_move
    assert sorted(root.move for root in result.root_moves) == sorted(game.legal_moves())
    lowers = [internal(i.score) for i in infos if i.score.bound == Bound.LOWER]
    uppers = [internal(i.score) for i in infos if i.score.bound == Bound.UPPER]
    score = result.score
    if lowers:
        assert score.bound == Bound.LOWER and internal(score) >= max(lowers), (score, lowers)
    elif uppers:
        assert score.bound == Bound.UPPER and internal(score) <= min(uppers), (score, uppers)
    if score.bound != Bound.EXACT or score.kind != ScoreKind.HEURISTIC:
        assert consistent(score, truth), (score, truth)
    if score.bound == Bound.LOWER:  # the best move is the one that proved it
        assert child_value(game, result.best_move) >= internal(score)


@pytest.mark.parametrize("limit", [50, 300, 1000])
@pytest.mark.parametrize(("moves", "published"), HARD)
def test_solve_interrupted_by_a_node_limit(moves: str, published: int, limit: int) -> None:
    game = ConnectFour.from_position(moves)
    truth = published_internal(published, len(moves))
    result, infos = run(game, Limits(solve=True, nodes=limit), info_interval=0)
    if result.stop_reason == "solved":  # quicker than the limit: then it is exact
        assert internal(result.score) == truth and result.score.bound == Bound.EXACT
        return
    assert result.stop_reason == "nodes"
    assert result.nodes <= limit + 10
    assert_best_proven_bound(game, result, infos, truth)


@pytest.mark.parametrize("polls", [1, 2, 3])
@pytest.mark.parametrize(("moves", "published"), HARD)
def test_solve_stopped_by_the_stop_signal(moves: str, published: int, polls: int) -> None:
    game = ConnectFour.from_position(moves)
    stop = CountingStop(polls)  # the first poll is before the search starts
    result, infos = run(game, Limits(solve=True), stop=stop, info_interval=0)
    if result.stop_reason == "solved":
        assert internal(result.score) == published_internal(published, len(moves))
        return
    assert result.stop_reason == "stopped"
    assert stop.calls <= polls + 2  # stopped at (about) the first poll that saw it
    assert_best_proven_bound(game, result, infos, published_internal(published, len(moves)))


def test_solve_stopped_before_it_starts() -> None:
    game = ConnectFour.from_position("4453")
    result, infos = run(game, Limits(solve=True), stop=CountingStop(0))
    assert result.stop_reason == "stopped" and result.depth == 0 and infos == []
    assert result.best_move == game.ordered_moves()[0]


# Published losses from Test_L2_R1 whose solve proves "at most a draw" early, long before
# any lower bound: an interruption then has only an upper bound to report.
UPPER_FIRST = [
    ("1233722555341451114725221333", -1),
    ("35653272262316437167672", -3),
    ("57553212327714336423676622", -2),
    ("253527614166761447574", -6),
]


def test_interrupted_solve_keeps_a_proven_upper_bound() -> None:
    """A lost position's first probe ("above a draw?") fails low: the Info says "<= draw".
    Interrupted before any lower bound, the result must still say at most a draw (or
    better), not a heuristic estimate such as +0.17 that contradicts what was proven."""
    only_upper = 0
    failures = []
    for moves, published in UPPER_FIRST:
        game = ConnectFour.from_position(moves)
        truth = published_internal(published, len(moves))
        for limit in (300, 600, 1000):
            result, infos = run(game, Limits(solve=True, nodes=limit), info_interval=0)
            bounds = {info.score.bound for info in infos}
            if result.stop_reason != "nodes" or Bound.UPPER not in bounds:
                continue
            only_upper += Bound.LOWER not in bounds
            try:
                assert_best_proven_bound(game, result, infos, truth)
            except AssertionError:
                proven = [str(i.score) for i in infos if i.score.bound != Bound.EXACT]
                failures.append((moves, limit, f"proved {proven}, answered {result.score}"))
    assert only_upper > 0  # the premise: some interruption had only an upper bound
    assert failures == []


def test_interrupted_solve_never_claims_a_false_result() -> None:
    """Every root move's proven-kind score (win, loss, draw) after an interruption is true:
    in particular no root move the interrupted probe never reached may keep a placeholder
    such as "<= loss in -1" (internal -INF; negative plies do not even fit the wire's
    uint32)."""
    found = []
    for moves, _ in connect4_sample("Test_L3_R1", 20):
        game = ConnectFour.from_position(moves)
        truth = move_values_solved(game)
        for limit in (3, 10, 30, 100):
            result, _ = run(game, Limits(solve=True, nodes=limit))
            if result.stop_reason == "nodes":
                assert result.best_move in game.legal_moves()
                found += [(moves, limit, *bad) for bad in proven_claims_are_true(result, truth)]
    assert found == []


@pytest.mark.parametrize(("kernel", "nodes"), [(False, 6000), (True, 100_000)])
def test_a_long_solve_reports_progress_periodically(kernel: bool, nodes: int) -> None:
    """`SearchContext.info_interval` promises periodic Info reports. A solve whose first
    probe takes long (the empty board) must still report progress (nodes, time) while it
    runs, not only once at the end: a client streaming the search sees nothing otherwise.
    The clock is read at every poll (512 nodes in Python, 8192 in the kernel): about 12
    reads of 0.01 s, some 5 intervals."""
    game = ConnectFour.from_position("")
    clock = FakeClock(0.01)
    limits = Limits(solve=True, nodes=nodes)
    engine = AlphaBeta({"Kernel": kernel})
    result, infos = run(game, limits, engine, clock=clock, info_interval=0.02)
    assert result.stop_reason == "nodes"
    during = [info for info in infos if info.nodes < result.nodes]
    assert len(during) >= 2, [(info.nodes, str(info.score)) for info in infos]
    assert [info.nodes for info in during] == sorted(info.nodes for info in during)
