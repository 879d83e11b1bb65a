"""The `paranoid` and `brs` engines: alpha-beta for the root player against a coalition of
everyone else (docs/engines.md, "Three players and more").

Both search the root player's value (its entry of the leaf's vector, `leaf_values`) with
fail-soft alpha-beta, a transposition table (alpha-beta's, keeping the vector a value came
from; keys mixed with the root player, whose values they are), the table's move first,
then killer and history ordering as alpha-beta's, and iterative deepening. A node's vector
is the leaf's its value came from.

paranoid (Sturtevant & Korf 2000): the root player maximises, every other player
minimises the root player's value; each ply is one player's move.

brs (best-reply search, Schadd & Winands 2011): the root player's layers alternate with one
minimising layer in which a single opponent answers with the reply worst for the root
player, chosen among every opponent's moves; the opponents not chosen do not move. In a
game that can pass (`NullMove`) they pass; elsewhere (the Game interface has no turn
skipping) each plays its first move in the game's order instead, as in BRS+ (Esser et al.
2013). A layer thus runs from the first opponent's turn to the root player's next turn; it
counts one ply of depth and a node per move played in it. Layers are searched in this
order: the first opponent's moves, then the second's after the first's own (its first
move, or its pass), and so on; with first moves, a later opponent's first move is the same
reply as the earlier's and is left out.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.engines.alphabeta.table import EXACT, LOWER, PROVEN, UPPER
from kibitz.engines.base import OptionSpec
from kibitz.engines.multi.common import (
    HASH_OPTION,
    HISTORY_OPTION,
    KILLERS_OPTION,
    ROOT_SALTS,
    Line,
    MultiPlayerEngine,
    NodeCounter,
    Values,
    VectorTable,
    table_key,
)
from kibitz.games import Game, Move
from kibitz.games.capabilities import MoveOrdering, NullMove
from kibitz.vocabulary import StopReason

PASS = None
"""A reply layer's pass (`NullMove.play_null`) for an opponent that does not answer."""

Reply = tuple[Move, ...]
"""A reply layer's moves in order, `PASS` for a pass; the opponents after its last move
play their own (`CoalitionSearch.complete`)."""


