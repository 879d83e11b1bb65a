# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The sliding puzzle's IDA* and pattern-database builder in C (Cython).

`kibitz.games.sliding_pdb` is the interface and holds the pure-Python reference of both
(`solve_python`, `build_pattern_python`); this module repeats them node for node (the tests
compare pv, node count and thresholds, and whole pattern databases, byte for byte).

Conventions (those of `sliding_pdb`): cells row by row, tile t's goal cell is t, the blank
(0) starts in cell 0; a move is the direction the blank moves, tried in the order U, L, R, D
with the inverse of the last move pruned. A node is counted on each entry of the recursive
search, root included, cut-offs (g + h > threshold) included; the goal test comes after the
cut-off test; thresholds start at h(root) and then take the least f that was cut off.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

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


cdef inline int pattern_value(Search *s, int p) noexcept nogil:
    cdef int k = s.pat_k[p], i, j, q, c
    cdef int qs[MAXK]
    cdef int64_t rank = 0
    for i in range(k):
        q = s.pos[s.pat_tiles[p][i]]
        c = q
        for j in range(i):
            if qs[j] < q:
                c -= 1
        qs[i] = q
        rank += c * s.pat_mult[p][i]
    return s.pat_table[p][rank]


cdef inline int heuristic(Search *s) noexcept nogil:
    if s.kind == KIND_PDB:
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
    cdef int old_md, old_lc, old_pdb, p
    cdef int old_a = 0, old_b = 0, la = 0, lb = 0, old_pv = 0
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
        if s.kind == KIND_PDB:
            p = s.tile_pat[t]
            if p >= 0:
                old_pv = s.pat_val[p]
                s.pat_val[p] = pattern_value(s, p)
                s.pdb_sum += s.pat_val[p] - old_pv
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
        if r:
            return 1
        if s.aborted:
            return 0
    return 0


def solve(tiles, int width, int kind, patterns=(), node_limit=None):
    """IDA* from `tiles` (row by row, 0 the blank): (path as move indices 0-3 for U, L, R,
    D, or None; nodes; thresholds). `kind`: 0 Manhattan, 1 Manhattan + linear conflicts,
    2 the additive pattern databases `patterns`, a sequence of (tiles, table) with table a
    buffer of bytes indexed by the pattern rank (see `sliding_pdb.pattern_rank`)."""
    cdef Search *s = <Search *> malloc(sizeof(Search))
    cdef int n = len(tiles), i, j, t, threshold, found
    cdef const uint8_t[::1] view
    cdef list keep = []
    if s == NULL:
        raise MemoryError()
    try:
        if n > MAXN or n % width:
            raise ValueError("board too large or not a rectangle")
        memset(s, 0, sizeof(Search))
        s.width = width
        s.n = n
        s.height = n // width
        s.kind = kind
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
                s.pat_val[i] = pattern_value(s, i)
                s.pdb_sum += s.pat_val[i]
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


cdef inline int64_t full_rank(int *q, int k1, int n) noexcept nogil:
    """The rank of the k1 distinct cells q as a k1-permutation of n cells (last item fastest)."""
    cdef int i, j, c
    cdef int64_t rank = 0
    for i in range(k1):
        c = q[i]
        for j in range(i):
            if q[j] < q[i]:
                c -= 1
        rank = rank * (n - i) + c
    return rank


def build_pattern(int width, int height, ptiles, uint8_t[::1] out):
    """Fills `out` (n!/(n-k)! bytes) with the additive pattern database of the k tiles
    `ptiles`: for each placement of them, the fewest moves of pattern tiles (blank moves
    into other cells cost nothing) that bring them home; breadth-first from the goal over
    (pattern tiles, blank) states, as `sliding_pdb.build_pattern_python`. Returns the
    number of (tiles, blank) states reached."""
    cdef int n = width * height, k = len(ptiles), k1 = k + 1, i, j, b, c, d, occ, w = width
    cdef int q[MAXK + 1]
    cdef int64_t total = 1, total_p = 1, r, head, cur_len, nxt_len, reached = 0, pr
    cdef uint64_t st
    cdef uint8_t *dist
    cdef uint64_t *cur
    cdef uint64_t *nxt
    cdef uint64_t *tmp
    cdef uint8_t m
    cdef int level = 0
    if n > 16 or k > MAXK or k >= n:
        raise ValueError("build_pattern packs cells in 4 bits: at most 16 cells")
    for i in range(k):
        total_p *= n - i
    total = total_p * (n - k)
    if out.shape[0] != total_p:
        raise ValueError(f"out must hold {total_p} bytes")
    dist = <uint8_t *> malloc(total)
    cur = <uint64_t *> malloc(total * sizeof(uint64_t))
    nxt = <uint64_t *> malloc(total * sizeof(uint64_t))
    if dist == NULL or cur == NULL or nxt == NULL:
        free(dist)
        free(cur)
        free(nxt)
        raise MemoryError()
    for i in range(k):
        q[i] = ptiles[i]
    q[k] = 0
    with nogil:
        memset(dist, 255, total)
        st = 0
        for i in range(k1):
            st |= (<uint64_t> q[i]) << (4 * i)
        dist[full_rank(q, k1, n)] = 0
        cur[0] = st
        cur_len = 1
        while cur_len > 0:
            nxt_len = 0
            head = 0
            while head < cur_len:
                st = cur[head]
                head += 1
                for i in range(k1):
                    q[i] = (st >> (4 * i)) & 15
                if dist[full_rank(q, k1, n)] != level:
                    continue  # stale: reached later by a cheaper path
                reached += 1
                b = q[k]
                for d in range(4):
                    c = neighbour(b, d, w, n)
                    if c < 0:
                        continue
                    occ = -1
                    for j in range(k):
                        if q[j] == c:
                            occ = j
                    q[k] = c
                    if occ >= 0:
                        q[occ] = b
                    r = full_rank(q, k1, n)
                    if occ < 0:
                        if dist[r] > level:
                            dist[r] = level
                            st = 0
                            for j in range(k1):
                                st |= (<uint64_t> q[j]) << (4 * j)
                            cur[cur_len] = st
                            cur_len += 1
                    elif dist[r] == 255:
                        dist[r] = level + 1
                        st = 0
                        for j in range(k1):
                            st |= (<uint64_t> q[j]) << (4 * j)
                        nxt[nxt_len] = st
                        nxt_len += 1
                    if occ >= 0:
                        q[occ] = c
                    q[k] = b
            tmp = cur
            cur = nxt
            nxt = tmp
            cur_len = nxt_len
            level += 1
        for pr in range(total_p):
            m = 255
            for j in range(n - k):
                if dist[pr * (n - k) + j] < m:
                    m = dist[pr * (n - k) + j]
            out[pr] = m
    free(dist)
    free(cur)
    free(nxt)
    return reached
