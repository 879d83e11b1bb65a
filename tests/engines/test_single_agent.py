"""The single-agent engines `idastar` and `astar`: every algorithm's cost against an
independent Dijkstra on seeded random weighted grids (non-unit costs) and on the 8-puzzle
(against breadth-first search over the whole state space), IDA*'s exact node counts, the
suboptimal forms' bounds, the cost limit, the memory bound, stops and node limits, and
the answer's shape (line, score, bound, costs)."""

from __future__ import annotations

import heapq
import random
import threading
import tracemalloc
from collections import deque
from typing import ClassVar

import pytest

from kibitz.engines import ENGINES, Engine, Info, Limits, OptionError, SearchContext
from kibitz.engines.single import AStar, IDAStar
from kibitz.engines.single.astar import NODE_BYTES, MemoryBoundExceeded
from kibitz.engines.single.idastar import MAX_LINE
from kibitz.games import Game, Move
from kibitz.games.capabilities import HashKey, Puzzle
from kibitz.vocabulary import Bound, ScoreKind, StopReason

# -- a small puzzle of our own: the cheapest path across a weighted grid ----------------------

STEPS = {"u": (-1, 0), "l": (0, -1), "r": (0, 1), "d": (1, 0)}
OPPOSITE = {"u": "d", "d": "u", "l": "r", "r": "l"}
WALL = 0


class Grid(Game, Puzzle, HashKey):
    """Walk from the position's cell to the bottom-right cell of `GRID`; entering a cell
    costs its number (0: a wall). Position: "row,col". Heuristics: "manhattan" (the
    distance times the cheapest cell: admissible and consistent) and "zero"."""

    name: ClassVar[str] = "grid-path"
    title: ClassVar[str] = "Grid path"
    players: ClassVar[int] = 1
    zero_sum: ClassVar[bool] = False
    default_position: ClassVar[str] = "0,0"
    notation_help: ClassVar[str] = "row,col"
    heuristic_names: ClassVar[tuple[str, ...]] = ("manhattan", "zero")
    unit_costs: ClassVar[bool] = False
    GRID: ClassVar[tuple[tuple[int, ...], ...]] = ((1,),)

    def __init__(self, cell: tuple[int, int]) -> None:
        self.cell = cell
        self.history: list[tuple[int, int]] = []
        rows, columns = len(self.GRID), len(self.GRID[0])
        self.goal = (rows - 1, columns - 1)
        self.cheapest = min(cost for row in self.GRID for cost in row if cost)

    @classmethod
    def from_position(cls, text: str) -> Grid:
        row, column = (int(part) for part in (text or cls.default_position).split(","))
        return cls((row, column))

    def position(self) -> str:
        return f"{self.cell[0]},{self.cell[1]}"

    def parse_move(self, text: str) -> Move:
        return text

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return 0

    def target(self, move: Move) -> tuple[int, int]:
        (dr, dc), (row, column) = STEPS[move], self.cell
        return row + dr, column + dc

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        moves = []
        for move in STEPS:
            row, column = self.target(move)
            inside = 0 <= row < len(self.GRID) and 0 <= column < len(self.GRID[0])
            if inside and self.GRID[row][column] != WALL:
                moves.append(move)
        return moves

    def play(self, move: Move) -> None:
        self.history.append(self.cell)
        self.cell = self.target(move)

    def undo(self) -> None:
        self.cell = self.history.pop()

    def is_terminal(self) -> bool:
        return self.cell == self.goal

    def returns(self) -> tuple[float, ...]:
        return (1.0,) if self.is_terminal() else (0.0,)

    def render(self) -> str:
        return self.position()

    def key(self) -> tuple[int, int]:
        return self.cell

    def move_cost(self, move: Move) -> int:
        row, column = self.target(move)
        return self.GRID[row][column]

    def heuristic(self, name: str = "") -> int:
        if name == "zero":
            return 0
        (row, column), (goal_row, goal_column) = self.cell, self.goal
        return (abs(goal_row - row) + abs(goal_column - column)) * self.cheapest

    def inverse(self, move: Move) -> Move | None:
        return OPPOSITE[move]


def grid_class(grid: list[list[int]], unit: bool = False) -> type[Grid]:
    """A Grid game on `grid` (with every cost 1 where `unit`)."""
    cells = tuple(tuple(min(cost, 1) if unit else cost for cost in row) for row in grid)
    return type("Grid", (Grid,), {"GRID": cells, "unit_costs": unit})


