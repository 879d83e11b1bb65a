"""The bridges to compiled kernels: `NodeSearch` with the root's passes and subtrees in C
(`KernelNodeSearch`, Connect Four), or with its subtrees alone (`SubtreeKernelSearch`, chess).

The kernel (`kernels/`) repeats `NodeSearch.search` node for node over a `NativeTable`,
`RootSearch.search_root`'s pass over the root moves in one call (`root_pass`), and all of a
solve's probes in one call (`probes`). The rest of the root stays in Python; for each
kernel call the counters (nodes, seldepth, the proven-result counter, cutoff statistics) go
into the kernel and come back out, also when a stop raised in the kernel's poll unwinds it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kibitz.engines.alphabeta.kernels import NativeTable
from kibitz.engines.alphabeta.nodes import NodeSearch
from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.games import Game, Move

CHECK_EVERY = 8192
"""Nodes between two polls of the clock and the stop signal: the kernel visits nodes about
90 times as fast as the Python search, which polls every 512."""


class KernelNodeSearch(NodeSearch):
    """A `NodeSearch` whose `subtree` is searched by `kernel_class` (e.g. Connect4Search)."""

    def __init__(
        self,
        kernel_class: Any,
        state: Game,
        table: NativeTable,
        ordering: QuietMoveOrdering,
        **switches: Any,
    ) -> None:
        super().__init__(state, table, ordering, **switches)
        kernel = kernel_class(table, self._poll)
        kernel.pvs = self.pvs
        kernel.hooks = self.hooks
        kernel.symmetry = self.symmetry
        kernel.quiescence = self.use_quiescence
        kernel.max_ply = self.max_ply
        kernel.etc = self.etc
        self.kernel = kernel

    def subtree(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        kernel = self._enter()
        try:
            value = kernel.search(self.state, depth, alpha, beta, ply)
        finally:
            self._leave()
        self.pv[ply] = kernel.line(ply)
        return value

    def root_pass(
        self, moves: list[Move], depth: int, alpha: int, beta: int, multipv: int
    ) -> tuple[int, int, list[tuple[int, int, bool, tuple[Move, ...]]]]:
        """`RootSearch.search_root`'s whole pass over the root `moves` in one kernel call:
        (status, value, (score, bound, proven, pv) of each move searched)."""
        kernel = self._enter()
        try:
            return kernel.root_pass(self.state, moves, depth, alpha, beta, multipv)
        finally:
            self._leave()

    def probes(
        self, moves: list[Move], depth: int, multipv: int, probed: Callable[..., None]
    ) -> None:
        """`solve`'s probes over the root `moves` in one kernel call; `probed(lower, upper,
        index, pv)` after each (`Connect4Search.probes`), with the counters up to date."""
        kernel = self._enter()

        def counted(*args: Any) -> None:
            self.nodes = kernel.nodes
            self.seldepth = kernel.seldepth
            probed(*args)

        try:
            kernel.probes(self.state, moves, depth, multipv, counted)
        finally:
            self._leave()

    def root_values(self, moves: list[Move]) -> list[int]:
        """`RootSearch.static_values` of the root `moves`, in their order."""
        return self.kernel.root_values(self.state, moves)

    def table_line(self, pv: list[Move], depth: int) -> list[Move]:
        """`RootSearch.extend_pv`: `pv` followed by the table's (or forced) moves."""
        return self.kernel.table_line(self.state, pv, depth)

    def close(self) -> None:
        """Drop the kernel's poll (a reference back to this search) once the search is over."""
        self.kernel.poll = None

    def _enter(self) -> Any:
        """The kernel, with the counters handed to it."""
        kernel = self.kernel
        kernel.nodes = self.nodes
        kernel.next_check = self.next_check
        kernel.seldepth = self.seldepth
        kernel.horizon = self.horizon
        kernel.cutoffs = self.cutoffs
        kernel.first_cutoffs = self.first_cutoffs
        return kernel

    def _leave(self) -> None:
        """Take the counters back from the kernel (also when a stop unwinds it)."""
        kernel = self.kernel
        self.nodes = kernel.nodes
        self.next_check = kernel.next_check
        self.seldepth = kernel.seldepth
        self.horizon = kernel.horizon
        self.cutoffs = kernel.cutoffs
        self.first_cutoffs = kernel.first_cutoffs

    def _poll(self, ply: int) -> None:
        """`check` for the kernel, which keeps its own node counter meanwhile."""
        kernel = self.kernel
        self.nodes = kernel.nodes
        self.seldepth = kernel.seldepth
        self.check(ply)
        kernel.next_check = self.next_check


class SubtreeKernelSearch(NodeSearch):
    """A `NodeSearch` whose subtrees below the root (`subtree`, and `quiesce`) are searched
    by `kernel_class` (e.g. ChessSearch) over the state's compiled board and a `NativeTable`,
    with the killers and history of `ordering` repeated in the kernel (its history handed
    back after each call). The root stays Python (no `root_pass`, `probes`, `root_values` or
    `table_line`: `RootSearch` runs with `compiled` None). The counters and the line go into
    the kernel and come back with each call, also when a stop raised in its poll unwinds it."""

    def __init__(
        self,
        kernel_class: Any,
        state: Game,
        table: NativeTable,
        ordering: QuietMoveOrdering,
        **switches: Any,
    ) -> None:
        super().__init__(state, table, ordering, **switches)
        board = state.board  # type: ignore[attr-defined]
        self.kernel = kernel_class(
            board,
            self.use_quiescence,
            self.exchange is not None,
            self.max_ply,
            table,
            self,
            ordering,
        )

    def subtree(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        return self.kernel.subtree(self, depth, alpha, beta, ply)

    def quiesce(self, alpha: int, beta: int, ply: int) -> int:
        return self.kernel.quiesce(self, alpha, beta, ply)
