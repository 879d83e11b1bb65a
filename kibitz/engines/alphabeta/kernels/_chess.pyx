# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess's node search in C, node for node with `nodes.py` over the compiled board
(`CompiledBoard`, cimported through `_board.pxd`: no Python call a node).

`ChessSearch.subtree` is `NodeSearch.search` (with `null_search`, `etc_cutoff`,
`singular_move` and the killers and history of `ordering.py`) over a `NativeTable`, and
`ChessQuiescence` (its base) is `quiesce`, `evasions` and `quiesce_moves`. The root stays
Python (`kernel.SubtreeKernelSearch` calls `subtree` for each root move): each call takes the
node search's counters (`nodes`, `next_check`, `horizon`, `seldepth` and the statistics),
and hands them back with the line it found (`pv[ply]`). When `nodes` reaches `next_check` it
calls the node search's `check(ply)`, which may raise (a stop): the exception unwinds the
kernel with the counters handed back and the moves played below `ply` left on the board, for
the root to undo (`Abort.ply`), as in the Python search.
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from kibitz.engines.alphabeta.kernels._table cimport (
    Entry,
    NativeTable,
    prefetch,
    table_find,
    table_read,
    table_write,
)

from kibitz.games.chess._board cimport MAX_MOVES, WHITE, CompiledBoard

from kibitz.engines.types import MAX_PLY as _MAX_PLY
from kibitz.engines.types import WIN as _WIN
from kibitz.engines.types import WIN_THRESHOLD as _WIN_THRESHOLD

from kibitz.engines.alphabeta.table import EXACT as _EXACT
from kibitz.engines.alphabeta.table import LOWER as _LOWER
from kibitz.engines.alphabeta.table import PROVEN as _PROVEN
from kibitz.engines.alphabeta.table import UPPER as _UPPER
from kibitz.engines.alphabeta import nodes as _nodes

cdef int WIN = _WIN
cdef int WIN_THRESHOLD = _WIN_THRESHOLD
cdef int EXACT = _EXACT
cdef int LOWER = _LOWER
cdef int UPPER = _UPPER
cdef int PROVEN = _PROVEN
cdef int NULL_MOVE_DEPTH = _nodes.NULL_MOVE_DEPTH
cdef int LMR_DEPTH = _nodes.LMR_DEPTH
cdef int LMR_SKIP = _nodes.LMR_SKIP
cdef int SINGULAR_DEPTH = _nodes.SINGULAR_DEPTH
cdef int SINGULAR_MARGIN = _nodes.SINGULAR_MARGIN
cdef int FUTILITY_LEVELS = len(_nodes.FUTILITY_MARGIN)
cdef int LATE_LEVELS = len(_nodes.LATE_MOVES)
cdef int FUTILITY_MARGIN[8]
cdef int LATE_MOVES[8]
if FUTILITY_LEVELS > 8 or LATE_LEVELS > 8:  # pragma: no cover - a longer table in nodes.py
    raise ImportError("nodes.py's FUTILITY_MARGIN and LATE_MOVES must have at most 8 levels")
for _i, _margin in enumerate(_nodes.FUTILITY_MARGIN):
    FUTILITY_MARGIN[_i] = _margin
for _i, _count in enumerate(_nodes.LATE_MOVES):
    LATE_MOVES[_i] = _count
cdef enum:
    HISTORY_SIZE = 1 << 17  # every move: from | to << 7 | promotion << 14
cdef int INF = _WIN + 1
cdef int CLAMP = _WIN_THRESHOLD - 1


