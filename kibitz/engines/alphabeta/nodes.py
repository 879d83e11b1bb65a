"""The node search: negamax with fail-soft alpha-beta below the root (the hot path).

`NodeSearch.search` is principal variation search with a transposition table, mate-distance
pruning, the game's solving hooks and symmetry where it has them, enhanced transposition
cutoffs, killer/history ordering, and quiescence on noisy moves at the horizon.

Proven results: `horizon` counts every value that did not come from the rules of the game
(a static evaluation at the horizon, quiescence, or a transposition-table entry that is not
itself proven). A node whose search left the counter unchanged has a proven value (or a
proven bound): it is stored with depth `PROVEN`, usable at any depth.

Stopping: every node compares the node counter with `next_check`; only there is `check`
(the root's poll) called, which raises `Abort` carrying the ply of the node: exactly the
number of moves to undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.engines.alphabeta.table import EXACT, LOWER, PROVEN, UPPER, from_tt
from kibitz.engines.types import MAX_PLY, WIN, WIN_THRESHOLD, StopReason
from kibitz.games import Game, Move
from kibitz.games.capabilities import MoveOrdering, NoisyMoves, SolverHooks, Symmetry

INF = WIN + 1
"""Beyond every score: the full window is (-INF, INF)."""
CLAMP = WIN_THRESHOLD - 1
"""Heuristic values are clamped into [-CLAMP, CLAMP], away from win/loss scores."""


class Abort(Exception):
    """Unwinds the search. `ply` moves have been played since the root."""

    def __init__(self, ply: int, reason: StopReason | None, cause: BaseException | None = None):
        super().__init__(ply)
        self.ply = ply
        self.reason = reason
        self.cause = cause
        """An error raised while polling (e.g. by the reporter), re-raised by the root."""


def terminal_value(state: Game, ply: int) -> int:
    """The negamax value of a finished game reached `ply` plies below the root."""
    result = state.returns()[state.to_move()]
    if result > 0:
        return WIN - ply
    if result < 0:
        return ply - WIN
    return 0


def clamped_evaluation(state: Game) -> int:
    value = state.evaluate()
    return CLAMP if value > CLAMP else -CLAMP if value < -CLAMP else value


def _no_moves() -> tuple[Move, ...]:
    return ()


class NodeSearch:
    """The counters, lines and switches of one search's node search (`search`).

    Engine options arrive as the flags below; `check(ply)` is the root's poll, called when
    `nodes` reaches `next_check`.
    """

    def __init__(
        self,
        state: Game,
        table: Any,
        ordering: QuietMoveOrdering,
        *,
        pvs: bool,
        etc: bool,
        quiescence: bool,
        hooks: bool,
        symmetry: bool,
        max_ply: int,
    ) -> None:
        self.state = state
        self.pvs = pvs
        self.etc = etc
        self.use_quiescence = quiescence
        self.hooks = hooks and isinstance(state, SolverHooks)
        self.symmetry = symmetry and isinstance(state, Symmetry)
        self.max_ply = max_ply
        self.ordering = ordering
        self.tt_probe = table.probe
        self.tt_store = table.store
        self.moves_of: Callable[[], list[Move]] = (
            state.ordered_moves if isinstance(state, MoveOrdering) else state.legal_moves
        )
        self.noisy_of: Callable[[], Any] = (
            state.noisy_moves if isinstance(state, NoisyMoves) else _no_moves
        )
        self.nodes = 0
        self.next_check = 0
        self.horizon = 0
        self.seldepth = 0
        self.cutoffs = 0
        self.first_cutoffs = 0
        self.pv: list[tuple[Move, ...]] = [()] * (MAX_PLY + 2)
        self.check: Callable[[int], None] = lambda ply: None

    def subtree(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The search of one root move's subtree (a compiled kernel may do it instead)."""
        return self.search(depth, alpha, beta, ply)

    def table_key(self) -> tuple[int, bool]:
        """The table key of the position and whether its moves are stored mirrored."""
        state = self.state
        if self.symmetry:
            return state.symmetric_key()
        return state.key(), False

    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.quiesce(alpha, beta, ply)
        pv = self.pv
        pv[ply] = ()
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self.next_check:
            self.check(ply)
        state = self.state
        if state.is_terminal():
            return terminal_value(state, ply)
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= self.max_ply:
            self.horizon += 1
            return clamped_evaluation(state)

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

        if self.hooks:
            if state.winning_moves():
                return WIN - ply - 1
            limit = WIN - ply - 3  # no immediate win: no win before the move after next
            if b > limit:
                b = limit
                if a >= b:
                    return b

        mirrored = False
        if self.symmetry:
            key, mirrored = state.symmetric_key()
        else:
            key = state.key()
        entry = self.tt_probe(key)
        tt_move = None
        if entry is not None:
            tt_move = entry.move
            if mirrored and tt_move is not None:
                tt_move = state.mirror_move(tt_move)
            entry_depth = entry.depth
            if entry_depth >= depth:
                score = entry.score
                if score >= WIN_THRESHOLD:
                    score -= ply
                elif score <= -WIN_THRESHOLD:
                    score += ply
                bound = entry.bound
                if (
                    bound == EXACT
                    or (bound == LOWER and score >= b)
                    or (bound == UPPER and score <= a)
                ):
                    if entry_depth != PROVEN:
                        self.horizon += 1
                    return score

        h0 = self.horizon
        if self.hooks:
            moves = state.non_losing_moves()
            if not moves:
                return ply + 2 - WIN  # every move lets the opponent win at once
            floor = ply + 4 - WIN  # and otherwise no loss before the opponent's next move
            if a < floor:
                a = floor
                if a >= b:
                    return a
        else:
            moves = self.moves_of()
        ordering = self.ordering
        if len(moves) > 1:
            if ordering.active:
                ordering.order(moves, ply, tt_move)
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)

        pv_node = beta - alpha > 1  # null-window nodes need no line
        if self.etc and depth > 1 and not pv_node:
            cutoff = self.etc_cutoff(moves, depth - 1, b, ply + 1)
            if cutoff is not None:
                value, move, proven = cutoff
                if not proven:
                    self.horizon += 1
                if mirrored:
                    move = state.mirror_move(move)
                self.tt_store(key, PROVEN if proven else depth, value, LOWER, move, ply)
                return value

        play = state.play
        undo = state.undo
        search = self.search
        child = depth - 1
        next_ply = ply + 1
        best = -INF
        best_move = None
        pvs = self.pvs
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
                        self.cutoffs += 1
                        if index == 0:
                            self.first_cutoffs += 1
                        if ordering.active and move not in self.noisy_of():
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
        self.tt_store(key, PROVEN if self.horizon == h0 else depth, best, bound, best_move, ply)
        return best

    def etc_cutoff(
        self, moves: list[Move], child_depth: int, beta: int, child_ply: int
    ) -> tuple[int, Move, bool] | None:
        """Enhanced transposition cutoff: the first of `moves` whose child has a stored upper
        bound (or exact value) of at most -beta, as (value >= beta, move, whether proven)."""
        state = self.state
        probe = self.tt_probe
        symmetry = self.symmetry
        for move in moves:
            state.play(move)
            key = state.symmetric_key()[0] if symmetry else state.key()
            state.undo()
            entry = probe(key)
            if entry is None or entry.depth < child_depth or entry.bound == LOWER:
                continue
            value = -from_tt(entry.score, child_ply)
            if value >= beta:
                return value, move, entry.depth == PROVEN
        return None

    def quiesce(self, alpha: int, beta: int, ply: int) -> int:
        pv = self.pv
        pv[ply] = ()
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self.next_check:
            self.check(ply)
        state = self.state
        if state.is_terminal():
            return terminal_value(state, ply)
        if ply > self.seldepth:
            self.seldepth = ply
        self.horizon += 1
        best = state.evaluate()
        if best > CLAMP:
            best = CLAMP
        elif best < -CLAMP:
            best = -CLAMP
        if best >= beta or ply >= self.max_ply or not self.use_quiescence:
            return best
        noisy = self.noisy_of()
        if not noisy:
            return best
        if best > alpha:
            alpha = best
        play = state.play
        undo = state.undo
        quiesce = self.quiesce
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
