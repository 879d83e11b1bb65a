"""The root of an alpha-beta search: iterative deepening, aspiration windows, multi-PV,
the root move lines, polling and progress reports.

Each root move is a `Line` with its latest score, bound and principal variation. A root
move searched without touching the horizon (`NodeSearch.horizon` unchanged) gets a score
that is exact truth (a proven 0 is a DRAW), and an iteration with every root move proven
means the root is solved: deepening stops.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from kibitz.engines.alphabeta.nodes import (
    CLAMP,
    INF,
    Abort,
    NodeSearch,
    clamped_evaluation,
    terminal_value,
)
from kibitz.engines.alphabeta.table import BOUNDS, EXACT, LOWER, PROVEN, UPPER
from kibitz.engines.driver import SearchDriver
from kibitz.engines.types import WIN, WIN_THRESHOLD, RootMove, Score
from kibitz.games import Game, Move
from kibitz.vocabulary import StopReason

if TYPE_CHECKING:
    from kibitz.engines.alphabeta.kernel import KernelNodeSearch

ASPIRATION_GROWTH = 4
"""Factor by which an aspiration window widens after a fail."""

STATIC_MOVES = 256
"""Root moves a search cut before its first iteration ranks and answers with (the moves in
search order; `static_values`)."""

OK, FAIL_LOW, FAIL_HIGH = 0, 1, 2
"""How a pass over the root ended (`RootSearch.search_root`)."""


class Line:
    """One root move's latest score: internal value, bound, proven flag and PV."""

    __slots__ = ("bound", "move", "proven", "pv", "score")

    def __init__(self, move: Move) -> None:
        self.move = move
        self.score = -INF
        self.bound = UPPER
        self.proven = False
        self.pv: tuple[Move, ...] = (move,)

    def copy(self) -> Line:
        line = Line(self.move)
        line.score, line.bound, line.proven, line.pv = self.score, self.bound, self.proven, self.pv
        return line

    def to_score(self) -> Score:
        return line_score(self.score, self.bound, self.proven)

    def to_root_move(self) -> RootMove:
        return RootMove(self.move, self.to_score(), list(self.pv))


@functools.lru_cache(maxsize=1024)
def line_score(score: int, bound: int, proven: bool) -> Score:
    """`Score.from_internal` for a line, shared: every Info converts every root move's."""
    return Score.from_internal(score, BOUNDS[bound], proven=proven)


def ranked(lines: list[Line]) -> list[Line]:
    """Sorts `lines` best first, in place (the next iteration searches them in that order;
    exact scores before bounds of the same value), and returns copies of them."""
    lines.sort(key=lambda line: (line.score, line.bound == EXACT), reverse=True)
    return [line.copy() for line in lines]


def forced_move(nodes: NodeSearch) -> Move | None:
    """The move the solving hooks dictate, where they cut the search short (no table
    entry): a win on the spot, the only move that does not lose at once, or (when every
    move loses at once) the first move."""
    state: Any = nodes.state
    wins = state.winning_moves()
    if wins:
        return wins[0]
    safe = state.non_losing_moves()
    if len(safe) == 1:
        return safe[0]
    return None if safe else nodes.moves_of()[0]


def _no_poll(ply: int) -> None:
    """`NodeSearch.check` once the search is over."""


