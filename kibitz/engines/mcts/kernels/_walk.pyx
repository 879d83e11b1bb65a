# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled tree walk of `mcts`: `simulation.Simulations` (UCT, with or without RAVE,
random playouts, the MCTS-solver and the game's solver hooks) in C, simulation for
simulation.

`Walk` repeats `Simulations.run` on `KernelNode`s, the compiled `tree.Node` (the same
attributes, so that the engine's reporting, `reuse.py` and the tests read either tree);
the positions are a `Board`'s bitboards (Connect Four, Hex without the swap rule), which
repeat the games' `play`, legal moves, solver hooks and playouts exactly, drawing the same
random numbers from the same `random.Random`. Every sum is made in the order the Python
search makes it, so the trees are equal node for node (tests/engines/test_mcts_kernel.py).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport PyObject
from libc.math cimport INFINITY, log, sqrt
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from kibitz.games.connect4_bits cimport has_four, winning_cells

from kibitz.engines.mcts import policies as _policies
from kibitz.engines.mcts import tree as _tree
from kibitz.games import connect4 as _connect4
from kibitz.games import hex as _hex


cdef extern int __builtin_popcountll(unsigned long long) nogil
cdef extern int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    NO_PLAYER = -2  # simulation.NO_PLAYER
    UNEXPANDED = -3  # KernelNode.cplayer before expansion (Node.player None)
    NO_MOVE = -1000  # KernelNode.cmove of the root's move None
    MAX_WORDS = 6  # Hex 19x19 takes 380 bits
    EDGE = 381  # `HexBoard.bridge_playout`: the cells past the board standing for the edges

cdef long long NODE_BYTES = _tree.NODE_BYTES
cdef long long MOVE_BYTES = _tree.MOVE_BYTES
cdef long long AMAF_ENTRY_BYTES = _tree.AMAF_ENTRY_BYTES
cdef double UNTRIED_FIRST = _policies.UNTRIED_FIRST


# -- the tree ---------------------------------------------------------------------------------


cdef class KernelNode:
    """`tree.Node` for the compiled walk: the same attributes and methods; RAVE's
    all-moves-as-first entries are C arrays by move (`amaf` reads them as Node's dict)."""

    cdef object _move
    cdef int cmove
    cdef int cplayer
    cdef public int mover
    cdef public object prior
    cdef public list children
    cdef public object untried
    cdef public object probabilities
    cdef public object priors
    cdef public object totals
    cdef public long long visits
    cdef public double total
    cdef public long long wins
    cdef public long long draws
    cdef public int pessimistic
    cdef public int optimistic
    cdef public int plies
    cdef bint rave  # Node.amaf is not None
    cdef int space  # moves 0 .. space - 1 have entries
    cdef int entries
    cdef int *amaf_visits
    cdef double *amaf_total

    def __cinit__(self):
        self.cmove = NO_MOVE
        self.cplayer = UNEXPANDED
        self.children = []
        self.pessimistic = -1
        self.optimistic = 1

    def __init__(self, move=None, int mover=NO_PLAYER, prior=None):
        self.move = move
        self.mover = mover
        self.prior = prior

    def __dealloc__(self):
        PyMem_Free(self.amaf_visits)
        PyMem_Free(self.amaf_total)

    @property
    def move(self):
        return self._move

    @move.setter
    def move(self, value):
        self._move = value
        self.cmove = NO_MOVE if value is None else value

    @property
    def player(self):
        """The player to move here, once expanded."""
        return None if self.cplayer == UNEXPANDED else self.cplayer

    @property
    def amaf(self):
        """RAVE: per move, [playouts, total return] (None without RAVE), as `Node.amaf`."""
        if not self.rave:
            return None
        return {
            move: [self.amaf_visits[move], self.amaf_total[move]]
            for move in range(self.space if self.amaf_visits != NULL else 0)
            if self.amaf_visits[move]
        }

    @property
    def proven(self):
        """The mover's proven result (+1, 0, -1), or None."""
        return self.pessimistic if self.pessimistic == self.optimistic else None

    def prove(self, int result, int plies):
        self.pessimistic = self.optimistic = result
        self.plies = plies

    @property
    def mean(self):
        """The mover's mean return (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    def child(self, move):
        for child in self.children:
            if child.move == move:
                return child
        return None

    def walk(self):
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)

    cdef inline bint has_entry(self, int move) noexcept:
        return self.amaf_visits != NULL and self.amaf_visits[move] != 0

    cdef int add_entry(self, int move, double value) except -1:
        if self.amaf_visits == NULL:
            self.amaf_visits = <int *> PyMem_Malloc(self.space * sizeof(int))
            self.amaf_total = <double *> PyMem_Malloc(self.space * sizeof(double))
            if self.amaf_visits == NULL or self.amaf_total == NULL:
                raise MemoryError()
            memset(self.amaf_visits, 0, self.space * sizeof(int))
        self.amaf_visits[move] = 1
        self.amaf_total[move] = value
        self.entries += 1
        return 0


cdef inline KernelNode new_node(object move, int mover):
    cdef KernelNode node = KernelNode.__new__(KernelNode)
    node._move = move
    node.cmove = move
    node.mover = mover
    return node


cdef long long node_bytes(KernelNode node):
    """`tree.node_bytes` (two players: no totals)."""
    cdef long long listed = 0
    if node.untried is not None:
        listed = len(node.untried) + len(node.children)
    return NODE_BYTES + MOVE_BYTES * listed + AMAF_ENTRY_BYTES * node.entries


# -- positions --------------------------------------------------------------------------------


cdef class Board:
    """A position the walk plays on: a game's rules on bitboards, from the search's root
    position (`reset` goes back to it). Moves are small ints."""

    cdef int space
    """Moves are 0 .. space - 1."""
    cdef int length
    """At most this many moves from the root to the end of the game."""
    cdef public bint patterns
    """Playouts that answer the game's local patterns (`Settings.patterns`; Hex)."""

    cdef void reset(self) noexcept:
        pass

    cdef void play(self, int move) noexcept:
        pass

    cdef bint terminal(self) noexcept:
        return True

    cdef double value(self) noexcept:
        """Player 0's return at the end (the other's is its opposite)."""
        return 0.0

    cdef int to_move(self) noexcept:
        return 0

    cdef list legal(self):
        """`legal_moves()` (the position is not over)."""
        return []

    cdef list decisive(self):
        """`Simulations._decisive_moves`: `winning_moves()[:1]`, else `non_losing_moves()`,
        else `legal_moves()`."""
        return []

    cdef double playout(self, object rng, int *players, int *moves, int *count) except? -9.0:
        """The game's `playout(rng, record)`: player 0's return; with `players`, each move
        (and who made it) is appended to `moves` at `count`. The position is left as it
        was."""
        return 0.0


# Connect Four: connect4.py's bitboards (current = the side to move's stones, mask = all)

cdef int C4_WIDTH = 7
cdef int C4_CELLS = 42
cdef uint64_t C4_BOTTOM[7]
cdef uint64_t C4_TOP[7]
cdef uint64_t C4_COLUMN[7]
cdef int C4_CENTRE_FIRST[7]
cdef uint64_t C4_BOTTOM_ROW = 0
cdef uint64_t C4_BOARD = 0


def _init_connect4() -> None:
    global C4_BOTTOM_ROW, C4_BOARD
    for col in range(C4_WIDTH):
        C4_BOTTOM[col] = _connect4._BOTTOM[col]
        C4_TOP[col] = _connect4._TOP[col]
        C4_COLUMN[col] = _connect4._COLUMN[col]
        C4_CENTRE_FIRST[col] = _connect4.CENTRE_FIRST[col]
    C4_BOTTOM_ROW = _connect4._BOTTOM_ROW
    C4_BOARD = _connect4._BOARD


_init_connect4()


cdef class Connect4Board(Board):
    """`ConnectFour`."""

    cdef uint64_t current, mask, root_current, root_mask
    cdef int moves, root_moves
    cdef bint won

    def __init__(self, state):
        self.root_current, self.root_mask = state.bitboards()
        self.root_moves = state.moves_played()
        self.space = C4_WIDTH
        self.length = C4_CELLS - self.root_moves
        self.reset()

    cdef void reset(self) noexcept:
        self.current = self.root_current
        self.mask = self.root_mask
        self.moves = self.root_moves
        self.won = False

    cdef void play(self, int col) noexcept:
        cdef uint64_t bit = (self.mask + C4_BOTTOM[col]) & C4_COLUMN[col]
        self.won = has_four(self.current | bit)
        self.current ^= self.mask
        self.mask |= bit
        self.moves += 1

    cdef bint terminal(self) noexcept:
        return self.won or self.moves == C4_CELLS

    cdef double value(self) noexcept:
        if not self.won:
            return 0.0
        return -1.0 if self.moves & 1 == 0 else 1.0

    cdef int to_move(self) noexcept:
        return self.moves & 1

    cdef list legal(self):
        return [col for col in range(C4_WIDTH) if not self.mask & C4_TOP[col]]

    cdef list decisive(self):
        cdef uint64_t mask = self.mask
        cdef uint64_t possible = (mask + C4_BOTTOM_ROW) & C4_BOARD
        cdef uint64_t wins = possible & winning_cells(self.current, mask)
        cdef uint64_t threats, forced
        cdef int rank
        if wins:
            for rank in range(C4_WIDTH):
                if wins & C4_COLUMN[C4_CENTRE_FIRST[rank]]:
                    return [C4_CENTRE_FIRST[rank]]
        # ConnectFour.non_losing_moves
        threats = winning_cells(self.current ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return self.legal()
            possible = forced
        return self.by_threats(possible & ~(threats >> 1)) or self.legal()

    cdef list by_threats(self, uint64_t cells):
        """`ConnectFour._by_threats`."""
        cdef int ranked[7]
        cdef int count = 0, rank, col, entry, i
        cdef uint64_t bit
        if not cells & (cells - 1):
            return [__builtin_ctzll(cells) // 7] if cells else []
        for rank in range(C4_WIDTH):
            col = C4_CENTRE_FIRST[rank]
            bit = cells & C4_COLUMN[col]
            if bit:
                entry = __builtin_popcountll(
                    winning_cells(self.current | bit, self.mask)
                ) << 3 | (7 - rank)
                i = count
                while i > 0 and ranked[i - 1] < entry:  # descending
                    ranked[i] = ranked[i - 1]
                    i -= 1
                ranked[i] = entry
                count += 1
        return [C4_CENTRE_FIRST[7 - (ranked[i] & 7)] for i in range(count)]

    cdef double playout(self, object rng, int *players, int *moves, int *count) except? -9.0:
        """`ConnectFour.playout` (as `_playouts.connect4_playout`)."""
        cdef uint64_t current = self.current, mask = self.mask, bit
        cdef int played = self.moves
        cdef int free[7]
        cdef int size = 0, col, index
        draw = rng.random
        for col in range(C4_WIDTH):
            if not mask & C4_TOP[col]:
                free[size] = col
                size += 1
        while played < C4_CELLS:
            index = <int> (<double> draw() * size)
            col = free[index]
            bit = (mask + C4_BOTTOM[col]) & C4_COLUMN[col]
            if players != NULL:
                players[count[0]] = played & 1
                moves[count[0]] = col
                count[0] += 1
            if has_four(current | bit):
                return 1.0 if played & 1 == 0 else -1.0
            current ^= mask
            mask |= bit
            played += 1
            if bit & C4_TOP[col]:
                size -= 1
                free[index] = free[size]
        return 0.0


# Hex: hex.py's bitboards, in words of 64 bits (bit i of the board is bit i % 64 of word i / 64)


cdef inline bint test(const uint64_t *bits, int cell) noexcept:
    return (bits[cell >> 6] >> (cell & 63)) & 1


cdef inline void put(uint64_t *bits, int cell) noexcept:
    bits[cell >> 6] |= (<uint64_t> 1) << (cell & 63)


cdef class HexBoard(Board):
    """`Hex` without the swap rule."""

    cdef int size, stride, words, cells
    cdef int side, root_side, winner
    cdef int last, root_last  # the last move played (-1: none known)
    cdef uint64_t stones[2][MAX_WORDS]
    cdef uint64_t reach[2][MAX_WORDS]
    cdef uint64_t root_stones[2][MAX_WORDS]
    cdef uint64_t root_reach[2][MAX_WORDS]
    cdef uint64_t start[2][MAX_WORDS]
    cdef uint64_t goal[2][MAX_WORDS]
    cdef uint64_t board[MAX_WORDS]
    cdef int offsets[6]
    cdef int centre_first[361]
    cdef int stack[400]
    cdef uint64_t forward[362][MAX_WORDS]  # ordered(): the layers of `_layers`, both ways
    cdef uint64_t backward[362][MAX_WORDS]
    cdef short ring[2][380][6]  # by player and cell, the neighbours in `hex._RING` order
    # (past the board EDGE + player on the player's edge, else EDGE + 2: see `bridge_playout`)

    def __init__(self, state, int size, black, white, geometry):
        cdef int player, word
        self.size = size
        self.stride = size + 1
        self.space = geometry.width
        self.words = (geometry.width + 63) // 64
        self.cells = len(geometry.cells)
        self.length = self.cells
        for index, offset in enumerate((-self.stride, -size, -1, 1, size, self.stride)):
            self.offsets[index] = offset
        for index, cell in enumerate(geometry.centre_first):
            self.centre_first[index] = cell
        mask = (1 << 64) - 1
        for word in range(self.words):
            shift = 64 * word
            self.board[word] = (geometry.board >> shift) & mask
            for player in range(2):
                self.root_stones[player][word] = ((black, white)[player] >> shift) & mask
                self.start[player][word] = (geometry.start[player] >> shift) & mask
                self.goal[player][word] = (geometry.goal[player] >> shift) & mask
        for player in range(2):
            memset(self.root_reach[player], 0, sizeof(self.root_reach[player]))
            self.flood(self.root_reach[player], self.root_stones[player], self.start[player])
        for player in range(2):
            for cell in geometry.cells:
                row, col = divmod(cell, self.stride)
                for index, (dr, dc) in enumerate(_hex._RING):
                    rows_in, cols_in = 0 <= row + dr < size, 0 <= col + dc < size
                    if rows_in and cols_in:
                        self.ring[player][cell][index] = cell + dr * self.stride + dc
                    elif (rows_in, cols_in) == ((False, True), (True, False))[player]:
                        self.ring[player][cell][index] = EDGE + player
                    else:
                        self.ring[player][cell][index] = EDGE + 2
        self.root_side = state.to_move()
        last = state.last_move()
        self.root_last = -1 if last is None or last == _hex.SWAP else last
        self.reset()

    cdef void reset(self) noexcept:
        memcpy(self.stones, self.root_stones, sizeof(self.stones))
        memcpy(self.reach, self.root_reach, sizeof(self.reach))
        self.side = self.root_side
        self.last = self.root_last
        self.winner = -1

    cdef void flood(self, uint64_t *reached, const uint64_t *stones, const uint64_t *seeds) noexcept:
        """Adds to `reached` the stones of `stones` (not in it yet) connected to the stones of
        `stones` in `seeds` (`hex._flood`, cell by cell)."""
        cdef int top = 0, cell, word, next_cell, k
        cdef uint64_t bits
        for word in range(self.words):
            bits = seeds[word] & stones[word] & ~reached[word]
            reached[word] |= bits
            while bits:
                self.stack[top] = 64 * word + __builtin_ctzll(bits)
                top += 1
                bits &= bits - 1
        while top:
            top -= 1
            cell = self.stack[top]
            for k in range(6):
                next_cell = cell + self.offsets[k]
                if 0 <= next_cell < self.space and test(stones, next_cell) and not test(
                    reached, next_cell
                ):
                    put(reached, next_cell)
                    self.stack[top] = next_cell
                    top += 1

    cdef inline bint touches(self, const uint64_t *bits, int cell) noexcept:
        """Whether a neighbour of `cell` is in `bits`."""
        cdef int k, next_cell
        for k in range(6):
            next_cell = cell + self.offsets[k]
            if 0 <= next_cell < self.space and test(bits, next_cell):
                return True
        return False

    cdef inline bint meets(self, const uint64_t *a, const uint64_t *b) noexcept:
        cdef int word
        for word in range(self.words):
            if a[word] & b[word]:
                return True
        return False

    cdef void play(self, int cell) noexcept:
        cdef int side = self.side
        cdef uint64_t seed[MAX_WORDS]
        put(self.stones[side], cell)
        self.side = side ^ 1
        self.last = cell
        if self.touches(self.reach[side], cell) or test(self.start[side], cell):
            memset(seed, 0, sizeof(seed))
            put(seed, cell)
            self.flood(self.reach[side], self.stones[side], seed)
            if self.meets(self.reach[side], self.goal[side]):
                self.winner = side

    cdef bint terminal(self) noexcept:
        return self.winner >= 0

    cdef double value(self) noexcept:
        return 1.0 if self.winner == 0 else -1.0

    cdef int to_move(self) noexcept:
        return self.side

    cdef void empty(self, uint64_t *out) noexcept:
        cdef int word
        for word in range(self.words):
            out[word] = self.board[word] & ~(self.stones[0][word] | self.stones[1][word])

    cdef list cells_of(self, const uint64_t *bits):
        """`hex._cells_of`: ascending."""
        cdef list cells = []
        cdef int word
        cdef uint64_t rest
        for word in range(self.words):
            rest = bits[word]
            while rest:
                cells.append(64 * word + __builtin_ctzll(rest))
                rest &= rest - 1
        return cells

    cdef list legal(self):
        cdef uint64_t empty[MAX_WORDS]
        self.empty(empty)
        return self.cells_of(empty)

    cdef int winning_cells(self, int player, uint64_t *out) noexcept:
        """`Hex._winning_cells` into `out`; how many."""
        cdef uint64_t from_goal[MAX_WORDS]
        cdef uint64_t empty[MAX_WORDS]
        cdef int word, cell, count = 0
        cdef uint64_t rest
        memset(from_goal, 0, sizeof(from_goal))
        self.flood(from_goal, self.stones[player], self.goal[player])
        self.empty(empty)
        for word in range(self.words):
            out[word] = 0
            rest = empty[word]
            while rest:
                cell = 64 * word + __builtin_ctzll(rest)
                rest &= rest - 1
                if (test(self.start[player], cell) or self.touches(self.reach[player], cell)) and (
                    test(self.goal[player], cell) or self.touches(from_goal, cell)
                ):
                    put(out, cell)
                    count += 1
        return count

    cdef list decisive(self):
        cdef uint64_t cells[MAX_WORDS]
        cdef int index, cell, count
        if self.winning_cells(self.side, cells):
            for index in range(self.cells):
                cell = self.centre_first[index]
                if test(cells, cell):
                    return [cell]
        # Hex.non_losing_moves
        count = self.winning_cells(self.side ^ 1, cells)
        if count == 1:
            return self.cells_of(cells)
        if count == 0:
            return self.ordered()
        return self.legal()

    cdef list ordered(self):
        """`hex._cell_order` (`Hex.ordered_moves` without the swap): the empty cells on both
        players' shortest connections, then on either's, then the rest, each group nearest
        the centre first."""
        cdef uint64_t empty[MAX_WORDS]
        cdef uint64_t paths[2][MAX_WORDS]
        cdef uint64_t groups[3][MAX_WORDS]
        cdef int player, word, group, index, cell
        cdef list cells = []
        self.empty(empty)
        for player in range(2):
            self.on_shortest_paths(paths[player], player, empty)
        for word in range(self.words):
            groups[0][word] = paths[0][word] & paths[1][word]
            groups[1][word] = (paths[0][word] | paths[1][word]) ^ groups[0][word]
            groups[2][word] = empty[word] & ~(paths[0][word] | paths[1][word])
        for group in range(3):
            for index in range(self.cells):
                cell = self.centre_first[index]
                if test(groups[group], cell):
                    cells.append(cell)
        return cells

    cdef void on_shortest_paths(self, uint64_t *cells, int player, const uint64_t *empty) noexcept:
        """`hex._on_shortest_paths` of `player`'s stones into `cells`."""
        cdef uint64_t *own = self.stones[player]
        cdef uint64_t reached[MAX_WORDS]
        cdef int forward, backward, index, word
        for word in range(self.words):
            reached[word] = own[word] & self.start[player][word]
            cells[word] = 0
        self.spread_flood(reached, own)
        forward = self.layers(self.forward, reached, own, empty, self.start[player], self.goal[player])
        for word in range(self.words):
            reached[word] = own[word] & self.goal[player][word]
        self.spread_flood(reached, own)
        backward = self.layers(
            self.backward, reached, own, empty, self.goal[player], self.start[player]
        )
        if forward < 0 or backward != forward:  # out of reach (the distances are equal)
            return
        for index in range(forward):
            for word in range(self.words):
                cells[word] |= self.forward[index][word] & self.backward[forward - 1 - index][word]

    cdef int layers(
        self, uint64_t (*layers)[MAX_WORDS], uint64_t *reached, const uint64_t *own,
        const uint64_t *empty, const uint64_t *start, const uint64_t *goal,
    ) noexcept:
        """`hex._layers` into `layers` (`reached` is used up): how many, or -1 for None."""
        cdef uint64_t step[MAX_WORDS]
        cdef uint64_t stones[MAX_WORDS]
        cdef int count = 0, word
        cdef bint any_step
        while not self.meets(reached, goal):
            self.spread(step, reached)
            any_step = False
            for word in range(self.words):
                step[word] = (step[word] | start[word]) & empty[word] & ~reached[word]
                any_step = any_step or step[word] != 0
            if not any_step:
                return -1
            for word in range(self.words):
                layers[count][word] = step[word]
                reached[word] |= step[word]
                stones[word] = own[word] | reached[word]
            count += 1
            self.spread_flood(reached, stones)
        return count

    cdef void spread(self, uint64_t *out, const uint64_t *cells) noexcept:
        """`hex._spread`: `cells` and their neighbours (and bits off the board)."""
        cdef int word, k, shift
        cdef int shifts[3]
        cdef uint64_t value
        shifts[0], shifts[1], shifts[2] = 1, self.size, self.stride
        for word in range(self.words):
            value = cells[word]
            for k in range(3):
                shift = shifts[k]
                value |= cells[word] << shift | cells[word] >> shift
                if word > 0:
                    value |= cells[word - 1] >> (64 - shift)
                if word + 1 < self.words:
                    value |= cells[word + 1] << (64 - shift)
            out[word] = value

    cdef void spread_flood(self, uint64_t *reached, const uint64_t *stones) noexcept:
        """`hex._flood(reached, stones)` in place (`reached` among `stones`)."""
        cdef uint64_t grown[MAX_WORDS]
        cdef int word
        cdef bint changed = True
        while changed:
            self.spread(grown, reached)
            changed = False
            for word in range(self.words):
                grown[word] &= stones[word]
                if grown[word] != reached[word]:
                    changed = True
                reached[word] = grown[word]

    cdef double playout(self, object rng, int *players, int *moves, int *count) except? -9.0:
        """`Hex.playout`: random bits over the empty cells until exactly half of them (the
        larger half) are set or clear, for the side to move; then who joins their edges.
        With `patterns`: `bridge_playout`."""
        cdef uint64_t empty[MAX_WORDS]
        cdef uint64_t mine[MAX_WORDS]
        cdef uint64_t white[MAX_WORDS]
        cdef uint64_t joined[MAX_WORDS]
        cdef const unsigned char *data
        cdef bytes raw
        cdef int word, byte, total = 0, drawn, wanted, side = self.side
        cdef int nbytes = 8 * self.words
        cdef uint64_t bits
        if self.patterns:
            return self.bridge_playout(rng, players, moves, count)
        self.empty(empty)
        for word in range(self.words):
            total += __builtin_popcountll(empty[word])
        wanted = (total + 1) // 2
        getrandbits = rng.getrandbits
        width = self.space
        while True:
            raw = getrandbits(width).to_bytes(nbytes, "little")
            data = raw
            drawn = 0
            for word in range(self.words):
                bits = 0
                for byte in range(8):
                    bits |= (<uint64_t> data[8 * word + byte]) << (8 * byte)
                mine[word] = bits & empty[word]
                drawn += __builtin_popcountll(mine[word])
            if drawn == wanted:
                break
            if drawn == total - wanted:
                for word in range(self.words):
                    mine[word] ^= empty[word]
                break
        if players != NULL:
            self.record_fill(side, mine, empty, players, moves, count)
        for word in range(self.words):
            white[word] = self.stones[1][word] | (mine[word] if side else empty[word] ^ mine[word])
        memset(joined, 0, sizeof(joined))
        self.flood(joined, white, self.start[1])
        return -1.0 if self.meets(joined, self.goal[1]) else 1.0

    cdef double bridge_playout(
        self, object rng, int *players, int *moves, int *count
    ) except? -9.0:
        """`Hex._bridge_playout`: the empty cells shuffled by SplitMix64 from one
        `getrandbits(64)`, played in turn, a bridge intrusion answered in the bridge's other
        cell. The stones are kept as bitboards (for the flood fill at the end) and as a
        colour a cell (0 empty, player + 1; past the board EDGE + player is the player's
        edge in their colour, EDGE + 2 a colour of no one's): the six colours around the
        last move tell at once which bridges it intruded on (`hex._bridges`: carrier k of
        the ring with both neighbours k - 1 and k + 1 the mover's), the first in ring
        order answered."""
        cdef uint64_t own[2][MAX_WORDS]
        cdef uint64_t joined[MAX_WORDS]
        cdef unsigned char colour[EDGE + 3]
        cdef int order[361]
        cdef int total = 0, word, place, pick, swap, step, index, move, player
        cdef int next_place = 0, side = self.side, last = self.last
        cdef uint64_t bits, mixer, mixed = 0
        cdef const short *ring
        cdef unsigned int mine, free, answers
        memcpy(own, self.stones, sizeof(own))
        memset(colour, 0, sizeof(colour))
        colour[EDGE] = 1
        colour[EDGE + 1] = 2
        colour[EDGE + 2] = 3
        for player in range(2):
            for word in range(self.words):
                bits = own[player][word]
                while bits:
                    colour[64 * word + __builtin_ctzll(bits)] = player + 1
                    bits &= bits - 1
        for word in range(self.words):
            bits = self.board[word] & ~(own[0][word] | own[1][word])
            while bits:
                order[total] = 64 * word + __builtin_ctzll(bits)
                total += 1
                bits &= bits - 1
        mixer = rng.getrandbits(64)
        for place in range(total - 1):
            if place & 1 == 0:
                mixer += <uint64_t> 0x9E3779B97F4A7C15
                mixed = (mixer ^ (mixer >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
                mixed = (mixed ^ (mixed >> 27)) * <uint64_t> 0x94D049BB133111EB
                mixed ^= mixed >> 31
                bits = mixed >> 32
            else:
                bits = mixed & 0xFFFFFFFF
            pick = place + <int> ((bits * <uint64_t> (total - place)) >> 32)
            swap = order[place]
            order[place] = order[pick]
            order[pick] = swap
        for step in range(total):
            move = -1
            if last >= 0:
                ring = self.ring[side][last]
                player = side + 1
                mine = 0
                free = 0
                for index in range(6):
                    mine |= (colour[ring[index]] == player) << index
                    free |= (colour[ring[index]] == 0) << index
                answers = free & (mine << 1 | mine >> 5) & (mine >> 1 | mine << 5)
                if answers:
                    move = ring[__builtin_ctzll(answers)]
            if move < 0:
                while colour[order[next_place]]:
                    next_place += 1
                move = order[next_place]
                next_place += 1
            put(own[side], move)
            colour[move] = side + 1
            if players != NULL:
                players[count[0]] = side
                moves[count[0]] = move
                count[0] += 1
            last = move
            side ^= 1
        memset(joined, 0, sizeof(joined))
        self.flood(joined, own[1], self.start[1])
        return -1.0 if self.meets(joined, self.goal[1]) else 1.0

    cdef void record_fill(
        self, int side, const uint64_t *mine, const uint64_t *empty,
        int *players, int *moves, int *count,
    ) noexcept:
        """`hex._record_fill`: `mine` and the rest of `empty` as if played in turn."""
        cdef int first = count[0], second = count[0] + 1, word
        cdef uint64_t rest
        for word in range(self.words):
            rest = mine[word]
            while rest:
                players[first] = side
                moves[first] = 64 * word + __builtin_ctzll(rest)
                rest &= rest - 1
                first += 2
            rest = empty[word] ^ mine[word]
            while rest:
                players[second] = side ^ 1
                moves[second] = 64 * word + __builtin_ctzll(rest)
                rest &= rest - 1
                second += 2
        count[0] = (first if first > second else second) - 1


def board_for(state):
    """The `Board` of `state`'s game at `state`, or None (other games, Hex's swap rule)."""
    if state.name == "connect4":
        return Connect4Board(state)
    if state.name == "hex":
        if state.swap_rule:
            return None
        black, white = state.bitboards()
        size = state.shape()[0]
        return HexBoard(state, size, black, white, _hex._geometry(size))
    return None


# -- the walk ---------------------------------------------------------------------------------


cdef class Walk:
    """`simulation.Simulations` in C for a `Board`: UCT (`policies.UCT`) or UCT with RAVE
    (`policies.RAVE`), random playouts, the solver and its hooks; the same attributes."""

    cdef public KernelNode root
    cdef public dict outcomes
    cdef public long long playouts
    cdef public long long depth_total
    cdef public int max_depth
    cdef public long long nodes
    cdef public long long bytes
    cdef public bint full
    cdef Board board
    cdef object rng
    cdef double exploration, c_squared, fpu
    cdef bint untried_first, solver, hooks
    cdef long long rave, max_bytes
    cdef int space
    cdef PyObject **path
    cdef int *record_players
    cdef int *record_moves
    cdef int *seen  # RAVE's backup: by player and move, whether `later` has it
    cdef int *later  # ... and `later[player]`'s moves, space apart
    cdef int later_count[2]

    def __init__(self, Board board, KernelNode root, settings, rng, root_moves=None):
        """As `Simulations(state, root, settings, rng, root_moves)` with the game's random
        playouts (answering its patterns when `settings.patterns`) and UCT (RAVE when
        `settings.rave`); `board` is the root position."""
        cdef KernelNode node
        self.board = board
        self.root = root
        self.rng = rng
        self.outcomes = {}
        self.exploration = settings.exploration
        self.c_squared = settings.exploration**2
        self.fpu = settings.fpu
        self.untried_first = settings.fpu >= UNTRIED_FIRST
        self.solver = settings.solver
        self.hooks = settings.hooks and self.solver
        self.rave = settings.rave
        board.patterns = settings.patterns
        self.max_bytes = settings.max_bytes
        self.space = board.space
        self.path = <PyObject **> PyMem_Malloc((board.length + 2) * sizeof(PyObject *))
        self.record_players = <int *> PyMem_Malloc((board.length + 1) * sizeof(int))
        self.record_moves = <int *> PyMem_Malloc((board.length + 1) * sizeof(int))
        self.seen = <int *> PyMem_Malloc(2 * board.space * sizeof(int))
        self.later = <int *> PyMem_Malloc(2 * board.space * sizeof(int))
        if (
            self.path == NULL or self.record_players == NULL or self.record_moves == NULL
            or self.seen == NULL or self.later == NULL
        ):
            raise MemoryError()
        memset(self.seen, 0, 2 * board.space * sizeof(int))
        for node in root.walk():
            self.nodes += 1
            self.bytes += node_bytes(node)
        board.reset()
        if root.untried is None and not board.terminal():
            self.expand(root, board.legal() if root_moves is None else list(root_moves))

    def __dealloc__(self):
        PyMem_Free(self.path)
        PyMem_Free(self.record_players)
        PyMem_Free(self.record_moves)
        PyMem_Free(self.seen)
        PyMem_Free(self.later)

    @property
    def steps(self):
        """The simulations run (`poll_steps` counts them)."""
        return self.playouts

    def solved(self):
        return self.root.pessimistic == self.root.optimistic

    def run(self):
        """One simulation: `Simulations.run`."""
        cdef Board board = self.board
        cdef KernelNode root = self.root, node = root, child
        cdef int depth = 0, index, record_count = 0
        cdef bint rave = self.rave != 0
        cdef int *players = self.record_players if rave else NULL
        cdef double result  # player 0's return
        cdef long long added
        board.reset()
        self.path[0] = <PyObject *> node
        while True:
            if node.pessimistic == node.optimistic and node is not root:  # proven
                result = node.pessimistic if node.mover == 0 else -node.pessimistic
                break
            if node.untried is None:
                if board.terminal():
                    result = board.value()
                    if self.solver:
                        node.pessimistic = node.optimistic = sign(
                            result if node.mover != 1 else -result
                        )
                        node.plies = 0
                    break
                if node.visits == 0 or self.full:
                    result = board.playout(
                        self.rng, players, self.record_moves, &record_count
                    )
                    break
                self.expand(node, board.decisive() if self.hooks else board.legal())
            child = self.select(node)
            if child is None:  # the tree is full: evaluate from here
                result = board.playout(self.rng, players, self.record_moves, &record_count)
                break
            if rave:
                self.record_players[record_count] = node.cplayer
                self.record_moves[record_count] = child.cmove
                record_count += 1
            board.play(child.cmove)
            depth += 1
            self.path[depth] = <PyObject *> child
            node = child
        self.playouts += 1
        self.depth_total += depth
        if depth > self.max_depth:
            self.max_depth = depth
        self.back_up(depth, result)
        if rave:
            added = self.back_up_amaf(depth, record_count, result, not self.full)
            self.count(AMAF_ENTRY_BYTES * added)
        if node.pessimistic == node.optimistic and self.solver:
            for index in range(depth - 1, -1, -1):
                if not update_bounds(<KernelNode> self.path[index]):
                    break

    cdef void count(self, long long size) noexcept:
        """`Simulations._count`."""
        self.bytes += size
        if self.bytes >= self.max_bytes:
            self.full = True

    cdef void expand(self, KernelNode node, list moves):
        """`Simulations._expand` (no priors, no chance)."""
        node.cplayer = self.board.to_move()
        node.untried = moves[::-1]
        if self.rave:
            node.rave = True
            node.space = self.space
        self.count(MOVE_BYTES * len(moves))

    cdef KernelNode grow(self, KernelNode node, Py_ssize_t index):
        """`Simulations._try`."""
        cdef list untried = node.untried
        cdef KernelNode child
        if self.full:
            return None
        move = untried[index]
        untried[index] = untried[len(untried) - 1]
        untried.pop()
        child = new_node(move, node.cplayer)
        node.children.append(child)
        self.nodes += 1
        self.count(NODE_BYTES)
        return child

    cdef KernelNode select(self, KernelNode node):
        """`UCT.select`, or `Policy.select` with `RAVE`'s `best_child` and `most_urgent`."""
        cdef list untried = node.untried
        cdef Py_ssize_t left = len(untried), index
        cdef KernelNode best = None, child
        cdef double best_value = -INFINITY, value, urgency, q, beta, weight, log_visits
        cdef double at
        cdef long long n
        cdef int floor = -node.optimistic
        cdef long long rave = self.rave
        if left and self.untried_first:
            return self.grow(node, self.most_urgent(node, &urgency))
        if not rave:
            weight = self.c_squared * log(<double> node.visits) if node.visits > 1 else 0.0
            for child in node.children:
                if child.optimistic > floor:
                    n = child.visits
                    value = child.total / n + sqrt(weight / n)
                    if value > best_value:
                        best, best_value = child, value
        else:
            log_visits = log(<double> node.visits) if node.visits > 1 else 0.0
            for child in node.children:
                if child.optimistic <= floor:
                    continue
                n = child.visits
                q = child.total / n
                if node.has_entry(child.cmove):
                    at = node.amaf_total[child.cmove]
                    beta = sqrt(<double> rave / <double> (3 * n + rave))
                    q = (1 - beta) * q + beta * at / node.amaf_visits[child.cmove]
                value = q + self.exploration * sqrt(log_visits / n)
                if value > best_value:
                    best, best_value = child, value
        if left:
            index = self.most_urgent(node, &urgency)
            if urgency >= best_value:
                return self.grow(node, index)
        return best if best is not None else node.children[0]

    cdef Py_ssize_t most_urgent(self, KernelNode node, double *urgency) except -1:
        """`Policy.most_urgent` (no priors), or `RAVE.most_urgent`: the index in `untried`
        of the move to try next, and its value."""
        cdef list untried = node.untried
        cdef Py_ssize_t last = len(untried) - 1, index, best_index
        cdef double best_value, value
        cdef int move
        if not self.rave or node.entries == 0:
            urgency[0] = self.fpu
            return last
        best_index, best_value = last, -INFINITY
        for index in range(last + 1):
            move = untried[index]
            if node.has_entry(move):
                value = node.amaf_total[move] / node.amaf_visits[move]
            else:
                value = self.fpu
            if value > best_value:
                best_index, best_value = index, value
        urgency[0] = best_value
        return best_index

    cdef void back_up(self, int depth, double result) noexcept:
        """`simulation.back_up` (two players)."""
        cdef KernelNode node
        cdef double value
        cdef int index
        for index in range(depth + 1):
            node = <KernelNode> self.path[index]
            node.visits += 1
            if node.mover >= 0:
                value = result if node.mover == 0 else -result
                node.total += value
                if value > 0:
                    node.wins += 1
                elif value == 0:
                    node.draws += 1

    cdef long long back_up_amaf(self, int depth, int record_count, double result, bint grow) except -1:
        """`simulation._back_up_amaf`: `later[player]` lists each move that player made from
        the node's position on, once."""
        cdef KernelNode node
        cdef int index, position = record_count, mover, move, player, k
        cdef int space = self.space
        cdef long long added = 0
        cdef double value
        cdef int *later
        self.later_count[0] = self.later_count[1] = 0
        for index in range(depth, -1, -1):
            node = <KernelNode> self.path[index]
            while position > index:
                position -= 1
                mover = self.record_players[position]
                move = self.record_moves[position]
                if not self.seen[mover * space + move]:
                    self.seen[mover * space + move] = 1
                    self.later[mover * space + self.later_count[mover]] = move
                    self.later_count[mover] += 1
            if not node.rave:
                continue
            player = node.cplayer
            value = result if player == 0 else -result
            later = self.later + player * space
            for k in range(self.later_count[player]):
                move = later[k]
                if node.has_entry(move):
                    node.amaf_visits[move] += 1
                    node.amaf_total[move] += value
                elif grow:
                    node.add_entry(move, value)
                    added += 1
        for player in range(2):
            for k in range(self.later_count[player]):
                self.seen[player * space + self.later[player * space + k]] = 0
        return added


cdef inline int sign(double value) noexcept:
    return (value > 0) - (value < 0)


cdef bint update_bounds(KernelNode node) noexcept:
    """`tree.update_bounds`."""
    cdef int best_pessimistic = -1, best_optimistic = -1, pessimistic, optimistic
    cdef int result, plies
    cdef bint found = False
    cdef KernelNode child
    if node.untried:
        best_optimistic = 1
    for child in node.children:
        if child.pessimistic > best_pessimistic:
            best_pessimistic = child.pessimistic
        if child.optimistic > best_optimistic:
            best_optimistic = child.optimistic
    pessimistic, optimistic = -best_optimistic, -best_pessimistic
    if pessimistic == node.pessimistic and optimistic == node.optimistic:
        return False
    node.pessimistic, node.optimistic = pessimistic, optimistic
    if pessimistic == optimistic:
        # tree._proof_plies: the shortest win, the longest loss or draw
        result = -pessimistic
        plies = 0
        for child in node.children:
            if child.pessimistic == child.optimistic == result:
                if not found or (child.plies < plies if result == 1 else child.plies > plies):
                    plies = child.plies
                    found = True
        node.plies = 1 + plies
    return True
