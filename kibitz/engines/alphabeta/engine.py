"""The `alphabeta` engine: options, the state kept between searches, and one search's set-up.

The search itself is in the modules beside this one (docs/engines.md, "alphabeta"):
`root.py` (iterative deepening, aspiration windows, multi-PV), `solve.py` (exact solving),
`nodes.py` (the node search), `table.py` (the transposition table), `ordering.py` (killers
and history), `kernel.py` with `kernels/` (compiled node searches).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, ClassVar

from kibitz.engines.alphabeta import kernels
from kibitz.engines.alphabeta.kernel import CHECK_EVERY as KERNEL_CHECK_EVERY
from kibitz.engines.alphabeta.kernel import KernelNodeSearch, SubtreeKernelSearch
from kibitz.engines.alphabeta.nodes import NodeSearch, clamped_evaluation
from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.engines.alphabeta.root import RootSearch
from kibitz.engines.alphabeta.solve import solve
from kibitz.engines.alphabeta.table import ENTRY_BYTES, KeptTable, TranspositionTable
from kibitz.engines.base import Engine, OptionSpec, Requirements, SearchContext
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result, unsearched_result
from kibitz.engines.types import MAX_PLY, Limits, Result, Score
from kibitz.games import Game
from kibitz.games.capabilities import Evaluation, HashKey, MoveOrdering

CHECK_EVERY = 512
"""Nodes between two polls of the clock and the stop signal (pure-Python search)."""


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
    requires: ClassVar[Requirements] = Requirements(
        players=(2, 2), chance=False, zero_sum_only=True, capabilities=(HashKey, Evaluation)
    )
    inline_nodes: ClassVar[int] = 2000
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Hash",
            "spin",
            16,
            "Transposition table size in MB (about 160 bytes per entry, 24 with Connect "
            "Four's compiled kernel; chess's keeps the Python count of entries); 0 = no "
            "table. Kept between searches; cleared on new game.",
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
            "NullMove",
            "check",
            True,
            "Null-move pruning, for games that can pass (chess): where the side to move "
            "could pass and still hold beta at a reduced depth, cut without searching its "
            "moves. Not in check, not at principal-variation nodes, not where the game "
            "suspects zugzwang (chess: only king and pawns). Never counts as proof.",
        ),
        OptionSpec(
            "LMR",
            "check",
            True,
            "Late-move reductions, for games with checks and noisy moves (chess): quiet "
            "moves late in the order are searched one or two plies shallower with a null "
            "window first, and again at full depth when they beat alpha. Needs PVS.",
        ),
        OptionSpec(
            "SEE",
            "check",
            True,
            "Static exchange evaluation, for games that have it (chess): captures that lose "
            "material on their square are searched after the quiet moves, and skipped in "
            "quiescence.",
        ),
        OptionSpec(
            "Futility",
            "check",
            True,
            "Futility pruning, for games with checks that list their noisy moves first "
            "(chess): one to three plies from the horizon, away from the principal variation "
            "and not in check, a node whose evaluation lies a depth-dependent margin above "
            "beta returns it, and one whose evaluation lies that margin below alpha skips "
            "its quiet moves that do not give check. Never counts as proof.",
        ),
        OptionSpec(
            "LateMovePruning",
            "check",
            True,
            "Late-move pruning, for games with checks that list their noisy moves first "
            "(chess): one to three plies from the horizon, away from the principal variation "
            "and not in check, quiet moves late in the order that do not give check are "
            "skipped (after 4, 7, 12 of them). Never counts as proof.",
        ),
        OptionSpec(
            "CheckExtension",
            "check",
            True,
            "Search one ply deeper from a position in check, for games with checks (chess).",
        ),
        OptionSpec(
            "SingularExtension",
            "check",
            False,
            "Singular extensions, for games with checks (chess): six plies or more from the "
            "horizon, where the table's move has a value at least that deep and every other "
            "move, searched at half the depth, stays 2 centi-units a ply below it, that move "
            "is searched one ply deeper. Not in check (already extended), not at win scores.",
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
            "Search with the compiled kernel where the game has one (Connect Four: the whole "
            "node search, about 90 times as fast; chess on the compiled board: the node "
            "search below the root, about 4 times as fast): the same nodes, values and "
            "lines as the pure-Python search. Off = the pure-Python reference search.",
        ),
    )

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["Hash"])

    def __init__(
        self, options: Mapping[str, Any] | None = None, *, tt_entries: int | None = None
    ) -> None:
        """`tt_entries` (a test hook) fixes the table's slot count, 0 = no table at all."""
        super().__init__(options)
        self.kept_table = KeptTable(tt_entries)  # made by search()
        self._ordering = QuietMoveOrdering()

    def _table(
        self, native: bool, slots_as_python: bool = False
    ) -> TranspositionTable | kernels.NativeTable:
        """The table kept between searches, of the kind the search needs: a `NativeTable`
        for a kernel, with as many slots as the Python table would have where
        `slots_as_python` (chess: the search stays the Python one's node for node at every
        Hash), else as many as its 24-byte slots fit in Hash (Connect Four)."""
        megabytes = int(self.options["Hash"])
        if native:
            entry_bytes = ENTRY_BYTES if slots_as_python else kernels.ENTRY_BYTES
            return self.kept_table.get(kernels.NativeTable, megabytes, entry_bytes)
        return self.kept_table.get(TranspositionTable, megabytes, ENTRY_BYTES)

    def new_game(self) -> None:
        self.kept_table.clear()
        self._ordering.clear()

    def close(self) -> None:
        self.kept_table.close()

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        options = self.options
        strong_order = isinstance(state, MoveOrdering) and state.strong_move_order
        kernel = kernels.kernel_for(type(state)) if options["Kernel"] else None
        subtrees = None  # a kernel for the subtrees below a Python root (chess)
        if options["Kernel"] and kernel is None:
            subtrees = kernels.subtree_kernel_for(state)
        compiled = kernel is not None or subtrees is not None
        table = self._table(native=compiled, slots_as_python=subtrees is not None)
        table.new_search()
        self._ordering.new_search(
            use_killers=options["Killers"] and not strong_order,
            use_history=options["History"] and not strong_order,
        )
        max_ply = max(2, min(MAX_PLY - 2, sys.getrecursionlimit() - _frame_depth() - 60))
        switches: dict[str, Any] = {
            "pvs": options["PVS"],
            "etc": options["ETC"],
            "quiescence": options["Quiescence"],
            "hooks": options["GameHooks"],
            "symmetry": options["GameHooks"],
            "max_ply": max_ply,
            "null_move": options["NullMove"],
            "lmr": options["LMR"],
            "check_extension": options["CheckExtension"],
            "see": options["SEE"],
            "futility": options["Futility"],
            "late_move_pruning": options["LateMovePruning"],
            "singular_extension": options["SingularExtension"],
        }
        if kernel is not None:
            nodes: NodeSearch = KernelNodeSearch(kernel, state, table, self._ordering, **switches)
        elif subtrees is not None:
            nodes = SubtreeKernelSearch(subtrees, state, table, self._ordering, **switches)
        else:
            nodes = NodeSearch(state, table, self._ordering, **switches)
        driver = SearchDriver(state, limits, context)

        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        moves = root_candidates(nodes.moves_of(), limits.search_moves)
        key, mirrored = nodes.table_key()
        tt_move = table.best_move(key)
        if tt_move is not None and mirrored:
            tt_move = state.mirror_move(tt_move)
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        unstarted = driver.unstarted()
        if unstarted is not None:  # stopped, or no time left: the table's move or the first
            score = Score.from_internal(clamped_evaluation(state))
            return unsearched_result(moves[0], score, driver.elapsed(), unstarted)

        root = RootSearch(
            nodes,
            table,
            driver,
            moves,
            multipv=limits.multipv,
            aspiration=int(options["Aspiration"]),
            check_every=KERNEL_CHECK_EVERY if compiled else CHECK_EVERY,
            compiled=nodes if isinstance(nodes, KernelNodeSearch) else None,
        )
        try:
            if limits.solve:
                completed, completed_depth, solved, stop_reason = solve(root)
            else:
                max_depth = max_ply
                if not limits.infinite and limits.depth is not None:
                    max_depth = max(1, min(max_depth, limits.depth))
                completed, completed_depth, solved, stop_reason = root.deepen(
                    max_depth, record_root=not limits.search_moves
                )
        finally:
            root.close()

        elapsed = driver.elapsed()
        stats: dict[str, float] = {
            "first_move_cutoff_rate": (
                nodes.first_cutoffs / nodes.cutoffs if nodes.cutoffs else 0.0
            ),
            "tt_hits": float(table.hits),
            "tt_probes": float(table.probes),
            "solved": 1.0 if solved else 0.0,
            "hashfull": float(table.hashfull()),
            "nps": nodes.nodes / (elapsed - driver.began) if elapsed > driver.began else 0.0,
            "kernel": 1.0 if compiled else 0.0,
        }
        if nodes.null_move:
            stats["null_cutoffs"] = float(nodes.null_cutoffs)
        if nodes.lmr:
            stats["reductions"] = float(nodes.reductions)
        if nodes.futility or nodes.late_move_pruning:
            stats["pruned"] = float(nodes.pruned)
        if nodes.singular:
            stats["singular_extensions"] = float(nodes.singular_extensions)
        counts = root.iteration_nodes
        if len(counts) >= 2 and counts[-2] > 0:
            stats["ebf"] = counts[-1] / counts[-2]
        root_moves = [line.to_root_move() for line in completed]
        best = root_moves[0]
        return Result(
            best_move=best.move,
            score=best.score,
            pv=list(best.pv),
            root_moves=root_moves,
            nodes=nodes.nodes,
            time=elapsed,
            depth=completed_depth,
            seldepth=nodes.seldepth,
            stop_reason=stop_reason,
            stats=stats,
        )
