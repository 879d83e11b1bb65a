"""The bridge to a game's compiled kernel: `NodeSearch` with the game's rules and estimate in C.

A game offers its kernel through the capability `ExpectimaxKernel` (backgammon:
`kibitz/games/backgammon/_kernel.pyx`). A kernel offers, on the game's state:
``moves(state)`` (the moves of a decision node, as `legal_moves` lists them),
``estimate(state)`` (`expected_return(0)`), ``decide(state, alpha, beta, low, high, first,
limit)`` (`NodeSearch.decision` of a decision node one decision above the leaves, over its
first `limit` moves: valued without playing them in Python, in the same order with the same
cuts; Star2's probe of such a node, `first_value`, is `decide` over one move) and
``chance(state, table, kinds, alpha, beta, low, high, star2)`` (`NodeSearch.chance_star`
of a chance node above those: every roll's decision node probed in and stored to the
table as `NodeSearch.value` does). Above them the tree walk stays `NodeSearch`'s, so the
nodes counted, the values, the best moves and the table are the pure-Python search's. Only
where a poll happens moves: the nodes below a kernel call are counted together.

Where the kernels were not built (no C compiler at install time) `kernel_for` finds none and
every search is pure Python. A kernel computes the estimates its game lists in
`ExpectimaxKernel.kernel_estimates` (the engine's `Evaluation`: formula, the estimate a
position starts with, and for backgammon network); with another the search is the Python
one. With the network the values may differ from the Python search's in their last bits
(sums in another order than numpy's), so a tie between two plays may break the other way.
"""

from __future__ import annotations

from typing import Any

from kibitz.engines.alphabeta.table import EXACT, LOWER, PROVEN, UPPER
from kibitz.engines.expectimax.nodes import NodeSearch
from kibitz.games import Game, Move
from kibitz.games.capabilities import ExpectimaxKernel

KINDS = (EXACT, LOWER, UPPER, PROVEN)
"""The table's bound kinds and its depth of a proven value, for a kernel that stores."""


def kernel_for(game: type[Game], estimate: str = "formula") -> Any | None:
    """The compiled kernel of `game` (a module with `moves`, `estimate`, `decide` and
    `chance`: `ExpectimaxKernel.expectimax_kernel`) where it computes `estimate`, or None."""
    if not issubclass(game, ExpectimaxKernel) or estimate not in game.kernel_estimates:
        return None
    return game.expectimax_kernel()


class KernelNodeSearch(NodeSearch):
    """A `NodeSearch` whose moves, leaf estimates and two levels above the leaves (a chance
    node under Star1, a decision node, Star2's probe of one) come from `kernel`."""

    __slots__ = ("kernel",)

    def __init__(self, kernel: Any, state: Game, *args: Any, **switches: Any) -> None:
        super().__init__(state, *args, **switches)
        self.kernel = kernel

    def moves(self) -> list[Move]:
        return self.kernel.moves(self.state)

    def estimate(self) -> float:
        return self.kernel.estimate(self.state)

    def decision(
        self, player: int, depth: int, alpha: float, beta: float, first: Move | None
    ) -> tuple[float, Move | None]:
        if depth != 1:
            return super().decision(player, depth, alpha, beta, first)
        value, move, leaves, estimates = self.kernel.decide(
            self.state, alpha, beta, self.low, self.high, first
        )
        self.leaves += leaves
        self.estimates += estimates
        return value, move

    def first_value(self, depth: int, first: Move | None, alpha: float, beta: float) -> float:
        if depth != 1:
            return super().first_value(depth, first, alpha, beta)
        value, _, leaves, estimates = self.kernel.decide(
            self.state, alpha, beta, self.low, self.high, first, 1
        )
        self.leaves += leaves
        self.estimates += estimates
        return value

    def chance_star(self, depth: int, alpha: float, beta: float) -> float:
        if depth != 1:
            return super().chance_star(depth, alpha, beta)
        value, decisions, leaves, probes, estimates = self.kernel.chance(
            self.state, self.table, KINDS, alpha, beta, self.low, self.high, self.star2
        )
        self.decision_nodes += decisions
        self.leaves += leaves
        self.probes += probes
        self.estimates += estimates
        return value
