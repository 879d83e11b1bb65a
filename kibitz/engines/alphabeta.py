"""Alpha-beta search for two-player zero-sum games without chance (DESIGN §3).

Negamax with fail-soft alpha-beta, principal variation search, iterative deepening with
aspiration windows, a transposition table (`tt.py`), killer and history move ordering
(`ordering.py`), quiescence on `noisy_moves()`, mate-distance pruning and win/loss distance
scores, multi-PV, exact solving with null-window probes, and time management (`timeman.py`).

Proven results: `_horizon` counts every value that did not come from the rules of the game
(a static evaluation at the horizon, quiescence, or a transposition-table entry that is not
itself proven). A node whose search left the counter unchanged has a proven value (or a
proven bound): it is stored in the table with depth `PROVEN`, usable at any depth. A root
move whose search was proven gets a score that is exact truth (a proven 0 is a DRAW), and an
iteration with every root move proven means the root is solved: deepening stops.

Stopping: every node compares the node counter with `_next_check`; only there are the node
limit, the stop signal, the clock and the periodic Info polled. An abort raises `_Abort`
carrying the ply of the node, which is exactly the number of moves to undo.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, ClassVar

from kibitz.engines import kernels
from kibitz.engines.base import Engine, OptionSpec, SearchContext
from kibitz.engines.ordering import QuietMoveOrdering
from kibitz.engines.timeman import TimeManager
from kibitz.engines.tt import (
    ENTRY_BYTES,
    EXACT,
    LOWER,
    PROVEN,
    UPPER,
    TranspositionTable,
    entries_for_mb,
    from_tt,
)
from kibitz.engines.types import (
    MAX_PLY,
    WIN,
    WIN_THRESHOLD,
    Bound,
    Info,
    Limits,
    Result,
    RootMove,
    Score,
)
from kibitz.games.base import Game, Move

INF = WIN + 1
"""Beyond every score: the full window is (-INF, INF)."""
CLAMP = WIN_THRESHOLD - 1
"""Heuristic values are clamped into [-CLAMP, CLAMP], away from win/loss scores."""
CHECK_EVERY = 512
"""Nodes between two polls of the clock and the stop signal."""
KERNEL_CHECK_EVERY = 8192
"""The same for a compiled kernel, which visits nodes about 90 times as fast."""
ASPIRATION_GROWTH = 4
"""Factor by which an aspiration window widens after a fail."""
QUICK_WIN_PLIES = 15
"""Horizon of the first solving probe: on Connect Four's opening test set it settles the
many quick wins at a quarter of the nodes, and costs the other sets about 4%."""

_OK, _FAIL_LOW, _FAIL_HIGH = 0, 1, 2


class _Abort(Exception):
    """Internal: unwind the search. `ply` moves have been played since the root."""

    def __init__(self, ply: int, reason: str, cause: BaseException | None = None) -> None:
        super().__init__(ply)
        self.ply = ply
        self.reason = reason
        self.cause = cause


class _Line:
    """One root move's latest score: internal value, bound, proven flag and PV."""

    __slots__ = ("bound", "move", "proven", "pv", "score")

    def __init__(self, move: Move) -> None:
        self.move = move
        self.score = -INF
        self.bound = UPPER
        self.proven = False
        self.pv: tuple[Move, ...] = (move,)

    def copy(self) -> _Line:
        line = _Line(self.move)
        line.score, line.bound, line.proven, line.pv = self.score, self.bound, self.proven, self.pv
        return line

    def to_score(self) -> Score:
        return Score.from_internal(self.score, Bound(self.bound), proven=self.proven)


def _terminal_value(state: Game, ply: int) -> int:
    result = state.returns()[state.to_move()]
    if result > 0:
        return WIN - ply
    if result < 0:
        return ply - WIN
    return 0


