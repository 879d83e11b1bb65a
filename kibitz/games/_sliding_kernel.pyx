# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The sliding puzzle's IDA* and pattern-database builder in C (Cython).

`kibitz.games.sliding_pdb` is the interface and holds the pure-Python reference of both
(`solve_python`, `build_pattern_python`); this module repeats them node for node (the tests
compare pv, node count and thresholds, and whole pattern databases, byte for byte). The
search's pattern databases may be looked up with their reflection about the main diagonal
(`sliding_pdb.mirror`); the builder scans bitsets level by level instead of keeping queues
(3 bits a state), so that the 15-puzzle's 8-tile and the 24-puzzle's 6-tile patterns build
in about 2 GB and 1 GB.

Conventions (those of `sliding_pdb`): cells row by row, tile t's goal cell is t, the blank
(0) starts in cell 0; a move is the direction the blank moves, tried in the order U, L, R, D
with the inverse of the last move pruned. A node is counted on each entry of the recursive
search, root included, cut-offs (g + h > threshold) included; the goal test comes after the
cut-off test; thresholds start at h(root) and then take the least f that was cut off.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

cdef enum:
    MAXN = 36   # cells (6x6)
    MAXP = 8    # patterns in a partition
    MAXK = 8    # tiles in a pattern
    MAXDEPTH = 1024
    INF = 1 << 30

cdef int KIND_MANHATTAN = 0
cdef int KIND_LINEAR = 1
cdef int KIND_PDB = 2

cdef struct Search:
    int width
    int height
    int n
    int kind
    int board[MAXN]
    int pos[MAXN]
    int md[MAXN][MAXN]
    int md_sum
    int lc[2 * MAXN]
    int lc_sum
    int npat
    int pat_k[MAXP]
    int pat_tiles[MAXP][MAXK]
    int64_t pat_mult[MAXP][MAXK]
    const uint8_t *pat_table[MAXP]
    int pat_val[MAXP]
    int tile_pat[MAXN]
    int pdb_sum
    int reflect           # also look up the board mirrored about the main diagonal
    int mirror[MAXN]      # the cell (and the tile) mirroring each cell (each tile)
    int rpos[MAXN]        # the mirrored board's tile positions: mirror[pos[mirror[t]]]
    int rpat_val[MAXP]
    int rpdb_sum
    int64_t nodes
    int64_t limit
    int next_t
    int aborted
    int length
    int path[MAXDEPTH]

# Moves U, L, R, D are 0, 1, 2, 3: 3 - d undoes d.


