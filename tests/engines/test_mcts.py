"""The `mcts` engine: the solver against exact values, convergence to the minimax move,
tree reuse, reproducibility, limits, more than two players, chance, priors, memory."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest
from fakes import FakeClock
from testdata import HEX_WINNING_FIRST_MOVES, connect4_positions
from toys import RandomTreeGame, solve

from kibitz.engines import ENGINES
from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import SearchContext
from kibitz.engines.mcts import MCTS, kernels
from kibitz.engines.mcts.tree import AMAF_ENTRY_BYTES, NODE_BYTES
from kibitz.engines.timeman import allocate
from kibitz.engines.types import (
    WIN_THRESHOLD,
    Bound,
    Clock,
    Info,
    Limits,
    ScoreKind,
    StopReason,
)
from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import MovePriors
from kibitz.games.connect4 import ConnectFour
from kibitz.games.hex import Hex
from kibitz.games.nim import Nim
from kibitz.games.tictactoe import TicTacToe


def run(state: Game, limits: Limits, **options):
    infos: list[Info] = []
    engine = MCTS(options)
    result = engine.search(state, limits, SearchContext(report=infos.append))
    return result, infos


def visits(result) -> dict:
    return {root.move: root.score.visits for root in result.root_moves}


# -- the solver ------------------------------------------------------------------------------


def test_the_solver_proves_tic_tac_toe_a_draw():
    result, _ = run(TicTacToe.from_position(""), Limits(nodes=200_000))
    assert result.stop_reason == StopReason.SOLVED
    assert result.score.kind == ScoreKind.DRAW
    assert result.nodes < 200_000
    # every other first move is known not to win (the draw is the best there is)
    assert all(root.score.kind == ScoreKind.DRAW for root in result.root_moves)
    assert all(root.score.bound in (Bound.EXACT, Bound.UPPER) for root in result.root_moves)


def test_without_the_solver_nothing_is_proven():
    result, _ = run(TicTacToe.from_position(""), Limits(nodes=5_000), Solver=False)
    assert result.stop_reason == StopReason.NODES and result.nodes == 5_000
    assert result.score.kind == ScoreKind.HEURISTIC


@pytest.mark.parametrize("hooks", [True, False], ids=["hooks", "no-hooks"])
@pytest.mark.parametrize("line", connect4_positions("Test_L3_R1")[:12], ids=str)
def test_the_solver_proves_connect_four_endgames_like_alpha_beta(line, hooks):
    moves, _ = line
    state = ConnectFour.from_position(moves)
    exact = AlphaBeta().search(state, Limits(solve=True), SearchContext()).score
    result, _ = run(state, Limits(nodes=300_000), GameHooks=hooks)
    assert result.stop_reason == StopReason.SOLVED
    assert result.score.kind == exact.kind
    if exact.kind == ScoreKind.WIN:  # a proof's win is never faster than the fastest
        assert result.score.plies >= exact.plies
        state.play(result.best_move)  # and the move it chose wins
        after = AlphaBeta().search(state, Limits(solve=True), SearchContext()).score
        assert after.kind == ScoreKind.LOSS


def test_a_proven_loss_is_never_chosen_when_another_move_exists():
    # x has 1, 2, 3 on the bottom row: o must block column 4, every other move loses
    state = ConnectFour.from_position("11223")
    result, _ = run(state, Limits(nodes=60))
    assert state.format_move(result.best_move) == "4"
    losses = [root for root in result.root_moves if root.score.kind == ScoreKind.LOSS]
    assert losses and all(root.score.plies == 2 for root in losses)


def test_a_win_on_the_spot_is_proven_and_played():
    state = ConnectFour.from_position("112233")
    result, _ = run(state, Limits(nodes=1000))
    assert state.format_move(result.best_move) == "4"
    assert result.score.kind == ScoreKind.WIN and result.score.plies == 1
    assert result.stop_reason == StopReason.SOLVED


# -- convergence -----------------------------------------------------------------------------


def minimax_moves(game: Game) -> set:
    """The root moves whose exact value (win/draw/loss) is the root's."""
    sign = lambda value: (value > 0) - (value < 0)  # noqa: E731
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = -sign(solve(game))
        game.undo()
    best = max(values.values())
    return {move for move, value in values.items() if value == best}


