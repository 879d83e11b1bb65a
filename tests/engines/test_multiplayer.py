"""maxn, paranoid and brs against brute force on seeded toy trees of three and four players;
leaves, options, limits and reports."""

from __future__ import annotations

import threading

import pytest
from fakes import FakeClock
from multi_toys import Counted, FixedTree, PassingTree, PlayerTree, best_reply, coalition, maxn

from kibitz.engines import ENGINES
from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.mcts import MCTS
from kibitz.engines.multi import BestReply, MaxN, Paranoid
from kibitz.engines.multi.common import MultiPlayerEngine, SumBounds, leaf_values
from kibitz.engines.types import Info, Limits, Result
from kibitz.games.base import Game
from kibitz.games.nim import Nim
from kibitz.games.tictactoe import TicTacToe
from kibitz.vocabulary import Bound, StopReason

TREES = [(seed, players) for seed in range(12) for players in (3, 4)]
"""(seed, players) of the random trees every comparison runs on."""
TABLES = [None, 0, 3]
"""Default table, no table, a 3-slot table (constant collisions)."""


def run(
    engine: MultiPlayerEngine, game: Game, limits: Limits, **context
) -> tuple[Result, list[Info]]:
    infos: list[Info] = []
    result = engine.search(game, limits, SearchContext(report=infos.append, **context))
    return result, infos


def child_values(game: Game, reference, depth: int, *args) -> dict:
    """Each root move's reference value one ply down."""
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = reference(Counted(game), depth - 1, *args)
        game.undo()
    return values


# -- maxn ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players"), TREES)
@pytest.mark.parametrize("tt", TABLES)
def test_maxn_with_pruning_returns_what_plain_maxn_returns(seed, players, tt) -> None:
    game = PlayerTree(seed, players, max_depth=6, transpose=seed % 2 == 1)
    depth = 5
    truth = child_values(game, maxn, depth, 0)
    plain = maxn(Counted(game), depth, 0)
    first = next(move for move in game.legal_moves() if truth[move] == plain)
    results = {}
    for pruning in (False, True):
        engine = MaxN({"Pruning": pruning}, tt_entries=tt)
        result, _ = run(engine, game, Limits(depth=depth))
        assert result.score.values == plain
        assert result.best_move == first
        assert result.score.value == round(100 * plain[0])
        for root in result.root_moves:
            if root.score.bound == Bound.EXACT:
                assert root.score.values == truth[root.move]
            else:  # cut: its value for the root player is at most the one shown
                assert pruning and root.score.bound == Bound.UPPER
                assert truth[root.move][0] <= root.score.values[0]
        results[pruning] = result
    if tt == 0:  # without a table the plain search visits every node, pruning a subset
        assert results[True].nodes <= results[False].nodes
    assert game.path == ()


def test_pruning_and_paranoid_cut_nodes() -> None:
    """Twelve trees of three players searched to depth 6 without a table: 11428 nodes plain,
    8897 with pruning (582 shallow cuts, 29 immediate), 3147 paranoid."""
    counts = {}
    cuts = {"shallow_cuts": 0.0, "immediate_cuts": 0.0}
    for name, engine, options in [
        ("plain", MaxN, {"Pruning": False}),
        ("pruned", MaxN, {}),
        ("paranoid", Paranoid, {}),
    ]:
        counts[name] = 0
        for seed in range(12):
            result, _ = run(
                engine(options, tt_entries=0), PlayerTree(seed, 3, max_depth=6), Limits(depth=6)
            )
            counts[name] += result.nodes
            if name == "pruned":
                cuts = {kind: cuts[kind] + result.stats[kind] for kind in cuts}
    assert counts == {"plain": 11428, "pruned": 8897, "paranoid": 3147}
    assert cuts == {"shallow_cuts": 582.0, "immediate_cuts": 29.0}


@pytest.mark.parametrize("tie_break", ["first", "paranoid", "altruistic"])
@pytest.mark.parametrize("seed", range(16))
def test_maxn_tie_breaks_on_general_sum_trees(seed, tie_break) -> None:
    game = PlayerTree(seed, 3, max_depth=5, total=3, bounded=False)
    result, _ = run(MaxN({"TieBreak": tie_break}), game, Limits(depth=5))
    assert result.score.values == maxn(Counted(game), 5, 0, tie_break)


