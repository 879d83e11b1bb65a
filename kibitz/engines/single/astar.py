"""The `astar` engine: best-first search with an open list and a closed set, in five forms
(option `Algorithm`): A* (f = g + h), Dijkstra's uniform-cost search (h = 0), breadth-first
search (unit costs only), greedy best-first (h alone) and weighted A* (f = g + W·h).

The open list is a heap ordered by priority, then larger g (deeper first among equals),
then first pushed; a position's best g so far is kept by its exact `key()` (open and
closed together), so a position is pushed again only when reached more cheaply, and a
position taken off the open list that is closed already or stale (a cheaper copy was
pushed since) is skipped. The goal is tested when a position is taken off the open list,
so that with a consistent h the first goal taken is a cheapest solution (A*, Dijkstra,
BFS); greedy and weighted A* never reopen a closed position.

**Node count**: one node for each position taken off the open list and tested, the root
included; skipped copies do not count (`stats["generated"]` counts the positions pushed).

The positions themselves are not stored: each node keeps its parent, the move from it, g
and its depth, and the one live state walks from node to node (undoing up to the common
ancestor, playing down). The `Memory` option bounds the nodes stored (about
`NODE_BYTES` each); a search that needs more fails with a message that says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from heapq import heappop, heappush
from typing import Any, ClassVar

from kibitz.engines.base import OptionError, OptionSpec, Requirements
from kibitz.engines.single.answer import Outcome
from kibitz.engines.single.common import (
    HEURISTIC_OPTION,
    Finish,
    Halt,
    Plan,
    Progress,
    PuzzleEngine,
)
from kibitz.games import Game, Move
from kibitz.games.capabilities import HashKey, Puzzle
from kibitz.vocabulary import StopReason

NODE_BYTES = 320
"""What a stored node takes, about (its lists' slots, its heap entry, its key in the table
of best g values and in the closed set): tracemalloc measures 215 to 260 bytes on the 8-
and 15-puzzles and the tests' grids (tests/engines/test_single_agent.py holds it to
between half and all of this)."""
INFINITE = float("inf")

WEIGHTS = {"astar": (1, 1), "dijkstra": (1, 0), "bfs": (1, 0), "greedy": (0, 1)}
"""Each algorithm's priority as (weight of g, weight of h); weighted A*'s is (100, Weight)."""
OPTIMAL = frozenset({"astar", "dijkstra", "bfs"})


class MemoryBoundExceeded(MemoryError):
    """The open and closed lists outgrew the `Memory` option: the search is lost, the engine
    stays usable (the server answers RESOURCE_EXHAUSTED with this message, as for any
    MemoryError of a search)."""


def max_nodes_for(megabytes: int) -> int:
    return max(1, megabytes * 1024 * 1024 // NODE_BYTES)


class NodeStore:
    """The search tree as parallel lists (parent, move, g, depth), and the live state,
    which stands at node `at` and walks to any other."""

    __slots__ = ("at", "depth", "g", "move", "parent", "state")

    def __init__(self, state: Game) -> None:
        self.state = state
        self.parent: list[int] = [-1]
        self.move: list[Move] = [None]
        self.g: list[int] = [0]
        self.depth: list[int] = [0]
        self.at = 0

    def __len__(self) -> int:
        return len(self.parent)

    def add(self, parent: int, move: Move, g: int) -> int:
        self.parent.append(parent)
        self.move.append(move)
        self.g.append(g)
        self.depth.append(self.depth[parent] + 1)
        return len(self.parent) - 1

    def goto(self, node: int) -> None:
        """Move the live state to `node`: undo up to the common ancestor, play down."""
        parent, depth, state = self.parent, self.depth, self.state
        here, there = self.at, node
        down: list[Move] = []
        while depth[there] > depth[here]:
            down.append(self.move[there])
            there = parent[there]
        while depth[here] > depth[there]:
            state.undo()
            here = parent[here]
        while here != there:
            state.undo()
            here = parent[here]
            down.append(self.move[there])
            there = parent[there]
        for move in reversed(down):
            state.play(move)
        self.at = node

    def line(self, node: int) -> list[Move]:
        """The moves from the root to `node`."""
        moves: list[Move] = []
        while node > 0:
            moves.append(self.move[node])
            node = self.parent[node]
        return moves[::-1]


class BestFirst:
    """One best-first search (see the module docstring)."""

    def __init__(
        self,
        state: Game,
        plan: Plan,
        progress: Progress,
        weights: tuple[int, int],
        optimal: bool,
        max_nodes: int,
    ) -> None:
        assert isinstance(state, Puzzle) and isinstance(state, HashKey)
        self.state = state
        self.plan = plan
        self.progress = progress
        self.weights = weights
        self.optimal = optimal
        self.max_nodes = max_nodes
        self.store = NodeStore(state)
        self.root_h = plan.heuristic()
        self.bound = self.root_h
        """A proven lower bound on the cheapest solution's cost (for the optimal forms the
        largest f taken off the open list: f never falls with a consistent h)."""
        self.closest = (self.root_h, 0)
        """(h, node) of the position closest to the goal by h, the first of equals."""
        self.solution: int | None = None
        self.generated = 0
        self.seldepth = 0

    def search(self) -> Finish:
        try:
            return self._search()
        except Halt as halt:
            return self.now(halt.reason)
        finally:
            self.store.goto(0)

    def _search(self) -> Finish:
        state, store, progress = self.state, self.store, self.progress
        heuristic = self.plan.heuristic
        g_weight, h_weight = self.weights
        limit = self.plan.cost_limit
        best_g: dict[Any, int] = {state.key(): 0}
        closed: set[Any] = set()
        heap: list[tuple[int, int, int]] = [(h_weight * self.root_h, 0, 0)]
        pruned: float = INFINITE  # the least f cut off by the cost limit
        while heap:
            priority, neg_g, node = heappop(heap)
            g = -neg_g
            store.goto(node)
            key = state.key()
            if key in closed or best_g[key] < g:
                continue
            progress.nodes += 1
            if progress.nodes >= progress.next_check:
                progress.poll(self.now)
            if self.optimal and priority > self.bound:
                self.bound = priority
            if state.is_terminal():
                self.solution = node
                return self.now(StopReason.SOLVED)
            closed.add(key)
            for move in self.plan.root_moves if node == 0 else state.legal_moves():
                child_g = g + state.move_cost(move)
                state.play(move)
                child_key = state.key()
                if child_key in closed or child_g >= best_g.get(child_key, INFINITE):
                    state.undo()
                    continue
                h = heuristic()
                state.undo()
                if limit is not None and child_g + h > limit:
                    pruned = min(pruned, child_g + h)
                    continue
                best_g[child_key] = child_g
                child = store.add(node, move, child_g)
                if len(store) > self.max_nodes:
                    raise MemoryBoundExceeded(self.out_of_memory())
                self.generated += 1
                if store.depth[child] > self.seldepth:
                    self.seldepth = store.depth[child]
                if h < self.closest[0]:
                    self.closest = (h, child)
                heappush(heap, (g_weight * child_g + h_weight * h, -child_g, child))
        if pruned < INFINITE:  # nothing within the cost limit
            if self.optimal:
                self.bound = max(self.bound, int(pruned))
            return self.now(StopReason.DEPTH)
        return self.now(StopReason.SOLVED, unreachable=True)

    def out_of_memory(self) -> str:
        return (
            f"astar stored {len(self.store) - 1:,} positions, the most its Memory option "
            f"allows ({self.max_nodes:,} positions of about {NODE_BYTES} bytes), after "
            f"{self.progress.nodes:,} nodes without a solution: raise Memory, or use the "
            "idastar engine, whose memory is its line only"
        )

    def now(self, reason: StopReason = StopReason.TIME, unreachable: bool = False) -> Finish:
        """The answer as things stand: the solution, else the line to the closest position."""
        store = self.store
        stats = {"generated": float(self.generated), "stored": float(len(store))}
        if self.solution is not None:
            cost = store.g[self.solution]
            line = store.line(self.solution)
            outcome = Outcome(line, cost, cost if self.optimal else self.bound, solved=True)
            outcome.optimal = self.optimal
        else:
            node = self.closest[1]
            line = store.line(node)
            outcome = Outcome(line, store.g[node], self.bound, unreachable=unreachable)
        outcome.stats = stats
        return Finish(outcome, self.progress.nodes, self.bound, self.seldepth, reason)


class AStar(PuzzleEngine):
    """A*, Dijkstra, BFS, greedy best-first and weighted A* for puzzles with hash keys."""

    name: ClassVar[str] = "astar"
    description: ClassVar[str] = (
        "Single-agent best-first search for puzzles: A* with the game's admissible "
        "heuristic, Dijkstra's uniform-cost search, breadth-first search (unit costs), "
        "greedy best-first and weighted A* (suboptimal, faster). An open list and a closed "
        "set keyed by the game's hash keys, bounded by the Memory option. A depth limit is "
        "a bound on the solution's cost."
    )
    requires: ClassVar[Requirements] = Requirements(
        players=(1, 1), chance=False, capabilities=(Puzzle, HashKey)
    )
    uninformed: ClassVar[frozenset[str]] = frozenset({"dijkstra", "bfs"})
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        HEURISTIC_OPTION,
        OptionSpec(
            "Algorithm",
            "combo",
            "astar",
            "astar: f = g + h (optimal); dijkstra: uniform cost, h = 0 (optimal); bfs: "
            "breadth-first (optimal; unit costs only); greedy: h alone (fast, suboptimal); "
            "weighted: f = g + W·h with W = Weight/100 (a solution within W times the "
            "cheapest).",
            choices=("astar", "dijkstra", "bfs", "greedy", "weighted"),
        ),
        OptionSpec(
            "Weight",
            "spin",
            200,
            "W of weighted A*, in hundredths (200: f = g + 2h).",
            min=100,
            max=100_000,
        ),
        OptionSpec(
            "Memory",
            "spin",
            128,
            f"MB for the open and closed lists (about {NODE_BYTES} bytes a position); a "
            "search that needs more fails, saying so.",
            min=1,
            max=65536,
        ),
    )

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["Memory"])

    @classmethod
    def check_options_for(cls, game_cls: type[Game], options: Mapping[str, Any]) -> None:
        """Also OptionError for breadth-first search where moves cost differently."""
        super().check_options_for(game_cls, options)
        if options.get("Algorithm") == "bfs" and not getattr(game_cls, "unit_costs", True):
            raise OptionError(
                f"option Algorithm: bfs needs unit move costs, and {game_cls.name}'s moves "
                "cost differently; use dijkstra (uniform cost) or astar"
            )

    def run(self, state: Game, plan: Plan, progress: Progress) -> Finish:
        algorithm = self.options["Algorithm"]
        weights = WEIGHTS.get(algorithm, (100, self.options["Weight"]))
        max_nodes = max_nodes_for(int(self.options["Memory"]))
        search = BestFirst(state, plan, progress, weights, algorithm in OPTIMAL, max_nodes)
        return search.search()