@pytest.mark.parametrize("seed", range(12))
def test_the_most_visited_move_converges_to_a_minimax_move(seed):
    game = RandomTreeGame(seed, max_depth=5)  # its root is never terminal
    result, _ = run(game, Limits(nodes=4000), Solver=False)
    assert result.best_move in minimax_moves(game)
    proven, _ = run(game, Limits(nodes=50_000))
    assert proven.stop_reason == StopReason.SOLVED
    assert proven.best_move in minimax_moves(game)
    exact = solve(game)
    kind = (
        ScoreKind.WIN
        if exact >= WIN_THRESHOLD
        else ScoreKind.LOSS
        if exact <= -WIN_THRESHOLD
        else ScoreKind.DRAW
    )
    assert proven.score.kind == kind


# -- reuse and reproducibility ---------------------------------------------------------------


def test_a_reused_subtree_keeps_its_exact_visit_counts():
    engine = MCTS({"Seed": 3})
    state = ConnectFour.from_position("44")
    first = engine.search(state, Limits(nodes=3000), SearchContext())
    move = first.best_move
    state.play(move)
    second = engine.search(state, Limits(nodes=1000), SearchContext())
    assert second.stats["reused_visits"] == visits(first)[move]
    assert second.nodes == 1000
    assert sum(visits(second).values()) == visits(first)[move] - 1 + 1000
    # two moves on (the engine's answer and the reply)
    reply = second.best_move
    grandchild = dict((root.move, root.pv) for root in second.root_moves)[reply]
    state.play(reply)
    state.play(grandchild[1])
    expected = engine._previous[1].child(reply).child(grandchild[1]).visits
    third = engine.search(state, Limits(nodes=10), SearchContext())
    assert third.stats["reused_visits"] == expected > 0


def test_reuse_off_new_game_and_an_unrelated_position_start_afresh():
    state = ConnectFour.from_position("44")
    engine = MCTS({"Seed": 3, "Reuse": False})
    engine.search(state, Limits(nodes=500), SearchContext())
    assert engine.search(state, Limits(nodes=10), SearchContext()).stats["reused_visits"] == 0
    engine = MCTS({"Seed": 3})
    engine.search(state, Limits(nodes=500), SearchContext())
    engine.new_game()
    assert engine.search(state, Limits(nodes=10), SearchContext()).stats["reused_visits"] == 0
    engine.search(state, Limits(nodes=500), SearchContext())
    other = ConnectFour.from_position("1111")
    assert engine.search(other, Limits(nodes=10), SearchContext()).stats["reused_visits"] == 0


def test_the_same_seed_gives_the_same_search():
    state = ConnectFour.from_position("4")
    first, _ = run(state, Limits(nodes=2000), Seed=11)
    second, _ = run(state, Limits(nodes=2000), Seed=11)
    other, _ = run(state, Limits(nodes=2000), Seed=12)
    assert visits(first) == visits(second) and first.pv == second.pv
    assert visits(first) != visits(other)


# -- limits and output -----------------------------------------------------------------------


class StopAfter:
    """A stop signal raised at its `polls`-th poll."""

    def __init__(self, polls: int) -> None:
        self.polls = polls

    def is_set(self) -> bool:
        self.polls -= 1
        return self.polls < 0


def test_a_stopped_search_answers_with_its_best_move():
    state = ConnectFour.from_position("")
    result = MCTS().search(state, Limits(infinite=True), SearchContext(stop=StopAfter(40)))
    assert result.stop_reason == StopReason.STOPPED
    assert result.best_move in state.legal_moves() and result.nodes > 0
    assert result.best_move == max(result.root_moves, key=lambda r: r.score.visits).move


def test_search_moves_restrict_the_root_and_are_not_reused():
    state = ConnectFour.from_position("")
    engine = MCTS()
    result = engine.search(state, Limits(nodes=300, search_moves=[0, 6]), SearchContext())
    assert {root.move for root in result.root_moves} == {0, 6}
    after = engine.search(state, Limits(nodes=10), SearchContext())
    assert after.stats["reused_visits"] == 0 and len(after.root_moves) == 7