@pytest.mark.parametrize("swap", [False, True])
def test_the_tie_break_decides_between_equal_own_values(swap) -> None:
    """The course's example: player 1 (index 0) gets 2 from (2, 3, 3) and from (2, 1, 7)
    alike; which it picks decides what the searching player 2 (index 1) gets."""
    leaves = [(2.0, 3.0, 3.0), (2.0, 1.0, 7.0)]
    if swap:
        leaves.reverse()
    # player 2 moves, player 3 moves, player 1 picks a leaf
    game = FixedTree({(): [0], (0,): [0], (0, 0): [0, 1]}, dict(enumerate(leaves)), first=1)
    chosen = {
        tie_break: run(MaxN({"TieBreak": tie_break}), game, Limits(depth=3))[0].score.values
        for tie_break in ("first", "paranoid", "altruistic")
    }
    assert chosen == {"first": leaves[0], "paranoid": leaves[1 - swap], "altruistic": leaves[swap]}


# -- paranoid and brs -------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players"), TREES)
@pytest.mark.parametrize("tt", TABLES)
def test_paranoid_equals_minimax_on_the_coalition_tree(seed, players, tt) -> None:
    game = PlayerTree(seed, players, max_depth=6, transpose=seed % 2 == 1)
    depth = 5
    truth = child_values(game, coalition, depth, 0)
    value = coalition(Counted(game), depth, 0)
    result, _ = run(Paranoid(tt_entries=tt), game, Limits(depth=depth))
    assert result.score.values[0] == value
    assert truth[result.best_move] == value
    assert result.score.value == round(100 * value)
    for root in result.root_moves:
        shown = root.score.values[0]
        assert (
            truth[root.move] == shown
            if root.score.bound == Bound.EXACT
            else truth[root.move] <= shown
        )
    plain = Counted(game)  # plain minimax deepened as the engine deepens
    for iteration in range(1, depth + 1):
        coalition(plain, iteration, 0)
    assert result.nodes <= plain.nodes
    assert game.path == ()


@pytest.mark.parametrize(("seed", "players"), TREES)
@pytest.mark.parametrize("tree", [PlayerTree, PassingTree])
@pytest.mark.parametrize("tt", TABLES)
def test_brs_equals_brute_force_best_reply_search(seed, players, tree, tt) -> None:
    game = tree(seed, players, max_depth=9, transpose=seed % 2 == 1)
    depth = 4
    truth = child_values(game, best_reply, depth, 0)
    value = best_reply(Counted(game), depth, 0)
    result, _ = run(BestReply(tt_entries=tt), game, Limits(depth=depth))
    assert result.score.values[0] == value
    assert truth[result.best_move] == value
    for root in result.root_moves:
        shown = root.score.values[0]
        assert (
            truth[root.move] == shown
            if root.score.bound == Bound.EXACT
            else truth[root.move] <= shown
        )
    assert game.path == ()


def test_a_brs_line_stops_before_a_pass() -> None:
    game = PassingTree(3, 3, max_depth=9)
    result, _ = run(BestReply(), game, Limits(depth=4))
    assert PassingTree.PASS not in result.pv
    line = game.clone()
    for move in result.pv:
        assert move in line.legal_moves()
        line.play(move)


@pytest.mark.parametrize(
    ("engine", "options"),
    [(MaxN, {}), (MaxN, {"TieBreak": "paranoid"}), (Paranoid, {}), (BestReply, {})],
)
def test_what_an_engine_keeps_between_searches_changes_no_answer(engine, options) -> None:
    """A game's searches one after another, each from the next player's turn: the table
    kept from a deeper search for another root player gives the same answers as a fresh
    engine (its values were another player's)."""
    game = PlayerTree(11, 3, max_depth=10, transpose=True, p_terminal=0.0)
    kept = engine(options)
    for depth in (4, 2, 2):
        result, _ = run(kept, game, Limits(depth=depth))
        fresh, _ = run(engine(options), game, Limits(depth=depth))
        assert (result.best_move, result.score) == (fresh.best_move, fresh.score)
        game.play(result.best_move)


# -- leaves, options, limits, reports ----------------------------------------------------------


def test_a_heuristic_leaf_is_mapped_into_the_declared_bounds() -> None:
    game = PlayerTree(1, 3)
    game.node().evaluation = [300, -300, 0]
    assert leaf_values(game, None) == (3.0, -3.0, 0.0)
    assert leaf_values(game, SumBounds(6.0, 0.0)) == (4.0, 0.0, 2.0)
    assert leaf_values(game, SumBounds(30.0, 0.0)) == (13.0, 7.0, 10.0)
    assert leaf_values(game, SumBounds(0.0, -2.0, 1.5)) == (1.5, -1.5, 0.0)
    assert SumBounds(0.0, -1.0).most(3) == 2.0
    assert SumBounds(0.0, -1.0, 1.0).most(3) == 1.0


