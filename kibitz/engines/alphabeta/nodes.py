"""The node search: negamax with fail-soft alpha-beta below the root (the hot path).

`NodeSearch.search` is principal variation search with a transposition table, mate-distance
pruning, the game's solving hooks and symmetry where it has them, enhanced transposition
cutoffs, killer/history ordering, and quiescence on noisy moves at the horizon. Games with
checks (chess) also get check extensions, evasions instead of stand-pat in quiescence and
late-move reductions, and (with noisy moves listed first) futility and late-move pruning of
quiet moves near the horizon; games with a static exchange evaluation get their losing
captures searched after the quiet moves and skipped in quiescence; games that can pass get
null-move pruning; games with history draws (repetition) get them scored inside the search.
Games with checks may also get singular extensions: a table move that every other move
fails to come near at half the depth is searched one ply deeper.

Proven results: `horizon` counts every value that did not come from the rules of the game
(a static evaluation at the horizon, quiescence, a transposition-table entry that is not
itself proven, a null-move cutoff, a pruned move, or a draw by the game's history). A node
whose search left the counter unchanged has a proven value (or a proven bound): it is stored
with depth `PROVEN`, usable at any depth.

Stopping: every node compares the node counter with `next_check`; only there is `check`
(the root's poll) called, which raises `Abort` carrying the ply of the node: exactly the
number of moves to undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.engines.alphabeta.table import EXACT, LOWER, PROVEN, UPPER, from_tt
from kibitz.engines.types import MAX_PLY, WIN, WIN_THRESHOLD
from kibitz.games import Game, Move
from kibitz.games.capabilities import (
    Checks,
    HistoryDraws,
    MoveOrdering,
    NoisyMoves,
    NullMove,
    SolverHooks,
    StaticExchange,
    Symmetry,
)
from kibitz.vocabulary import StopReason

INF = WIN + 1
"""Beyond every score: the full window is (-INF, INF)."""
CLAMP = WIN_THRESHOLD - 1
"""Heuristic values are clamped into [-CLAMP, CLAMP], away from win/loss scores."""
NULL_MOVE_DEPTH = 3
"""Null-move pruning from this remaining depth on; the pass is searched `null_reduction`
plies shallower than a move."""
LMR_DEPTH = 3
"""Late-move reductions from this remaining depth on."""
LMR_SKIP = 3
"""Quiet moves searched at full depth before reductions start (the killers among them)."""
FUTILITY_MARGIN = (0, 150, 300, 500)
"""By remaining depth: how far the static evaluation must lie below alpha for the quiet
moves to be skipped (futility pruning), or above beta for the node to return at once
(reverse futility pruning); none from depth len(FUTILITY_MARGIN) on."""
LATE_MOVES = (0, 4, 7, 12)
"""By remaining depth: the quiet moves searched before the rest are skipped (late-move
pruning); none from depth len(LATE_MOVES) on."""
SINGULAR_DEPTH = 6
"""Singular extensions from this remaining depth on."""
SINGULAR_MARGIN = 2
"""By remaining depth: how far below the table's value (`SINGULAR_MARGIN * depth`) every
other move must stay for the table move to count as singular."""


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
        null_move: bool = False,
        lmr: bool = False,
        check_extension: bool = False,
        see: bool = False,
        futility: bool = False,
        late_move_pruning: bool = False,
        singular_extension: bool = False,
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
        self.has_noisy = isinstance(state, NoisyMoves)
        self.noisy_of: Callable[[], Any] = state.noisy_moves if self.has_noisy else _no_moves
        self.noisy_first = isinstance(state, MoveOrdering) and state.noisy_first
        checks = isinstance(state, Checks)
        self.checks = checks
        self.extend = check_extension and checks
        self.lmr = lmr and checks and isinstance(state, NoisyMoves)
        self.null_move = null_move and isinstance(state, NullMove)
        self.exchange: Callable[[Move], int] | None = (
            state.exchange if see and isinstance(state, StaticExchange) else None
        )
        quiet_known = checks and self.noisy_first  # quiet moves: those after the noisy ones
        self.futility = futility and quiet_known
        self.late_move_pruning = late_move_pruning and quiet_known
        self.pruned = 0
        self.singular = singular_extension and checks
        self.singular_extensions = 0
        self.excluded: list[Move | None] = [None] * (MAX_PLY + 2)
        """excluded[ply]: the move left out at this ply (a singular extension's check)."""
        self.history_draws = isinstance(state, HistoryDraws)
        self.root_ply = state.ply() if self.history_draws else 0
        self.passed = [False] * (MAX_PLY + 2)
        """passed[ply]: the move into this ply was a null move (no second one follows)."""
        self.null_cutoffs = 0
        self.reductions = 0
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
        if self.history_draws and state.history_draw(self.root_ply):
            self.horizon += 1  # a draw of this path only: never proven, never stored
            return 0
        if state.is_terminal():
            return terminal_value(state, ply)
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= self.max_ply:
            self.horizon += 1
            return clamped_evaluation(state)
        in_check = self.checks and state.in_check()
        if in_check and self.extend:
            depth += 1

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
        excluded = self.excluded[ply]  # None but in a singular extension's check
        if entry is not None:
            tt_move = entry.move
            if mirrored and tt_move is not None:
                tt_move = state.mirror_move(tt_move)
            entry_depth = entry.depth
            if entry_depth >= depth and excluded is None:
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

        pv_node = beta - alpha > 1  # null-window nodes need no line
        if (
            self.futility
            and not pv_node
            and not in_check
            and depth < len(FUTILITY_MARGIN)
            and -WIN_THRESHOLD < b < WIN_THRESHOLD
            and excluded is None
        ):
            value = clamped_evaluation(state) - FUTILITY_MARGIN[depth]
            if value >= b:  # reverse futility: too far above beta for a move to spoil it
                self.horizon += 1
                self.pruned += 1
                return value
        if (
            self.null_move
            and not pv_node
            and not in_check
            and depth >= NULL_MOVE_DEPTH
            and not self.passed[ply]
            and excluded is None
            and -WIN_THRESHOLD < b < WIN_THRESHOLD
            and state.evaluate() >= b
            and state.null_move_allowed()
        ):
            value = self.null_search(depth, b, ply)
            if value >= b:
                self.horizon += 1
                self.null_cutoffs += 1
                return value

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
        # once a node (the position is the same at a cutoff); no call for games without any
        noisy = self.noisy_of() if self.has_noisy else ()
        quiet_from = len(noisy) if self.noisy_first else 0
        if excluded is not None:
            index = moves.index(excluded)
            del moves[index]
            if index < quiet_from:
                quiet_from -= 1
        losing: list[Move] = []
        if self.exchange is not None and quiet_from:
            exchange = self.exchange
            good = []
            for move in moves[:quiet_from]:
                (good if exchange(move) >= 0 else losing).append(move)
            if losing:  # the losing captures go last, after the quiet moves
                moves[:quiet_from] = good
                quiet_from = len(good)
        if ordering.active and len(moves) > 1:
            ordering.order(moves, ply, tt_move, quiet_from)
        moves.extend(losing)
        quiet_start = quiet_from  # where the quiet moves start once the tt move is first
        if len(moves) > 1 and tt_move is not None and tt_move in moves:
            index = moves.index(tt_move)
            if index >= quiet_from:
                quiet_start += 1
            del moves[index]
            moves.insert(0, tt_move)

        if self.etc and depth > 1 and not pv_node and excluded is None:
            cutoff = self.etc_cutoff(moves, depth - 1, b, ply + 1)
            if cutoff is not None:
                value, move, proven = cutoff
                if not proven:
                    self.horizon += 1
                if mirrored:
                    move = state.mirror_move(move)
                self.tt_store(key, PROVEN if proven else depth, value, LOWER, move, ply)
                return value

        extension = 0
        if (
            self.singular
            and depth >= SINGULAR_DEPTH
            and not in_check  # already extended
            and excluded is None
            and entry is not None
            and entry.bound != UPPER
            and entry.depth >= depth - 3
            and moves[0] == tt_move
        ):
            value = from_tt(entry.score, ply)
            if -WIN_THRESHOLD < value < WIN_THRESHOLD and self.singular_move(
                tt_move, depth, value - SINGULAR_MARGIN * depth, ply
            ):
                self.singular_extensions += 1
                extension = 1

        play = state.play
        undo = state.undo
        search = self.search
        child = depth - 1
        next_ply = ply + 1
        best = -INF
        best_move = None
        pvs = self.pvs
        # late quiet moves (past the noisy ones, the tt move and LMR_SKIP quiet ones)
        late = quiet_from + LMR_SKIP if self.lmr and depth >= LMR_DEPTH and not in_check else INF
        # quiet moves that need not be searched: all when futile, those from prune_from on
        futile = False
        floor = -INF
        prune_from = INF
        if not pv_node and not in_check:
            if self.futility and depth < len(FUTILITY_MARGIN) and a > -WIN_THRESHOLD:
                floor = clamped_evaluation(state) + FUTILITY_MARGIN[depth]
                futile = floor <= a
            if self.late_move_pruning and depth < len(LATE_MOVES):
                prune_from = quiet_start + LATE_MOVES[depth]
        prune_quiet = futile or prune_from < INF
        for index, move in enumerate(moves):
            play(move)
            if (
                prune_quiet
                and index >= quiet_start
                and (futile or index >= prune_from)
                and best > -WIN_THRESHOLD
                and not state.in_check()
            ):
                undo()  # a quiet move, not a check, after a move that does not lose
                self.pruned += 1
                self.horizon += 1
                if futile and floor > best:
                    best = floor  # what the move could hope for
                continue
            if index == 0:
                value = -search(child + extension, -b, -a, next_ply)
            elif not pvs:
                value = -search(child, -b, -a, next_ply)
            else:
                if index >= late and not state.in_check():
                    self.reductions += 1
                    reduced = child - (2 if depth >= 6 and index >= 2 * late else 1)
                    value = -search(reduced, -a - 1, -a, next_ply)
                    if value > a:
                        value = -search(child, -a - 1, -a, next_ply)
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
                        if ordering.active and move not in noisy:
                            ordering.record_cutoff(move, ply, depth)
                        break
                    a = value

        if best <= alpha:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        else:
            bound = EXACT
        if excluded is not None:  # not the node's value: the table keeps the node's own
            return best
        if mirrored and best_move is not None:
            best_move = state.mirror_move(best_move)
        self.tt_store(key, PROVEN if self.horizon == h0 else depth, best, bound, best_move, ply)
        return best

    def singular_move(self, move: Move, depth: int, beta: int, ply: int) -> bool:
        """Singular extensions: whether the node's other moves, searched at half the depth
        with the window (beta - 1, beta), all fail low (`move`, the table's, is then the
        only good one). What the check met at the horizon is not part of the node's value:
        the counter of such values is restored."""
        excluded = self.excluded
        excluded[ply] = move
        horizon = self.horizon
        try:
            value = self.search(depth // 2, beta - 1, beta, ply)
        finally:  # also when a stop unwinds the search
            excluded[ply] = None
        self.horizon = horizon
        return value < beta

    def null_search(self, depth: int, beta: int, ply: int) -> int:
        """Null-move pruning: pass, and search the opponent's moves shallower with the
        window (beta - 1, beta). At least beta: a lower bound for the node, which a real move
        would only raise (a heuristic: wrong in zugzwang, which `null_move_allowed` avoids
        where it can). Win scores are not trusted from a pass."""
        state = self.state
        reduction = 3 if depth >= 7 else 2
        state.play_null()
        passed = self.passed
        passed[ply + 1] = True
        try:
            value = -self.search(depth - 1 - reduction, -beta, -beta + 1, ply + 1)
        finally:  # also when a stop unwinds the search (which undoes the pass itself)
            passed[ply + 1] = False
        state.undo()
        return beta if value >= WIN_THRESHOLD else value

    def etc_cutoff(
        self, moves: list[Move], child_depth: int, beta: int, child_ply: int
    ) -> tuple[int, Move, bool] | None:
        """Enhanced transposition cutoff: the first of `moves` whose child has a stored upper
        bound (or exact value) of at most -beta, as (value >= beta, move, whether proven)."""
        state = self.state
        play = state.play
        undo = state.undo
        key_of = state.key
        probe = self.tt_probe
        symmetry = self.symmetry
        for move in moves:
            play(move)
            key = state.symmetric_key()[0] if symmetry else key_of()
            undo()
            entry = probe(key)
            if entry is None or entry.depth < child_depth or entry.bound == LOWER:
                continue
            value = -from_tt(entry.score, child_ply)
            if value >= beta:
                return value, move, entry.depth == PROVEN
        return None

    def quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self.pv[ply] = ()
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self.next_check:
            self.check(ply)
        state = self.state
        if state.is_terminal():
            return terminal_value(state, ply)
        if ply > self.seldepth:
            self.seldepth = ply
        if self.checks and self.use_quiescence and ply < self.max_ply and state.in_check():
            return self.evasions(alpha, beta, ply)
        self.horizon += 1
        best = state.evaluate()
        if best > CLAMP:
            best = CLAMP
        elif best < -CLAMP:
            best = -CLAMP
        if best >= beta or ply >= self.max_ply or not self.use_quiescence:
            return best
        noisy = self.noisy_of()
        exchange = self.exchange
        if exchange is not None:  # captures that lose material cannot raise the stand-pat
            noisy = [move for move in noisy if exchange(move) >= 0]
        if not noisy:
            return best
        return self.quiesce_moves(noisy, best, max(alpha, best), beta, ply)

    def evasions(self, alpha: int, beta: int, ply: int) -> int:
        """Quiescence in check: no standing pat; every move that answers the check."""
        return self.quiesce_moves(self.moves_of(), -INF, alpha, beta, ply)

    def quiesce_moves(self, moves: list, best: int, alpha: int, beta: int, ply: int) -> int:
        """Quiescence over `moves` from `best` (the stand-pat value, or -INF in check)."""
        pv = self.pv
        state = self.state
        play = state.play
        undo = state.undo
        quiesce = self.quiesce
        next_ply = ply + 1
        for move in moves:
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