def test_multipv_reports_a_line_per_move_and_every_root_move_once():
    result, infos = run(ConnectFour.from_position(""), Limits(nodes=500, multipv=3))
    last = infos[-3:]
    assert [info.multipv for info in last] == [1, 2, 3]
    assert len(last[0].root_moves) == 7 and not last[1].root_moves
    assert [info.pv[0] for info in last] == [root.move for root in result.root_moves[:3]]


def test_scores_carry_visits_and_win_draw_loss_rates():
    result, _ = run(ConnectFour.from_position(""), Limits(nodes=700))
    assert sum(visits(result).values()) == 700
    for root in result.root_moves:
        score = root.score
        assert score.win + score.draw + score.loss == pytest.approx(1.0)
        assert score.kind == ScoreKind.HEURISTIC
        assert score.value == round(100 * (score.win - score.loss))  # returns are +1/0/-1
    assert result.best_move == max(result.root_moves, key=lambda r: r.score.visits).move


def test_depth_is_the_average_depth_and_a_depth_limit_stops_there():
    result, _ = run(ConnectFour.from_position(""), Limits(depth=3))
    assert result.stop_reason == StopReason.DEPTH
    assert result.stats["average_depth"] >= 3 and result.depth == round(
        result.stats["average_depth"]
    )
    assert result.seldepth >= result.depth


def test_a_full_tree_stops_growing_and_says_so():
    result, _ = run(ConnectFour.from_position(""), Limits(nodes=5000), TreeMemory=1)
    assert result.stats["tree_full"] == 1.0 and result.nodes == 5000
    assert 2**20 <= result.stats["tree_bytes"] < 2**20 + 2 * AMAF_ENTRY_BYTES * 7
    assert result.stats["tree_nodes"] < 2**20 / NODE_BYTES
    assert MCTS.memory_mb(MCTS({"TreeMemory": 300}).options) == 300


@pytest.mark.parametrize("kernel", [False, True], ids=["python", "kernel"])
@pytest.mark.parametrize("rave", [False, True], ids=["plain", "rave"])
@pytest.mark.parametrize(("game", "position"), [(ConnectFour, ""), (Hex, "7"), (Hex, "11")])
def test_the_memory_bound_counts_at_least_what_the_tree_takes(game, position, rave, kernel):
    import tracemalloc

    engine = MCTS({"RAVE": "on" if rave else "off", "Kernel": kernel})
    state = game.from_position(position)
    tracemalloc.start()
    try:
        result = engine.search(state, Limits(nodes=300), SearchContext())
        bound = result.stats["tree_bytes"]
        del result  # its root moves are the caller's, not the tree's
        snapshot = tracemalloc.take_snapshot()  # the tree is kept for reuse
    finally:
        tracemalloc.stop()
    # what the engine's own modules allocated and still hold (not the games' caches)
    mine = snapshot.filter_traces([tracemalloc.Filter(True, "*/kibitz/engines/mcts/*")])
    held = sum(stat.size for stat in mine.statistics("filename"))
    assert held <= bound
    if not kernel:  # the bound is the Python tree's size; the compiled tree takes less
        assert bound <= 1.5 * held


# -- more players, chance, priors ------------------------------------------------------------


class ThreePlayerToy(Game):
    """Players 0, 1, 2 choose in turn among 3 moves; each leaf has a seeded random return
    per player (not zero-sum)."""

    name: ClassVar[str] = "three"
    title: ClassVar[str] = "Three-player toy"
    players: ClassVar[int] = 3
    zero_sum: ClassVar[bool] = False
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "-"

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.leaves = {
            (a, b, c): tuple(rng.random() for _ in range(3))
            for a in range(3)
            for b in range(3)
            for c in range(3)
        }
        self.path: tuple[int, ...] = ()

    @classmethod
    def from_position(cls, text: str) -> ThreePlayerToy:
        return cls(int(text or 0))

    def position(self) -> str:
        return str(self.path)

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return len(self.path)

    def legal_moves(self) -> list[Move]:
        return [] if len(self.path) == 3 else [0, 1, 2]

    def play(self, move: Move) -> None:
        self.path = (*self.path, move)

    def undo(self) -> None:
        self.path = self.path[:-1]

    def is_terminal(self) -> bool:
        return len(self.path) == 3

    def returns(self) -> tuple[float, ...]:
        return self.leaves[self.path]

    def render(self) -> str:
        return str(self.path)


