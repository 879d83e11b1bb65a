# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Connect Four's node search in C: `NodeSearch.search` and `quiesce`, node for node.

The engine (`KernelNodeSearch`, the option Kernel) calls `Connect4Search.root_pass` for each
pass over the root moves in place of `RootSearch.search_root`, and `probes` for a solve's
null-window probes (`solve.solve`), which search every root move's subtree in place of
`NodeSearch.search`; `root_values` and `table_line` stand in for
the root's static values and table lines. Everything the Python search does per node is
done here in the same order: node counting and polling, terminal values, mate-distance pruning, the
solving hooks (`winning_moves`, `non_losing_moves` and the bounds they imply), symmetric
table keys, TT cutoffs with the proven-result (`horizon`) bookkeeping, threat ordering with
the table move first, PVS, fail-soft bounds, stores and principal variations. Killer and
history ordering are never used for Connect Four (`strong_move_order`) and there are no
noisy moves, so quiescence is the stand-pat evaluation. Tests check identical node counts,
values and lines against the pure-Python search, which stays the reference.

The position is a copy of the game's bitboards (`ConnectFour.bitboards()`), so a stop raised
by `poll` leaves nothing to undo here.
"""

from libc.limits cimport INT_MIN
from libc.stdint cimport uint64_t

from kibitz.engines.alphabeta.kernels._table cimport (
    Entry,
    NativeTable,
    prefetch,
    table_find,
    table_read,
    table_slot,
    table_write,
)
from kibitz.games.connect4_bits cimport has_four, line_ends, winning_cells

from kibitz.engines.alphabeta import table as _tt
from kibitz.engines.alphabeta import root as _root
from kibitz.engines.alphabeta.solve import probe_value
from kibitz.engines import types as _types
from kibitz.games import connect4 as _rules


cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil


cdef enum:
    WIDTH = 7
    HEIGHT = 6
    STRIDE = 7
    CELLS = 42
    KERNEL_PLIES = 64  # a Connect Four search is at most 42 plies deep from any root

cdef int WIN = _types.WIN
cdef int WIN_THRESHOLD = _types.WIN_THRESHOLD
cdef int INF = WIN + 1
cdef int CLAMP = WIN_THRESHOLD - 1
cdef int PROVEN = _tt.PROVEN
cdef int EXACT = _tt.EXACT
cdef int LOWER = _tt.LOWER
cdef int UPPER = _tt.UPPER
cdef int OK = _root.OK
cdef int FAIL_LOW = _root.FAIL_LOW
cdef int FAIL_HIGH = _root.FAIL_HIGH
cdef int THREAT_VALUE = _rules.THREAT_VALUE
cdef int CAN_WIN_NOW = _rules.CAN_WIN_NOW

cdef uint64_t BOTTOM[WIDTH]
cdef uint64_t COLUMN[WIDTH]
cdef uint64_t TOP[WIDTH]
cdef uint64_t BOTTOM_ROW = 0
cdef uint64_t BOARD = 0
cdef int TIEBREAK_COLUMN[8]  # tiebreak (7 - rank in centre-first order) -> column
cdef uint64_t MIRROR_BIT[STRIDE * WIDTH]
cdef uint64_t WEIGHT_PLANE[4]


def _init_tables() -> None:
    global BOTTOM_ROW, BOARD
    cdef int col, row, rank
    for col in range(WIDTH):
        BOTTOM[col] = (<uint64_t> 1) << (STRIDE * col)
        COLUMN[col] = (((<uint64_t> 1) << HEIGHT) - 1) << (STRIDE * col)
        TOP[col] = BOTTOM[col] << (HEIGHT - 1)
        BOTTOM_ROW |= BOTTOM[col]
        BOARD |= COLUMN[col]
        for row in range(STRIDE):
            MIRROR_BIT[STRIDE * col + row] = (<uint64_t> 1) << (STRIDE * (WIDTH - 1 - col) + row)
    for rank, col in enumerate(_rules.CENTRE_FIRST):
        TIEBREAK_COLUMN[7 - rank] = col
    for rank, cells in enumerate(_rules.WEIGHT_PLANES):
        WEIGHT_PLANE[rank] = cells


_init_tables()


cdef inline uint64_t mirror(uint64_t bits) noexcept nogil:
    cdef uint64_t out = 0
    cdef int col
    for col in range(WIDTH):
        out |= ((bits >> (STRIDE * col)) & 0x7F) << (STRIDE * (WIDTH - 1 - col))
    return out


cdef inline int weight(uint64_t stones) noexcept nogil:
    """`connect4._weight`: the stones' total cell weight, from its four bit planes."""
    return (
        popcount(stones & WEIGHT_PLANE[0])
        + (popcount(stones & WEIGHT_PLANE[1]) << 1)
        + (popcount(stones & WEIGHT_PLANE[2]) << 2)
        + (popcount(stones & WEIGHT_PLANE[3]) << 3)
    )