def random_grid(seed: int, rows: int = 6, columns: int = 7, walls: float = 0.2) -> list[list[int]]:
    """Costs 1 to 9, some walls, the corners open (not always connected)."""
    rng = random.Random(seed)
    grid = [
        [WALL if rng.random() < walls else rng.randint(1, 9) for _ in range(columns)]
        for _ in range(rows)
    ]
    grid[0][0], grid[-1][-1] = 1, rng.randint(1, 9)
    return grid


def dijkstra(game: type[Grid]) -> int | None:
    """The cheapest cost from (0, 0) to the goal, independently (None: unreachable)."""
    grid = game.GRID
    goal = (len(grid) - 1, len(grid[0]) - 1)
    best = {(0, 0): 0}
    heap = [(0, (0, 0))]
    while heap:
        cost, (row, column) = heapq.heappop(heap)
        if (row, column) == goal:
            return cost
        if cost > best[(row, column)]:
            continue
        for dr, dc in STEPS.values():
            r, c = row + dr, column + dc
            inside = 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] != WALL
            if inside and cost + grid[r][c] < best.get((r, c), 1 << 60):
                best[(r, c)] = cost + grid[r][c]
                heapq.heappush(heap, (best[(r, c)], (r, c)))
    return None


def run(engine: Engine, state: Game, limits: Limits | None = None, **context):
    infos: list[Info] = []
    before = state.position()
    result = engine.search(state, limits or Limits(), SearchContext(report=infos.append, **context))
    assert state.position() == before, "the search moved the position"
    return result, infos


def replay(state: Game, line: list[Move]) -> tuple[Game, int]:
    """A copy of `state` after `line` (each move checked legal) and the line's cost."""
    copy = state.clone()
    cost = 0
    for move in line:
        assert move in copy.legal_moves(), f"{move!r} is illegal"
        cost += copy.move_cost(move)
        copy.play(move)
    return copy, cost


OPTIMAL = [
    (IDAStar, {"Algorithm": "idastar"}),
    (IDAStar, {"Algorithm": "iddfs"}),
    (AStar, {"Algorithm": "astar"}),
    (AStar, {"Algorithm": "dijkstra"}),
]
SOLVABLE = [seed for seed in range(40) if dijkstra(grid_class(random_grid(seed))) is not None][:8]


def check_solution(state: Game, result, cost: int, bound: Bound = Bound.EXACT) -> None:
    """`result` solves `state` with a line of cost `cost` (a suboptimal one: at least)."""
    end, line_cost = replay(state, result.pv)
    assert end.is_terminal()
    assert result.best_move == result.pv[0] == result.root_moves[0].move
    assert result.stop_reason == StopReason.SOLVED
    assert result.score.kind == ScoreKind.WIN and result.score.bound == bound
    assert result.score.plies == len(result.pv)
    assert result.stats["solution_cost"] == line_cost
    if bound == Bound.EXACT:
        assert line_cost == cost == result.stats["cost_bound"]
    else:
        assert line_cost >= cost and result.stats["cost_bound"] <= cost


@pytest.mark.parametrize("seed", SOLVABLE)
@pytest.mark.parametrize(("engine", "options"), OPTIMAL, ids=lambda o: str(o))
def test_optimal_algorithms_find_the_cheapest_path(seed, engine, options) -> None:
    game = grid_class(random_grid(seed))
    state = game.from_position("")
    result, infos = run(engine(options), state)
    check_solution(state, result, dijkstra(game))
    assert infos and infos[-1].pv == result.pv


@pytest.mark.parametrize("seed", SOLVABLE)
def test_bfs_and_iddfs_count_moves_on_unit_costs(seed) -> None:
    game = grid_class(random_grid(seed), unit=True)
    state = game.from_position("")
    shortest = dijkstra(game)
    for engine in (AStar({"Algorithm": "bfs"}), IDAStar({"Algorithm": "iddfs"}), AStar()):
        result, _ = run(engine, state)
        check_solution(state, result, shortest)
        assert len(result.pv) == shortest


def test_bfs_refuses_moves_of_different_costs() -> None:
    state = grid_class(random_grid(SOLVABLE[0])).from_position("")
    with pytest.raises(OptionError, match="bfs needs unit move costs"):
        AStar({"Algorithm": "bfs"}).search(state, Limits(), SearchContext())


@pytest.mark.parametrize("seed", SOLVABLE)
@pytest.mark.parametrize("options", [{"Algorithm": "greedy"}, {"Algorithm": "weighted"}])
def test_suboptimal_algorithms_reach_the_goal_with_a_lower_bound(seed, options) -> None:
    game = grid_class(random_grid(seed))
    state = game.from_position("")
    cheapest = dijkstra(game)
    result, _ = run(AStar(options), state)
    check_solution(state, result, cheapest, Bound.LOWER)
    if options["Algorithm"] == "weighted":  # W = 2: within twice the cheapest
        assert result.stats["solution_cost"] <= 2 * cheapest


