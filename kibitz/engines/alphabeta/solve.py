"""Solve mode: prove a position's exact value with null-window probes at unlimited depth.

Each probe asks "is the value above m?" for one m chosen by `probe_value`; a fail-soft
answer moves the proven lower or upper bound, usually past m, until the two meet. A final
pass with a narrow window (full window for multi-PV) gives the best line its exact score.
Cut short (nodes, time, Stop), the search answers with the best proven bound.
"""

from __future__ import annotations

from kibitz.engines.alphabeta.nodes import INF, Abort, clamped_evaluation
from kibitz.engines.alphabeta.root import FAIL_HIGH, Line, RootSearch, ranked
from kibitz.engines.alphabeta.table import EXACT
from kibitz.engines.types import WIN, WIN_THRESHOLD, Score
from kibitz.vocabulary import Bound, StopReason

QUICK_WIN_PLIES = 15
"""Horizon of the first two solving probes (a win, then a loss, within this many plies?):
on Connect Four's opening test set the first settles the many quick wins at a quarter of
the nodes, and costs the other sets about 4%; the second cuts the nodes of Pons's L1_R1
set by three quarters (a quick loss no longer waits for the costly win-or-not and
draw-or-loss probes) and costs L2_R2 and L1_R2 under 1%."""


def probe_value(lower: int, upper: int) -> int:
    """The m of the next solving probe "value > m?", with lower <= m < upper.

    First a quick-win test (win within QUICK_WIN_PLIES plies?), then a quick-loss test
    (lost within QUICK_WIN_PLIES plies?), both cheap because mate-distance pruning cuts
    those searches short; then win-or-not (m = 0), draw-or-loss (m = -1); then bisect the
    distance, within the win (or loss) scores when the bounds allow it.
    """
    quick = WIN - QUICK_WIN_PLIES - 1
    if upper == WIN and lower < quick:
        return quick
    if lower == -WIN and -quick - 1 < upper:
        return -quick - 1
    if lower <= 0 < upper:
        return 0
    if lower <= -1 < upper:
        return -1
    if lower > 0 and upper >= WIN_THRESHOLD:
        lower = max(lower, WIN_THRESHOLD - 1)
    elif upper < 0 and lower <= -WIN_THRESHOLD:
        upper = min(upper, -WIN_THRESHOLD + 1)
    return (lower + upper) // 2


def solve(root: RootSearch) -> tuple[list[Line], int, bool, StopReason]:
    """Probe until the bounds meet; returns (lines, depth reached, solved, stop reason)."""
    state = root.state
    nodes = root.nodes
    depth = nodes.max_ply
    root.iteration = depth  # abortable from the first node
    lower, upper = -WIN, WIN
    best: Line | None = None
    stop_reason = StopReason.SOLVED
    estimate = Score.from_internal(clamped_evaluation(state))
    root.live = (0, estimate, [root.roots[0].move])  # periodic Info until a bound
    root.answer = root.static_lines(lower, upper, best)
    try:
        while lower < upper:
            probe = probe_value(lower, upper)
            status, value = root.search_root(depth, probe, probe + 1)
            if status == FAIL_HIGH:
                lower = value
                best = root.fail_high_line
                root.roots.remove(best)
                root.roots.insert(0, best)
            else:
                upper = value
            _report_bounds(root, lower, upper, best)
        window = (-INF, INF) if root.multipv > 1 else (lower - 1, lower + 1)
        root.search_root(depth, *window)
    except Abort as abort:
        for _ in range(abort.ply):
            state.undo()
        if abort.cause is not None:
            raise abort.cause from None
        return root.static_lines(lower, upper, best), 0, False, abort.reason
    completed = ranked(root.roots)
    for line in completed[: root.multipv]:
        line.pv = tuple(root.extend_pv(list(line.pv), depth))
    solved = completed[0].proven and completed[0].bound == EXACT
    if not solved:
        stop_reason = StopReason.DEPTH  # the recursion limit was reached: a heuristic value
    root.answer = completed
    root.report_depth(nodes.seldepth, completed)
    return completed, nodes.seldepth, solved, stop_reason


def _report_bounds(root: RootSearch, lower: int, upper: int, best: Line | None) -> None:
    """Info after a solving probe: the bound proven so far."""
    if best is not None and lower > -WIN:
        score = Score.from_internal(lower, Bound.LOWER, proven=True)
        pv = list(best.pv)
    else:
        score = Score.from_internal(upper, Bound.UPPER, proven=True)
        pv = [root.roots[0].move]
    root.live = (root.nodes.seldepth, score, pv)
    elapsed = root.driver.elapsed()
    if root.driver.time.hard_passed(elapsed):
        raise Abort(0, StopReason.TIME)
    root.answer = root.static_lines(lower, upper, best)
    root.report(root.nodes.seldepth, score, pv, 1, elapsed)