cdef class ChessQuiescence:
    """The quiescence search of one search over one `CompiledBoard`, with the node
    search's switches: `quiescence` (Quiescence), `see` (SEE: losing captures skipped),
    `max_ply`."""

    cdef CompiledBoard board
    cdef readonly bint quiescence, see
    cdef readonly int max_ply
    cdef long long nodes, next_check, horizon
    cdef int seldepth, stride
    cdef object search
    cdef int* pv_moves  # pv_moves[ply * stride + i]: the line from ply (`NodeSearch.pv`)
    cdef int* pv_length

    def __cinit__(self, CompiledBoard board, bint quiescence, bint see, int max_ply, *args):
        if max_ply < 0 or max_ply > _MAX_PLY:
            raise ValueError(f"max_ply must be within 0..{_MAX_PLY}, got {max_ply}")
        self.board = board
        self.quiescence = quiescence
        self.see = see
        self.max_ply = max_ply
        self.stride = max_ply + 2
        self.pv_moves = <int*> malloc((max_ply + 2) * self.stride * sizeof(int))
        self.pv_length = <int*> malloc((max_ply + 2) * sizeof(int))
        if self.pv_moves == NULL or self.pv_length == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.pv_moves)
        free(self.pv_length)

    def quiesce(self, search, int alpha, int beta, int ply) -> int:
        """`search.quiesce(alpha, beta, ply)` (`search` a `NodeSearch` on this board): its
        value, with `search`'s counters and `search.pv[ply]` as the Python one leaves them."""
        self.check_ply(ply)
        self.take(search)
        cdef int value
        try:
            value = self.node(alpha, beta, ply)
        finally:
            self.give(search)
        self.hand_line(search, ply)
        return value

    cdef int check_ply(self, int ply) except -1:
        if ply < 0 or ply > self.max_ply:
            raise ValueError(f"ply must be within 0..{self.max_ply}, got {ply}")
        return 0

    cdef int take(self, search) except -1:
        """Take `search`'s counters for a call."""
        self.nodes = search.nodes
        self.next_check = search.next_check
        self.horizon = search.horizon
        self.seldepth = search.seldepth
        self.search = search
        return 0

    cdef int give(self, search) except -1:
        """Hand the counters back to `search` (also when a stop unwinds the call)."""
        self.search = None
        search.nodes = self.nodes
        search.next_check = self.next_check
        search.horizon = self.horizon
        search.seldepth = self.seldepth
        return 0

    cdef int hand_line(self, search, int ply) except -1:
        """`search.pv[ply]`: the line the call found from `ply`."""
        cdef int* line = &self.pv_moves[ply * self.stride]
        search.pv[ply] = tuple([line[i] for i in range(self.pv_length[ply])])
        return 0

    cdef int poll(self, int ply) except -1:
        """The node search's `check(ply)`, with its counters up to date."""
        search = self.search
        search.nodes = self.nodes
        search.horizon = self.horizon
        search.seldepth = self.seldepth
        search.check(ply)
        self.next_check = search.next_check
        return 0

    cdef inline int evaluation(self) noexcept:
        """The static evaluation from the side to move (`state.evaluate()`)."""
        cdef int value = self.board.value()
        return value if self.board.turn == WHITE else -value

    cdef inline int clamped(self) noexcept:
        """`clamped_evaluation`."""
        cdef int value = self.evaluation()
        return CLAMP if value > CLAMP else -CLAMP if value < -CLAMP else value

    cdef int node(self, int alpha, int beta, int ply) except? -1999999999:
        """`NodeSearch.quiesce`."""
        cdef CompiledBoard board = self.board
        cdef int moves[MAX_MOVES]
        cdef int n, count, i, best
        self.pv_length[ply] = 0
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll(ply)
        if board.is_over():  # terminal_value: lost if mated, else drawn
            if board.has_moves() or not board.in_check():
                return 0
            return ply - WIN
        if ply > self.seldepth:
            self.seldepth = ply
        if self.quiescence and ply < self.max_ply and board.in_check():
            n = board.ordered(moves, NULL)  # evasions: every move, no standing pat
            return self.quiesce_moves(moves, n, -INF, alpha, beta, ply)
        self.horizon += 1
        best = self.clamped()
        if best >= beta or ply >= self.max_ply or not self.quiescence:
            return best
        n = board.sorted_noisy(moves)
        if self.see:  # captures that lose material cannot raise the stand-pat
            count = 0
            for i in range(n):
                if board.exchange_holds(moves[i]):
                    moves[count] = moves[i]
                    count += 1
            n = count
        if n == 0:
            return best
        return self.quiesce_moves(moves, n, best, alpha if alpha > best else best, beta, ply)

    cdef int quiesce_moves(
        self, int* moves, int n, int best, int alpha, int beta, int ply
    ) except? -1999999999:
        """`NodeSearch.quiesce_moves`."""
        cdef CompiledBoard board = self.board
        cdef int i, j, move, value, length, next_ply = ply + 1
        cdef int* line
        cdef int* child
        for i in range(n):
            move = moves[i]
            board.play(move)
            value = -self.node(-beta, -alpha, next_ply)
            board.undo()
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        break
                    alpha = value
                    line = &self.pv_moves[ply * self.stride]
                    child = &self.pv_moves[next_ply * self.stride]
                    length = self.pv_length[next_ply]
                    line[0] = move
                    for j in range(length):
                        line[j + 1] = child[j]
                    self.pv_length[ply] = length + 1
        return best