def test_engines_are_registered_and_search_games_of_two_players_and_more() -> None:
    for engine in (MaxN, Paranoid, BestReply):
        assert ENGINES[engine.name] is engine
        assert engine.supports(TicTacToe)
    assert MaxN.requires.unmet(Nim) == []


def test_options() -> None:
    assert MaxN().options == {"Hash": 16, "TieBreak": "first", "Pruning": True}
    assert Paranoid().options == {"Hash": 16, "Killers": True, "History": True}
    with pytest.raises(OptionError, match="TieBreak"):
        MaxN({"TieBreak": "random"})
    with pytest.raises(OptionError, match="engine brs has no option 'Pruning'"):
        BestReply({"Pruning": False})


@pytest.mark.parametrize("engine", [MaxN, Paranoid, BestReply])
def test_two_player_values_are_the_game_values(engine) -> None:
    """In a two-player zero-sum game all three are minimax: tic-tac-toe is a draw."""
    result, _ = run(engine(), TicTacToe.from_position(""), Limits())
    assert result.score.values == (0.0, 0.0)
    assert result.stop_reason == engine.exhausted


@pytest.mark.parametrize("engine", [MaxN, Paranoid, BestReply])
def test_each_iteration_reports_every_root_move(engine) -> None:
    game = PlayerTree(5, 3, max_depth=12)
    result, infos = run(engine(), game, Limits(depth=4))
    assert [info.depth for info in infos] == [1, 2, 3, 4]
    assert result.depth == 4 and result.stop_reason == StopReason.DEPTH
    moves = sorted(game.legal_moves())
    for info in infos:
        assert sorted(root.move for root in info.root_moves) == moves
        assert all(len(root.score.values) == 3 for root in info.root_moves)
    assert infos[-1].root_moves[0].score == result.score
    assert result.nodes == infos[-1].nodes


@pytest.mark.parametrize("engine", [MaxN, Paranoid, BestReply])
def test_a_node_limit_ends_the_search_after_the_first_iteration(engine) -> None:
    game = PlayerTree(7, 4, max_depth=12, p_terminal=0.0)
    result, _ = run(engine(), game, Limits(nodes=300))
    assert result.stop_reason == StopReason.NODES
    assert result.depth >= 1 and result.best_move in game.legal_moves()
    assert 300 <= result.nodes < 300 + 512
    assert game.path == ()


@pytest.mark.parametrize("engine", [MaxN, Paranoid, BestReply])
def test_stop_and_time(engine) -> None:
    game = PlayerTree(8, 3, max_depth=40, p_terminal=0.0)
    stop = threading.Event()
    stop.set()
    result, _ = run(engine(), game, Limits(), stop=stop)
    assert result.stop_reason == StopReason.STOPPED and result.nodes == 0
    assert len(result.score.values) == 3
    result, _ = run(engine(), game, Limits(movetime=1.0), clock=FakeClock(0.01))
    assert result.stop_reason == StopReason.TIME and result.depth >= 1
    late = {"clock": FakeClock(0.001), "started": 0.0}  # the deadline passed in a queue
    result, _ = run(engine(), game, Limits(movetime=0.005), **late)
    assert result.stop_reason == StopReason.TIME and result.nodes == 0
    assert result.best_move == game.legal_moves()[0]
    assert game.path == ()


def test_a_finished_game_has_no_move_and_its_returns() -> None:
    game = PlayerTree(2, 3, max_depth=1)
    game.play(game.legal_moves()[0])
    result, _ = run(MaxN(), game, Limits())
    assert result.best_move is None and result.stop_reason == StopReason.GAME_OVER
    assert result.score.values == game.returns()


def test_mcts_scores_carry_every_players_mean_return() -> None:
    game = PlayerTree(4, 3, max_depth=6)
    result, _ = run(MCTS({"Seed": 1}), game, Limits(nodes=400))
    visited = [root for root in result.root_moves if root.score.visits]
    assert len(visited) == len(game.legal_moves())
    for root in visited:
        values = root.score.values
        assert len(values) == 3 and sum(values) == pytest.approx(6.0)
        assert root.score.value == round(100 * values[0])
    assert result.score == result.root_moves[0].score
    two, _ = run(MCTS({"Seed": 1}), TicTacToe.from_position(""), Limits(nodes=50))
    assert all(root.score.values is None for root in two.root_moves)