def _probe_value(lower: int, upper: int) -> int:
    """The m of the next solving probe "value > m?", with lower <= m < upper.

    First a quick-win test (win within QUICK_WIN_PLIES plies?), cheap because mate-distance
    pruning cuts that search short; then win-or-not (m = 0), draw-or-loss (m = -1); then
    bisect the distance, within the win (or loss) scores when the bounds allow it.
    """
    quick = WIN - QUICK_WIN_PLIES - 1
    if upper == WIN and lower < quick:
        return quick
    if lower <= 0 < upper:
        return 0
    if lower <= -1 < upper:
        return -1
    if lower > 0 and upper >= WIN_THRESHOLD:
        lower = max(lower, WIN_THRESHOLD - 1)
    elif upper < 0 and lower <= -WIN_THRESHOLD:
        upper = min(upper, -WIN_THRESHOLD + 1)
    return (lower + upper) // 2


def _forced_move(state: Game) -> Move | None:
    """The move the solving hooks dictate, where they cut the search short (no table
    entry): a win on the spot, the only move that does not lose at once, or (when every
    move loses at once) any move."""
    wins = state.winning_moves()
    if wins:
        return wins[0]
    safe = state.non_losing_moves()
    if len(safe) == 1:
        return safe[0]
    return None if safe else state.ordered_moves()[0]


def _frame_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