cdef inline int from_table(int score, int ply) noexcept:
    """`table.from_tt`: a stored node-relative score as seen from the root at `ply`."""
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


cdef int columns(moves, int* cols) except -1:
    """The root `moves` (columns) into `cols`; their number (at most WIDTH)."""
    cdef int count = 0, col
    for col in moves:
        if count == WIDTH:
            raise ValueError(f"more than {WIDTH} root moves: {moves!r}")
        cols[count] = col
        count += 1
    return count


cdef class Connect4Search:
    """One search's node searcher over a `NativeTable`; counters are public for the engine.

    `poll(ply)` is called whenever `nodes` reaches `next_check`, with the ply of the
    subtree's root (the number of moves the engine itself has played); it may raise to stop.
    """

    cdef NativeTable table
    cdef public object poll
    cdef public long long nodes, next_check, horizon, cutoffs, first_cutoffs
    cdef public int seldepth, max_ply
    cdef public bint pvs, hooks, symmetry, quiescence, etc
    cdef int entry_ply
    cdef uint64_t current, mask, mirror_current, mirror_mask
    cdef int moves
    cdef bint won
    cdef uint64_t history[CELLS + 1]
    cdef signed char pv[KERNEL_PLIES][KERNEL_PLIES]
    cdef int pv_length[KERNEL_PLIES]

    def __init__(self, NativeTable table, poll) -> None:
        self.table = table
        self.poll = poll

    def search(self, state, int depth, int alpha, int beta, int ply) -> int:
        """`NodeSearch.search(depth, alpha, beta, ply)` on the ConnectFour `state`."""
        self.load(state, ply)
        return self._search(depth, alpha, beta, ply, NULL)

    def root_pass(self, state, moves, int depth, int alpha0, int beta0, int multipv):
        """`RootSearch.search_root`'s pass over the root `moves` (columns, in search order)
        of the ConnectFour `state`, which stays untouched: polls pass ply 0.

        Returns (status, value, lines): `lines` holds (score, bound, proven, pv) for each
        move searched, in order; a fail high ends the pass at its move. Counts the root's
        node, as the Python pass does.
        """
        cdef int cols[WIDTH]
        cdef int count = columns(moves, cols), status, last
        self.load(state, 0)
        lines = []
        value = self._pass(cols, count, depth, alpha0, beta0, multipv, &status, &last, lines)
        return status, value, lines

    def probes(self, state, moves, int depth, int multipv, probed) -> None:
        """`solve.solve`'s probes in one call: null-window passes over the root `moves`
        (columns, in search order) of `state`, at the values `solve.probe_value` picks,
        until the proven bounds meet. After each, `probed(lower, upper, index, pv)`: the
        bounds and, on a fail high, the index of the move that failed high in the order
        before the probe (it then moves first, as the solve's lines do) and its line;
        after a fail low -1 and None. `probed` may raise to stop the solve."""
        cdef int cols[WIDTH]
        cdef int count = columns(moves, cols), col, status, last, index, probe, value
        cdef int lower = -WIN, upper = WIN
        self.load(state, 0)
        while lower < upper:
            probe = probe_value(lower, upper)
            value = self._pass(cols, count, depth, probe, probe + 1, multipv, &status, &last,
                               None)
            if status != FAIL_HIGH:
                upper = value
                probed(lower, upper, -1, None)
                continue
            lower = value
            col = cols[last]
            pv = (col,) + self.line(1)
            for index in range(last, 0, -1):
                cols[index] = cols[index - 1]
            cols[0] = col
            probed(lower, upper, last, pv)

    cdef int _pass(
        self, int* cols, int count, int depth, int alpha0, int beta0, int multipv,
        int* status, int* last, list lines,
    ) except? INT_MIN:
        """`root_pass` on the loaded position: the value, the status and the index of the
        last move searched go to `status` and `last`; each move's (score, bound, proven,
        pv) is appended to `lines` unless it is None."""
        self.nodes += 1
        cdef int exact[WIDTH]
        cdef int found = 0, alpha, value, best = -INF, i, index, col
        cdef long long h0
        for index in range(count):
            col = cols[index]
            last[0] = index
            alpha = alpha0
            if found >= multipv and exact[multipv - 1] > alpha:
                alpha = exact[multipv - 1]
            h0 = self.horizon
            self.play(col)
            if found < multipv or not self.pvs:
                value = -self._search(depth - 1, -beta0, -alpha, 1, NULL)
            else:
                value = -self._search(depth - 1, -alpha - 1, -alpha, 1, NULL)
                if alpha < value < beta0:
                    value = -self._search(depth - 1, -beta0, -alpha, 1, NULL)
            self.undo()
            if value > best:
                best = value
            if value <= alpha:
                if lines is not None:
                    lines.append((value, UPPER, self.horizon == h0, (col,)))
                continue
            if lines is not None:
                lines.append((value, LOWER if value >= beta0 else EXACT, self.horizon == h0,
                              (col,) + self.line(1)))
            if value >= beta0:
                status[0] = FAIL_HIGH
                return value
            i = found  # insert into the exact scores, best first
            while i > 0 and exact[i - 1] < value:
                exact[i] = exact[i - 1]
                i -= 1
            exact[i] = value
            found += 1
        if found < multipv:
            status[0] = FAIL_LOW
            return best
        status[0] = OK
        return exact[0]

    def root_values(self, state, moves) -> list:
        """`RootSearch.static_values` for the root `moves` of `state`: each move's value by
        the rules (a win, a full board) or the clamped evaluation, from the root's side."""
        self.load(state, 0)
        values = []
        cdef int col
        for col in moves:
            self.play(col)
            if self.won:
                values.append(WIN - 1)
            elif self.moves == CELLS:
                values.append(0)
            else:
                values.append(-self.evaluate())
            self.undo()
        return values

    def table_line(self, state, pv, int depth) -> list:
        """`RootSearch.extend_pv`: `pv` (played from `state`, which stays untouched)
        followed by the table's moves, or where the table has none and the hooks are on
        the forced ones (`root.forced_move`), while legal, up to `depth` moves. The table's
        entries are read without counting probes. (No position repeats: every move adds a
        stone.)"""
        self.load(state, 0)
        line = list(pv)
        cdef int col, move
        for col in pv:
            self.play(col)
        while len(line) < depth and not self.won and self.moves < CELLS:
            move = self.table_move()
            if move < 0 and self.hooks:
                move = self.forced_move()
            if move < 0 or self.mask & TOP[move]:  # none, or its column is full
                break
            self.play(move)
            line.append(move)
        return line

    cdef int table_move(self) noexcept:
        """`RootSearch.table_move`: the table's move for the position, -1 if none."""
        cdef bint mirrored
        cdef uint64_t key = self.key(&mirrored)
        if self.table.size == 0:
            return -1
        cdef Entry* entry = table_slot(self.table, key)
        if entry.bound == 0 or entry.key != key or entry.move < 0:
            return -1
        return WIDTH - 1 - entry.move if mirrored else entry.move

    cdef int forced_move(self) noexcept:
        """`root.forced_move`: a win on the spot (centre first), else the only move that
        does not lose at once, else (every move loses at once) the first move; -1 if none."""
        cdef uint64_t wins = self.possible() & winning_cells(self.current, self.mask)
        cdef int moves[WIDTH]
        cdef int tiebreak, count
        if wins:
            for tiebreak in range(7, 0, -1):
                if wins & COLUMN[TIEBREAK_COLUMN[tiebreak]]:
                    return TIEBREAK_COLUMN[tiebreak]
        count = self.non_losing_moves(moves)
        if count == 1:
            return moves[0]
        if count == 0:
            self.by_threats(self.possible(), moves)
            return moves[0]
        return -1

    cdef load(self, state, int ply):
        """Copy `state`'s position; `ply` is the ply of its node (for polls and lines)."""
        current, mask = state.bitboards()
        self.current = current
        self.mask = mask
        self.mirror_current = mirror(self.current)
        self.mirror_mask = mirror(self.mask)
        self.moves = popcount(self.mask)
        self.won = has_four(self.current ^ self.mask)
        if ply + CELLS - self.moves >= KERNEL_PLIES:
            raise ValueError(f"ply {ply} is beyond the kernel's line buffer")
        self.entry_ply = ply

    def line(self, int ply) -> tuple:
        """The principal variation found from `ply` on (as `NodeSearch.pv[ply]`)."""
        return tuple(self.pv[ply][i] for i in range(self.pv_length[ply]))

    # -- the board ---------------------------------------------------------------------------

    cdef inline uint64_t possible(self) noexcept:
        return (self.mask + BOTTOM_ROW) & BOARD

    cdef inline uint64_t drop(self, int col) noexcept:
        """The cell a stone played in column `col` lands on."""
        return (self.mask + BOTTOM[col]) & COLUMN[col]

    cdef inline void play(self, int col, bint no_win=False) noexcept:
        """Drop a stone in column `col`; `no_win`: the caller knows it completes no four
        (the hooks found no win on the spot), which saves looking."""
        cdef uint64_t mask = self.mask
        cdef uint64_t bit = self.drop(col)
        self.won = not no_win and (bit & line_ends(self.current)) != 0
        self.current ^= mask
        self.mask = mask | bit
        self.mirror_current ^= self.mirror_mask
        self.mirror_mask |= MIRROR_BIT[lowest_bit(bit)]
        self.history[self.moves] = bit
        self.moves += 1

    cdef inline void undo(self) noexcept:
        self.moves -= 1
        cdef uint64_t bit = self.history[self.moves]
        self.mask ^= bit
        self.current ^= self.mask
        self.mirror_mask ^= MIRROR_BIT[lowest_bit(bit)]
        self.mirror_current ^= self.mirror_mask
        self.won = False

    cdef int by_threats(self, uint64_t cells, int* out) noexcept:
        """`ConnectFour._by_threats`: columns of `cells` into `out`, returns their number."""
        cdef int count = 0, i, j, tiebreak, entry
        cdef int ranked[WIDTH]
        cdef uint64_t bit
        if not cells & (cells - 1):
            if cells:
                out[0] = lowest_bit(cells) // STRIDE
                return 1
            return 0
        for tiebreak in range(7, 0, -1):
            bit = cells & COLUMN[TIEBREAK_COLUMN[tiebreak]]
            if bit:
                entry = popcount(winning_cells(self.current | bit, self.mask)) << 3 | tiebreak
                j = count
                while j > 0 and ranked[j - 1] < entry:  # insertion sort, largest first
                    ranked[j] = ranked[j - 1]
                    j -= 1
                ranked[j] = entry
                count += 1
        for i in range(count):
            out[i] = TIEBREAK_COLUMN[ranked[i] & 7]
        return count

    cdef int non_losing_moves(self, int* out) noexcept:
        """`ConnectFour.non_losing_moves`."""
        cdef uint64_t possible = self.possible()
        cdef uint64_t threats = winning_cells(self.current ^ self.mask, self.mask)
        cdef uint64_t forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0
            possible = forced
        return self.by_threats(possible & ~(threats >> 1), out)

    cdef int evaluate(self) noexcept:
        """`ConnectFour.evaluate`, clamped as the engine clamps it."""
        cdef uint64_t mine = self.current, theirs = self.current ^ self.mask
        cdef uint64_t my_threats = winning_cells(mine, self.mask)
        cdef int value
        if my_threats & self.possible() and not self.won:
            value = CAN_WIN_NOW
        else:
            value = (
                THREAT_VALUE
                * (popcount(my_threats) - popcount(winning_cells(theirs, self.mask)))
                + weight(mine)
                - weight(theirs)
            )
        return CLAMP if value > CLAMP else -CLAMP if value < -CLAMP else value

    # -- the search --------------------------------------------------------------------------

    cdef int _search(
        self, int depth, int alpha, int beta, int ply, Entry* slot
    ) except? INT_MIN:
        """`NodeSearch.search`; `slot`: the position's table slot where the caller found
        it already (`prefetch_children`), else NULL."""
        if depth <= 0:
            return self._quiesce(alpha, beta, ply)
        self.pv_length[ply] = 0
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll(self.entry_ply)
        if self.won:
            return ply - WIN
        if self.moves == CELLS:
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= self.max_ply:
            self.horizon += 1
            return self.evaluate()

        cdef int a = alpha, b = beta
        cdef int limit = WIN - ply - 1
        if a < -limit:
            a = -limit
        if b > limit:
            b = limit
        if a >= b:
            return a

        if self.hooks:
            if self.possible() & winning_cells(self.current, self.mask):
                return WIN - ply - 1
            limit = WIN - ply - 3
            if b > limit:
                b = limit
                if a >= b:
                    return b

        cdef bint mirrored
        cdef NativeTable table = self.table  # one reference for the node, not one a probe
        cdef uint64_t key = self.key(&mirrored)
        if slot == NULL:
            slot = table_find(table, key)
        cdef Entry* entry = table_read(table, slot, key)
        cdef int tt_move = -1, score, bound
        if entry != NULL:
            tt_move = entry.move
            if mirrored and tt_move >= 0:
                tt_move = WIDTH - 1 - tt_move
            if entry.depth >= depth:
                score = from_table(entry.score, ply)
                bound = entry.bound
                if (
                    bound == EXACT
                    or (bound == LOWER and score >= b)
                    or (bound == UPPER and score <= a)
                ):
                    if entry.depth != PROVEN:
                        self.horizon += 1
                    return score

        cdef uint64_t child_keys[WIDTH]
        cdef Entry* child_slots[WIDTH]
        if depth > 1:
            self.prefetch_children(table, child_keys, child_slots)
        cdef long long h0 = self.horizon
        cdef int moves[WIDTH]
        cdef int count, i, floor
        if self.hooks:
            count = self.non_losing_moves(moves)
            if count == 0:
                return ply + 2 - WIN
            floor = ply + 4 - WIN
            if a < floor:
                a = floor
                if a >= b:
                    return a
        else:
            count = self.by_threats(self.possible(), moves)
        if count > 1 and tt_move >= 0:  # the table move first, the others keep their order
            i = 0
            while i < count and moves[i] != tt_move:
                i += 1
            if i < count:
                while i > 0:
                    moves[i] = moves[i - 1]
                    i -= 1
                moves[0] = tt_move

        cdef int child = depth - 1, next_ply = ply + 1
        cdef int best = -INF, best_move = -1, value, index, move
        cdef bint pv_node = beta - alpha > 1, proven
        if self.etc and child > 0 and not pv_node:
            value = self.etc_cutoff(
                table, moves, child_keys, child_slots, count, child, b, next_ply, &move, &proven
            )
            if value != INT_MIN:
                if not proven:
                    self.horizon += 1
                if mirrored:
                    move = WIDTH - 1 - move
                table_write(
                    table, slot, key, PROVEN if proven else depth, value, LOWER, move, ply
                )
                return value
        cdef Entry* child_slot = NULL
        for index in range(count):
            move = moves[index]
            if depth > 1:
                child_slot = child_slots[move]
            self.play(move, self.hooks)  # with the hooks on, no move wins (see above)
            if index == 0 or not self.pvs:
                value = -self._search(child, -b, -a, next_ply, child_slot)
            else:
                value = -self._search(child, -a - 1, -a, next_ply, child_slot)
                if a < value < b:
                    value = -self._search(child, -b, -a, next_ply, child_slot)
            self.undo()
            if value > best:
                best = value
                best_move = move
                if value > a:
                    if pv_node:
                        self.set_line(ply, move)
                    if value >= b:
                        self.cutoffs += 1
                        if index == 0:
                            self.first_cutoffs += 1
                        break
                    a = value

        if best <= alpha:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        else:
            bound = EXACT
        if mirrored and best_move >= 0:
            best_move = WIDTH - 1 - best_move
        table_write(
            table, slot, key, PROVEN if self.horizon == h0 else depth, best, bound,
            best_move, ply,
        )
        return best

    cdef int _quiesce(self, int alpha, int beta, int ply) except? INT_MIN:
        """Connect Four has no noisy moves: the stand-pat evaluation (`NodeSearch.quiesce`)."""
        self.pv_length[ply] = 0
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll(self.entry_ply)
        if self.won:
            return ply - WIN
        if self.moves == CELLS:
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
        self.horizon += 1
        return self.evaluate()

    cdef inline uint64_t key(self, bint* mirrored) noexcept:
        """The position's table key, the mirror's where symmetry is on and its key is the
        smaller (`mirrored` says which)."""
        cdef uint64_t key = self.current + self.mask, mirror_key
        mirrored[0] = False
        if self.symmetry:
            mirror_key = self.mirror_current + self.mirror_mask
            if mirror_key < key:
                key = mirror_key
                mirrored[0] = True
        return key

    cdef inline uint64_t child_key(self, uint64_t bit) noexcept:
        """The table key (`search`'s, symmetric if on) of the position after playing `bit`."""
        cdef uint64_t key = (self.current ^ self.mask) + (self.mask | bit), mirror_key
        if self.symmetry:
            mirror_key = (self.mirror_current ^ self.mirror_mask) + (
                self.mirror_mask | MIRROR_BIT[lowest_bit(bit)]
            )
            if mirror_key < key:
                key = mirror_key
        return key

    cdef inline void prefetch_children(
        self, NativeTable table, uint64_t* keys, Entry** slots
    ) noexcept:
        """Start loading every child's table slot, so the children's probes find them cached;
        the children's keys and slots (`table_find`'s) go to `keys` and `slots`, by column
        (for `etc_cutoff` and the children's own probes)."""
        cdef uint64_t possible = self.possible(), bit, key
        cdef Entry* slot
        cdef int col
        while possible:
            bit = possible & (~possible + 1)
            possible ^= bit
            key = self.child_key(bit)
            slot = table_find(table, key)
            col = lowest_bit(bit) // STRIDE
            keys[col] = key
            slots[col] = slot
            if slot != NULL:
                prefetch(slot)

    cdef int etc_cutoff(
        self, NativeTable table, int* moves, uint64_t* keys, Entry** slots, int count,
        int child_depth, int beta, int child_ply, int* move, bint* proven,
    ) noexcept:
        """`NodeSearch.etc_cutoff`: the value >= `beta` one of `moves` is proven to reach by
        its child's table entry (`keys`, `slots`: the children's keys and slots by column,
        from `prefetch_children`; that move and whether it is proven go to `move`,
        `proven`); INT_MIN when no entry proves it."""
        cdef int index, score, col
        cdef Entry* entry
        for index in range(count):
            col = moves[index]
            entry = table_read(table, slots[col], keys[col])
            if entry == NULL or entry.depth < child_depth or entry.bound == LOWER:
                continue
            score = -from_table(entry.score, child_ply)
            if score >= beta:
                move[0] = col
                proven[0] = entry.depth == PROVEN
                return score
        return INT_MIN

    cdef inline void set_line(self, int ply, int move) noexcept:
        """pv[ply] = (move, *pv[ply + 1])."""
        cdef int i, length = self.pv_length[ply + 1]
        self.pv[ply][0] = move
        for i in range(length):
            self.pv[ply][i + 1] = self.pv[ply + 1][i]
        self.pv_length[ply] = length + 1
