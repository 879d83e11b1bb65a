# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess's quiescence search in C: `NodeSearch.quiesce`, `evasions` and `quiesce_moves`
node for node, over the compiled board (`CompiledBoard`, cimported: no Python call a node).

The Python node search (`nodes.py`) stays in charge above the horizon; at depth 0 it calls
`ChessQuiescence.quiesce` (through `kernel.QuiescenceKernelSearch`), which takes the node
search's counters (`nodes`, `next_check`, `horizon`, `seldepth`), searches the captures to
quiet positions in C, and hands the counters and the line it found (`pv[ply]`) back. When
`nodes` reaches `next_check` it calls the node search's `check(ply)`, which may raise (a
stop): the exception unwinds the kernel with the counters handed back and the moves played
below `ply` left on the board, for the root to undo (`Abort.ply`), as in the Python search.
"""

from libc.stdlib cimport free, malloc

from kibitz.games.chess._board cimport MAX_MOVES, WHITE, CompiledBoard

from kibitz.engines.types import MAX_PLY as _MAX_PLY
from kibitz.engines.types import WIN as _WIN
from kibitz.engines.types import WIN_THRESHOLD as _WIN_THRESHOLD

cdef int WIN = _WIN
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

    def __cinit__(self, CompiledBoard board, bint quiescence, bint see, int max_ply):
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
        if ply < 0 or ply > self.max_ply:
            raise ValueError(f"ply must be within 0..{self.max_ply}, got {ply}")
        self.nodes = search.nodes
        self.next_check = search.next_check
        self.horizon = search.horizon
        self.seldepth = search.seldepth
        self.search = search
        cdef int value
        try:
            value = self.node(alpha, beta, ply)
        finally:
            self.search = None
            search.nodes = self.nodes
            search.next_check = self.next_check
            search.horizon = self.horizon
            search.seldepth = self.seldepth
        cdef int* line = &self.pv_moves[ply * self.stride]
        search.pv[ply] = tuple([line[i] for i in range(self.pv_length[ply])])
        return value

    cdef int poll(self, int ply) except -1:
        """The node search's `check(ply)`, with its counters up to date."""
        search = self.search
        search.nodes = self.nodes
        search.horizon = self.horizon
        search.seldepth = self.seldepth
        search.check(ply)
        self.next_check = search.next_check
        return 0

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
        best = board.value()
        if board.turn != WHITE:
            best = -best
        if best > CLAMP:
            best = CLAMP
        elif best < -CLAMP:
            best = -CLAMP
        if best >= beta or ply >= self.max_ply or not self.quiescence:
            return best
        n = board.sorted_noisy(moves)
        if self.see:  # captures that lose material cannot raise the stand-pat
            count = 0
            for i in range(n):
                if board.exchange(moves[i]) >= 0:
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
