"""The node search of `expectimax`: alpha-beta at decision nodes, Star1/Star2 at chance nodes.

Values are expected returns of the first player (player 0), floats within the game's
`return_bounds` [L, U]: player 0 maximises, player 1 minimises, a chance node averages its
outcomes. The search is fail-soft: a value at or below the window's alpha is an upper bound
of the true value, one at or above beta a lower bound.

**Star1** (Ballard 1983): while a chance node's outcomes are searched in turn, the ones
not yet searched are worth at least L and at most U, so each outcome gets the window
outside which the node's value is decided whatever the rest are worth; a value outside it
ends the node with a bound.

**Star2** (Ballard 1983; Hauk, Buro & Schaeffer 2004, "Rediscovering *-Minimax Search"):
before that, a probing pass searches only the first move (the table's best, else the first
in order) of each outcome's decision node. For player 0 to move that move's value is a lower
bound of the outcome's value, for player 1 an upper bound; the bounds tighten the Star1
windows, and a node whose bounds alone decide it ends without the full searches.

**The table** holds decision and chance nodes, keyed by `key()` (a chance node's result
makes Star2's re-search of a probed move cheap); an entry answers a node only at
the remaining depth it was searched to (so a search's value is exactly that of the depth it
names), or at any depth when no estimate entered its value (every leaf below was the end
of the game); its best move orders every later search of the node (the previous
iteration's best first). `estimates` counts the leaves valued by an estimate (and the
table answers that rest on some): an iteration that adds none has solved the root.

Depth counts decisions: a decision node at depth d searches its moves at depth d - 1; a
chance node passes its depth on; at depth 0 (or past the end of the game) the game's
`expected_return(0)` (or `returns()[0]`) is the value.
"""

from __future__ import annotations

from collections.abc import Callable

from kibitz.engines.alphabeta.table import EXACT, LOWER, PROVEN, UPPER, TranspositionTable
from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import HashKey, MoveOrdering


class SearchAborted(Exception):
    """Raised at a poll when the search must end now (stop request, deadline, nodes)."""


