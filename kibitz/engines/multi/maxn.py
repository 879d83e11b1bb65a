"""The `maxn` engine: maxⁿ (Luckhardt & Irani 1986) with immediate and shallow pruning
(Korf 1991) where the game declares bounded constant-sum returns (docs/engines.md,
"Three players and more").

Every node backs up a value vector: the player to move picks the child best for
themselves. Ties between equal own values go by `TieBreak`: "first" takes the child that
comes first in the game's move order (`ordered_moves`, else `legal_moves`), whatever order
the search tries them in; "paranoid" takes the one least for the root player (the one
searching), "altruistic" the one most for them, and then the first. A value is therefore
the depth-limited maxⁿ value, the same whether pruning, the table or move ordering are on.

Pruning (`SumBounds`: the returns add up to S, none is below L, none above M, at most
S - (n - 1) L): a node of player i whose best child so far gives i the value v can
give its parent's player j at most min(M, S - v - (n - 2) L); where that is below what j has at
the parent already (or equal, and the parent would keep its own on the tie), the node is
cut (shallow pruning). A node whose mover reaches M takes no further child (immediate
pruning) where a tie could not change its choice. A cut node's vector is a bound: it is
not stored as a value, and at the root its move's score is an upper bound.

The table keeps a node's vector with the depth it was searched to, and gives it back only
for that depth, or for any depth at least as deep where no line below it met the horizon.
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.engines.alphabeta.table import EXACT, PROVEN, UPPER
from kibitz.engines.base import OptionSpec
from kibitz.engines.multi.common import (
    HASH_OPTION,
    ROOT_SALTS,
    Line,
    MultiPlayerEngine,
    NodeCounter,
    Values,
    VectorTable,
    table_key,
)
from kibitz.games import Move

FIRST, PARANOID, ALTRUISTIC = "first", "paranoid", "altruistic"


class MaxnSearch:
    """One maxⁿ search from the root of `counter`'s position."""

    def __init__(
        self,
        counter: NodeCounter,
        table: VectorTable,
        moves: list[Move],
        tie_break: str,
        pruning: bool,
    ) -> None:
        self.counter = counter
        self.state = counter.state
        self.table = table
        self.root = self.state.to_move()
        self.tie_break = tie_break
        self.salt = 0 if tie_break == FIRST else ROOT_SALTS[self.root % len(ROOT_SALTS)]
        bounds = counter.bounds if pruning else None
        self.pruning = bounds is not None
        players = counter.players
        self.total = bounds.total if bounds else 0.0
        self.most = bounds.most(players) if bounds else 0.0
        self.others_least = (players - 2) * bounds.least if bounds else 0.0
        self.order = list(moves)
        self.index = {move: index for index, move in enumerate(moves)}
        self.shallow_cuts = 0
        self.immediate_cuts = 0

    def stats(self) -> dict[str, float]:
        return {
            "shallow_cuts": float(self.shallow_cuts),
            "immediate_cuts": float(self.immediate_cuts),
        }

    def by_index(self, player: int) -> bool:
        """Whether `player`'s ties go by move order alone."""
        return self.tie_break == FIRST or player == self.root

    def better(self, values: Values, best: Values, index: int, best_index: int, mover: int) -> bool:
        """Whether `mover` prefers `values` (the child at move-order `index`) to `best`."""
        own, held = values[mover], best[mover]
        if own != held:
            return own > held
        if not self.by_index(mover):
            root = self.root
            if values[root] != best[root]:
                return (values[root] < best[root]) == (self.tie_break == PARANOID)
        return index < best_index

    def iterate(self, depth: int) -> list[Line]:
        """The root searched to `depth`: every move's line, best first."""
        counter, root = self.counter, self.root
        lines: list[Line] = []
        best: Line | None = None
        best_index = -1
        for move in self.order:
            index = self.index[move]
            counter.play(move)
            bound = best.values[root] if best is not None else None
            values, exact, pv = self.node(depth - 1, root, bound, best_index, index)
            counter.undo()
            line = Line(move, values, EXACT if exact else UPPER, [move, *pv])
            lines.append(line)
            if exact and (
                best is None or self.better(values, best.values, index, best_index, root)
            ):
                best, best_index = line, index
        assert best is not None  # the first move is never cut
        rest = [line for line in lines if line is not best]
        rest.sort(key=lambda line: (line.values[root], line.bound == EXACT), reverse=True)
        ranked = [best, *rest]
        self.order = [line.move for line in ranked]
        return ranked

    def node(
        self, depth: int, parent: int, bound: float | None, bound_index: int, index: int
    ) -> tuple[Values, bool, list[Move]]:
        """The vector of the position (the child at move-order `index` of a node of player
        `parent`, who holds `bound` from its child at `bound_index`), whether it is exact
        (not cut), and its line."""
        counter, state, table = self.counter, self.state, self.table
        if depth <= 0 or state.is_terminal():
            return counter.leaf(), True, []
        key = table_key(state, self.salt)
        tt_move = None
        if key is not None:
            entry = table.probe(key)
            if entry is not None:
                tt_move = entry.move
                if entry.bound == EXACT and (
                    entry.depth == depth or PROVEN <= entry.depth <= PROVEN + depth
                ):
                    if entry.depth < PROVEN:
                        counter.horizon += 1
                    return table.values_of(key), True, [tt_move]
        horizon = counter.horizon
        mover = state.to_move()
        moves = counter.moves_of()
        order = list(range(len(moves)))
        if tt_move is not None and tt_move in moves:
            first = moves.index(tt_move)
            order.remove(first)
            order.insert(0, first)
        shallow = self.pruning and bound is not None and parent != mover
        immediate = self.pruning and self.by_index(mover)
        best: Values | None = None
        best_index = -1
        best_pv: list[Move] = []
        for position, child in enumerate(order):
            move = moves[child]
            counter.play(move)
            values, exact, pv = self.node(
                depth - 1, mover, best[mover] if best is not None else None, best_index, child
            )
            counter.undo()
            if exact and (best is None or self.better(values, best, child, best_index, mover)):
                best, best_index, best_pv = values, child, [move, *pv]
            if best is None:
                continue
            if shallow:
                most_for_parent = min(self.most, self.total - best[mover] - self.others_least)
                if most_for_parent < bound or (
                    most_for_parent == bound and self.by_index(parent) and index > bound_index
                ):
                    self.shallow_cuts += 1
                    if key is not None:
                        table.store(key, depth, 0, UPPER, moves[best_index], 0)
                    return best, False, best_pv
            if (
                immediate
                and best[mover] >= self.most
                and position + 1 < len(order)
                and order[position + 1] > best_index
            ):
                self.immediate_cuts += 1
                break
        assert best is not None  # a child is cut only when its parent holds a better one
        if key is not None:
            stored = PROVEN + depth if counter.horizon == horizon else depth
            table.store_values(key, stored, 0, EXACT, moves[best_index], best)
        return best, True, best_pv


