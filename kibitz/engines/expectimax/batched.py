"""`NodeSearch` with a decision node one decision above the leaves valued in one batch.

Where the estimate chosen values many positions faster together (`EstimateSources.batched`:
backgammon's TD network, option `Evaluation`, where one network call per leaf costs mostly
numpy's overhead), a decision node at depth 1 asks the position for the values after all
its moves at once (`EstimateSources.values_after`: one matrix product), then
`NodeSearch.decision` runs over them (`child` answering from the batch): the same moves in
the same order, the same cuts, the same leaves and estimates counted (the values past a
cut are computed and not counted). Values may differ from one leaf at a time in their
last bit (a matrix product of many rows). Only the polls move: the leaves of such a node
are counted together.
"""

from __future__ import annotations

from typing import Any

from kibitz.engines.expectimax.nodes import NodeSearch
from kibitz.games import Move


class BatchedNodeSearch(NodeSearch):
    """A `NodeSearch` over a position whose estimate is `batched` (see the module
    docstring)."""

    __slots__ = ("batch",)

    def __init__(self, *args: Any, **switches: Any) -> None:
        super().__init__(*args, **switches)
        self.batch: dict[Move, tuple[float, bool]] | None = None
        """The values (and whether each is an estimate) after the plays of the decision
        node at hand, while it is one decision above the leaves."""

    def decision(
        self, player: int, depth: int, alpha: float, beta: float, first: Move | None
    ) -> tuple[float, Move | None]:
        if depth != 1:
            return super().decision(player, depth, alpha, beta, first)
        moves = self.moves()
        values, estimated = self.state.values_after(moves)  # type: ignore[attr-defined]
        self.batch = dict(zip(moves, zip(values, estimated, strict=True), strict=True))
        try:
            return super().decision(player, depth, alpha, beta, first)
        finally:
            self.batch = None

    def child(self, move: Move, depth: int, alpha: float, beta: float) -> float:
        if self.batch is None:
            return super().child(move, depth, alpha, beta)
        value, estimate = self.batch[move]
        self.leaves += 1
        self.estimates += estimate
        return value
