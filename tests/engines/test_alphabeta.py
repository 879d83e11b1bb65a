"""AlphaBeta against brute force: toy random trees, tic-tac-toe, Nim; limits and stopping."""

from __future__ import annotations

import random

import pytest
from fakes import FakeClock
from toys import ChanceToy, RandomTreeGame, negamax, solve

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.alphabeta.root import STATIC_MOVES
from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.timeman import allocate
from kibitz.engines.types import WIN, WIN_THRESHOLD, Clock, Info, Limits, Result, Score
from kibitz.games.base import Game
from kibitz.games.connect4 import ConnectFour
from kibitz.games.nim import MisereNim, Nim
from kibitz.games.tictactoe import TicTacToe
from kibitz.vocabulary import Bound, ScoreKind

TT_VARIANTS = [None, 0, 3]
"""Default table, no table, a 3-slot table (constant collisions)."""


# -- helpers ---------------------------------------------------------------------------------


def internal(score: Score) -> int:
    """Back from a Score to the engine's negamax integer."""
    if score.kind == ScoreKind.WIN:
        return WIN - score.plies
    if score.kind == ScoreKind.LOSS:
        return score.plies - WIN
    if score.kind == ScoreKind.DRAW:
        return 0
    return score.value


def one_ply_further(value: int) -> int:
    """A node-relative value seen from the parent (wins and losses one ply further away)."""
    if value >= WIN_THRESHOLD:
        return value - 1
    if value <= -WIN_THRESHOLD:
        return value + 1
    return value


def move_values_at_depth(game: Game, depth: int) -> dict:
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = -negamax(game, depth - 1, 1)
        game.undo()
    return values


def move_values_solved(game: Game) -> dict:
    memo: dict[int, int] = {}
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = one_ply_further(-solve(game, memo))
        game.undo()
    return values


def consistent(score: Score, truth: int) -> bool:
    value = internal(score)
    if score.bound == Bound.EXACT:
        return value == truth
    if score.bound == Bound.LOWER:
        return truth >= value
    return truth <= value


def assert_legal_line(game: Game, line) -> None:
    played = 0
    try:
        for move in line:
            assert move in game.legal_moves(), f"illegal {move!r} in {line!r}"
            game.play(move)
            played += 1
    finally:
        for _ in range(played):
            game.undo()


def snapshot(game: Game):
    return game.position(), game.key(), game.legal_moves(), game.render()


def run(game: Game, limits: Limits | None = None, engine: AlphaBeta | None = None, **context):
    infos: list[Info] = []
    engine = engine or AlphaBeta()
    before = snapshot(game)
    result = engine.search(game, limits or Limits(), SearchContext(report=infos.append, **context))
    assert snapshot(game) == before, "search changed the state"
    assert_legal_line(game, result.pv)
    for root in result.root_moves:
        assert root.pv[:1] == [root.move]
        assert_legal_line(game, root.pv)
    for info in infos:
        assert_legal_line(game, info.pv)
    return result, infos


class CountingStop:
    """A stop signal that becomes set after `polls` calls."""

    def __init__(self, polls: int) -> None:
        self.polls = polls
        self.calls = 0

    def is_set(self) -> bool:
        self.calls += 1
        return self.calls > self.polls


# -- random trees against brute force --------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_tree_value_equals_negamax(seed: int) -> None:
    game = RandomTreeGame(seed, noisy_rate=0.3 if seed % 2 else 0.0)
    full = move_values_solved(game)
    for depth in range(1, 7):
        reference = move_values_at_depth(game, depth)
        for entries in TT_VARIANTS:
            for aspiration in (0, 50):
                engine = AlphaBeta({"Aspiration": aspiration}, tt_entries=entries)
                result, _ = run(game, Limits(depth=depth), engine)
                assert internal(result.score) == max(reference.values()), (depth, entries)
                assert result.score.bound == Bound.EXACT
                assert result.root_moves[0].move == result.best_move
                assert reference[result.best_move] == max(reference.values())
                assert {root.move for root in result.root_moves} == set(reference)
                solved = result.stats["solved"] == 1.0
                assert result.depth == depth or (solved and result.depth < depth)
                for root in result.root_moves:
                    assert consistent(root.score, reference[root.move]), (depth, root)
                    if root.score.kind != ScoreKind.HEURISTIC:
                        assert consistent(root.score, full[root.move]), (depth, root)
                if solved:
                    assert result.score.kind != ScoreKind.HEURISTIC
                    assert internal(result.score) == max(full.values())