cdef inline int line_conflict(Search *s, int line) noexcept nogil:
    """2 x (tiles of the line whose goal is in the line - longest increasing run of their
    goal coordinates, in the order they stand): each tile outside that run must leave the
    line and come back (Hansson, Mayer & Yung's linear conflicts, the exact minimum)."""
    cdef int goals[MAXN]
    cdef int best[MAXN]
    cdef int m = 0, i, j, t, cell, lis = 0
    cdef int w = s.width
    if line < s.height:  # a row
        for i in range(w):
            t = s.board[line * w + i]
            if t != 0 and t // w == line:
                goals[m] = t % w
                m += 1
    else:  # a column
        for i in range(s.height):
            cell = i * w + (line - s.height)
            t = s.board[cell]
            if t != 0 and t % w == line - s.height:
                goals[m] = t // w
                m += 1
    if m < 2:
        return 0
    for i in range(m):
        best[i] = 1
        for j in range(i):
            if goals[j] < goals[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
        if best[i] > lis:
            lis = best[i]
    return 2 * (m - lis)


cdef inline int pattern_value(Search *s, int p, int *pos) noexcept nogil:
    """Pattern p's table entry for the tile positions `pos` (the board's or its mirror's)."""
    cdef int k = s.pat_k[p], i, j, q, c
    cdef int qs[MAXK]
    cdef int64_t rank = 0
    for i in range(k):
        q = pos[s.pat_tiles[p][i]]
        c = q
        for j in range(i):
            if qs[j] < q:
                c -= 1
        qs[i] = q
        rank += c * s.pat_mult[p][i]
    return s.pat_table[p][rank]


cdef inline int heuristic(Search *s) noexcept nogil:
    if s.kind == KIND_PDB:
        if s.reflect and s.rpdb_sum > s.pdb_sum:
            return s.rpdb_sum
        return s.pdb_sum
    if s.kind == KIND_LINEAR:
        return s.md_sum + s.lc_sum
    return s.md_sum


cdef int is_goal(Search *s) noexcept nogil:
    cdef int i
    for i in range(s.n):
        if s.board[i] != i:
            return 0
    return 1


cdef inline int neighbour(int b, int d, int w, int n) noexcept nogil:
    """The cell the blank at `b` moves to by move `d` (0 U, 1 L, 2 R, 3 D) on a board `w`
    wide of `n` cells; -1 off the board."""
    if d == 0:
        return b - w if b >= w else -1
    if d == 1:
        return b - 1 if b % w else -1
    if d == 2:
        return b + 1 if b % w != w - 1 else -1
    return b + w if b + w < n else -1


cdef int dfs(Search *s, int g, int threshold, int last) noexcept nogil:
    cdef int h, f, d, b, c, t, r, w = s.width
    cdef int old_md, old_lc, old_pdb, old_rpdb, p, rp, u = 0
    cdef int old_a = 0, old_b = 0, la = 0, lb = 0, old_pv = 0, old_rpv = 0
    s.nodes += 1
    if s.limit >= 0 and s.nodes >= s.limit:  # the engine's poll: stop at exactly N nodes
        s.aborted = 1
        return 0
    h = heuristic(s)
    f = g + h
    if f > threshold:
        if f < s.next_t:
            s.next_t = f
        return 0
    if h == 0 and is_goal(s):
        s.length = g
        return 1
    if g >= MAXDEPTH:
        s.aborted = 1
        return 0
    b = s.pos[0]
    for d in range(4):
        if d == 3 - last:
            continue
        c = neighbour(b, d, w, s.n)
        if c < 0:
            continue
        t = s.board[c]
        # make the move: tile t from c to b, the blank from b to c
        s.board[b] = t
        s.board[c] = 0
        s.pos[t] = b
        s.pos[0] = c
        old_md = s.md_sum
        old_lc = s.lc_sum
        old_pdb = s.pdb_sum
        old_rpdb = s.rpdb_sum
        s.md_sum += s.md[t][b] - s.md[t][c]
        if s.kind == KIND_LINEAR:
            if d == 0 or d == 3:  # vertical: the rows of b and c change
                la = b // w
                lb = c // w
            else:  # horizontal: the columns of b and c change
                la = s.height + b % w
                lb = s.height + c % w
            old_a = s.lc[la]
            old_b = s.lc[lb]
            s.lc[la] = line_conflict(s, la)
            s.lc[lb] = line_conflict(s, lb)
            s.lc_sum += s.lc[la] - old_a + s.lc[lb] - old_b
        p = -1
        rp = -1
        if s.kind == KIND_PDB:
            p = s.tile_pat[t]
            if p >= 0:
                old_pv = s.pat_val[p]
                s.pat_val[p] = pattern_value(s, p, s.pos)
                s.pdb_sum += s.pat_val[p] - old_pv
            if s.reflect:  # in the mirror, tile mirror[t] moves to the cell mirror[b]
                u = s.mirror[t]
                s.rpos[u] = s.mirror[b]
                rp = s.tile_pat[u]
                if rp >= 0:
                    old_rpv = s.rpat_val[rp]
                    s.rpat_val[rp] = pattern_value(s, rp, s.rpos)
                    s.rpdb_sum += s.rpat_val[rp] - old_rpv
        s.path[g] = d
        r = dfs(s, g + 1, threshold, d)
        # unmake
        s.board[c] = t
        s.board[b] = 0
        s.pos[t] = c
        s.pos[0] = b
        s.md_sum = old_md
        if s.kind == KIND_LINEAR:
            s.lc[la] = old_a
            s.lc[lb] = old_b
            s.lc_sum = old_lc
        if p >= 0:
            s.pat_val[p] = old_pv
            s.pdb_sum = old_pdb
        if s.reflect:
            s.rpos[u] = s.mirror[c]
            if rp >= 0:
                s.rpat_val[rp] = old_rpv
                s.rpdb_sum = old_rpdb
        if r:
            return 1
        if s.aborted:
            return 0
    return 0


def solve(tiles, int width, int kind, patterns=(), node_limit=None, bint reflect=False):
    """IDA* from `tiles` (row by row, 0 the blank): (path as move indices 0-3 for U, L, R,
    D, or None; nodes; thresholds). `kind`: 0 Manhattan, 1 Manhattan + linear conflicts,
    2 the additive pattern databases `patterns`, a sequence of (tiles, table) with table a
    buffer of bytes indexed by the pattern rank (see `sliding_pdb.pattern_rank`);
    `reflect` (square boards): the larger of their sum over the board and over its mirror
    about the main diagonal (`sliding_pdb.mirror`)."""
    cdef Search *s = <Search *> malloc(sizeof(Search))
    cdef int n = len(tiles), i, j, t, threshold, found
    cdef const uint8_t[::1] view
    cdef list keep = []
    if s == NULL:
        raise MemoryError()
    try:
        if n > MAXN or n % width:
            raise ValueError("board too large or not a rectangle")
        if reflect and n != width * width:
            raise ValueError("reflection needs a square board")
        memset(s, 0, sizeof(Search))
        s.width = width
        s.n = n
        s.height = n // width
        s.kind = kind
        s.reflect = reflect and kind == KIND_PDB
        s.limit = -1 if node_limit is None else node_limit
        for i in range(n):
            t = tiles[i]
            s.board[i] = t
            s.pos[t] = i
        for t in range(n):
            s.tile_pat[t] = -1
            for i in range(n):
                s.md[t][i] = 0 if t == 0 else (
                    abs(i // width - t // width) + abs(i % width - t % width))
        for i in range(n):
            s.md_sum += s.md[s.board[i]][i]
        for i in range(s.height + width):
            s.lc[i] = line_conflict(s, i)
            s.lc_sum += s.lc[i]
        if kind == KIND_PDB:
            if len(patterns) > MAXP:
                raise ValueError("too many patterns")
            s.npat = len(patterns)
            for i, (ptiles, table) in enumerate(patterns):
                if len(ptiles) > MAXK:
                    raise ValueError("pattern too large")
                view = table
                keep.append(view)
                s.pat_table[i] = &view[0]
                s.pat_k[i] = len(ptiles)
                for j, t in enumerate(ptiles):
                    s.pat_tiles[i][j] = t
                    s.tile_pat[t] = i
                for j in range(len(ptiles)):
                    s.pat_mult[i][j] = 1
                    for t in range(j + 1, len(ptiles)):
                        s.pat_mult[i][j] *= n - t
                s.pat_val[i] = pattern_value(s, i, s.pos)
                s.pdb_sum += s.pat_val[i]
            if s.reflect:
                for i in range(n):
                    s.mirror[i] = i % width * width + i // width
                for t in range(n):
                    s.rpos[t] = s.mirror[s.pos[s.mirror[t]]]
                for i in range(s.npat):
                    s.rpat_val[i] = pattern_value(s, i, s.rpos)
                    s.rpdb_sum += s.rpat_val[i]
        threshold = heuristic(s)
        thresholds = []
        while True:
            thresholds.append(threshold)
            s.next_t = INF
            with nogil:
                found = dfs(s, 0, threshold, -1)
            if found:
                return [s.path[i] for i in range(s.length)], s.nodes, thresholds
            if s.aborted or s.next_t == INF:
                return None, s.nodes, thresholds
            threshold = s.next_t
    finally:
        free(s)


# The pattern-database builder. A state is (the pattern tiles' cells, the blank's cell); its
# index is placement * (n - k) + the blank's rank among the n - k cells the pattern leaves
# free, so the n - k states of one placement are consecutive bits of a bitset. Moves of the
# blank through free cells cost nothing: the states of a placement fall into regions (the
# connected parts of its free cells) reached all at once, so the builder marks a whole region
# whenever it reaches one of its states. Three bitsets of a bit per state (visited, this
# level's frontier, the next level's) and the table itself are all the memory it takes.

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef struct Builder:
    int width
    int n
    int k
    int free_cells        # n - k: the states (blank cells) of one placement
    int64_t mult[MAXK]    # the rank's digit weights: mult[i] = (n-i-1)! / (n-k)!
    uint64_t board        # a bit per cell
    uint64_t adjacent[MAXN]
    uint64_t not_first    # cells not in the first column
    uint64_t not_last     # cells not in the last column
    uint8_t *visited
    uint8_t *frontier
    uint8_t *following
    uint8_t *out
    int64_t placements
    int64_t states        # states reached by the level being built
    int64_t new_entries   # placements first reached at that level


cdef inline uint64_t load_bits(const uint8_t *bits, int64_t pos, int count) noexcept nogil:
    """`count` (at most 57) bits of the bitset `bits` from bit `pos` (little-endian words)."""
    cdef uint64_t word
    memcpy(&word, bits + (pos >> 3), 8)
    return (word >> (pos & 7)) & ((<uint64_t> 1 << count) - 1)


cdef inline void or_bits(uint8_t *bits, int64_t pos, uint64_t mask) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, bits + (pos >> 3), 8)
    word |= mask << (pos & 7)
    memcpy(bits + (pos >> 3), &word, 8)


cdef inline void clear_bits(uint8_t *bits, int64_t pos, uint64_t mask) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, bits + (pos >> 3), 8)
    word &= ~(mask << (pos & 7))
    memcpy(bits + (pos >> 3), &word, 8)


cdef inline int64_t placement_rank(Builder *b, int *q) noexcept nogil:
    """`sliding_pdb.pattern_rank` of the cells q[0..k-1]."""
    cdef int64_t rank = 0
    cdef uint64_t below = 0
    cdef int i
    for i in range(b.k):
        rank += (q[i] - __builtin_popcountll(below & ((<uint64_t> 1 << q[i]) - 1))) * b.mult[i]
        below |= <uint64_t> 1 << q[i]
    return rank


cdef inline uint64_t region(Builder *b, uint64_t seed, uint64_t empty) noexcept nogil:
    """The cells of `empty` connected to `seed` through `empty`."""
    cdef uint64_t grown
    while True:
        grown = seed | ((seed << 1) & b.not_first) | ((seed >> 1) & b.not_last)
        grown |= (seed << b.width) | (seed >> b.width)
        grown &= empty
        if grown == seed:
            return seed
        seed = grown


cdef inline uint64_t gather(uint64_t cells, uint64_t empty) noexcept nogil:
    """The bits of `cells` (a subset of `empty`) at the ranks of their cells within `empty`."""
    cdef uint64_t out = 0, low
    cdef int i = 0
    while empty:
        low = empty & (~empty + 1)
        if cells & low:
            out |= <uint64_t> 1 << i
        empty ^= low
        i += 1
    return out


cdef inline uint64_t scatter(uint64_t ranks, uint64_t empty) noexcept nogil:
    """The cells of `empty` whose ranks within `empty` are the bits of `ranks`."""
    cdef uint64_t out = 0, low
    cdef int i = 0
    while empty:
        low = empty & (~empty + 1)
        if (ranks >> i) & 1:
            out |= low
        empty ^= low
        i += 1
    return out


cdef void reach(Builder *b, int64_t placement, uint64_t cells, uint64_t empty, int level) noexcept nogil:
    """Marks the region `cells` (within the `empty` cells) of `placement` reached at `level`."""
    cdef uint64_t bits = gather(cells, empty)
    cdef int64_t pos = placement * b.free_cells
    or_bits(b.visited, pos, bits)
    or_bits(b.following, pos, bits)
    b.states += __builtin_popcountll(bits)
    if b.out[placement] == 255:
        b.out[placement] = level
        b.new_entries += 1


cdef void expand(Builder *b, int64_t placement, uint64_t frontier, int level) noexcept nogil:
    """Every move of a pattern tile from the frontier's states of `placement` (whole
    regions): the tile moves into a frontier cell next to it, the blank into its cell; the
    child's region is reached at `level` + 1 unless visited."""
    cdef int q[MAXK]
    cdef int i, j, cell, origin, target
    cdef int64_t rest = placement, child
    cdef uint64_t occupied = 0, empty, cells, moves, child_occupied, low
    for i in range(b.k):  # unrank: digit i picks the digit-th cell not taken before it
        j = <int> (rest // b.mult[i])
        rest -= j * b.mult[i]
        empty = b.board & ~occupied
        while j:
            empty &= empty - 1
            j -= 1
        cell = __builtin_ctzll(empty)
        q[i] = cell
        occupied |= <uint64_t> 1 << cell
    empty = b.board & ~occupied
    cells = scatter(frontier, empty)
    for i in range(b.k):
        origin = q[i]
        moves = b.adjacent[origin] & cells
        while moves:
            target = __builtin_ctzll(moves)
            moves &= moves - 1
            q[i] = target
            child = placement_rank(b, q)
            child_occupied = occupied ^ (<uint64_t> 1 << origin) ^ (<uint64_t> 1 << target)
            low = (<uint64_t> 1 << origin) - 1
            if not load_bits(
                b.visited,
                child * b.free_cells + origin - __builtin_popcountll(child_occupied & low),
                1,
            ):
                empty = b.board & ~child_occupied
                reach(b, child, region(b, <uint64_t> 1 << origin, empty), empty, level + 1)
        q[i] = origin


cdef void build_level(Builder *b, int level) noexcept nogil:
    """Expands every state of the frontier (clearing it) into the following level's."""
    cdef int64_t total = b.placements * b.free_cells, pos = 0, placement
    cdef uint64_t word, frontier
    while pos < total:
        memcpy(&word, b.frontier + ((pos >> 6) << 3), 8)
        word >>= pos & 63
        if word == 0:
            pos = ((pos >> 6) + 1) << 6
            continue
        pos += __builtin_ctzll(word)
        if pos >= total:
            break
        placement = pos // b.free_cells
        frontier = load_bits(b.frontier, placement * b.free_cells, b.free_cells)
        expand(b, placement, frontier, level)
        clear_bits(b.frontier, placement * b.free_cells, frontier)
        pos = (placement + 1) * b.free_cells


def build_pattern(int width, int height, ptiles, uint8_t[::1] out, progress=None):
    """Fills `out` (n!/(n-k)! bytes) with the additive pattern database of the k tiles
    `ptiles`: for each placement of them, the fewest moves of pattern tiles (blank moves
    into other cells cost nothing) that bring them home; the table of
    `sliding_pdb.build_pattern_python`, byte for byte. Breadth-first from the goal over
    (pattern tiles, blank) states, level by level over bitsets (no queues): about 3 bits a
    state and the table, 2.1 GB for an 8-tile pattern of the 15-puzzle. `progress`, if
    given, is called after each level with (level, states reached at it, table entries
    first reached at it). Returns the number of states reached."""
    cdef int n = width * height, k = len(ptiles), i, level = 0, cell
    cdef int q[MAXK]
    cdef Builder b
    cdef int64_t nbytes, reached = 0, goal
    cdef uint8_t *swap
    cdef uint64_t occupied = 0, empty
    if n > MAXN or k > MAXK or k >= n or k < 1:
        raise ValueError(f"at most {MAXN} cells and {MAXK} pattern tiles, fewer than the cells")
    memset(&b, 0, sizeof(Builder))
    b.width, b.n, b.k, b.free_cells = width, n, k, n - k
    b.placements = 1
    for i in range(k):
        b.placements *= n - i
    for i in range(k):
        b.mult[i] = b.placements
        for cell in range(i + 1):
            b.mult[i] //= n - cell
    if out.shape[0] != b.placements:
        raise ValueError(f"out must hold {b.placements} bytes")
    for cell in range(n):
        b.board |= <uint64_t> 1 << cell
        if cell % width:
            b.not_first |= <uint64_t> 1 << cell
        if cell % width != width - 1:
            b.not_last |= <uint64_t> 1 << cell
        for i in range(4):
            if neighbour(cell, i, width, n) >= 0:
                b.adjacent[cell] |= <uint64_t> 1 << neighbour(cell, i, width, n)
    for i in range(k):
        q[i] = ptiles[i]
        if not 0 < q[i] < n or occupied >> q[i] & 1:
            raise ValueError(f"bad pattern {tuple(ptiles)}")
        occupied |= <uint64_t> 1 << q[i]
    nbytes = (b.placements * b.free_cells + 7) // 8 + 16  # whole words, and room to read 8
    b.visited = <uint8_t *> calloc(nbytes, 1)
    b.frontier = <uint8_t *> calloc(nbytes, 1)
    b.following = <uint8_t *> calloc(nbytes, 1)
    b.out = &out[0]
    try:
        if b.visited == NULL or b.frontier == NULL or b.following == NULL:
            raise MemoryError()
        memset(b.out, 255, b.placements)
        goal = placement_rank(&b, q)
        empty = b.board & ~occupied
        reach(&b, goal, region(&b, 1, empty), empty, 0)
        while b.states:
            reached += b.states
            if progress is not None:
                progress(level, b.states, b.new_entries)
            swap = b.frontier
            b.frontier = b.following
            b.following = swap
            b.states = b.new_entries = 0
            with nogil:
                build_level(&b, level)
            level += 1
        return reached
    finally:
        free(b.visited)
        free(b.frontier)
        free(b.following)