def max_n(game: ThreePlayerToy) -> tuple[float, ...]:
    """The max^n value: every player maximises their own return."""
    if game.is_terminal():
        return game.returns()
    player = game.to_move()
    values = []
    for move in game.legal_moves():
        game.play(move)
        values.append(max_n(game))
        game.undo()
    return max(values, key=lambda value: value[player])


@pytest.mark.parametrize("seed", range(4))
def test_three_players_each_maximise_their_own_return(seed):
    game = ThreePlayerToy(seed)
    assert MCTS.supports(ThreePlayerToy)
    result, _ = run(game, Limits(nodes=20_000))
    expected = {}
    for move in game.legal_moves():
        game.play(move)
        expected[move] = max_n(game)
        game.undo()
    best = max(expected, key=lambda move: expected[move][0])
    assert result.best_move == best
    # players 1 and 2 answer with their own best: the line is the max^n line
    line = [best]
    game.play(best)
    for _ in range(2):
        player = game.to_move()
        reply = max(game.legal_moves(), key=lambda move: leaf_value(game, move)[player])
        line.append(reply)
        game.play(reply)
    assert result.pv == line


def leaf_value(game: ThreePlayerToy, move: Move) -> tuple[float, ...]:
    game.play(move)
    value = max_n(game)
    game.undo()
    return value


class LuckyToy(Game):
    """Player 0 picks a coin: 'a' wins with probability 0.3, 'b' with 0.6; a chance node
    tosses it."""

    name: ClassVar[str] = "lucky"
    title: ClassVar[str] = "Lucky toy"
    has_chance: ClassVar[bool] = True
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "-"
    odds: ClassVar[dict[str, float]] = {"a": 0.3, "b": 0.6}

    def __init__(self) -> None:
        self.path: list[str] = []

    @classmethod
    def from_position(cls, text: str) -> LuckyToy:
        return cls()

    def position(self) -> str:
        return "".join(self.path)

    def parse_move(self, text: str) -> Move:
        return text

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return 0 if not self.path else CHANCE

    def legal_moves(self) -> list[Move]:
        if not self.path:
            return ["a", "b"]
        return [] if len(self.path) == 2 else ["win", "loss"]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        odds = self.odds[self.path[0]]
        return [("win", odds), ("loss", 1 - odds)]

    def play(self, move: Move) -> None:
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()

    def is_terminal(self) -> bool:
        return len(self.path) == 2

    def returns(self) -> tuple[float, ...]:
        return (1.0, -1.0) if self.path[1] == "win" else (-1.0, 1.0)

    def render(self) -> str:
        return self.position()


def test_chance_nodes_are_sampled_by_their_probabilities():
    result, _ = run(LuckyToy(), Limits(nodes=20_000))
    assert result.best_move == "b"
    scores = {root.move: root.score for root in result.root_moves}
    assert scores["b"].win == pytest.approx(0.6, abs=0.02)
    assert scores["a"].win == pytest.approx(0.3, abs=0.1)  # explored less
    assert result.stop_reason == StopReason.NODES  # no proofs with chance


class PriorTicTacToe(TicTacToe, MovePriors):
    """Tic-tac-toe whose priors favour the centre (9/17) over the rest (1/17 each)."""

    name: ClassVar[str] = "priortictactoe"

    def move_priors(self) -> list[tuple[Move, float]]:
        moves = self.legal_moves()
        weights = {move: 9.0 if move == 4 else 1.0 for move in moves}
        total = sum(weights.values())
        return [(move, weights[move] / total) for move in moves]