@pytest.mark.parametrize("seed", range(15))
def test_random_tree_multipv_exact_top_moves(seed: int) -> None:
    game = RandomTreeGame(seed + 100)
    depth = 4
    reference = move_values_at_depth(game, depth)
    k = min(3, len(reference))
    result, infos = run(game, Limits(depth=depth, multipv=3), AlphaBeta())
    top = result.root_moves[:k]
    assert all(root.score.bound == Bound.EXACT for root in top)
    values = [internal(root.score) for root in top]
    assert values == sorted(reference.values(), reverse=True)[:k]
    assert all(reference[root.move] == internal(root.score) for root in top)
    for root in result.root_moves:
        assert consistent(root.score, reference[root.move])
    last = [info for info in infos if info.depth == result.depth]
    assert [info.multipv for info in last] == list(range(1, k + 1))
    assert [info.pv[0] for info in last] == [root.move for root in top]


@pytest.mark.parametrize("seed", range(10))
def test_random_tree_search_moves(seed: int) -> None:
    game = RandomTreeGame(seed + 200)
    reference = move_values_at_depth(game, 4)
    subset = random.Random(seed).sample(sorted(reference), 2)
    result, _ = run(game, Limits(depth=4, search_moves=subset))
    assert {root.move for root in result.root_moves} == set(subset)
    assert internal(result.score) == max(reference[move] for move in subset)


def test_supports_two_player_games_without_chance() -> None:
    assert AlphaBeta.supports(TicTacToe)
    assert AlphaBeta.supports(RandomTreeGame)
    assert not AlphaBeta.supports(ChanceToy)


def test_options() -> None:
    engine = AlphaBeta({"hash": "2", "Aspiration": 10})
    assert engine.options["Hash"] == 2 and engine.options["Aspiration"] == 10
    assert engine.options["PVS"] is True
    with pytest.raises(OptionError):
        AlphaBeta({"Hash": -1})
    with pytest.raises(OptionError):
        AlphaBeta({"PVS": "maybe"})
    with pytest.raises(OptionError):
        AlphaBeta({"Threads": 2})


# -- tic-tac-toe -----------------------------------------------------------------------------


@pytest.mark.parametrize("limits", [Limits(), Limits(infinite=True)])
def test_tictactoe_start_is_a_proven_draw(limits: Limits) -> None:
    result, infos = run(TicTacToe.from_position(""), limits)
    assert result.score == Score(ScoreKind.DRAW, bound=Bound.EXACT)
    assert result.stats["solved"] == 1.0 and result.stop_reason == "solved"
    assert result.depth <= 9
    assert infos[-1].score.kind == ScoreKind.DRAW
    assert all(root.score.kind == ScoreKind.DRAW for root in result.root_moves)
    assert len(result.root_moves) == 9


def test_tictactoe_prefers_the_fastest_win() -> None:
    game = TicTacToe.from_position("xx./o../o.. x")
    truth = move_values_solved(game)
    result, _ = run(game)
    assert game.format_move(result.best_move) == "c3"
    assert result.score == Score(ScoreKind.WIN, plies=1)
    assert result.pv == [result.best_move]
    assert sorted(truth.values())[-2] == WIN - 3  # there is a slower win
    for root in result.root_moves:
        assert consistent(root.score, truth[root.move])