def test_greedy_can_be_worse_than_optimal() -> None:
    """A cheap detour: greedy walks straight into the expensive cells."""
    grid = [[1, 9, 9, 9], [1, 9, 9, 9], [1, 1, 1, 1]]
    state = grid_class([row[:] for row in grid]).from_position("")
    greedy, _ = run(AStar({"Algorithm": "greedy"}), state)
    best, _ = run(AStar(), state)
    assert best.stats["solution_cost"] == 5 and best.pv == list("ddrrr")
    assert greedy.stats["solution_cost"] > 5 and greedy.score.bound == Bound.LOWER


def test_the_heuristic_option_names_one_of_the_games() -> None:
    game = grid_class(random_grid(SOLVABLE[0]))
    state = game.from_position("")
    with_h, _ = run(IDAStar({"Heuristic": "manhattan"}), state)
    without, _ = run(IDAStar({"Heuristic": "zero"}), state)
    assert with_h.stats["solution_cost"] == without.stats["solution_cost"]
    assert with_h.nodes < without.nodes
    with pytest.raises(OptionError, match="'octile' is not a heuristic of grid-path"):
        IDAStar({"Heuristic": "octile"}).search(state, Limits(), SearchContext())


def test_idastar_counts_nodes_by_its_convention() -> None:
    """A 1x3 corridor of costs 1, 2, 3 from the left end, h = 0 (iddfs), counted by hand:
    a position cut off by the threshold counts, the move back is pruned. Threshold 0: the
    root, the middle cut off at f = 2 (2 nodes); 2: root, middle, the goal cut off at f = 5
    (3 nodes); 5: root, middle, goal (3 nodes): 8 in all."""
    state = grid_class([[1, 2, 3]]).from_position("0,0")
    result, infos = run(IDAStar({"Algorithm": "iddfs"}), state)
    assert result.nodes == 8 and result.pv == ["r", "r"]
    assert [info.depth for info in infos] == [0, 2, 5]
    assert [info.nodes for info in infos] == [2, 5, 8]
    assert result.stats["iterations"] == 3


def test_idastar_node_counts_are_deterministic() -> None:
    state = grid_class(random_grid(SOLVABLE[0])).from_position("")
    counts = {run(IDAStar(), state)[0].nodes for _ in range(3)}
    assert len(counts) == 1


def test_a_cost_limit_without_a_solution_says_so() -> None:
    game = grid_class(random_grid(SOLVABLE[1]))
    state = game.from_position("")
    cheapest = dijkstra(game)
    for engine in (IDAStar(), AStar()):
        result, _ = run(engine, state, Limits(depth=cheapest - 1))
        assert result.stop_reason == StopReason.DEPTH
        assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.UPPER
        assert cheapest - 1 < result.stats["cost_bound"] <= cheapest
        assert result.best_move in state.legal_moves()
        exact, _ = run(engine, state, Limits(depth=cheapest))
        check_solution(state, exact, cheapest)


WALLED = [[1, 1, 0], [1, 1, 0], [0, 0, 1]]


def test_an_unreachable_goal_is_a_proven_loss_for_astar() -> None:
    state = grid_class(WALLED).from_position("")
    result, _ = run(AStar(), state)
    assert result.stop_reason == StopReason.SOLVED
    assert result.score.kind == ScoreKind.LOSS and result.score.bound == Bound.EXACT
    assert result.best_move in state.legal_moves()


def test_idastar_ends_at_its_longest_line_where_moves_cycle() -> None:
    """Without a table IDA* cannot prove the goal unreachable here (the moves go round the
    2x2 room): it ends at MAX_LINE moves deep, the threshold its proven bound."""
    state = grid_class(WALLED).from_position("")
    result, _ = run(IDAStar(), state)
    assert result.stop_reason == StopReason.DEPTH and result.seldepth == MAX_LINE + 1
    assert result.score.bound == Bound.UPPER and result.stats["cost_bound"] >= MAX_LINE
    assert result.best_move in state.legal_moves()


def test_a_position_at_the_goal_is_game_over() -> None:
    state = grid_class([[1, 1]]).from_position("0,1")
    for engine in (IDAStar(), AStar()):
        result, _ = run(engine, state)
        assert result.stop_reason == StopReason.GAME_OVER and result.best_move is None
        assert result.score.kind == ScoreKind.WIN