cdef class ChessSearch(ChessQuiescence):
    """Chess's whole node search in C: `NodeSearch.search`, `null_search`, `etc_cutoff`
    and `singular_move` node for node over a `NativeTable`, with the killers and history
    of `QuietMoveOrdering` (`ordering.py`) repeated here, and the quiescence search of
    `ChessQuiescence` at the horizon. `subtree` takes all of a `NodeSearch`'s counters and
    hands them back, as `quiesce` does; the history it learns goes back into the node
    search's `QuietMoveOrdering` after each call (the killers live for one search: this
    object's life)."""

    cdef NativeTable table
    cdef bint pvs, etc, null_move, lmr, extend, futility, late_move_pruning, singular
    cdef bint use_killers, use_history, active
    cdef int root_ply
    cdef long long cutoffs, first_cutoffs, pruned, null_cutoffs, reductions
    cdef long long singular_extensions
    cdef object ordering
    cdef int* killers  # two per ply: ply p's newest at 2p, the one before at 2p + 1
    cdef int* excluded  # excluded[ply]: the move a singular extension's check leaves out
    cdef char* passed  # passed[ply]: the move into ply was a null move
    cdef int64_t* history  # by move
    cdef char* touched  # by move: changed since the last hand-back
    cdef int* changed  # the moves touched, in order
    cdef int nchanged
    # Scratch of one node at a time (used before its move loop, not across a recursion),
    # kept off the C stack, which holds a frame a ply:
    cdef int losing[MAX_MOVES]  # the losing captures, put last
    cdef uint64_t child_keys[MAX_MOVES]  # ETC: the children's keys
    cdef Entry* child_slots[MAX_MOVES]  # and their slots

    def __cinit__(self, CompiledBoard board, bint quiescence, bint see, int max_ply, *args):
        cdef int size = max_ply + 2
        self.killers = <int*> malloc(2 * size * sizeof(int))
        self.excluded = <int*> malloc(size * sizeof(int))
        self.passed = <char*> calloc(size, 1)
        self.history = <int64_t*> calloc(HISTORY_SIZE, sizeof(int64_t))
        self.touched = <char*> calloc(HISTORY_SIZE, 1)
        self.changed = <int*> malloc(HISTORY_SIZE * sizeof(int))
        if (
            self.killers == NULL or self.excluded == NULL or self.passed == NULL
            or self.history == NULL or self.touched == NULL or self.changed == NULL
        ):
            raise MemoryError()
        cdef int i
        for i in range(2 * size):
            self.killers[i] = -1
        for i in range(size):
            self.excluded[i] = -1

    def __init__(
        self, CompiledBoard board, bint quiescence, bint see, int max_ply, NativeTable table,
        search, ordering
    ):
        """The switches of `search` (a `NodeSearch` on `board`'s game without hooks or
        symmetry), its table and its `ordering`, whose history this copies."""
        if search.hooks or search.symmetry:
            raise ValueError("the chess kernel searches without solving hooks or symmetry")
        self.table = table
        self.pvs = search.pvs
        self.etc = search.etc
        self.null_move = search.null_move
        self.lmr = search.lmr
        self.extend = search.extend
        self.futility = search.futility
        self.late_move_pruning = search.late_move_pruning
        self.singular = search.singular
        self.root_ply = search.root_ply
        self.ordering = ordering
        self.use_killers = ordering.use_killers
        self.use_history = ordering.use_history
        self.active = ordering.active
        for move, value in ordering.history.items():
            if 0 <= move < HISTORY_SIZE:
                self.history[<int> move] = value

    def __dealloc__(self):
        free(self.killers)
        free(self.excluded)
        free(self.passed)
        free(self.history)
        free(self.touched)
        free(self.changed)

    def subtree(self, search, int depth, int alpha, int beta, int ply) -> int:
        """`search.search(depth, alpha, beta, ply)`: its value, with `search`'s counters,
        `search.pv[ply]` and the ordering's history as the Python search leaves them."""
        self.check_ply(ply)
        self.take(search)
        cdef int value
        try:
            value = self.node_search(depth, alpha, beta, ply)
        finally:
            self.give(search)
        self.hand_line(search, ply)
        return value

    cdef int take(self, search) except -1:
        """Take `search`'s counters and statistics for a call."""
        ChessQuiescence.take(self, search)
        self.cutoffs = search.cutoffs
        self.first_cutoffs = search.first_cutoffs
        self.pruned = search.pruned
        self.null_cutoffs = search.null_cutoffs
        self.reductions = search.reductions
        self.singular_extensions = search.singular_extensions
        return 0

    cdef int give(self, search) except -1:
        """Hand the counters, the statistics and the history scores the call changed back
        (also when a stop unwinds the call)."""
        ChessQuiescence.give(self, search)
        search.cutoffs = self.cutoffs
        search.first_cutoffs = self.first_cutoffs
        search.pruned = self.pruned
        search.null_cutoffs = self.null_cutoffs
        search.reductions = self.reductions
        search.singular_extensions = self.singular_extensions
        cdef int i, move
        history = self.ordering.history
        for i in range(self.nchanged):
            move = self.changed[i]
            self.touched[move] = 0
            history[move] = self.history[move]
        self.nchanged = 0
        return 0

    cdef int node_search(self, int depth, int alpha, int beta, int ply) except? -1999999999:
        """`NodeSearch.search`."""
        if depth <= 0:
            return self.node(alpha, beta, ply)
        cdef CompiledBoard board = self.board
        cdef NativeTable table = self.table
        cdef int moves[MAX_MOVES]
        cdef int* losing = self.losing
        cdef int n, nlosing = 0, quiet_from, quiet_start, i, k, move, index = 0, value, score
        cdef int a, b, limit, bound, tt_move = -1, excluded, e_depth = 0, e_score = 0
        cdef int e_bound = 0, extension = 0, child, next_ply, best, best_move, late
        cdef int floor, prune_from, reduced, killer
        cdef bint in_check, pv_node, futile, prune_quiet, has_entry = False, proven
        cdef long long h0
        cdef Entry* slot
        cdef Entry* entry
        cdef uint64_t key
        cdef uint64_t* child_keys = self.child_keys
        cdef Entry** child_slots = self.child_slots
        self.pv_length[ply] = 0
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll(ply)
        if board.history_draw(self.root_ply):
            self.horizon += 1  # a draw of this path only: never proven, never stored
            return 0
        if board.is_over():
            if board.has_moves() or not board.in_check():
                return 0
            return ply - WIN
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= self.max_ply:
            self.horizon += 1
            return self.clamped()
        in_check = board.in_check()
        if in_check and self.extend:
            depth += 1

        a = alpha
        b = beta
        limit = WIN - ply - 1
        if a < -limit:
            a = -limit
        if b > limit:
            b = limit
        if a >= b:
            return a

        key = board.key
        slot = table_find(table, key)
        entry = table_read(table, slot, key)
        excluded = self.excluded[ply]
        if entry != NULL:  # copied: the slot may change below
            has_entry = True
            tt_move = entry.move
            e_depth = entry.depth
            e_score = entry.score
            e_bound = entry.bound
            if e_depth >= depth and excluded < 0:
                score = e_score
                if score >= WIN_THRESHOLD:
                    score -= ply
                elif score <= -WIN_THRESHOLD:
                    score += ply
                if (
                    e_bound == EXACT
                    or (e_bound == LOWER and score >= b)
                    or (e_bound == UPPER and score <= a)
                ):
                    if e_depth != PROVEN:
                        self.horizon += 1
                    return score

        pv_node = beta - alpha > 1
        if (
            self.futility
            and not pv_node
            and not in_check
            and depth < FUTILITY_LEVELS
            and -WIN_THRESHOLD < b < WIN_THRESHOLD
            and excluded < 0
        ):
            value = self.clamped() - FUTILITY_MARGIN[depth]
            if value >= b:
                self.horizon += 1
                self.pruned += 1
                return value
        if (
            self.null_move
            and not pv_node
            and not in_check
            and depth >= NULL_MOVE_DEPTH
            and not self.passed[ply]
            and excluded < 0
            and -WIN_THRESHOLD < b < WIN_THRESHOLD
        ):
            if self.evaluation() >= b and board.has_pieces():
                value = self.null_search(depth, b, ply)
                if value >= b:
                    self.horizon += 1
                    self.null_cutoffs += 1
                    return value

        h0 = self.horizon
        n = board.ordered(moves, &quiet_from)
        if excluded >= 0:
            for index in range(n):
                if moves[index] == excluded:
                    break
            for i in range(index, n - 1):
                moves[i] = moves[i + 1]
            n -= 1
            if index < quiet_from:
                quiet_from -= 1
        if self.see and quiet_from:
            k = 0
            for i in range(quiet_from):
                move = moves[i]
                if board.exchange_holds(move):
                    moves[k] = move
                    k += 1
                else:
                    losing[nlosing] = move
                    nlosing += 1
            if nlosing:  # the losing captures go last, after the quiet moves
                for i in range(quiet_from, n):
                    moves[k + i - quiet_from] = moves[i]
                n -= nlosing
                quiet_from = k
        if self.active and n > 1:
            self.order(moves, n, ply, tt_move, quiet_from)
        for i in range(nlosing):
            moves[n] = losing[i]
            n += 1
        quiet_start = quiet_from
        if n > 1 and tt_move >= 0:
            for index in range(n):
                if moves[index] == tt_move:
                    if index >= quiet_from:
                        quiet_start += 1
                    for i in range(index, 0, -1):
                        moves[i] = moves[i - 1]
                    moves[0] = tt_move
                    break

        if self.etc and depth > 1 and not pv_node and excluded < 0:
            for i in range(n):  # every child's slot first, fetched while the next is found
                board.play(moves[i])
                child_keys[i] = board.key
                board.undo()
                child_slots[i] = table_find(table, child_keys[i])
                if child_slots[i] != NULL:
                    prefetch(child_slots[i])
            for i in range(n):  # then probed in order, as `etc_cutoff` probes them
                move = moves[i]
                entry = table_read(table, child_slots[i], child_keys[i])
                if entry == NULL or entry.depth < depth - 1 or entry.bound == LOWER:
                    continue
                score = entry.score
                if score >= WIN_THRESHOLD:
                    score -= ply + 1
                elif score <= -WIN_THRESHOLD:
                    score += ply + 1
                value = -score
                if value >= b:
                    proven = entry.depth == PROVEN
                    if not proven:
                        self.horizon += 1
                    table_write(
                        table, table_find(table, key), key, PROVEN if proven else depth, value,
                        LOWER, move, ply
                    )
                    return value

        if (
            self.singular
            and depth >= SINGULAR_DEPTH
            and not in_check
            and excluded < 0
            and has_entry
            and e_bound != UPPER
            and e_depth >= depth - 3
            and tt_move >= 0
            and moves[0] == tt_move
        ):
            value = e_score
            if value >= WIN_THRESHOLD:
                value -= ply
            elif value <= -WIN_THRESHOLD:
                value += ply
            if -WIN_THRESHOLD < value < WIN_THRESHOLD and self.singular_move(
                tt_move, depth, value - SINGULAR_MARGIN * depth, ply
            ):
                self.singular_extensions += 1
                extension = 1

        child = depth - 1
        next_ply = ply + 1
        best = -INF
        best_move = -1
        late = quiet_from + LMR_SKIP if self.lmr and depth >= LMR_DEPTH and not in_check else INF
        futile = False
        floor = -INF
        prune_from = INF
        if not pv_node and not in_check:
            if self.futility and depth < FUTILITY_LEVELS and a > -WIN_THRESHOLD:
                floor = self.clamped() + FUTILITY_MARGIN[depth]
                futile = floor <= a
            if self.late_move_pruning and depth < LATE_LEVELS:
                prune_from = quiet_start + LATE_MOVES[depth]
        prune_quiet = futile or prune_from < INF
        for index in range(n):
            move = moves[index]
            board.play(move)
            if (
                prune_quiet
                and index >= quiet_start
                and (futile or index >= prune_from)
                and best > -WIN_THRESHOLD
                and not board.in_check()
            ):
                board.undo()
                self.pruned += 1
                self.horizon += 1
                if futile and floor > best:
                    best = floor
                continue
            if index == 0:
                value = -self.node_search(child + extension, -b, -a, next_ply)
            elif not self.pvs:
                value = -self.node_search(child, -b, -a, next_ply)
            else:
                if index >= late and not board.in_check():
                    self.reductions += 1
                    reduced = child - (2 if depth >= 6 and index >= 2 * late else 1)
                    value = -self.node_search(reduced, -a - 1, -a, next_ply)
                    if value > a:
                        value = -self.node_search(child, -a - 1, -a, next_ply)
                else:
                    value = -self.node_search(child, -a - 1, -a, next_ply)
                if a < value < b:
                    value = -self.node_search(child, -b, -a, next_ply)
            board.undo()
            if value > best:
                best = value
                best_move = move
                if value > a:
                    if pv_node:
                        self.extend_line(move, ply)
                    if value >= b:
                        self.cutoffs += 1
                        if index == 0:
                            self.first_cutoffs += 1
                        if self.active and not board.is_noisy(move):
                            self.record_cutoff(move, ply, depth)
                        break
                    a = value

        if best <= alpha:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        else:
            bound = EXACT
        if excluded >= 0:
            return best
        table_write(
            table, table_find(table, key), key, PROVEN if self.horizon == h0 else depth, best,
            bound, best_move, ply
        )
        return best

    cdef inline void extend_line(self, int move, int ply) noexcept:
        """pv[ply] = (move, *pv[ply + 1])."""
        cdef int* line = &self.pv_moves[ply * self.stride]
        cdef int* child = &self.pv_moves[(ply + 1) * self.stride]
        cdef int length = self.pv_length[ply + 1], j
        line[0] = move
        for j in range(length):
            line[j + 1] = child[j]
        self.pv_length[ply] = length + 1

    cdef void order(self, int* moves, int n, int ply, int tt_move, int quiet_from) noexcept:
        """`QuietMoveOrdering.order`: the quiet moves `moves[quiet_from:n]` by history
        (stable), then this ply's killers first."""
        cdef int i, j, move, index, killer, round_
        cdef int64_t value
        cdef int64_t* history = self.history
        if self.use_history:
            for i in range(quiet_from + 1, n):  # insertion sort, stable, highest first
                move = moves[i]
                value = history[move]
                j = i
                while j > quiet_from and history[moves[j - 1]] < value:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[j] = move
        if self.use_killers:
            for round_ in range(2):
                killer = self.killers[2 * ply + 1 - round_]
                if killer < 0 or killer == tt_move:
                    continue
                for index in range(n):
                    if moves[index] == killer:
                        if index >= quiet_from:
                            for i in range(index, quiet_from, -1):
                                moves[i] = moves[i - 1]
                            moves[quiet_from] = killer
                        break

    cdef void record_cutoff(self, int move, int ply, int depth) noexcept:
        """`QuietMoveOrdering.record_cutoff`."""
        self.history[move] += depth * depth
        if not self.touched[move]:
            self.touched[move] = 1
            self.changed[self.nchanged] = move
            self.nchanged += 1
        cdef int newest = 2 * ply
        if self.killers[newest] != move:
            self.killers[newest + 1] = self.killers[newest]
            self.killers[newest] = move

    cdef int singular_move(self, int move, int depth, int beta, int ply) except -1:
        """`NodeSearch.singular_move` (1: singular, 0: not)."""
        cdef long long horizon = self.horizon
        cdef int value
        self.excluded[ply] = move
        try:
            value = self.node_search(depth // 2, beta - 1, beta, ply)
        finally:
            self.excluded[ply] = -1
        self.horizon = horizon
        return 1 if value < beta else 0

    cdef int null_search(self, int depth, int beta, int ply) except? -1999999999:
        """`NodeSearch.null_search`."""
        cdef int reduction = 3 if depth >= 7 else 2, value
        self.board.play_null()
        self.passed[ply + 1] = True
        try:
            value = -self.node_search(depth - 1 - reduction, -beta, -beta + 1, ply + 1)
        finally:
            self.passed[ply + 1] = False
        self.board.undo()
        return beta if value >= WIN_THRESHOLD else value