def test_tictactoe_multipv_matches_solved_values() -> None:
    game = TicTacToe.from_position("x../.o./... x")
    truth = move_values_solved(game)
    result, infos = run(game, Limits(multipv=4))
    top = result.root_moves[:4]
    assert [internal(root.score) for root in top] == sorted(truth.values(), reverse=True)[:4]
    for root in result.root_moves:
        assert consistent(root.score, truth[root.move])
        assert root.score.kind != ScoreKind.HEURISTIC  # solved: every score is proven
    assert all(root.score.bound == Bound.EXACT for root in top)
    assert {info.multipv for info in infos} == {1, 2, 3, 4}


def test_tictactoe_search_moves() -> None:
    game = TicTacToe.from_position("")
    result, _ = run(game, Limits(search_moves=[1, 0]))
    assert {root.move for root in result.root_moves} == {0, 1}
    assert result.best_move in (0, 1)
    assert result.score.kind == ScoreKind.DRAW


def test_terminal_root() -> None:
    result, infos = run(TicTacToe.from_position("xxx/oo./... o"))
    assert result.best_move is None and result.pv == [] and result.root_moves == []
    assert result.score == Score(ScoreKind.LOSS, plies=0)
    assert result.stop_reason == "game_over"
    assert infos == []
    result, _ = run(TicTacToe.from_position("xox/xoo/oxx"))
    assert result.score == Score(ScoreKind.DRAW)


# -- Nim -------------------------------------------------------------------------------------

NIM_POSITIONS = ["1,2,3", "3,4,5", "2,2", "1,1,1", "2,3,4", "1,4,5", "7", "2,5,6"]


@pytest.mark.parametrize("cls", [Nim, MisereNim])
@pytest.mark.parametrize("position", NIM_POSITIONS)
def test_nim_matches_sprague_grundy(cls: type[Nim], position: str) -> None:
    game = cls.from_position(position)
    mover_wins = game.evaluate() > 0  # the game's evaluate is the exact verdict
    if cls is Nim:
        nimsum = 0
        for heap in map(int, position.split(",")):
            nimsum ^= heap
        assert mover_wins == (nimsum != 0)
    result, _ = run(game)
    assert result.stats["solved"] == 1.0
    assert result.score.bound == Bound.EXACT
    assert result.score.kind == (ScoreKind.WIN if mover_wins else ScoreKind.LOSS)
    truth = move_values_solved(game)
    assert internal(result.score) == max(truth.values())
    for root in result.root_moves:
        assert consistent(root.score, truth[root.move])
    if mover_wins:
        game.play(result.best_move)
        assert game.evaluate() < 0 or game.is_terminal()
        game.undo()


# -- limits, stopping, reporting -------------------------------------------------------------


def test_node_limit_is_respected() -> None:
    game = ConnectFour.from_position("")
    for limit in (50, 700, 3000):
        result, _ = run(game, Limits(nodes=limit))
        assert result.nodes <= limit + 10
        assert result.stop_reason == "nodes"
        assert result.best_move in game.legal_moves()
        assert result.depth >= 1


def test_stop_signal_returns_a_completed_iteration() -> None:
    game = ConnectFour.from_position("")
    depths = []
    for polls in (0, 1, 3, 10, 40):
        stop = CountingStop(polls + 1)  # the first poll happens before the search starts
        result, infos = run(game, Limits(infinite=True), stop=stop)
        assert result.best_move in game.legal_moves()
        assert stop.calls <= polls + 3
        assert result.stop_reason == "stopped"
        if result.depth:  # the deepest completed iteration's answer
            assert result.depth == infos[-1].depth
            assert result.best_move == infos[-1].pv[0]
        else:  # stopped within depth 1: ranked without a search
            assert infos == [] and len(result.root_moves) == 7
        depths.append(result.depth)
    assert depths == sorted(depths) and depths[-1] >= 2


def test_stop_before_start_still_gives_a_move() -> None:
    game = TicTacToe.from_position("")
    result, infos = run(game, stop=CountingStop(0))
    assert result.best_move == game.ordered_moves()[0]
    assert result.score.kind == ScoreKind.HEURISTIC
    assert result.depth == 0 and infos == []
    assert result.stop_reason == "stopped"