def big_grid() -> type[Grid]:
    rng = random.Random(7)
    return grid_class([[rng.randint(1, 9) for _ in range(60)] for _ in range(60)])


def test_the_memory_bound_fails_with_a_clear_message() -> None:
    state = big_grid().from_position("")
    engine = AStar({"Algorithm": "dijkstra", "Memory": 1})
    assert AStar.memory_mb(engine.options) == 1
    with pytest.raises(MemoryBoundExceeded, match="the most its Memory option allows"):
        engine.search(state, Limits(), SearchContext())
    assert state.position() == "0,0"


@pytest.mark.parametrize(("engine", "options"), OPTIMAL, ids=lambda o: str(o))
def test_a_node_limit_answers_the_best_line_so_far(engine, options) -> None:
    state = big_grid().from_position("")
    result, _ = run(engine(options), state, Limits(nodes=300))
    assert result.stop_reason == StopReason.NODES and result.nodes == 300
    assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.UPPER
    assert "solution_cost" not in result.stats
    end, _ = replay(state, result.pv)
    assert not end.is_terminal() and result.pv[0] == result.best_move
    assert result.stats["cost_bound"] <= dijkstra(type(state))
    if options["Algorithm"] in ("idastar", "astar"):  # closer than the start by h
        assert end.heuristic() < state.heuristic()


@pytest.mark.parametrize("engine", [IDAStar, AStar])
def test_a_stop_answers_the_best_line_so_far(engine) -> None:
    state = big_grid().from_position("")
    stop = threading.Event()
    readings = iter(range(1 << 30))

    def clock() -> float:  # a millisecond a reading; the stop comes at the 4th
        reading = next(readings)
        if reading == 4:
            stop.set()
        return reading * 0.001

    options = {"Algorithm": "iddfs" if engine is IDAStar else "dijkstra"}
    result, _ = run(engine(options), state, Limits(infinite=True), stop=stop, clock=clock)
    assert result.stop_reason == StopReason.STOPPED
    assert result.score.bound == Bound.UPPER and result.best_move in state.legal_moves()
    replay(state, result.pv)


def test_search_moves_restrict_the_root() -> None:
    game = grid_class([[1, 1], [1, 1]])
    state = game.from_position("")
    for engine in (IDAStar(), AStar()):
        for first in ("r", "d"):
            result, _ = run(engine, state, Limits(search_moves=[first]))
            assert result.pv[0] == first and result.stats["solution_cost"] == 2


def test_the_engines_are_registered_for_puzzles_only() -> None:
    assert ENGINES["idastar"] is IDAStar and ENGINES["astar"] is AStar
    assert IDAStar.supports(Grid) and AStar.supports(Grid)

    class NoKeys(Game, Puzzle):
        players = 1

    assert IDAStar.supports(NoKeys) and not AStar.supports(NoKeys)
    assert "hash keys" in " ".join(AStar.requires.unmet(NoKeys))
    from kibitz.games.tictactoe import TicTacToe

    assert not IDAStar.supports(TicTacToe) and not AStar.supports(TicTacToe)


# -- the 8-puzzle (kibitz/games/sliding.py) -----------------------------------------------------

sliding = pytest.importorskip("kibitz.games.sliding")
EIGHT_GOAL = tuple(range(9))


