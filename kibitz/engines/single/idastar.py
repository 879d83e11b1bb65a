"""The `idastar` engine: iterative-deepening A* (Korf 1985), and IDDFS as IDA* with h = 0.

Each iteration is a depth-first search bounded by a cost threshold: the first threshold is
h(root), the next the least f = g + h of the positions the iteration cut off. There is no
transposition table; the only pruning is the inverse of the move just played
(`Puzzle.inverse`, asked in the position after the move). A solution found is a cheapest
one (h is admissible). Memory is the current line only.

**Node-count convention** (a compiled kernel must match it node for node). A node is
counted each time the recursive search is entered for a position, the root included, in
every iteration (`nodes` sums them). On entry, in this order:

1. count the node (and poll the limits when the count reaches the next poll: at a node
   limit N the search ends having counted exactly N nodes);
2. f = g + h(position);
3. if f > threshold: the position is cut off (f is a candidate for the next threshold);
   return;
4. if the position is the goal (`is_terminal()`): found; return;
5. the children in `legal_moves()` order (at the root: restricted to `search_moves`),
   except the inverse of the move that led here, each entered with g + `move_cost(move)`.

Where the game has a compiled IDA* (`Puzzle.compiled_depth_first`: the sliding puzzle's
kernel) and the search is plain IDA* (no `depth` cost bound, no `search_moves`), `Sliced`
runs it instead: the same search, node for node, in slices of doubling node budgets, each
from scratch, with the limits polled between them. Its answer and node count are those of
the slice that ends the search, as the Python search's would be; the slices before it cost
less than it (the budgets double). After each slice it reports an Info for each threshold
that slice completed beyond those reported: `depth` the threshold, `nodes` the slice's count
where it ended (the kernel counts no nodes per iteration, so this is where the one search
stands, not its count at that threshold's end), nodes/s that count over the time so far.
Stopped before a solution, the kernel gives no line, so `Sliced` answers a greedy probe
(`Sliced.probe`): from the root, the child of least h (the first of equals, never the
inverse of the last move) while g + h stays within the current threshold, the line cut at
the position of least h along it (a probe that reaches the goal answers it: a cheapest
solution, its cost within the threshold). The Python search answers instead its line to the
position closest to the goal among those it searched; both come with the same proven bound,
the threshold. The probe's positions are not counted as nodes.

Korf (1985) counts the root once, not once per iteration: on his 15-puzzle instances this
count is his plus the iterations less one (instance 79: 540,867 = 540,860 + 7; a test holds
it). Each iteration that ends without a solution reports an Info: `depth` = its threshold.
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.engines.base import OptionSpec, Requirements
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
from kibitz.games.capabilities import CompiledDepthFirst, Puzzle
from kibitz.vocabulary import StopReason

INFINITE = float("inf")
MAX_LINE = 400
"""The longest line searched (Python's recursion limit): a search that reaches a position
this many moves deep within its threshold ends there (`StopReason.DEPTH`), its threshold
the proven bound. Without a table IDA* cannot tell a goal that cannot be reached from one
far away where moves can cycle, so this is also where such a search ends."""


class DepthFirst:
    """One IDA* search: the thresholds, the line being searched and the best line so far."""

    def __init__(self, state: Game, plan: Plan, progress: Progress) -> None:
        assert isinstance(state, Puzzle)
        self.state: Puzzle = state
        self.plan = plan
        self.progress = progress
        self.heuristic = plan.heuristic
        self.path: list[Move] = []
        self.threshold = 0
        self.next_threshold: float = INFINITE
        self.iterations = 0
        self.seldepth = 0
        self.closest_h: float = INFINITE
        """The least h of a position searched within a threshold; its line and cost next."""
        self.closest: tuple[list[Move], int] = ([], 0)
        self.solution: tuple[list[Move], int] | None = None

    def deepen(self) -> Finish:
        """Iterations with rising thresholds until a solution, a limit or no threshold is
        left (the goal cannot be reached)."""
        threshold = self.heuristic()
        limit = self.plan.cost_limit
        try:
            while True:
                if limit is not None and threshold > limit:
                    self.threshold = threshold  # proven: no solution within the limit
                    return self.now(StopReason.DEPTH)
                self.threshold, self.next_threshold = threshold, INFINITE
                self.iterations += 1
                if self.visit(0, None, self.plan.root_moves):
                    return self.now(StopReason.SOLVED)
                if self.next_threshold == INFINITE:
                    return self.now(StopReason.SOLVED, unreachable=True)
                self.progress.send(self.now())
                threshold = int(self.next_threshold)
        except Halt as halt:
            return self.now(halt.reason)

    def visit(self, g: int, prune: Move | None, moves: list[Move] | None = None) -> bool:
        """Enter a position reached at cost `g` (the convention of the module docstring);
        True when the goal was found below (the state is restored either way)."""
        progress = self.progress
        progress.nodes += 1
        if progress.nodes >= progress.next_check:
            progress.poll(self.now)
        h = self.heuristic()
        f = g + h
        if f > self.threshold:
            if f < self.next_threshold:
                self.next_threshold = f
            return False
        state = self.state
        path = self.path
        if state.is_terminal():
            self.solution = (list(path), g)
            return True
        if h < self.closest_h:
            self.closest_h, self.closest = h, (list(path), g)
        if len(path) >= self.seldepth:
            self.seldepth = len(path) + 1
            if self.seldepth > MAX_LINE:
                raise Halt(StopReason.DEPTH)
        for move in state.legal_moves() if moves is None else moves:
            if move == prune:
                continue
            cost = state.move_cost(move)
            state.play(move)
            path.append(move)
            try:
                found = self.visit(g + cost, state.inverse(move))
            finally:
                path.pop()
                state.undo()
            if found:
                return True
        return False

    def now(self, reason: StopReason = StopReason.DEPTH, unreachable: bool = False) -> Finish:
        """The answer as things stand: the solution, else the line to the closest position
        with the current threshold as the proven bound."""
        stats = {"iterations": float(self.iterations), "threshold": float(self.threshold)}
        if self.solution is not None:
            line, cost = self.solution
            outcome = Outcome(line, cost, cost, solved=True, optimal=True, stats=stats)
        else:
            line, cost = self.closest
            outcome = Outcome(line, cost, self.threshold, unreachable=unreachable, stats=stats)
        return Finish(outcome, self.progress.nodes, self.threshold, self.seldepth, reason)


FIRST_SLICE = 1 << 20
"""The node budget of a compiled search's first slice (tens of milliseconds)."""


class Sliced:
    """IDA* in a compiled kernel, in slices (see the module docstring)."""

    def __init__(
        self, search: CompiledDepthFirst, state: Game, plan: Plan, progress: Progress
    ) -> None:
        assert isinstance(state, Puzzle)
        self.search = search
        self.state: Puzzle = state
        self.heuristic = plan.heuristic
        self.progress = progress
        self.threshold = 0
        self.iterations = 0
        self.reported = 0
        """The thresholds reported so far (an Info each)."""

    def deepen(self) -> Finish:
        progress = self.progress
        limit = progress.driver.node_limit
        budget = FIRST_SLICE
        try:
            while True:
                cap = budget if limit is None else min(budget, limit)
                line, nodes, thresholds = self.search(cap)
                progress.nodes = nodes
                self.reach(thresholds[:-1])  # the last one: unfinished, or the solution's
                self.threshold, self.iterations = thresholds[-1], len(thresholds)
                if line is not None:
                    return self.finish(line, StopReason.SOLVED)
                progress.poll(lambda: self.finish(None, StopReason.DEPTH))
                budget *= 2
        except Halt as halt:
            return self.finish(None, halt.reason)

    def reach(self, completed: list[int]) -> None:
        """An Info for each threshold of `completed` (the iterations a slice finished, in
        order) not reported yet, as the Python search sends one after each iteration."""
        for threshold in completed[self.reported :]:
            self.threshold = threshold
            self.iterations = self.reported = self.reported + 1
            self.progress.send(self.finish(None, StopReason.DEPTH))

    def finish(self, line: list[Move] | None, reason: StopReason) -> Finish:
        """The solution, else the probe's line with the current threshold as the proven
        bound (or its solution, where it reaches the goal)."""
        stats = {
            "iterations": float(self.iterations),
            "threshold": float(self.threshold),
            "compiled": 1.0,
        }
        solved = line is not None
        if line is None:
            line, solved = self.probe()
        cost = len(line)
        if solved:
            outcome = Outcome(line, cost, cost, solved=True, optimal=True, stats=stats)
        else:
            outcome = Outcome(line, cost, self.threshold, stats=stats)
        depth = cost if solved else self.threshold
        return Finish(outcome, self.progress.nodes, self.threshold, depth, reason)

    def probe(self) -> tuple[list[Move], bool]:
        """The greedy probe of the module docstring: its line, and whether it ends at the
        goal. The state is left as it was."""
        state, heuristic, threshold = self.state, self.heuristic, self.threshold
        line: list[Move] = []
        best_h, best_length = heuristic(), 0
        g, prune = 0, None
        try:
            while not state.is_terminal():
                choice, choice_h = None, INFINITE
                for move in state.legal_moves():
                    if move == prune:
                        continue
                    cost = state.move_cost(move)
                    state.play(move)
                    h = heuristic()
                    state.undo()
                    if g + cost + h <= threshold and h < choice_h:
                        choice, choice_h = move, h
                if choice is None:
                    break
                g += state.move_cost(choice)
                state.play(choice)
                line.append(choice)
                prune = state.inverse(choice)
                if choice_h < best_h:
                    best_h, best_length = choice_h, len(line)
            solved = state.is_terminal()
        finally:
            for _ in line:
                state.undo()
        return (line, True) if solved else (line[:best_length], False)


class IDAStar(PuzzleEngine):
    """IDA* and IDDFS for one-player games with the `Puzzle` capability."""

    name: ClassVar[str] = "idastar"
    description: ClassVar[str] = (
        "Single-agent search for puzzles: iterative-deepening A* (Korf 1985) with the "
        "game's admissible heuristic, or iterative-deepening depth-first search (h = 0). "
        "Depth-first iterations bounded by a cost threshold, no table (memory: the line "
        "only), the inverse of the last move pruned; the solution found is a cheapest one. "
        "A depth limit is a bound on the solution's cost."
    )
    requires: ClassVar[Requirements] = Requirements(
        players=(1, 1), chance=False, capabilities=(Puzzle,)
    )
    uninformed: ClassVar[frozenset[str]] = frozenset({"iddfs"})
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        HEURISTIC_OPTION,
        OptionSpec(
            "Algorithm",
            "combo",
            "idastar",
            "idastar: thresholds on g + h; iddfs: iterative deepening depth-first search, "
            "thresholds on g alone (IDA* with h = 0: optimal, many more nodes).",
            choices=("idastar", "iddfs"),
        ),
        OptionSpec(
            "Kernel",
            "check",
            True,
            "Search with the game's compiled IDA* where it has one (the sliding puzzle, "
            "Manhattan, linear conflicts or pdb): the same nodes and solution as the pure-Python "
            "search, in slices polled for limits, an Info per threshold. Off = the pure-Python "
            "reference search.",
        ),
    )

    def run(self, state: Game, plan: Plan, progress: Progress) -> Finish:
        compiled = self.compiled(state, plan)
        if compiled is not None:
            return Sliced(compiled, state, plan, progress).deepen()
        return DepthFirst(state, plan, progress).deepen()

    def compiled(self, state: Game, plan: Plan) -> CompiledDepthFirst | None:
        """The game's compiled IDA* where it runs this very search: plain IDA*, no cost
        bound, every root move (and unit costs: the kernel's solutions count moves)."""
        assert isinstance(state, Puzzle)
        if not self.options["Kernel"] or self.options["Algorithm"] != "idastar":
            return None
        if plan.cost_limit is not None:
            return None
        if not plan.unit_costs or plan.root_moves != state.legal_moves():
            return None
        return state.compiled_depth_first(self.options["Heuristic"])