class RootSearch:
    """The root of one search: its lines, the iteration, polling and reporting."""

    def __init__(
        self,
        nodes: NodeSearch,
        table: Any,
        driver: SearchDriver,
        moves: list[Move],
        *,
        multipv: int,
        aspiration: int,
        check_every: int,
        compiled: KernelNodeSearch | None = None,
    ) -> None:
        """`compiled`: `nodes` where it is a compiled kernel's, which then also does the
        passes over the root, the static values and the table's lines."""
        self.nodes = nodes
        self.compiled = compiled
        self.state: Game = nodes.state
        self.table = table
        self.driver = driver
        self.roots = [Line(move) for move in moves]
        self.multipv = max(1, min(multipv, len(moves)))
        self.aspiration = aspiration
        self.check_every = check_every
        self.iteration = 0
        """Depth of the iteration running (abortable by the node limit after the first)."""
        self.live: tuple[int, Score, list[Move]] | None = None
        """(depth, score, line) of the best line found so far, for periodic Info."""
        self.answer: list[Line] = []
        """What the search would answer if stopped now (sent with every Info)."""
        self.fail_high_line: Line | None = None
        self.pass_best: Line | None = None
        """The best line the running iteration's passes have found (an exact score above
        the others', or a fail high): its answer if a deadline or a stop cuts it."""
        self.iteration_nodes: list[int] = []
        self._static_values: dict[Move, int] | None = None
        self.listening = driver.context.listening
        """Whether anyone receives Infos: a context without a reporter gets none built."""
        nodes.check = self.poll
        nodes.next_check = driver.next_check(0, 0.0, check_every)

    def close(self) -> None:
        """Drop the node search's way back to this root (its poll) and the kernel's to the
        node search: no reference cycle is left, so that a search's objects (the node
        search's per-ply lists among them) are freed when it returns, not traversed by
        the garbage collector first."""
        self.nodes.check = _no_poll
        if self.compiled is not None:
            self.compiled.close()

    # -- iterative deepening ------------------------------------------------------------------

    def deepen(self, max_depth: int, record_root: bool) -> tuple[list[Line], int, bool, str]:
        """Iterative deepening; returns (lines, completed depth, solved, stop reason)."""
        state = self.state
        nodes = self.nodes
        completed: list[Line] = []
        completed_depth = 0
        solved = False
        stop_reason = StopReason.DEPTH
        prev_score: int | None = None
        for depth in range(1, max_depth + 1):
            if depth > 1:
                reason = self.driver.step_allowed(nodes.nodes, self.iteration_growth())
                if reason:
                    stop_reason = reason
                    break
            self.iteration = depth
            self.pass_best = None
            start_nodes = nodes.nodes
            try:
                prev_score = self.aspiration_search(depth, prev_score)
            except Abort as abort:
                for _ in range(abort.ply):
                    state.undo()
                if abort.cause is not None:
                    raise abort.cause from None
                stop_reason = abort.reason
                if not completed:  # stopped within depth 1 (a very wide root)
                    completed = self.static_lines(-WIN, WIN, None)
                elif stop_reason != StopReason.NODES:  # a node limit answers reproducibly
                    completed = self.cut_answer(completed)
                break
            self.iteration_nodes.append(nodes.nodes - start_nodes)
            completed_depth = depth
            completed = ranked(self.roots)
            for line in completed[: self.multipv]:
                line.pv = tuple(self.extend_pv(list(line.pv), depth))
            solved = all(line.proven for line in completed)
            if record_root:  # a restricted root's value is not the position's
                best = completed[0]
                key, mirrored = nodes.table_key()
                move = state.mirror_move(best.move) if mirrored else best.move
                self.table.store(key, PROVEN if solved else depth, best.score, EXACT, move, 0)
            self.answer = completed
            self.report_depth(depth, completed)
            if solved:
                stop_reason = StopReason.SOLVED
                break
        return completed, completed_depth, solved, stop_reason

    def iteration_growth(self) -> float:
        """The growth an iteration about to start is predicted to have: at a fixed movetime
        with one line (multipv 1) 1, so that it starts whenever time is left: the time not
        used is lost, and a cut iteration still answers with its passes' best move."""
        if self.driver.time.fixed and self.multipv == 1:
            return 1.0
        return self.growth()

    def cut_answer(self, completed: list[Line]) -> list[Line]:
        """The lines of the last completed iteration (`completed`), with the best move of
        the iteration cut short first where its passes found one that beat completed's
        first (multipv 1; its score is at the deeper depth, exact or a lower bound)."""
        best = self.pass_best
        if best is None or self.multipv > 1 or best.move == completed[0].move:
            return completed
        return [best, *(line for line in completed if line.move != best.move)]

    def note_best(self, line: Line) -> None:
        """`line` scored best in a pass of the running iteration: `pass_best` unless a
        fail high of another move scored higher."""
        best = self.pass_best
        if best is None or line.move == best.move or line.score > best.score:
            self.pass_best = line.copy()

    def growth(self) -> float:
        """The last iteration's node growth (the effective branching factor), 2 at first."""
        counts = self.iteration_nodes
        if len(counts) >= 2 and counts[-2] > 0:
            return counts[-1] / counts[-2]
        return 2.0

    def aspiration_search(self, depth: int, prev: int | None) -> int:
        """Search the root at `depth`, in a window around `prev` widened until it holds."""
        delta = self.aspiration
        alpha, beta = -INF, INF
        if (
            delta > 0
            and depth > 1
            and self.multipv == 1
            and prev is not None
            and -WIN_THRESHOLD < prev < WIN_THRESHOLD
        ):
            alpha, beta = prev - delta, prev + delta
        while True:
            status, value = self.search_root(depth, alpha, beta)
            if status == OK:
                return value
            delta *= ASPIRATION_GROWTH
            if status == FAIL_LOW:
                alpha = -INF if value <= -WIN_THRESHOLD else max(-INF, value - delta)
            else:
                beta = INF if value >= WIN_THRESHOLD else min(INF, value + delta)
            if delta > CLAMP:
                alpha, beta = -INF, INF

    def search_root(self, depth: int, alpha0: int, beta0: int) -> tuple[int, int]:
        """One pass over the root moves in window (alpha0, beta0).

        The top `multipv` moves get exact scores: each move is searched with alpha = the
        k-th best exact score so far (full window until k exact scores exist); the others
        get null-window bounds. Returns (status, value): a fail high stops at once.
        """
        if self.compiled is not None:
            return self._compiled_search_root(self.compiled, depth, alpha0, beta0)
        nodes = self.nodes
        nodes.nodes += 1
        state = self.state
        search = nodes.subtree
        pv = nodes.pv
        pvs = nodes.pvs
        k = self.multipv
        exact: list[int] = []
        for line in self.roots:
            alpha = alpha0
            if len(exact) >= k and exact[k - 1] > alpha:
                alpha = exact[k - 1]
            beta = beta0
            h0 = nodes.horizon
            state.play(line.move)
            if len(exact) < k or not pvs:
                value = -search(depth - 1, -beta, -alpha, 1)
            else:
                value = -search(depth - 1, -alpha - 1, -alpha, 1)
                if alpha < value < beta:
                    value = -search(depth - 1, -beta, -alpha, 1)
            state.undo()
            line.score = value
            line.proven = nodes.horizon == h0
            if value <= alpha:
                line.bound = UPPER
                line.pv = (line.move,)
            elif value >= beta:
                line.bound = LOWER
                line.pv = (line.move, *pv[1])
                self.fail_high_line = line
                self.note_best(line)
                return FAIL_HIGH, value
            else:
                line.bound = EXACT
                line.pv = (line.move, *pv[1])
                exact.append(value)
                exact.sort(reverse=True)
                if value == exact[0]:
                    self.live = (depth, line.to_score(), list(line.pv))
                    self.note_best(line)
        if len(exact) < k:
            return FAIL_LOW, max(line.score for line in self.roots)
        return OK, exact[0]

    def _compiled_search_root(
        self, compiled: KernelNodeSearch, depth: int, alpha0: int, beta0: int
    ) -> tuple[int, int]:
        """`search_root` in one kernel call; the lines and `live` as the Python pass leaves
        them (`live` is set when the pass ends, not as it goes)."""
        moves = [line.move for line in self.roots]
        status, value, results = compiled.root_pass(moves, depth, alpha0, beta0, self.multipv)
        best: Line | None = None
        for line, (score, bound, proven, pv) in zip(self.roots, results, strict=False):
            line.score, line.bound, line.proven, line.pv = score, bound, proven, pv
            if bound == EXACT and (best is None or score >= best.score):
                best = line
        if status == FAIL_HIGH:
            self.fail_high_line = self.roots[len(results) - 1]
            self.note_best(self.fail_high_line)
        if best is not None:
            self.live = (depth, best.to_score(), list(best.pv))
            if status != FAIL_HIGH:
                self.note_best(best)
        return status, value

    # -- answers without a completed search -----------------------------------------------------

    def static_lines(self, lower: int, upper: int, best: Line | None) -> list[Line]:
        """Root lines ranked without searching (for a search cut short before any result:
        the deadline may have passed): `best`, the move with the best proven lower bound
        (`lower`, if above -WIN), first, the others by static evaluation, all with the
        proven upper bound if there is one; only the first STATIC_MOVES in search order
        (the others count as not searched)."""
        values = self.static_values()
        lines = []
        for root in self.roots[:STATIC_MOVES]:
            line = Line(root.move)
            line.score = values[root.move]
            line.bound = EXACT
            if upper < WIN:
                line.score, line.bound, line.proven = upper, UPPER, True
            lines.append(line)
        lines.sort(key=lambda line: line.score, reverse=True)
        if best is not None:
            first = next(line for line in lines if line.move == best.move)
            if lower > -WIN:
                first.score, first.bound, first.proven = lower, LOWER, True
            lines.remove(first)
            lines.insert(0, first)
        return lines

    def static_values(self) -> dict[Move, int]:
        """The first STATIC_MOVES root moves' values, in search order, by the rules or the
        static evaluation (computed once). On a very wide root (Nim with 16 heaps of 1000
        has 16000 moves) evaluating, and then answering with, every move would cost more
        than the search it stands in for."""
        if self._static_values is None and self.compiled is not None:
            moves = [root.move for root in self.roots[:STATIC_MOVES]]
            self._static_values = dict(zip(moves, self.compiled.root_values(moves), strict=True))
        if self._static_values is None:
            state = self.state
            values = self._static_values = {}
            for root in self.roots[:STATIC_MOVES]:
                state.play(root.move)
                if state.is_terminal():
                    values[root.move] = -terminal_value(state, 1)
                else:
                    values[root.move] = -clamped_evaluation(state)
                state.undo()
        return self._static_values

    # -- the table's line -------------------------------------------------------------------

    def table_move(self) -> Move | None:
        """The table's best move for the current position, in its own orientation."""
        key, mirrored = self.nodes.table_key()
        move = self.table.best_move(key)
        if move is None or not mirrored:
            return move
        return self.state.mirror_move(move)

    def extend_pv(self, pv: list[Move], depth: int) -> list[Move]:
        """Follow transposition-table moves past the end of `pv` (legality-checked)."""
        if not self.table.size:
            return pv
        if self.compiled is not None:
            return self.compiled.table_line(pv, depth)
        state = self.state
        played = 0
        try:
            for move in pv:
                state.play(move)
                played += 1
            seen: set[int] = set()
            while len(pv) < depth and not state.is_terminal():
                key = state.key()
                if key in seen:
                    break
                seen.add(key)
                move = self.table_move()
                if move is None and self.nodes.hooks:
                    move = forced_move(self.nodes)
                if move is None or move not in state.legal_moves():
                    break
                state.play(move)
                played += 1
                pv.append(move)
        finally:
            for _ in range(played):
                state.undo()
        return pv

    # -- polling and reporting ----------------------------------------------------------------

    def poll(self, ply: int) -> None:
        """`NodeSearch.check`: the limits, the stop signal, the clock and periodic Info;
        raises Abort to stop."""
        nodes = self.nodes
        driver = self.driver
        elapsed = driver.elapsed()
        reason = driver.stop_reason(nodes.nodes, elapsed, first_step=self.iteration <= 1)
        if reason:
            raise Abort(ply, reason)
        if self.live is not None and driver.info_due(elapsed):
            depth, score, line = self.live
            try:
                self.report(depth, score, line, 1, elapsed)
            except Exception as exc:
                raise Abort(ply, None, exc) from exc
        nodes.next_check = driver.next_check(nodes.nodes, elapsed, self.check_every)

    def report(self, depth: int, score: Score, pv: list[Move], multipv: int, elapsed: float):
        if not self.listening:
            return
        nodes = self.nodes
        self.driver.report(
            self.driver.info(
                depth,
                nodes.seldepth,
                score,
                nodes.nodes,
                pv,
                elapsed,
                multipv=multipv,
                hashfull=self.table.hashfull(),
                root_moves=[line.to_root_move() for line in self.answer] if multipv == 1 else [],
            )
        )

    def report_depth(self, depth: int, lines: list[Line]) -> None:
        if not self.listening:
            return
        elapsed = self.driver.elapsed()
        self.live = (depth, lines[0].to_score(), list(lines[0].pv))
        for index, line in enumerate(lines[: self.multipv], start=1):
            self.report(depth, line.to_score(), list(line.pv), index, elapsed)