def test_puct_tries_the_likeliest_move_first_and_reports_priors():
    state = PriorTicTacToe.from_position("")
    result, _ = run(state, Limits(nodes=1), FPU=0)
    assert [root.score.visits for root in result.root_moves] == [1] + [0] * 8
    assert result.best_move == 4 and result.root_moves[0].prior == pytest.approx(9 / 17)
    assert all(root.prior is not None for root in result.root_moves)
    unprioritised, _ = run(state, Limits(nodes=1), FPU=0, Priors=False)
    assert unprioritised.best_move == 0  # legal order
    assert all(root.prior is None for root in unprioritised.root_moves)
    result, _ = run(state, Limits(nodes=400), FPU=0)
    assert result.best_move == 4 and visits(result)[4] > 200


def test_rave_learns_from_every_move_of_a_simulation():
    state = Nim.from_position("3,4,5")
    engine = MCTS({"RAVE": "on", "Seed": 2})
    result = engine.search(state, Limits(nodes=3000), SearchContext())
    root = engine._previous[1]
    assert root.amaf and sum(entry[0] for entry in root.amaf.values()) >= 3000
    plain = MCTS({"Seed": 2, "RAVE": "off"}).search(state, Limits(nodes=3000), SearchContext())
    assert visits(plain) != visits(result)
    proven = MCTS({"RAVE": "on"}).search(state, Limits(nodes=100_000), SearchContext())
    assert proven.score.kind == ScoreKind.WIN  # 3,4,5 is a first-player win ...
    assert state.format_move(proven.best_move) == "1:2"  # ... by taking 2 from heap 1


def test_the_engine_is_registered():
    assert ENGINES["mcts"] is MCTS and MCTS.supports(Nim)


@pytest.mark.skipif(not kernels.playout_for(ConnectFour), reason="the kernels were not built")
@pytest.mark.parametrize("rave", ["off", "on"])
def test_compiled_playouts_are_the_python_playouts_move_for_move(rave):
    for moves in ("", "4453", "44444432"):
        state = ConnectFour.from_position(moves)
        compiled, _ = run(state, Limits(nodes=3000), RAVE=rave, Seed=4)
        python, _ = run(state, Limits(nodes=3000), RAVE=rave, Seed=4, Kernel=False)
        assert visits(compiled) == visits(python) and compiled.pv == python.pv
        assert [root.score for root in compiled.root_moves] == [
            root.score for root in python.root_moves
        ]


def test_on_a_clock_the_search_takes_its_share_not_the_hard_limit():
    limits = Limits(clock=Clock(time_left=[3.0, 3.0]))
    deadlines = allocate(limits, 0)
    assert deadlines.soft < deadlines.hard
    clock = FakeClock(0.01)
    result = MCTS().search(ConnectFour.from_position(""), limits, SearchContext(clock=clock))
    assert result.stop_reason == StopReason.TIME
    assert deadlines.soft <= result.time <= deadlines.soft + 0.03


# -- Hex, the game MCTS made its name in ---------------------------------------------------


@pytest.mark.parametrize("size", [2, 3])
def test_the_solver_proves_every_first_move_on_small_hex_boards(size):
    state = Hex.from_position(str(size))
    for move in state.legal_moves():
        state.play(move)
        result, _ = run(state, Limits(nodes=200_000))
        state.undo()
        assert result.stop_reason == StopReason.SOLVED
        black_wins = result.score.kind == ScoreKind.LOSS  # White, to move, loses
        assert black_wins == (state.format_move(move) in HEX_WINNING_FIRST_MOVES[size])


def test_the_solver_proves_4x4_hex_won_by_a_short_diagonal_opening():
    state = Hex.from_position("4")
    result, _ = run(state, Limits(nodes=300_000), RAVE="off")  # (off: a quicker proof)
    assert result.stop_reason == StopReason.SOLVED and result.score.kind == ScoreKind.WIN
    assert state.format_move(result.best_move) in HEX_WINNING_FIRST_MOVES[4]


def test_rave_by_default_where_the_game_says_it_pays():
    hex_engine = MCTS()
    hex_engine.search(Hex.from_position("5"), Limits(nodes=50), SearchContext())
    assert hex_engine._previous[1].amaf  # Hex: all moves as first
    connect4 = MCTS()
    connect4.search(ConnectFour.from_position(""), Limits(nodes=50), SearchContext())
    assert connect4._previous[1].amaf is None
    assert Hex.all_moves_as_first and not ConnectFour.all_moves_as_first
