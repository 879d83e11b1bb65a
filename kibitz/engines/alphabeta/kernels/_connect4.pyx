# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Connect Four's node search in C: `NodeSearch.search` and `quiesce`, node for node.

The engine (`KernelNodeSearch`) calls `Connect4Search.search` for each root move's subtree in
place of `NodeSearch.search` (the option Kernel). Everything the Python search does per node is done here in
the same order: node counting and polling, terminal values, mate-distance pruning, the
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
    table_lookup,
    table_prefetch,
    table_store,
)

from kibitz.engines.alphabeta import table as _tt
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
cdef int THREAT_VALUE = _rules.THREAT_VALUE
cdef int CAN_WIN_NOW = _rules.CAN_WIN_NOW

cdef uint64_t BOTTOM[WIDTH]
cdef uint64_t COLUMN[WIDTH]
cdef uint64_t BOTTOM_ROW = 0
cdef uint64_t BOARD = 0
cdef int TIEBREAK_COLUMN[8]  # tiebreak (7 - rank in centre-first order) -> column
cdef uint64_t MIRROR_BIT[STRIDE * WIDTH]
cdef int WEIGHTS = len(_rules.WEIGHT_MASKS)
cdef int WEIGHT[16]
cdef uint64_t WEIGHT_CELLS[16]


def _init_tables() -> None:
    global BOTTOM_ROW, BOARD
    cdef int col, row, rank
    for col in range(WIDTH):
        BOTTOM[col] = (<uint64_t> 1) << (STRIDE * col)
        COLUMN[col] = (((<uint64_t> 1) << HEIGHT) - 1) << (STRIDE * col)
        BOTTOM_ROW |= BOTTOM[col]
        BOARD |= COLUMN[col]
        for row in range(STRIDE):
            MIRROR_BIT[STRIDE * col + row] = (<uint64_t> 1) << (STRIDE * (WIDTH - 1 - col) + row)
    for rank, col in enumerate(_rules.CENTRE_FIRST):
        TIEBREAK_COLUMN[7 - rank] = col
    for rank, (weight, cells) in enumerate(_rules.WEIGHT_MASKS):
        WEIGHT[rank] = weight
        WEIGHT_CELLS[rank] = cells


_init_tables()


cdef inline uint64_t line_ends(uint64_t s) noexcept nogil:
    """`connect4._line_ends`: cells completing four in a row with stones `s`."""
    cdef uint64_t r = (s << 1) & (s << 2) & (s << 3)
    cdef uint64_t p = (s << 7) & (s << 14)
    r |= p & ((s << 21) | (s >> 7))
    p = (s >> 7) & (s >> 14)
    r |= p & ((s << 7) | (s >> 21))
    p = (s << 6) & (s << 12)
    r |= p & ((s << 18) | (s >> 6))
    p = (s >> 6) & (s >> 12)
    r |= p & ((s << 6) | (s >> 18))
    p = (s << 8) & (s << 16)
    r |= p & ((s << 24) | (s >> 8))
    p = (s >> 8) & (s >> 16)
    r |= p & ((s << 8) | (s >> 24))
    return r


cdef inline uint64_t winning_cells(uint64_t stones, uint64_t mask) noexcept nogil:
    return line_ends(stones) & (BOARD ^ mask)


cdef inline bint has_four(uint64_t s) noexcept nogil:
    cdef uint64_t m = s & (s >> STRIDE)
    if m & (m >> (2 * STRIDE)):
        return True
    m = s & (s >> HEIGHT)
    if m & (m >> (2 * HEIGHT)):
        return True
    m = s & (s >> (HEIGHT + 2))
    if m & (m >> (2 * (HEIGHT + 2))):
        return True
    m = s & (s >> 1)
    return (m & (m >> 2)) != 0


cdef inline uint64_t mirror(uint64_t bits) noexcept nogil:
    cdef uint64_t out = 0
    cdef int col
    for col in range(WIDTH):
        out |= ((bits >> (STRIDE * col)) & 0x7F) << (STRIDE * (WIDTH - 1 - col))
    return out


cdef inline int weight(uint64_t stones) noexcept nogil:
    cdef int total = 0, i
    for i in range(WEIGHTS):
        total += WEIGHT[i] * popcount(stones & WEIGHT_CELLS[i])
    return total


cdef inline int from_table(int score, int ply) noexcept:
    """`table.from_tt`: a stored node-relative score as seen from the root at `ply`."""
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


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
        return self._search(depth, alpha, beta, ply)

    def line(self, int ply) -> tuple:
        """The principal variation found from `ply` on (as `NodeSearch.pv[ply]`)."""
        return tuple(self.pv[ply][i] for i in range(self.pv_length[ply]))

    # -- the board ---------------------------------------------------------------------------

    cdef inline uint64_t possible(self) noexcept:
        return (self.mask + BOTTOM_ROW) & BOARD

    cdef inline uint64_t drop(self, int col) noexcept:
        """The cell a stone played in column `col` lands on."""
        return (self.mask + BOTTOM[col]) & COLUMN[col]

    cdef inline void play(self, int col) noexcept:
        cdef uint64_t mask = self.mask
        cdef uint64_t bit = self.drop(col)
        self.won = (bit & line_ends(self.current)) != 0
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

    cdef int _search(self, int depth, int alpha, int beta, int ply) except? INT_MIN:
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

        cdef uint64_t key = self.current + self.mask
        cdef uint64_t mirror_key
        cdef bint mirrored = False
        if self.symmetry:
            mirror_key = self.mirror_current + self.mirror_mask
            if mirror_key < key:
                key = mirror_key
                mirrored = True
        cdef Entry* entry = table_lookup(self.table, key)
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

        if depth > 1:
            self.prefetch_children()
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
            value = self.etc_cutoff(moves, count, child, b, next_ply, &move, &proven)
            if value != INT_MIN:
                if not proven:
                    self.horizon += 1
                if mirrored:
                    move = WIDTH - 1 - move
                table_store(self.table, key, PROVEN if proven else depth, value, LOWER, move, ply)
                return value
        for index in range(count):
            move = moves[index]
            self.play(move)
            if index == 0 or not self.pvs:
                value = -self._search(child, -b, -a, next_ply)
            else:
                value = -self._search(child, -a - 1, -a, next_ply)
                if a < value < b:
                    value = -self._search(child, -b, -a, next_ply)
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
        table_store(
            self.table, key, PROVEN if self.horizon == h0 else depth, best, bound, best_move, ply
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

    cdef inline void prefetch_children(self) noexcept:
        """Start loading every child's table slot, so the children's probes find them cached."""
        cdef uint64_t possible = self.possible(), bit
        while possible:
            bit = possible & (~possible + 1)
            possible ^= bit
            table_prefetch(self.table, self.child_key(bit))

    cdef int etc_cutoff(
        self, int* moves, int count, int child_depth, int beta, int child_ply,
        int* move, bint* proven,
    ) noexcept:
        """`NodeSearch.etc_cutoff`: the value >= `beta` one of `moves` is proven to reach by
        its child's table entry (that move and whether it is proven go to `move`, `proven`);
        INT_MIN when no entry proves it."""
        cdef int index, score, col
        cdef Entry* entry
        for index in range(count):
            col = moves[index]
            entry = table_lookup(self.table, self.child_key(self.drop(col)))
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