def neighbours(tiles: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The arrangements one slide away (written here, not the game's code)."""
    blank = tiles.index(0)
    row, column = divmod(blank, 3)
    after = []
    for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= r < 3 and 0 <= c < 3:
            swapped = list(tiles)
            swapped[blank], swapped[3 * r + c] = swapped[3 * r + c], 0
            after.append(tuple(swapped))
    return after


@pytest.fixture(scope="module")
def eight_distances() -> dict[tuple[int, ...], int]:
    """Every 8-puzzle arrangement's distance to the goal (blank first, then 1..8), by a
    breadth-first search from the goal: the truth the engines must meet."""
    distance = {EIGHT_GOAL: 0}
    frontier = deque([EIGHT_GOAL])
    while frontier:
        tiles = frontier.popleft()
        for after in neighbours(tiles):
            if after not in distance:
                distance[after] = distance[tiles] + 1
                frontier.append(after)
    assert len(distance) == 181440
    return distance


def scrambled(seed: int, moves: int) -> str:
    """An 8-puzzle position `moves` random slides from the goal (seeded), not the goal."""
    rng = random.Random(seed)
    tiles = EIGHT_GOAL
    while tiles == EIGHT_GOAL:
        for _ in range(moves):
            tiles = rng.choice(neighbours(tiles))
    return ",".join(map(str, tiles))


def tiles_of(position: str) -> tuple[int, ...]:
    return tuple(int(tile) for tile in position.split(","))


ALL_FIVE = [
    IDAStar({"Algorithm": "idastar"}),
    IDAStar({"Heuristic": "misplaced"}),
    IDAStar({"Algorithm": "iddfs"}),
    AStar({"Algorithm": "astar"}),
    AStar({"Algorithm": "dijkstra"}),
    AStar({"Algorithm": "bfs"}),
]


@pytest.mark.parametrize("seed", range(4))
def test_eight_puzzle_every_optimal_algorithm_agrees(seed, eight_distances) -> None:
    position = scrambled(seed, 20)
    optimum = eight_distances[tiles_of(position)]
    state = sliding.SlidingPuzzle.from_position(position)
    for engine in ALL_FIVE:
        result, _ = run(engine, state)
        check_solution(state, result, optimum)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("heuristic", ["linear-conflicts", "manhattan"])
def test_eight_puzzle_deep_instances_with_each_heuristic(seed, heuristic, eight_distances) -> None:
    rng = random.Random(seed)
    tiles = list(EIGHT_GOAL)
    while True:  # a random arrangement the game accepts (half are unsolvable)
        rng.shuffle(tiles)
        if tuple(tiles) in eight_distances:
            break
    state = sliding.SlidingPuzzle.from_position(",".join(map(str, tiles)))
    optimum = eight_distances[tuple(tiles)]
    for engine in (IDAStar({"Heuristic": heuristic}), AStar({"Heuristic": heuristic})):
        result, _ = run(engine, state)
        check_solution(state, result, optimum)
    for options in ({"Algorithm": "greedy"}, {"Algorithm": "weighted", "Weight": 150}):
        result, _ = run(AStar({**options, "Heuristic": heuristic}), state)
        check_solution(state, result, optimum, Bound.LOWER)


EIGHT_IDA_NODES = {"linear-conflicts": 2777, "manhattan": 4364}


@pytest.mark.parametrize("heuristic", ["linear-conflicts", "manhattan"])
def test_eight_puzzle_idastar_node_counts_are_exact(heuristic) -> None:
    """The game's start position (20 moves from the goal): the node counts of the module
    docstring's convention, which a compiled kernel must repeat node for node."""
    state = sliding.SlidingPuzzle.from_position("")
    result, infos = run(IDAStar({"Heuristic": heuristic}), state)
    assert result.nodes == EIGHT_IDA_NODES[heuristic] and len(result.pv) == 20
    assert [info.nodes for info in infos] == sorted(info.nodes for info in infos)
    assert [info.depth for info in infos][-1] == 20


def test_the_declared_bytes_per_node_cover_what_a_search_takes() -> None:
    """tracemalloc's peak over the search, per position stored, between half and all of
    NODE_BYTES (the server's memory budget counts Memory MB of them)."""
    state = sliding.SlidingPuzzle.from_position("")
    tracemalloc.start()
    try:
        result, _ = run(AStar({"Algorithm": "dijkstra"}), state, Limits(nodes=20_000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    per_node = peak / result.stats["stored"]
    assert NODE_BYTES / 2 <= per_node <= NODE_BYTES, per_node


@pytest.mark.parametrize("engine", [IDAStar, AStar])
def test_no_time_left_answers_at_once(engine) -> None:
    """The request spent its time in the queue: the first move, 0 nodes, `time`."""
    state = sliding.SlidingPuzzle.from_position("")
    context = SearchContext(clock=lambda: 10.0, started=0.0)
    result = engine().search(state, Limits(movetime=0.005), context)
    assert result.stop_reason == StopReason.TIME and result.nodes == 0
    assert result.best_move == state.legal_moves()[0]
    assert result.score.bound == Bound.UPPER and result.stats["cost_bound"] == state.heuristic()


def test_idastar_repeats_korfs_published_node_count() -> None:
    """Korf's 15-puzzle instance 79 (Korf 1985, Table 1: 42 moves, 540,860 nodes with
    Manhattan distance). Korf counts the root once, this convention once per iteration:
    the counts differ by the iterations less one, and by nothing else."""
    state = sliding.SlidingPuzzle.from_position("0,1,9,7,11,13,5,3,14,12,4,2,8,6,10,15")
    result, _ = run(IDAStar({"Heuristic": "manhattan"}), state)
    assert len(result.pv) == 42 and result.stats["iterations"] == 8
    assert result.nodes == 540_867 == 540_860 + 8 - 1