def test_movetime_with_a_fake_clock() -> None:
    game = ConnectFour.from_position("")
    clock = FakeClock(0.01)
    result, _ = run(game, Limits(movetime=0.2), clock=clock, info_interval=0)
    assert result.best_move in game.legal_moves()
    assert result.depth >= 1
    assert result.time <= 0.2 + 0.011
    assert result.stop_reason == "time"
    assert clock.calls < 40


def test_clock_limit_with_a_fake_clock() -> None:
    game = ConnectFour.from_position("")
    clock = FakeClock(0.02)
    limits = Limits(clock=Clock(time_left=[60.0, 2.0], increment=[0.0, 0.0]))
    result, _ = run(game, limits, clock=clock)  # player 0 to move: 2 s soft, 10 s hard
    assert result.depth >= 2
    assert result.time <= 10.0
    game.play(3)
    clock = FakeClock(0.02)
    result, _ = run(game, limits, clock=clock)  # player 1: 0.067 s soft, 0.98 s hard
    assert result.time <= 0.98 + 0.021
    assert result.best_move in game.legal_moves()
    game.undo()


@pytest.mark.parametrize("kernel", [False, True])
def test_periodic_info_during_an_iteration(kernel: bool) -> None:
    game = ConnectFour.from_position("")
    clock = FakeClock(0.01)
    engine = AlphaBeta({"Kernel": kernel})
    depth = 12 if kernel else 9  # the kernel polls every 8192 nodes, Python every 512
    result, infos = run(game, Limits(depth=depth), engine, clock=clock, info_interval=0.02)
    assert len(infos) > result.depth  # more than the one report per completed depth
    times = [info.time for info in infos]
    assert times == sorted(times)


def test_info_fields_per_depth() -> None:
    game = TicTacToe.from_position("x../.o./... x")
    result, infos = run(game, Limits(depth=3))
    assert [info.depth for info in infos] == [1, 2, 3]
    assert result.stop_reason == "depth"
    assert all(info.multipv == 1 and info.pv for info in infos)
    assert infos[-1].nodes == result.nodes
    assert 0 <= infos[-1].hashfull <= 1000
    assert infos[-1].seldepth >= 3


def test_statistics_and_table_persistence() -> None:
    game = ConnectFour.from_position("")
    engine = AlphaBeta({"Hash": 1})
    first, _ = run(game, Limits(depth=6), engine)
    assert 0.0 < first.stats["first_move_cutoff_rate"] <= 1.0
    assert first.stats["tt_hits"] > 0
    assert first.stats["ebf"] > 1.0
    second, _ = run(game, Limits(depth=6), engine)
    assert second.nodes < first.nodes  # the table survived between searches
    engine.new_game()
    third, _ = run(game, Limits(depth=6), engine)
    assert third.nodes == first.nodes


def test_illegal_search_moves_are_rejected() -> None:
    game = TicTacToe.from_position("x../.../... o")
    with pytest.raises(ValueError):
        AlphaBeta().search(game, Limits(search_moves=[6]), SearchContext())


def test_result_type() -> None:
    result, _ = run(TicTacToe.from_position(""), Limits(depth=2))
    assert isinstance(result, Result)


def test_a_wide_root_is_cut_within_depth_1_by_the_hard_deadline() -> None:
    game = Nim.from_position(",".join(["300"] * 8))  # 2400 root moves
    clock = FakeClock(0.03)  # 30 ms per clock read (one per 512 nodes): depth 1 needs 0.12 s
    result, _ = run(game, Limits(movetime=0.05), clock=clock)
    assert result.stop_reason == "time" and result.depth == 0
    # ranked without a search: the first STATIC_MOVES in search order (the rest unsearched)
    assert len(result.root_moves) == STATIC_MOVES and result.best_move is not None
    assert result.best_move == game.ordered_moves()[0]  # a winning move by Sprague-Grundy
    hard = allocate(Limits(movetime=0.05), 0).hard
    assert result.time <= hard + 2 * clock.step