class NodeSearch:
    """One search's tree walk over `state` (mutated with play/undo, restored on return).

    `poll` is called every `check_every` nodes (the engine sets it from the driver) and
    raises SearchAborted to end the search.
    """

    __slots__ = (
        "chance_nodes",
        "check_every",
        "decision_nodes",
        "estimates",
        "high",
        "leaves",
        "low",
        "next_check",
        "poll",
        "probes",
        "star1",
        "star2",
        "state",
        "table",
    )

    def __init__(
        self,
        state: Game,
        table: TranspositionTable,
        *,
        star1: bool = True,
        star2: bool = True,
        poll: Callable[[], None] = lambda: None,
        check_every: int = 256,
    ) -> None:
        self.state = state
        self.table = table if isinstance(state, HashKey) else TranspositionTable(0)
        self.low, self.high = (float(bound) for bound in type(state).return_bounds)
        self.star1 = star1
        self.star2 = star1 and star2
        self.poll = poll
        self.check_every = check_every
        self.next_check = check_every
        self.decision_nodes = 0
        self.chance_nodes = 0
        self.leaves = 0
        self.probes = 0
        self.estimates = 0

    @property
    def nodes(self) -> int:
        """Positions visited: decision and chance nodes searched, plus the leaves valued."""
        return self.decision_nodes + self.chance_nodes + self.leaves

    def moves(self) -> list[Move]:
        """The moves of the decision node at hand, in the game's order."""
        state = self.state
        return state.ordered_moves() if isinstance(state, MoveOrdering) else state.legal_moves()

    def estimate(self) -> float:
        """The game's estimate of the position at hand (a leaf at depth 0): player 0's."""
        return self.state.expected_return(0)

    def ordered_moves(self, best: Move | None = None) -> list[Move]:
        """The moves of the decision node at hand, `best` (the table's) first."""
        moves = self.moves()
        if best is not None and best in moves and moves[0] != best:
            moves.remove(best)
            moves.insert(0, best)
        return moves

    # -- the recursion --------------------------------------------------------------------------

    def value(self, depth: int, alpha: float, beta: float) -> float:
        """Player 0's value of the current position searched `depth` decisions deep."""
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + self.check_every
            self.poll()
        state = self.state
        if state.is_terminal():
            self.leaves += 1
            return float(state.returns()[0])
        if depth <= 0:
            self.leaves += 1
            self.estimates += 1
            return self.estimate()
        table = self.table
        key = state.key() if table.size else 0
        entry = table.probe(key) if table.size else None
        best_move: Move | None = None
        if entry is not None:
            if entry.depth == depth or entry.depth == PROVEN:
                stored, bound = entry.score, entry.bound
                if (
                    bound == EXACT
                    or (bound == LOWER and stored >= beta)
                    or (bound == UPPER and stored <= alpha)
                ):
                    if entry.depth != PROVEN:
                        self.estimates += 1
                    return stored
            best_move = entry.move
        estimates = self.estimates
        player = state.to_move()
        if player == CHANCE:
            self.chance_nodes += 1
            if self.star1:
                value = self.chance_star(depth, alpha, beta)
            else:
                value = self.chance_plain(depth)
                alpha, beta = self.low, self.high  # searched with the full window: exact
        else:
            self.decision_nodes += 1
            value, best_move = self.decision(player, depth, alpha, beta, best_move)
        if table.size:
            bound = UPPER if value <= alpha else LOWER if value >= beta else EXACT
            stored_depth = depth if self.estimates != estimates else PROVEN
            table.store(key, stored_depth, value, bound, best_move, 0)
        return value

    def decision(
        self, player: int, depth: int, alpha: float, beta: float, first: Move | None
    ) -> tuple[float, Move | None]:
        """Alpha-beta over the moves of `player` (0 maximises, 1 minimises), `first` (the
        table's best move) first; returns the value and the best move."""
        maximising = player == 0
        best_value = self.low - 1.0 if maximising else self.high + 1.0
        best_move: Move | None = None
        low, high = alpha, beta
        for move in self.ordered_moves(first):
            child = self.child(move, depth - 1, low, high)
            if maximising:
                if child > best_value:
                    best_value, best_move = child, move
                    if child > low:
                        low = child
            elif child < best_value:
                best_value, best_move = child, move
                if child < high:
                    high = child
            if low >= high:
                break
        return best_value, best_move

    def child(self, move: Move, depth: int, alpha: float, beta: float) -> float:
        """`value` of the position after `move`; the position is restored even when the
        search is aborted."""
        state = self.state
        state.play(move)
        try:
            return self.value(depth, alpha, beta)
        finally:
            state.undo()

    def first_value(self, depth: int, first: Move | None, alpha: float, beta: float) -> float:
        """The value of the first move (`first`, the table's best, where legal) of the
        decision node at hand, searched `depth` - 1 decisions deep in the window."""
        return self.child(self.ordered_moves(first)[0], depth - 1, alpha, beta)

    def chance_plain(self, depth: int) -> float:
        """Expectimax without pruning: every outcome searched with the full window."""
        low, high = self.low, self.high
        total = 0.0
        for outcome, probability in self.state.chance_outcomes():
            total += probability * self.child(outcome, depth, low, high)
        return total

    def chance_star(self, depth: int, alpha: float, beta: float) -> float:
        """Star1 (and with `star2`, its probing pass first); see the module docstring."""
        outcomes = self.state.chance_outcomes()
        count = len(outcomes)
        lower = [self.low] * count
        upper = [self.high] * count
        if self.star2:
            cut = self.probe_outcomes(outcomes, lower, upper, depth, alpha, beta)
            if cut is not None:
                return cut
        # sums over the outcomes not searched yet, and over those searched (exact values)
        rest_low = sum(p * bound for (_, p), bound in zip(outcomes, lower, strict=True))
        rest_high = sum(p * bound for (_, p), bound in zip(outcomes, upper, strict=True))
        done = 0.0
        for index, (outcome, probability) in enumerate(outcomes):
            rest_low -= probability * lower[index]
            rest_high -= probability * upper[index]
            child_alpha = (alpha - done - rest_high) / probability
            child_beta = (beta - done - rest_low) / probability
            child = self.child(
                outcome, depth, max(child_alpha, self.low), min(child_beta, self.high)
            )
            if child <= child_alpha:
                return done + probability * child + rest_high
            if child >= child_beta:
                return done + probability * child + rest_low
            done += probability * child
        return done

    def probe_outcomes(
        self,
        outcomes: list[tuple[Move, float]],
        lower: list[float],
        upper: list[float],
        depth: int,
        alpha: float,
        beta: float,
    ) -> float | None:
        """Star2's probing pass: tighten `lower`/`upper` per outcome by searching one move
        of each; the node's bound if the bounds alone decide it, else None."""
        state = self.state
        sum_low = sum(p * bound for (_, p), bound in zip(outcomes, lower, strict=True))
        sum_high = sum(p * bound for (_, p), bound in zip(outcomes, upper, strict=True))
        for index, (outcome, probability) in enumerate(outcomes):
            # the window outside which this outcome's value alone decides the node
            window_alpha = (alpha - sum_high + probability * upper[index]) / probability
            window_beta = (beta - sum_low + probability * lower[index]) / probability
            state.play(outcome)
            try:
                found = self.probe(depth, window_alpha, window_beta, alpha, beta)
            finally:
                state.undo()
            if found is None:
                continue
            new_low, new_high = max(lower[index], found[0]), min(upper[index], found[1])
            sum_low += probability * (new_low - lower[index])
            sum_high -= probability * (upper[index] - new_high)
            lower[index], upper[index] = new_low, new_high
            if sum_low >= beta:
                return sum_low
            if sum_high <= alpha:
                return sum_high
        return None

    def probe(
        self, depth: int, window_alpha: float, window_beta: float, alpha: float, beta: float
    ) -> tuple[float, float] | None:
        """Bounds (low, high) of the value of the outcome just reached, from a search of
        its first move only, in the window outside which it alone decides the chance node
        (whose window is `alpha`, `beta`): a lower bound where player 0 moves (they take at
        least this move's value), an upper one where player 1 does; None where probing
        cannot pay (a lower bound when nothing can fail high, ...) or taught nothing. A
        terminal outcome's value is both bounds."""
        state = self.state
        if state.is_terminal():
            self.leaves += 1
            value = float(state.returns()[0])
            return value, value
        player = state.to_move()
        if player == CHANCE or (beta >= self.high if player == 0 else alpha <= self.low):
            return None
        self.probes += 1
        self.decision_nodes += 1
        table = self.table
        best = table.best_move(state.key()) if table.size else None
        value = self.first_value(
            depth, best, max(window_alpha, self.low), min(window_beta, self.high)
        )
        if player == 0 and value > window_alpha:  # the move is worth at least `value`
            return value, self.high
        if player == 1 and value < window_beta:  # the move is worth at most `value`
            return self.low, value
        return None