class CoalitionSearch:
    """One paranoid (or, with `best_reply`, BRS) search from the root of `counter`."""

    def __init__(
        self,
        counter: NodeCounter,
        table: VectorTable,
        moves: list[Move],
        ordering: QuietMoveOrdering,
        best_reply: bool,
    ) -> None:
        self.counter = counter
        self.state: Game = counter.state
        self.table = table
        self.ordering = ordering
        self.root = self.state.to_move()
        self.salt = ROOT_SALTS[self.root % len(ROOT_SALTS)]
        self.best_reply = best_reply
        self.passes = best_reply and isinstance(self.state, NullMove)
        self.order = list(moves)
        self.cutoffs = 0

    def stats(self) -> dict[str, float]:
        return {"cutoffs": float(self.cutoffs)}

    def iterate(self, depth: int) -> list[Line]:
        """The root searched to `depth`: every move's line, the best first (exact), the
        others with an exact value or an upper bound."""
        counter, root = self.counter, self.root
        alpha = -math.inf
        lines: list[Line] = []
        for move in self.order:
            counter.play(move)
            values, pv = self.search(depth - 1, alpha, math.inf)
            counter.undo()
            value = values[root]
            if PASS in pv:  # a line goes as far as it can be played
                pv = pv[: pv.index(PASS)]
            lines.append(Line(move, values, EXACT if value > alpha else UPPER, [move, *pv]))
            alpha = max(alpha, value)
        lines.sort(key=lambda line: (line.values[root], line.bound == EXACT), reverse=True)
        self.order = [line.move for line in lines]
        return lines

    def search(self, depth: int, alpha: float, beta: float) -> tuple[Values, list[Move]]:
        """The vector whose root-player value is the node's (fail-soft: a bound outside
        (alpha, beta)), and its line."""
        counter, state, table, root = self.counter, self.state, self.table, self.root
        if depth <= 0 or state.is_terminal():
            return counter.leaf(), []
        key = table_key(state, self.salt)
        tt_move = None
        if key is not None:
            entry = table.probe(key)
            if entry is not None:
                tt_move = entry.move
                if entry.depth >= depth:
                    values = table.values_of(key)
                    value = values[root]
                    bound = entry.bound
                    if (
                        bound == EXACT
                        or (bound == LOWER and value >= beta)
                        or (bound == UPPER and value <= alpha)
                    ):
                        if entry.depth < PROVEN:
                            counter.horizon += 1
                        return values, []
        horizon = counter.horizon
        ply = counter.played
        maximise = state.to_move() == root
        layer = self.best_reply and not maximise
        choices: list[Any] = self.replies() if layer else counter.moves_of()
        if tt_move is not None and tt_move in choices:
            choices.remove(tt_move)
            self.ordering.order(choices, ply, tt_move)
            choices.insert(0, tt_move)
        elif self.ordering.active:
            self.ordering.order(choices, ply, None)
        best: Values | None = None
        best_choice = None
        best_pv: list[Move] = []
        low, high = alpha, beta
        for choice in choices:
            played = self.play_reply(choice) if layer else self.play(choice)
            values, pv = self.search(depth - 1, low, high)
            for _ in played:
                counter.undo()
            value = values[root]
            if best is None or (value > best[root] if maximise else value < best[root]):
                best, best_choice, best_pv = values, choice, [*played, *pv]
            if maximise:
                low = max(low, value)
            else:
                high = min(high, value)
            if low >= high:
                self.cutoffs += 1
                self.ordering.record_cutoff(choice, ply, depth)
                break
        assert best is not None
        value = best[root]
        bound = UPPER if value <= alpha else LOWER if value >= beta else EXACT
        if key is not None:
            stored = PROVEN if counter.horizon == horizon else depth
            table.store_values(key, stored, 0, bound, best_choice, best)
        return best, best_pv

    def play(self, move: Move) -> list[Move]:
        self.counter.play(move)
        return [move]

    # -- best-reply layers ----------------------------------------------------------------

    def step_aside(self) -> Move:
        """The move of an opponent that does not answer: a pass, or its first move."""
        if self.passes:
            return PASS
        return self.counter.moves_of()[0]

    def play_one(self, move: Move) -> None:
        if move is PASS:
            self.counter.play_null()
        else:
            self.counter.play(move)

    def replies(self) -> list[Reply]:
        """Every reply of the layer starting here (an opponent to move), in search order."""
        counter, state = self.counter, self.state
        replies: list[Reply] = []
        prefix: list[Move] = []
        while not state.is_terminal() and state.to_move() != self.root:
            moves = counter.moves_of()
            skip = moves[0] if prefix and not self.passes else PASS
            replies.extend((*prefix, move) for move in moves if move != skip or skip is PASS)
            aside = self.step_aside()
            self.play_one(aside)
            prefix.append(aside)
        for _ in prefix:
            counter.undo()
        return replies

    def play_reply(self, reply: Reply) -> list[Move]:
        """Play `reply`, then the other opponents' moves aside to the root player's turn or
        the end; returns the moves played."""
        state = self.state
        played = list(reply)
        for move in reply:
            self.play_one(move)
        while not state.is_terminal() and state.to_move() != self.root:
            aside = self.step_aside()
            self.play_one(aside)
            played.append(aside)
        return played


class CoalitionEngine(MultiPlayerEngine):
    """The frame `paranoid` and `brs` share; `best_reply` picks the search."""

    best_reply: ClassVar[bool]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (HASH_OPTION, KILLERS_OPTION, HISTORY_OPTION)

    def __init__(self, options: Any = None, *, tt_entries: int | None = None) -> None:
        super().__init__(options, tt_entries=tt_entries)
        self._ordering = QuietMoveOrdering()

    def new_game(self) -> None:
        super().new_game()
        self._ordering.clear()

    def start(self, counter: NodeCounter, table: VectorTable, moves: list[Move]) -> CoalitionSearch:
        state = counter.state
        strong = isinstance(state, MoveOrdering) and state.strong_move_order
        self._ordering.new_search(
            use_killers=self.options["Killers"] and not strong,
            use_history=self.options["History"] and not strong,
        )
        return CoalitionSearch(counter, table, moves, self._ordering, self.best_reply)


class Paranoid(CoalitionEngine):
    """Alpha-beta against the coalition of all other players; see the module docstring."""

    name: ClassVar[str] = "paranoid"
    description: ClassVar[str] = (
        "Paranoid search for any number of players: alpha-beta where the player to move at "
        "the root maximises its value and every other player minimises it; iterative "
        "deepening, transposition table, killer and history ordering."
    )
    best_reply: ClassVar[bool] = False


class BestReply(CoalitionEngine):
    """Best-reply search; see the module docstring."""

    name: ClassVar[str] = "brs"
    description: ClassVar[str] = (
        "Best-reply search (Schadd & Winands 2011) for any number of players: the root "
        "player's moves alternate with a layer where only the strongest reply among all "
        "opponents is played (the others pass, or play their first move where the game "
        "cannot pass); alpha-beta with iterative deepening, transposition table, killer "
        "and history ordering."
    )
    best_reply: ClassVar[bool] = True
    exhausted: ClassVar[StopReason] = StopReason.DEPTH
