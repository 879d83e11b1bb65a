"""Solve mode: prove a position's exact value with null-window probes at unlimited depth.

Each probe asks "is the value above m?" for one m chosen by `probe_value`; a fail-soft
answer moves the proven lower or upper bound, usually past m, until the two meet. A final
pass with a narrow window (full window for multi-PV) gives the best line its exact score.
Cut short (nodes, time, Stop), the search answers with the best proven bound (the static
estimate while the bounds proven exclude only quick wins and losses).
"""

from __future__ import annotations

from collections.abc import Callable

from kibitz.engines.alphabeta.nodes import INF, Abort, clamped_evaluation
from kibitz.engines.alphabeta.root import FAIL_HIGH, Line, RootSearch, ranked
from kibitz.engines.alphabeta.table import EXACT
from kibitz.engines.types import WIN, WIN_THRESHOLD, Score
from kibitz.games import Move
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
    """Probe until the bounds meet; returns (lines, depth reached, solved, stop reason).

    With a compiled kernel every probe runs in one kernel call (`KernelNodeSearch.probes`),
    which calls back after each probe as the Python loop (`_probes`) does.
    """
    state = root.state
    nodes = root.nodes
    depth = nodes.max_ply
    root.iteration = depth  # abortable from the first node
    bounds = _Bounds(root)
    stop_reason = StopReason.SOLVED
    if root.listening:
        estimate = Score.from_internal(clamped_evaluation(state))
        root.live = (0, estimate, [root.roots[0].move])  # periodic Info until a bound
        root.answer = root.static_lines(-WIN, WIN, None)
    try:
        if root.compiled is not None:
            moves = [line.move for line in root.roots]
            root.compiled.probes(moves, depth, root.multipv, bounds.probed)
        else:
            _probes(root, depth, bounds.probed)
        lower = bounds.lower
        window = (-INF, INF) if root.multipv > 1 else (lower - 1, lower + 1)
        root.search_root(depth, *window)
    except Abort as abort:
        for _ in range(abort.ply):
            state.undo()
        if abort.cause is not None:
            raise abort.cause from None
        return bounds.answer(), 0, False, abort.reason
    completed = ranked(root.roots)
    for line in completed[: root.multipv]:
        line.pv = tuple(root.extend_pv(list(line.pv), depth))
    solved = completed[0].proven and completed[0].bound == EXACT
    if not solved:
        stop_reason = StopReason.DEPTH  # the recursion limit was reached: a heuristic value
    root.answer = completed
    root.report_depth(nodes.seldepth, completed)
    return completed, nodes.seldepth, solved, stop_reason


def _probes(root: RootSearch, depth: int, probed: Callable[..., None]) -> None:
    """The probes in Python, each a pass over the root moves; `probed` as `_Bounds.probed`."""
    lower, upper = -WIN, WIN
    while lower < upper:
        probe = probe_value(lower, upper)
        status, value = root.search_root(depth, probe, probe + 1)
        if status == FAIL_HIGH:
            lower = value
            line = root.fail_high_line
            assert line is not None
            probed(lower, upper, root.roots.index(line), line.pv)
        else:
            upper = value
            probed(lower, upper, -1, None)


class _Bounds:
    """The bounds a solve's probes have proven so far, and the lines they order."""

    __slots__ = ("lower", "root", "upper")

    def __init__(self, root: RootSearch) -> None:
        self.root = root
        self.lower, self.upper = -WIN, WIN

    def probed(self, lower: int, upper: int, index: int, pv: tuple[Move, ...] | None) -> None:
        """After a probe: the bounds and, on a fail high, the index of the root move that
        failed high (it moves first) and its line (else -1 and None). Then the hard
        deadline, and an Info with the bound proven so far (a heuristic estimate while the
        bounds exclude only quick results)."""
        self.lower, self.upper = lower, upper
        root = self.root
        if index > 0:
            root.roots.insert(0, root.roots.pop(index))
        elapsed = root.driver.elapsed()
        if root.driver.time.hard_passed(elapsed):
            raise Abort(0, StopReason.TIME)
        if not root.listening:
            return
        root.answer = self.answer()
        if lower > -WIN_THRESHOLD:
            score = Score.from_internal(lower, Bound.LOWER, proven=True)
            line = list(pv) if pv is not None else [root.roots[0].move]
        elif upper < WIN_THRESHOLD:
            score = Score.from_internal(upper, Bound.UPPER, proven=True)
            line = [root.roots[0].move]
        else:
            score, line = root.answer[0].to_score(), list(root.answer[0].pv)
        root.live = (root.nodes.seldepth, score, line)
        root.report(root.nodes.seldepth, score, line, 1, elapsed)

    def answer(self) -> list[Line]:
        """`RootSearch.static_lines` with the bounds that say more than "no quick result":
        a lower bound in the loss scores (not lost within so many plies: the quick-loss
        probe's) or an upper bound in the win scores (not won within so many: the
        quick-win probe's) leaves the static estimate the better answer. The move that
        proved the lower bound stays first."""
        lower, upper = self.lower, self.upper
        best = self.root.roots[0] if lower > -WIN else None
        if lower <= -WIN_THRESHOLD:
            lower = -WIN
        if upper >= WIN_THRESHOLD:
            upper = WIN
        return self.root.static_lines(lower, upper, best)
