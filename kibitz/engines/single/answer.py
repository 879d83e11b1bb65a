"""What a single-agent search answers: its outcome, the score that tells it and the Result.

A puzzle's score is a WIN for the one player: `plies` is the number of moves of the line
answered. Solved and proven cheapest (A*, IDA*, Dijkstra, BFS, IDDFS run to the end) the
bound is EXACT; solved by a suboptimal search (greedy, weighted A*) it is LOWER ("at least
a win in N": the cheapest solution costs at most as much as this one); not solved (stopped,
out of nodes or time, or nothing within the `depth` cost bound) it is UPPER, the proven
lower bound on the cheapest solution's cost ("at most a win in N": no solution is cheaper).
The costs travel in `Result.stats`: `solution_cost` (solved), `cost_bound` (the proven
lower bound on the cheapest solution's cost, always). docs/engines.md, "Single-agent
search", has the whole model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kibitz.engines.driver import SearchDriver
from kibitz.engines.types import Result, RootMove, Score
from kibitz.games import Move
from kibitz.vocabulary import Bound, ScoreKind, StopReason


@dataclass
class Outcome:
    """Where a single-agent search stands: its line and what is proven about the cost."""

    line: list[Move]
    """The solution when `solved`, else the line to the position closest to the goal by the
    heuristic (the best line so far; may be empty)."""
    cost: int
    """The cost of `line`."""
    bound: int
    """A proven lower bound on the cost of the cheapest solution."""
    solved: bool = False
    optimal: bool = False
    """Solved, and `line` is proven a cheapest solution."""
    unreachable: bool = False
    """The search proved that no solution exists."""
    stats: dict[str, float] = field(default_factory=dict)


def score_of(outcome: Outcome, unit_costs: bool) -> Score:
    """The score model of the module docstring."""
    if outcome.unreachable:
        return Score(ScoreKind.LOSS, plies=0, bound=Bound.EXACT)
    if outcome.solved:
        bound = Bound.EXACT if outcome.optimal else Bound.LOWER
        return Score(ScoreKind.WIN, plies=len(outcome.line), bound=bound)
    # a lower bound on the cost; in moves only where every move costs 1
    plies = outcome.bound if unit_costs else 1
    return Score(ScoreKind.WIN, plies=max(1, plies), bound=Bound.UPPER)


def line_or_first(line: Sequence[Move], first: Move) -> list[Move]:
    """`line`, or `[first]` where it is empty (every answer has a legal move)."""
    return list(line) if line else [first]


def result_of(
    outcome: Outcome,
    *,
    unit_costs: bool,
    first: Move,
    nodes: int,
    depth: int,
    seldepth: int,
    driver: SearchDriver,
    stop_reason: StopReason,
) -> Result:
    """The Result of a search that ended with `outcome` (`first`: the root move answered
    when the line is empty)."""
    score = score_of(outcome, unit_costs)
    line = line_or_first(outcome.line, first)
    elapsed = driver.elapsed()
    running = elapsed - driver.began
    stats = {
        "cost_bound": float(outcome.bound),
        "solved": 1.0 if outcome.solved else 0.0,
        "nps": nodes / running if running > 0 else 0.0,
        **outcome.stats,
    }
    if outcome.solved:
        stats["solution_cost"] = float(outcome.cost)
    return Result(
        best_move=line[0],
        score=score,
        pv=line,
        root_moves=[RootMove(line[0], score, line)],
        nodes=nodes,
        time=elapsed,
        depth=depth,
        seldepth=seldepth,
        stop_reason=stop_reason,
        stats=stats,
    )


def report(
    driver: SearchDriver,
    outcome: Outcome,
    *,
    unit_costs: bool,
    first: Move,
    nodes: int,
    depth: int,
    seldepth: int,
) -> None:
    """Send an Info with the answer the search would give now."""
    score = score_of(outcome, unit_costs)
    line = line_or_first(outcome.line, first)
    info = driver.info(depth, seldepth, score, nodes, line, driver.elapsed())
    info.root_moves = [RootMove(line[0], score, line)]
    driver.report(info)