class MaxN(MultiPlayerEngine):
    """maxⁿ with a documented tie-break and Korf's pruning; see the module docstring."""

    name: ClassVar[str] = "maxn"
    description: ClassVar[str] = (
        "maxⁿ for any number of players: every player maximises their own value in a vector "
        "of all players' values; ties by a chosen rule; immediate and shallow pruning where "
        "the game declares bounded constant-sum returns; iterative deepening, a "
        "transposition table of vectors."
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        HASH_OPTION,
        OptionSpec(
            "TieBreak",
            "combo",
            FIRST,
            "Which of several children equal for the player to move it picks: first (the "
            "first in the game's move order), paranoid (the least for the searching player, "
            "then the first), altruistic (the most for the searching player, then the first).",
            choices=(FIRST, PARANOID, ALTRUISTIC),
        ),
        OptionSpec(
            "Pruning",
            "check",
            True,
            "Immediate and shallow pruning (Korf 1991) where the game declares bounded "
            "constant-sum returns (bounded_sum); the same values and moves as without.",
        ),
    )

    def start(self, counter: NodeCounter, table: VectorTable, moves: list[Move]) -> MaxnSearch:
        return MaxnSearch(
            counter, table, moves, self.options["TieBreak"], bool(self.options["Pruning"])
        )