class AlphaBeta(Engine):
    """Iterative-deepening PVS with a transposition table; see the module docstring."""

    name: ClassVar[str] = "alphabeta"
    description: ClassVar[str] = (
        "Negamax alpha-beta with iterative deepening, principal variation search, aspiration "
        "windows, transposition table, killer/history ordering, quiescence on noisy moves, "
        "win/loss distance scores and proven-result detection (a solved root stops the search)."
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Hash",
            "spin",
            16,
            "Transposition table size in MB (about 160 bytes per entry, 24 with the "
            "compiled kernel); 0 = no table. Kept between searches; cleared on new game.",
            min=0,
            max=4096,
        ),
        OptionSpec(
            "Aspiration",
            "spin",
            50,
            "Initial half-width of the aspiration window around the previous iteration's "
            "score, in centi-units (the unit of evaluate()); widened 4x on each fail. "
            "0 = always search with a full window.",
            min=0,
            max=100_000,
        ),
        OptionSpec(
            "PVS",
            "check",
            True,
            "Principal variation search: null-window probes "
            "for every move after the first, re-searched on a fail high.",
        ),
        OptionSpec(
            "ETC",
            "check",
            True,
            "Enhanced transposition cutoff: before searching the moves of a null-window node, "
            "look each child up in the table; one whose stored bound already refutes the "
            "node ends it without a search.",
        ),
        OptionSpec(
            "Killers",
            "check",
            True,
            "Try the two latest quiet cutoff moves of the same ply early (killer heuristic). "
            "Not used for games whose own move order is stronger (Connect Four).",
        ),
        OptionSpec(
            "History",
            "check",
            True,
            "Order quiet moves by how often they caused cutoffs before (history heuristic). "
            "Not used for games whose own move order is stronger (Connect Four).",
        ),
        OptionSpec(
            "Quiescence",
            "check",
            True,
            "At the horizon, keep searching the game's "
            "noisy moves (captures etc.) before trusting the evaluation.",
        ),
        OptionSpec(
            "GameHooks",
            "check",
            True,
            "Use the game's solving hooks where it has "
            "them: immediate wins, forced/non-losing moves, and the bound they imply "
            "(no win before the move after next).",
        ),
        OptionSpec(
            "Kernel",
            "check",
            True,
            "Search with the compiled kernel where the game has one (Connect Four): the "
            "same nodes, values and lines as the pure-Python search, about 90 times as "
            "fast. Off = the pure-Python reference search.",
        ),
    )

    def __init__(
        self, options: Mapping[str, Any] | None = None, *, tt_entries: int | None = None
    ) -> None:
        """`tt_entries` (a test hook) fixes the table's slot count, 0 = no table at all."""
        super().__init__(options)
        self._tt_entries_override = tt_entries
        self._tt: TranspositionTable | kernels.NativeTable | None = None  # made by search()
        self._kernel: Any = None
        self._ordering = QuietMoveOrdering()

    @classmethod
    def supports(cls, game_cls: type[Game]) -> bool:
        return game_cls.players == 2 and not game_cls.has_chance

    def _table(self, native: bool) -> TranspositionTable | kernels.NativeTable:
        """The table kept between searches, replaced when its kind or size should change."""
        kind = kernels.NativeTable if native else TranspositionTable
        entries = self._tt_entries_override
        if entries is None:
            megabytes = int(self.options["Hash"])
            entries = entries_for_mb(megabytes, kernels.ENTRY_BYTES if native else ENTRY_BYTES)
        if type(self._tt) is not kind or self._tt.size != entries:
            self._tt = kind(entries)
        return self._tt

    def new_game(self) -> None:
        if self._tt is not None:
            self._tt.clear()
        self._ordering.clear()

    # -- the search entry point -------------------------------------------------------------

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        options = self.options
        game = type(state)
        kernel = kernels.kernel_for(game) if options["Kernel"] else None
        tt = self._table(native=kernel is not None)
        tt.new_search()

        self._state = state
        self._context = context
        self._tm = TimeManager(limits, state.to_move(), context.clock)
        self._nodes = 0
        self._horizon = 0
        self._seldepth = 0
        self._cutoffs = 0
        self._first_cutoffs = 0
        self._pv: list[tuple[Move, ...]] = [()] * (MAX_PLY + 2)
        self._max_ply = max(2, min(MAX_PLY - 2, sys.getrecursionlimit() - _frame_depth() - 60))
        self._tt_probe = tt.probe
        self._tt_store = tt.store
        self._iter_depth = 0
        self._pvs = options["PVS"]
        self._etc = options["ETC"]
        self._ordering.new_search(
            use_killers=options["Killers"] and not game.strong_move_order,
            use_history=options["History"] and not game.strong_move_order,
        )
        self._use_quiescence = options["Quiescence"]
        self._hooks = (
            options["GameHooks"]
            and game.has_hook("winning_moves")
            and game.has_hook("non_losing_moves")
        )
        self._symmetry = options["GameHooks"] and game.has_hook("symmetric_key")
        self._check_every = CHECK_EVERY
        self._child_search = self._search
        if kernel is not None:
            self._kernel = self._start_kernel(kernel, tt)
            self._child_search = self._kernel_search
            self._check_every = KERNEL_CHECK_EVERY
        self._live: tuple[int, Score, list[Move]] | None = None
        self._last_info = 0.0

        infinite = limits.infinite
        self._node_limit = None if infinite or limits.nodes is None else max(0, limits.nodes)
        max_depth = self._max_ply
        if not infinite and limits.depth is not None:
            max_depth = max(1, min(max_depth, limits.depth))
        self._next_check = self._check_every
        if self._node_limit is not None:
            self._next_check = min(self._node_limit, self._check_every)

        if state.is_terminal():
            return self._terminal_result(state)

        ordered = state.ordered_moves()
        if limits.search_moves:
            wanted = list(limits.search_moves)
            ordered = [move for move in ordered if move in wanted]
            if not ordered:
                raise ValueError("none of the search_moves is legal in this position")
        tt_move = self._table_move(state)
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        self._roots = [_Line(move) for move in ordered]
        self._multipv = max(1, min(limits.multipv, len(ordered)))

        if context.stop.is_set():
            return self._unsearched_result(state, ordered[0])

        iteration_nodes: list[int] = []
        if limits.solve:
            completed, completed_depth, solved, stop_reason = self._solve()
        else:
            completed, completed_depth, solved, stop_reason = self._deepen(
                max_depth, iteration_nodes, record_root=not limits.search_moves
            )

        elapsed = self._tm.elapsed()
        best = completed[0]
        stats: dict[str, float] = {
            "first_move_cutoff_rate": (
                self._first_cutoffs / self._cutoffs if self._cutoffs else 0.0
            ),
            "tt_hits": float(tt.hits),
            "tt_probes": float(tt.probes),
            "solved": 1.0 if solved else 0.0,
            "hashfull": float(tt.hashfull()),
            "nps": self._nodes / elapsed if elapsed > 0 else 0.0,
            "kernel": 1.0 if kernel is not None else 0.0,
        }
        if len(iteration_nodes) >= 2 and iteration_nodes[-2] > 0:
            stats["ebf"] = iteration_nodes[-1] / iteration_nodes[-2]
        root_moves = [RootMove(line.move, line.to_score(), list(line.pv)) for line in completed]
        self._state = None  # type: ignore[assignment]
        self._kernel = None
        return Result(
            best_move=best.move,
            score=root_moves[0].score,
            pv=list(best.pv),
            root_moves=root_moves,
            nodes=self._nodes,
            time=elapsed,
            depth=completed_depth,
            seldepth=self._seldepth,
            stop_reason=stop_reason,
            stats=stats,
        )

    def _deepen(
        self, max_depth: int, iteration_nodes: list[int], record_root: bool
    ) -> tuple[list[_Line], int, bool, str]:
        """Iterative deepening; returns (lines, completed depth, solved, stop reason)."""
        state = self._state
        tt = self._tt
        completed: list[_Line] = []
        completed_depth = 0
        solved = False
        stop_reason = "depth"
        prev_score: int | None = None
        for depth in range(1, max_depth + 1):
            if depth > 1:
                reason = self._reason_to_stop(iteration_nodes)
                if reason:
                    stop_reason = reason
                    break
            self._iter_depth = depth
            start_nodes = self._nodes
            try:
                prev_score = self._aspiration(depth, prev_score)
            except _Abort as abort:
                for _ in range(abort.ply):
                    state.undo()
                if abort.cause is not None:
                    raise abort.cause from None
                stop_reason = abort.reason
                if not completed:  # stopped within depth 1 (a very wide root)
                    completed = self._static_lines(-WIN, WIN, None)
                break
            iteration_nodes.append(self._nodes - start_nodes)
            completed_depth = depth
            self._roots.sort(key=lambda line: (line.score, line.bound == EXACT), reverse=True)
            completed = [line.copy() for line in self._roots]
            for line in completed[: self._multipv]:
                line.pv = tuple(self._extend_pv(list(line.pv), depth))
            solved = all(line.proven for line in completed)
            if record_root:  # a restricted root's value is not the position's
                best = completed[0]
                key, mirrored = self._table_key(state)
                move = state.mirror_move(best.move) if mirrored else best.move
                tt.store(key, PROVEN if solved else depth, best.score, EXACT, move, 0)
            self._report_depth(depth, completed)
            if solved:
                stop_reason = "solved"
                break

        return completed, completed_depth, solved, stop_reason

    def _solve(self) -> tuple[list[_Line], int, bool, str]:
        """Exact solving: null-window probes at unlimited depth until lower == upper bound.

        Each probe asks "is the value above m?" for one m chosen by `_probe_value`; a
        fail-soft answer moves the lower or upper bound, usually past m. A final pass with
        a narrow window (full window for multi-PV) gives the best line its exact score.
        """
        state = self._state
        depth = self._max_ply
        self._iter_depth = depth  # abortable from the first node
        lower, upper = -WIN, WIN
        best: _Line | None = None
        stop_reason = "solved"
        estimate = Score.from_internal(max(-CLAMP, min(CLAMP, state.evaluate())))
        self._live = (0, estimate, [self._roots[0].move])  # periodic Info until a bound
        try:
            while lower < upper:
                probe = _probe_value(lower, upper)
                status, value = self._search_root(depth, probe, probe + 1)
                if status == _FAIL_HIGH:
                    lower = value
                    best = self._fail_high_line
                    self._roots.remove(best)
                    self._roots.insert(0, best)
                else:
                    upper = value
                self._report_bounds(lower, upper, best)
            window = (-INF, INF) if self._multipv > 1 else (lower - 1, lower + 1)
            self._search_root(depth, *window)
        except _Abort as abort:
            for _ in range(abort.ply):
                state.undo()
            if abort.cause is not None:
                raise abort.cause from None
            stop_reason = abort.reason
            return self._static_lines(lower, upper, best), 0, False, stop_reason
        self._roots.sort(key=lambda line: (line.score, line.bound == EXACT), reverse=True)
        completed = [line.copy() for line in self._roots]
        for line in completed[: self._multipv]:
            line.pv = tuple(self._extend_pv(list(line.pv), depth))
        solved = completed[0].proven and completed[0].bound == EXACT
        if not solved:
            stop_reason = "depth"  # the recursion limit was reached: a heuristic value
        self._report_depth(self._seldepth, completed)
        return completed, self._seldepth, solved, stop_reason

    def _static_lines(self, lower: int, upper: int, best: _Line | None) -> list[_Line]:
        """Root lines ranked without searching (for a search cut short before any result:
        the deadline may have passed): the move with the best proven lower bound first,
        the others by static evaluation, all with the proven upper bound if there is one."""
        state = self._state
        lines = []
        for root in self._roots:
            line = _Line(root.move)
            state.play(root.move)
            if state.is_terminal():
                line.score = -_terminal_value(state, 1)
            else:
                line.score = -max(-CLAMP, min(CLAMP, state.evaluate()))
            state.undo()
            line.bound = EXACT
            if upper < WIN:
                line.score, line.bound, line.proven = upper, UPPER, True
            lines.append(line)
        lines.sort(key=lambda line: line.score, reverse=True)
        if best is not None:
            first = next(line for line in lines if line.move == best.move)
            first.score, first.bound, first.proven = lower, LOWER, True
            lines.remove(first)
            lines.insert(0, first)
        return lines

    def _report_bounds(self, lower: int, upper: int, best: _Line | None) -> None:
        """Info after a solving probe: the bound proven so far."""
        if best is not None and lower > -WIN:
            score = Score.from_internal(lower, Bound.LOWER, proven=True)
            pv = list(best.pv)
        else:
            score = Score.from_internal(upper, Bound.UPPER, proven=True)
            pv = [self._roots[0].move]
        self._live = (self._seldepth, score, pv)
        elapsed = self._tm.elapsed()
        if self._tm.hard_passed(elapsed):
            raise _Abort(0, "time")
        self._report(self._seldepth, score, pv, 1, elapsed)

    # -- results without a search -----------------------------------------------------------

    def _terminal_result(self, state: Game) -> Result:
        score = Score.from_internal(_terminal_value(state, 0), proven=True)
        return Result(
            None, score, [], [], nodes=0, time=self._tm.elapsed(), depth=0, stop_reason="game_over"
        )

    def _unsearched_result(self, state: Game, move: Move) -> Result:
        value = max(-CLAMP, min(CLAMP, state.evaluate()))
        score = Score.from_internal(value)
        return Result(
            best_move=move,
            score=score,
            pv=[move],
            root_moves=[RootMove(move, score, [move])],
            nodes=0,
            time=self._tm.elapsed(),
            depth=0,
            stop_reason="stopped",
        )

    # -- iteration control ------------------------------------------------------------------

    def _reason_to_stop(self, iteration_nodes: list[int]) -> str:
        """Why not to start another iteration ("" = go on): stopped, nodes or time."""
        if self._context.stop.is_set():
            return "stopped"
        if self._node_limit is not None and self._nodes >= self._node_limit:
            return "nodes"
        tm = self._tm
        if tm.soft is None and tm.hard is None:
            return ""
        branching = 2.0
        if len(iteration_nodes) >= 2 and iteration_nodes[-2] > 0:
            branching = iteration_nodes[-1] / iteration_nodes[-2]
        return "" if tm.can_start_iteration(tm.elapsed(), branching) else "time"

    def _aspiration(self, depth: int, prev: int | None) -> int:
        """Search the root at `depth`, in a window around `prev` widened until it holds."""
        delta = int(self.options["Aspiration"])
        alpha, beta = -INF, INF
        if (
            delta > 0
            and depth > 1
            and self._multipv == 1
            and prev is not None
            and -WIN_THRESHOLD < prev < WIN_THRESHOLD
        ):
            alpha, beta = prev - delta, prev + delta
        while True:
            status, value = self._search_root(depth, alpha, beta)
            if status == _OK:
                return value
            delta *= ASPIRATION_GROWTH
            if status == _FAIL_LOW:
                alpha = -INF if value <= -WIN_THRESHOLD else max(-INF, value - delta)
            else:
                beta = INF if value >= WIN_THRESHOLD else min(INF, value + delta)
            if delta > CLAMP:
                alpha, beta = -INF, INF

    def _search_root(self, depth: int, alpha0: int, beta0: int) -> tuple[int, int]:
        """One pass over the root moves in window (alpha0, beta0).

        The top `multipv` moves get exact scores: each move is searched with alpha = the
        k-th best exact score so far (full window until k exact scores exist); the others
        get null-window bounds. Returns (status, value): a fail high stops at once.
        """
        self._nodes += 1
        state = self._state
        search = self._child_search
        pv = self._pv
        k = self._multipv
        exact: list[int] = []
        for line in self._roots:
            alpha = alpha0
            if len(exact) >= k and exact[k - 1] > alpha:
                alpha = exact[k - 1]
            beta = beta0
            h0 = self._horizon
            state.play(line.move)
            if len(exact) < k or not self._pvs:
                value = -search(depth - 1, -beta, -alpha, 1)
            else:
                value = -search(depth - 1, -alpha - 1, -alpha, 1)
                if alpha < value < beta:
                    value = -search(depth - 1, -beta, -alpha, 1)
            state.undo()
            line.score = value
            line.proven = self._horizon == h0
            if value <= alpha:
                line.bound = UPPER
                line.pv = (line.move,)
            elif value >= beta:
                line.bound = LOWER
                line.pv = (line.move, *pv[1])
                self._fail_high_line = line
                return _FAIL_HIGH, value
            else:
                line.bound = EXACT
                line.pv = (line.move, *pv[1])
                exact.append(value)
                exact.sort(reverse=True)
                if value == exact[0]:
                    self._live = (depth, line.to_score(), list(line.pv))
        if len(exact) < k:
            return _FAIL_LOW, max(line.score for line in self._roots)
        return _OK, exact[0]

    # -- the tree search --------------------------------------------------------------------

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self._quiesce(alpha, beta, ply)
        pv = self._pv
        pv[ply] = ()
        nodes = self._nodes + 1
        self._nodes = nodes
        if nodes >= self._next_check:
            self._check(ply)
        state = self._state
        if state.is_terminal():
            return _terminal_value(state, ply)
        if ply > self._seldepth:
            self._seldepth = ply
        if ply >= self._max_ply:
            self._horizon += 1
            value = state.evaluate()
            return CLAMP if value > CLAMP else -CLAMP if value < -CLAMP else value

        # Mate-distance pruning: a non-terminal node is worth within +/-(WIN - ply - 1).
        a = alpha
        b = beta
        limit = WIN - ply - 1
        if a < -limit:
            a = -limit
        if b > limit:
            b = limit
        if a >= b:
            return a

        if self._hooks:
            if state.winning_moves():
                return WIN - ply - 1
            limit = WIN - ply - 3  # no immediate win: no win before the move after next
            if b > limit:
                b = limit
                if a >= b:
                    return b

        mirrored = False
        if self._symmetry:
            key, mirrored = state.symmetric_key()
        else:
            key = state.key()
        entry = self._tt_probe(key)
        tt_move = None
        if entry is not None:
            tt_move = entry[4]
            if mirrored and tt_move is not None:
                tt_move = state.mirror_move(tt_move)
            entry_depth = entry[1]
            if entry_depth >= depth:
                score = entry[2]
                if score >= WIN_THRESHOLD:
                    score -= ply
                elif score <= -WIN_THRESHOLD:
                    score += ply
                bound = entry[3]
                if (
                    bound == EXACT
                    or (bound == LOWER and score >= b)
                    or (bound == UPPER and score <= a)
                ):
                    if entry_depth != PROVEN:
                        self._horizon += 1
                    return score

        h0 = self._horizon
        if self._hooks:
            moves = state.non_losing_moves()
            if not moves:
                return ply + 2 - WIN  # every move lets the opponent win at once
            floor = ply + 4 - WIN  # and otherwise no loss before the opponent's next move
            if a < floor:
                a = floor
                if a >= b:
                    return a
        else:
            moves = state.ordered_moves()
        ordering = self._ordering
        if len(moves) > 1:
            if ordering.active:
                ordering.order(moves, ply, tt_move)
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)

        pv_node = beta - alpha > 1  # null-window nodes need no line
        if self._etc and depth > 1 and not pv_node:
            cutoff = self._etc_cutoff(moves, depth - 1, b, ply + 1)
            if cutoff is not None:
                value, move, proven = cutoff
                if not proven:
                    self._horizon += 1
                if mirrored:
                    move = state.mirror_move(move)
                self._tt_store(key, PROVEN if proven else depth, value, LOWER, move, ply)
                return value

        play = state.play
        undo = state.undo
        search = self._search
        child = depth - 1
        next_ply = ply + 1
        best = -INF
        best_move = None
        pvs = self._pvs
        for index, move in enumerate(moves):
            play(move)
            if index == 0 or not pvs:
                value = -search(child, -b, -a, next_ply)
            else:
                value = -search(child, -a - 1, -a, next_ply)
                if a < value < b:
                    value = -search(child, -b, -a, next_ply)
            undo()
            if value > best:
                best = value
                best_move = move  # on a fail low: the move with the best bound
                if value > a:
                    if pv_node:  # also at a cutoff: exact for the caller if b was narrowed
                        pv[ply] = (move, *pv[next_ply])
                    if value >= b:
                        self._cutoffs += 1
                        if index == 0:
                            self._first_cutoffs += 1
                        if ordering.active and move not in state.noisy_moves():
                            ordering.record_cutoff(move, ply, depth)
                        break
                    a = value

        if best <= alpha:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        else:
            bound = EXACT
        if mirrored and best_move is not None:
            best_move = state.mirror_move(best_move)
        self._tt_store(key, PROVEN if self._horizon == h0 else depth, best, bound, best_move, ply)
        return best

    def _etc_cutoff(
        self, moves: list[Move], child_depth: int, beta: int, child_ply: int
    ) -> tuple[int, Move, bool] | None:
        """Enhanced transposition cutoff: the first of `moves` whose child has a stored upper
        bound (or exact value) of at most -beta, as (value >= beta, move, whether proven)."""
        state = self._state
        probe = self._tt_probe
        symmetry = self._symmetry
        for move in moves:
            state.play(move)
            key = state.symmetric_key()[0] if symmetry else state.key()
            state.undo()
            entry = probe(key)
            if entry is None or entry[1] < child_depth or entry[3] == LOWER:
                continue
            value = -from_tt(entry[2], child_ply)
            if value >= beta:
                return value, move, entry[1] == PROVEN
        return None

    # -- the compiled kernel ----------------------------------------------------------------

    def _start_kernel(self, kernel_class: Any, table: kernels.NativeTable) -> Any:
        kernel = kernel_class(table, self._kernel_poll)
        kernel.pvs = self._pvs
        kernel.hooks = self._hooks
        kernel.symmetry = self._symmetry
        kernel.quiescence = self._use_quiescence
        kernel.max_ply = self._max_ply
        kernel.etc = self._etc
        return kernel

    def _kernel_search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """`_search` by the kernel: the counters go in and come back out, even on a stop."""
        kernel = self._kernel
        kernel.nodes = self._nodes
        kernel.next_check = self._next_check
        kernel.seldepth = self._seldepth
        kernel.horizon = self._horizon
        kernel.cutoffs = self._cutoffs
        kernel.first_cutoffs = self._first_cutoffs
        try:
            value = kernel.search(self._state, depth, alpha, beta, ply)
        finally:
            self._nodes = kernel.nodes
            self._next_check = kernel.next_check
            self._seldepth = kernel.seldepth
            self._horizon = kernel.horizon
            self._cutoffs = kernel.cutoffs
            self._first_cutoffs = kernel.first_cutoffs
        self._pv[ply] = kernel.line(ply)
        return value

    def _kernel_poll(self, ply: int) -> None:
        """`_check` for the kernel, which keeps its own node counter meanwhile."""
        kernel = self._kernel
        self._nodes = kernel.nodes
        self._seldepth = kernel.seldepth
        self._check(ply)
        kernel.next_check = self._next_check

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        pv = self._pv
        pv[ply] = ()
        nodes = self._nodes + 1
        self._nodes = nodes
        if nodes >= self._next_check:
            self._check(ply)
        state = self._state
        if state.is_terminal():
            return _terminal_value(state, ply)
        if ply > self._seldepth:
            self._seldepth = ply
        self._horizon += 1
        best = state.evaluate()
        if best > CLAMP:
            best = CLAMP
        elif best < -CLAMP:
            best = -CLAMP
        if best >= beta or ply >= self._max_ply or not self._use_quiescence:
            return best
        noisy = state.noisy_moves()
        if not noisy:
            return best
        if best > alpha:
            alpha = best
        play = state.play
        undo = state.undo
        quiesce = self._quiesce
        next_ply = ply + 1
        for move in noisy:
            play(move)
            value = -quiesce(-beta, -alpha, next_ply)
            undo()
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        break
                    alpha = value
                    pv[ply] = (move, *pv[next_ply])
        return best

    # -- polling, reporting -----------------------------------------------------------------

    def _check(self, ply: int) -> None:
        """Poll the limits, the stop signal and the clock; raise _Abort to stop."""
        nodes = self._nodes
        limit = self._node_limit
        if self._iter_depth > 1 and limit is not None and nodes >= limit:
            raise _Abort(ply, "nodes")  # (a node budget always lets depth 1 finish)
        if self._context.stop.is_set():
            raise _Abort(ply, "stopped")
        elapsed = self._tm.elapsed()
        if self._tm.hard_passed(elapsed):
            raise _Abort(ply, "time")
        interval = self._context.info_interval
        if self._live is not None and interval > 0 and elapsed - self._last_info >= interval:
            depth, score, line = self._live
            try:
                self._report(depth, score, line, 1, elapsed)
            except Exception as exc:
                raise _Abort(ply, "error", exc) from exc
        following = nodes + self._check_every
        if limit is not None and nodes < limit < following:
            following = limit
        self._next_check = following

    def _report(self, depth: int, score: Score, pv: list[Move], multipv: int, elapsed: float):
        self._last_info = elapsed
        self._context.report(
            Info(
                depth=depth,
                seldepth=self._seldepth,
                score=score,
                nodes=self._nodes,
                nps=int(self._nodes / elapsed) if elapsed > 0 else 0,
                time=elapsed,
                pv=list(pv),
                multipv=multipv,
                hashfull=self._tt.hashfull(),
            )
        )

    def _report_depth(self, depth: int, lines: list[_Line]) -> None:
        elapsed = self._tm.elapsed()
        self._live = (depth, lines[0].to_score(), list(lines[0].pv))
        for index, line in enumerate(lines[: self._multipv], start=1):
            self._report(depth, line.to_score(), list(line.pv), index, elapsed)

    def _table_key(self, state: Game) -> tuple[int, bool]:
        """The table key of `state` and whether its moves are stored mirrored."""
        if self._symmetry:
            return state.symmetric_key()
        return state.key(), False

    def _table_move(self, state: Game) -> Move | None:
        """The table's best move for `state`, in the position's own orientation."""
        key, mirrored = self._table_key(state)
        move = self._tt.best_move(key)
        if move is None or not mirrored:
            return move
        return state.mirror_move(move)

    def _extend_pv(self, pv: list[Move], depth: int) -> list[Move]:
        """Follow transposition-table moves past the end of `pv` (legality-checked)."""
        tt = self._tt
        if not tt.size:
            return pv
        state = self._state
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
                move = self._table_move(state)
                if move is None and self._hooks:
                    move = _forced_move(state)
                if move is None or move not in state.legal_moves():
                    break
                state.play(move)
                played += 1
                pv.append(move)
        finally:
            for _ in range(played):
                state.undo()
        return pv
