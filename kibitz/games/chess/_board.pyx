# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The chess board of `board.py` in C: the same rules, fields and move order, move for move.

`board.py` is the reference (read its docstring for the representation); this class repeats
every method the game and the search call, so that a search on either board visits the same
nodes in the same order. The tests compare both on perft, random games (legal moves in
order, keys, values, noisy moves, repetitions) and whole searches.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from kibitz.games.chess import board as _py

cdef int KNIGHT_STEPS[8]
cdef int KING_STEPS[8]
cdef int BISHOP_STEPS[4]
cdef int ROOK_STEPS[4]
cdef int ON_BOARD[64]
cdef int STEP[239]
cdef int CASTLING_KEPT[128]
cdef uint64_t PIECE_KEYS[16][128]
cdef int PIECE_MG[16][128]
cdef int PIECE_EG[16][128]
cdef int PIECE_PHASE[16]
cdef uint64_t CASTLING_KEYS[16]
cdef uint64_t EP_KEYS[8]
cdef uint64_t TURN_KEY = _py.TURN_KEY
cdef int VICTIM_VALUE[7]
cdef int PROMOTION_ORDER[4]
PROMOTION_ORDER[:] = [QUEEN, KNIGHT, ROOK, BISHOP]  # as `Board.pseudo_moves` lists them
cdef int EXCHANGE_VALUE[7]


def _init_tables() -> None:
    cdef int i, j
    for i in range(8):
        KNIGHT_STEPS[i] = _py.KNIGHT_STEPS[i]
        KING_STEPS[i] = _py.KING_STEPS[i]
        EP_KEYS[i] = _py.EP_KEYS[i]
    for i in range(4):
        BISHOP_STEPS[i] = _py.BISHOP_STEPS[i]
        ROOK_STEPS[i] = _py.ROOK_STEPS[i]
    for i in range(64):
        ON_BOARD[i] = _py.ON_BOARD[i]
    for i in range(239):
        STEP[i] = _py.STEP[i]
    for i in range(128):
        CASTLING_KEPT[i] = _py.CASTLING_KEPT[i]
    for i in range(16):
        PIECE_PHASE[i] = _py.PIECE_PHASE[i]
        CASTLING_KEYS[i] = _py.CASTLING_KEYS[i]
        for j in range(128):
            PIECE_KEYS[i][j] = _py.PIECE_KEYS[i][j]
            PIECE_MG[i][j] = _py.PIECE_MG[i][j]
            PIECE_EG[i][j] = _py.PIECE_EG[i][j]
    for i in range(7):
        VICTIM_VALUE[i] = _py.VICTIM_VALUE[i]
        EXCHANGE_VALUE[i] = _py.EXCHANGE_VALUE[i]


_init_tables()


cdef inline bint off(int square) noexcept nogil:
    return (square & 0x88) != 0


cdef class CompiledBoard:
    """`board.Board` in C (same attributes and methods, read-only fields from Python)."""

    def __cinit__(self):
        self.capacity = 64
        self.saved = <Saved*> malloc(self.capacity * sizeof(Saved))
        self.hist = <uint64_t*> malloc((self.capacity + 1) * sizeof(uint64_t))
        if self.saved == NULL or self.hist == NULL:
            raise MemoryError()
        self.nsaved = 0
        self.cache_valid = False
        self.ep = -1
        self.fullmove = 1
        self._kings[0] = self._kings[1] = -1
        cdef int i
        for i in range(128):
            self.sq[i] = 0

    def __dealloc__(self):
        free(self.saved)
        free(self.hist)

    cdef void grow(self) except *:
        cdef int capacity = 2 * self.capacity
        cdef Saved* saved = <Saved*> realloc(self.saved, capacity * sizeof(Saved))
        if saved == NULL:
            raise MemoryError()
        self.saved = saved
        cdef uint64_t* hist = <uint64_t*> realloc(self.hist, (capacity + 1) * sizeof(uint64_t))
        if hist == NULL:
            raise MemoryError()
        self.hist = hist
        self.capacity = capacity

    # -- Python views ----------------------------------------------------------------------

    @property
    def squares(self) -> list:
        return [self.sq[i] for i in range(128)]

    @property
    def kings(self) -> list:
        return [self._kings[0], self._kings[1]]

    @property
    def history(self) -> list:
        return [self.hist[i] for i in range(self.nsaved + 1)]

    # -- set-up ----------------------------------------------------------------------------

    @classmethod
    def from_fields(cls, pieces, int turn, int castling, int ep, int halfmove, int fullmove):
        cdef CompiledBoard board = cls()
        for square, piece in pieces.items():
            board.sq[square] = piece
            if piece & 7 == KING:
                board._kings[piece >> 3] = square
        board.turn = turn
        board.castling = castling
        board.halfmove = halfmove
        board.fullmove = fullmove
        if ep >= 0 and board.pawn_can_take_on(ep, turn):
            board.ep = ep
        board.key, board.mg, board.eg, board.phase = board._computed_sums()
        board.hist[0] = board.key
        return board

    def _computed_sums(self):
        cdef uint64_t key = 0
        cdef int mg = 0, eg = 0, phase = 0, i, square, piece
        for i in range(64):
            square = ON_BOARD[i]
            piece = self.sq[square]
            if piece:
                key ^= PIECE_KEYS[piece][square]
                mg += PIECE_MG[piece][square]
                eg += PIECE_EG[piece][square]
                phase += PIECE_PHASE[piece]
        key ^= CASTLING_KEYS[self.castling]
        if self.ep >= 0:
            key ^= EP_KEYS[self.ep & 7]
        if self.turn == WHITE:
            key ^= TURN_KEY
        return key, mg, eg, phase

    def copy(self) -> CompiledBoard:
        cdef CompiledBoard board = CompiledBoard()
        while board.capacity < self.capacity:
            board.grow()
        memcpy(board.sq, self.sq, sizeof(self.sq))
        memcpy(board._kings, self._kings, sizeof(self._kings))
        memcpy(board.saved, self.saved, self.nsaved * sizeof(Saved))
        memcpy(board.hist, self.hist, (self.nsaved + 1) * sizeof(uint64_t))
        board.nsaved = self.nsaved
        board.turn, board.castling, board.ep = self.turn, self.castling, self.ep
        board.halfmove, board.fullmove = self.halfmove, self.fullmove
        board.key, board.mg, board.eg, board.phase = self.key, self.mg, self.eg, self.phase
        return board

    cdef bint pawn_can_take_on(self, int target, int turn) noexcept:
        cdef int pawn = 8 * turn + PAWN
        cdef int behind = target - 16 if turn == WHITE else target + 16
        if not off(behind - 1) and self.sq[behind - 1] == pawn:
            return True
        return not off(behind + 1) and self.sq[behind + 1] == pawn

    # -- making moves ----------------------------------------------------------------------

    cpdef void play(self, int move) except *:
        if self.nsaved == self.capacity:
            self.grow()
        cdef int frm = move & 127, to = (move >> 7) & 127, promotion = move >> 14
        cdef int piece = self.sq[frm], captured = self.sq[to], us = self.turn
        cdef uint64_t key = self.key
        cdef int mg = self.mg, eg = self.eg, phase = self.phase
        cdef int castling = self.castling, ep = self.ep
        cdef Saved* saved = &self.saved[self.nsaved]
        saved.move, saved.captured, saved.castling, saved.ep = move, captured, castling, ep
        saved.halfmove, saved.key, saved.mg, saved.eg, saved.phase = (
            self.halfmove, key, mg, eg, phase
        )
        self.nsaved += 1
        key ^= TURN_KEY
        if ep >= 0:
            key ^= EP_KEYS[ep & 7]
        cdef int halfmove = self.halfmove + 1
        if captured:
            key ^= PIECE_KEYS[captured][to]
            mg -= PIECE_MG[captured][to]
            eg -= PIECE_EG[captured][to]
            phase -= PIECE_PHASE[captured]
            halfmove = 0
        self.sq[frm] = 0
        self.sq[to] = piece
        key ^= PIECE_KEYS[piece][frm] ^ PIECE_KEYS[piece][to]
        mg += PIECE_MG[piece][to] - PIECE_MG[piece][frm]
        eg += PIECE_EG[piece][to] - PIECE_EG[piece][frm]
        cdef int new_ep = -1, kind = piece & 7, queen, taken_on, taken, target
        cdef int rook_from, rook_to, rook
        if kind == PAWN:
            halfmove = 0
            if promotion:
                queen = 8 * us + promotion
                self.sq[to] = queen
                key ^= PIECE_KEYS[piece][to] ^ PIECE_KEYS[queen][to]
                mg += PIECE_MG[queen][to] - PIECE_MG[piece][to]
                eg += PIECE_EG[queen][to] - PIECE_EG[piece][to]
                phase += PIECE_PHASE[queen]
            elif to == ep:
                taken_on = to - 16 if us == WHITE else to + 16
                taken = self.sq[taken_on]
                self.sq[taken_on] = 0
                key ^= PIECE_KEYS[taken][taken_on]
                mg -= PIECE_MG[taken][taken_on]
                eg -= PIECE_EG[taken][taken_on]
            elif to - frm == 32 or frm - to == 32:
                target = (frm + to) >> 1
                if self.pawn_can_take_on(target, us ^ 1):
                    new_ep = target
                    key ^= EP_KEYS[target & 7]
        elif kind == KING:
            self._kings[us] = to
            if to - frm == 2 or frm - to == 2:
                if to > frm:
                    rook_from, rook_to = frm + 3, frm + 1
                else:
                    rook_from, rook_to = frm - 4, frm - 1
                rook = self.sq[rook_from]
                self.sq[rook_from] = 0
                self.sq[rook_to] = rook
                key ^= PIECE_KEYS[rook][rook_from] ^ PIECE_KEYS[rook][rook_to]
                mg += PIECE_MG[rook][rook_to] - PIECE_MG[rook][rook_from]
                eg += PIECE_EG[rook][rook_to] - PIECE_EG[rook][rook_from]
        cdef int kept = castling & CASTLING_KEPT[frm] & CASTLING_KEPT[to]
        if kept != castling:
            key ^= CASTLING_KEYS[castling] ^ CASTLING_KEYS[kept]
            self.castling = kept
        self.ep = new_ep
        self.halfmove = halfmove
        if us == BLACK:
            self.fullmove += 1
        self.turn = us ^ 1
        self.key = key
        self.mg = mg
        self.eg = eg
        self.phase = phase
        self.hist[self.nsaved] = key

    cpdef void undo(self) except *:
        if self.nsaved == 0:
            raise IndexError("nothing to undo")
        self.nsaved -= 1
        cdef Saved* saved = &self.saved[self.nsaved]
        cdef int us = self.turn ^ 1
        self.turn = us
        self.castling = saved.castling
        self.ep = saved.ep
        self.halfmove = saved.halfmove
        self.key = saved.key
        self.mg = saved.mg
        self.eg = saved.eg
        self.phase = saved.phase
        if us == BLACK:
            self.fullmove -= 1
        cdef int move = saved.move
        if not move:
            return
        cdef int frm = move & 127, to = (move >> 7) & 127
        cdef int piece = 8 * us + PAWN if move >> 14 else self.sq[to]
        self.sq[frm] = piece
        self.sq[to] = saved.captured
        cdef int kind = piece & 7
        if kind == PAWN:
            if to == saved.ep:
                self.sq[to - 16 if us == WHITE else to + 16] = 8 * (us ^ 1) + PAWN
        elif kind == KING:
            self._kings[us] = frm
            if to - frm == 2 or frm - to == 2:
                if to > frm:
                    self.sq[frm + 3] = self.sq[frm + 1]
                    self.sq[frm + 1] = 0
                else:
                    self.sq[frm - 4] = self.sq[frm - 1]
                    self.sq[frm - 1] = 0

    cpdef void play_null(self) except *:
        if self.nsaved == self.capacity:
            self.grow()
        cdef Saved* saved = &self.saved[self.nsaved]
        saved.move, saved.captured, saved.castling, saved.ep = 0, 0, self.castling, self.ep
        saved.halfmove, saved.key, saved.mg, saved.eg, saved.phase = (
            self.halfmove, self.key, self.mg, self.eg, self.phase
        )
        self.nsaved += 1
        cdef uint64_t key = self.key ^ TURN_KEY
        if self.ep >= 0:
            key ^= EP_KEYS[self.ep & 7]
            self.ep = -1
        if self.turn == BLACK:
            self.fullmove += 1
        self.turn ^= 1
        self.halfmove = 0
        self.key = key
        self.hist[self.nsaved] = key

    # -- attacks ---------------------------------------------------------------------------

    cpdef bint attacked(self, int square, int by) noexcept:
        cdef int pawn, left, right, s, i, step, piece
        if by == WHITE:
            pawn, left, right = PAWN, square - 17, square - 15
        else:
            pawn, left, right = 8 + PAWN, square + 15, square + 17
        if (not off(left) and self.sq[left] == pawn) or (not off(right) and self.sq[right] == pawn):
            return True
        cdef int knight = 8 * by + KNIGHT, king = 8 * by + KING
        for i in range(8):
            s = square + KNIGHT_STEPS[i]
            if not off(s) and self.sq[s] == knight:
                return True
            s = square + KING_STEPS[i]
            if not off(s) and self.sq[s] == king:
                return True
        cdef int bishop = 8 * by + BISHOP, rook = 8 * by + ROOK, queen = 8 * by + QUEEN
        for i in range(4):
            step = BISHOP_STEPS[i]
            s = square + step
            while not off(s):
                piece = self.sq[s]
                if piece:
                    if piece == bishop or piece == queen:
                        return True
                    break
                s += step
            step = ROOK_STEPS[i]
            s = square + step
            while not off(s):
                piece = self.sq[s]
                if piece:
                    if piece == rook or piece == queen:
                        return True
                    break
                s += step
        return False

    cpdef bint in_check(self) noexcept:
        return self.attacked(self._kings[self.turn], self.turn ^ 1)

    cdef int checks_and_pins(self, int* checkers, int* pinned) noexcept:
        """Fills `checkers` (returns how many) and `pinned` (square -> step from the king,
        0 where not pinned; the caller clears it)."""
        cdef int us = self.turn, them = self.turn ^ 1, king = self._kings[self.turn]
        cdef int count = 0, i, step, own, s, piece, kind
        cdef bint straight
        for i in range(8):
            step = KING_STEPS[i]
            straight = step == 16 or step == 1 or step == -16 or step == -1
            own = -1
            s = king + step
            while not off(s):
                piece = self.sq[s]
                if piece:
                    if piece >> 3 == us:
                        if own >= 0:
                            break
                        own = s
                    else:
                        kind = piece & 7
                        if kind == QUEEN or kind == (ROOK if straight else BISHOP):
                            if own >= 0:
                                pinned[own] = step
                            else:
                                checkers[count] = s
                                count += 1
                        break
                s += step
        cdef int knight = 8 * them + KNIGHT
        for i in range(8):
            s = king + KNIGHT_STEPS[i]
            if not off(s) and self.sq[s] == knight:
                checkers[count] = s
                count += 1
        cdef int pawn = 8 * them + PAWN
        cdef int first = king + 15 if us == WHITE else king - 17
        cdef int second = king + 17 if us == WHITE else king - 15
        if not off(first) and self.sq[first] == pawn:
            checkers[count] = first
            count += 1
        if not off(second) and self.sq[second] == pawn:
            checkers[count] = second
            count += 1
        return count

    # -- move generation -------------------------------------------------------------------

    cdef int generate(self, int* moves) noexcept:
        """`Board.pseudo_moves` into `moves`; returns how many."""
        cdef int us = self.turn, n = 0, i, j, frm, piece, kind, to, target, step
        for i in range(64):
            frm = ON_BOARD[i]
            piece = self.sq[frm]
            if not piece or piece >> 3 != us:
                continue
            kind = piece & 7
            if kind == PAWN:
                n = self.pawn_moves(frm, moves, n)
            elif kind == KNIGHT or kind == KING:
                for j in range(8):
                    to = frm + (KNIGHT_STEPS[j] if kind == KNIGHT else KING_STEPS[j])
                    if off(to):
                        continue
                    target = self.sq[to]
                    if not target or target >> 3 != us:
                        moves[n] = frm | to << 7
                        n += 1
                if kind == KING:
                    n = self.castling_moves(frm, moves, n)
            else:
                for j in range(4 if kind != QUEEN else 8):
                    if kind == BISHOP:
                        step = BISHOP_STEPS[j]
                    elif kind == ROOK:
                        step = ROOK_STEPS[j]
                    else:
                        step = KING_STEPS[j]
                    to = frm + step
                    while not off(to):
                        target = self.sq[to]
                        if target:
                            if target >> 3 != us:
                                moves[n] = frm | to << 7
                                n += 1
                            break
                        moves[n] = frm | to << 7
                        n += 1
                        to += step
        return n

    cdef int pawn_moves(self, int frm, int* moves, int n) noexcept:
        cdef int us = self.turn
        cdef int forward = 16 if us == WHITE else -16
        cdef int last_rank = 7 if us == WHITE else 0
        cdef int targets[4]
        cdef int count = 0, to, target, i, promotion, side
        to = frm + forward
        if not self.sq[to]:
            targets[count] = to
            count += 1
            if frm >> 4 == (1 if us == WHITE else 6) and not self.sq[to + forward]:
                targets[count] = to + forward
                count += 1
        for side in range(2):  # C loops, not tuples: a Python tuple a call cost a tenth
            to = frm + forward - 1 + 2 * side
            if off(to):
                continue
            target = self.sq[to]
            if (target and target >> 3 != us) or to == self.ep:
                targets[count] = to
                count += 1
        for i in range(count):
            to = targets[i]
            if to >> 4 == last_rank:
                for side in range(4):
                    promotion = PROMOTION_ORDER[side]
                    moves[n] = frm | to << 7 | promotion << 14
                    n += 1
            else:
                moves[n] = frm | to << 7
                n += 1
        return n

    cdef int castling_moves(self, int king, int* moves, int n) noexcept:
        cdef int rights = self.castling >> (2 * self.turn) & 3
        if rights & 1 and not self.sq[king + 1] and not self.sq[king + 2]:
            moves[n] = king | (king + 2) << 7
            n += 1
        if rights & 2 and not self.sq[king - 1] and not self.sq[king - 2] and not self.sq[king - 3]:
            moves[n] = king | (king - 2) << 7
            n += 1
        return n

    def pseudo_moves(self) -> list:
        cdef int moves[MAX_MOVES]
        cdef int n = self.generate(moves)
        return [moves[i] for i in range(n)]

    cdef int legal(self, int* out) except -1:
        """`Board.legal_moves` into `out`; returns how many."""
        cdef int checkers[16]
        cdef int pinned[128]
        cdef char blocks[128]
        cdef int moves[MAX_MOVES]
        cdef int i, n, count = 0, move, frm, to, checker, step, s
        cdef int us = self.turn, them = self.turn ^ 1, king = self._kings[self.turn]
        cdef bint safe
        for i in range(128):
            pinned[i] = 0
        cdef int nchecks = self.checks_and_pins(checkers, pinned)
        if nchecks == 1:
            for i in range(128):
                blocks[i] = 0
            checker = checkers[0]
            blocks[checker] = 1
            step = STEP[checker - king + 119]
            if step and (self.sq[checker] & 7) in (BISHOP, ROOK, QUEEN):
                s = king + step
                while s != checker:
                    blocks[s] = 1
                    s += step
        n = self.generate(moves)
        for i in range(n):
            move = moves[i]
            frm = move & 127
            to = (move >> 7) & 127
            if frm == king:
                if (to - frm == 2 or frm - to == 2) and (
                    nchecks or self.attacked((frm + to) >> 1, them)
                ):
                    continue
                self.sq[king] = 0
                safe = not self.attacked(to, them)
                self.sq[king] = 8 * us + KING
                if safe:
                    out[count] = move
                    count += 1
                continue
            if nchecks > 1:
                continue
            if to == self.ep and (self.sq[frm] & 7) == PAWN:
                self.play(move)
                safe = not self.attacked(king, them)
                self.undo()
                if safe:
                    out[count] = move
                    count += 1
                continue
            if nchecks == 1 and not blocks[to]:
                continue
            if pinned[frm] and STEP[to - king + 119] != pinned[frm]:
                continue
            out[count] = move
            count += 1
        return count

    cdef int legal_cached(self) except -1:
        """`legal` into `cached`, once per position (by key, as `Board._cached_moves`); the
        count."""
        if not self.cache_valid or self.cached_key != self.key:
            self.ncached = self.legal(self.cached)
            self.cached_key = self.key
            self.cache_valid = True
        return self.ncached

    def legal_moves(self) -> list:
        cdef int n = self.legal_cached()
        return [self.cached[i] for i in range(n)]

    cpdef bint has_moves(self) except -1:
        return self.legal_cached() > 0

    cpdef bint is_over(self) except -1:
        """`Board.is_over`."""
        return (
            self.legal_cached() == 0
            or self.halfmove >= 100
            or self.insufficient_material()
            or self.repetitions(self.halfmove) >= 2
        )

    cpdef bint is_legal(self, int move) except -1:
        cdef int frm = move & 127, to = (move >> 7) & 127, us = self.turn, them = self.turn ^ 1
        if frm == self._kings[us] and (to - frm == 2 or frm - to == 2):
            if self.attacked(frm, them) or self.attacked((frm + to) >> 1, them):
                return False
        self.play(move)
        cdef bint safe = not self.attacked(self._kings[us], them)
        self.undo()
        return safe

    cdef bint is_noisy(self, int move) noexcept:
        """Whether `move` captures (en passant too) or promotes to a queen."""
        cdef int to = (move >> 7) & 127
        if self.sq[to] or move >> 14 == QUEEN:
            return True
        return to == self.ep and self.sq[move & 127] & 7 == PAWN

    cdef int sorted_noisy(self, int* moves) except -1:
        """The captures and queen promotions among the legal moves (`is_noisy`) into
        `moves`, MVV-LVA (stable); their count."""
        cdef int keys[MAX_MOVES]
        cdef int n = 0, j, i, move, to, promotion, attacker, victim, gain, key
        cdef int count = self.legal_cached()
        for i in range(count):
            move = self.cached[i]
            if not self.is_noisy(move):
                continue
            to = (move >> 7) & 127
            promotion = move >> 14
            attacker = self.sq[move & 127] & 7
            victim = self.sq[to] & 7
            if not victim and to == self.ep and attacker == PAWN:
                victim = PAWN
            gain = VICTIM_VALUE[victim] + (VICTIM_VALUE[promotion] - 1 if promotion else 0)
            key = attacker - 16 * gain
            j = n  # insertion sort, stable: after every key not greater
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            keys[j] = key
            moves[j] = move
            n += 1
        return n

    def noisy_moves(self) -> list:
        cdef int moves[MAX_MOVES]
        cdef int n = self.sorted_noisy(moves)
        return [moves[i] for i in range(n)]

    def ordered_moves(self) -> list:
        """`noisy_moves()`, then the other legal moves in their order."""
        cdef int moves[MAX_MOVES]
        cdef int n = self.ordered(moves, NULL)
        return [moves[i] for i in range(n)]

    cdef int ordered(self, int* moves, int* noisy) except -1:
        """`ordered_moves` into `moves`; their count, and the noisy ones' in `noisy` (where
        not NULL)."""
        cdef int n = self.sorted_noisy(moves), count = n, i, move
        if noisy != NULL:
            noisy[0] = n
        for i in range(self.legal_cached()):
            move = self.cached[i]
            if n == 0 or not self.is_noisy(move):
                moves[count] = move
                count += 1
        return count

    cpdef int exchange(self, int move) noexcept:
        """The static exchange evaluation of `move` (`board.Board.exchange`)."""
        cdef char gone[128]
        cdef int gains[40]
        cdef int frm = move & 127, to = (move >> 7) & 127, promotion = move >> 14
        cdef int piece = self.sq[frm], victim = self.sq[to] & 7, n = 1, on_square, side
        cdef int attacker
        memset(gone, 0, sizeof(gone))
        gone[frm] = 1
        if not victim and to == self.ep and (piece & 7) == PAWN:
            victim = PAWN
            gone[to - 16 if piece >> 3 == WHITE else to + 16] = 1
        gains[0] = EXCHANGE_VALUE[victim]
        on_square = EXCHANGE_VALUE[piece & 7]
        if promotion:
            gains[0] += EXCHANGE_VALUE[promotion] - EXCHANGE_VALUE[PAWN]
            on_square = EXCHANGE_VALUE[promotion]
        side = (piece >> 3) ^ 1
        attacker = self.least_attacker(to, side, gone)
        while attacker >= 0 and n < 40:
            gains[n] = on_square - gains[n - 1]
            n += 1
            on_square = EXCHANGE_VALUE[self.sq[attacker] & 7]
            gone[attacker] = 1
            side ^= 1
            attacker = self.least_attacker(to, side, gone)
        n -= 1
        while n > 0:
            if -gains[n - 1] < gains[n]:
                gains[n - 1] = -gains[n]
            n -= 1
        return gains[0]

    cpdef bint exchange_holds(self, int move) noexcept:
        """`exchange(move) >= 0`, computed only where it must be: the exchange is never
        below what the first capture takes less the piece then standing on the square
        (every later capture is the other side's choice to make or not)."""
        cdef int frm = move & 127, to = (move >> 7) & 127, promotion = move >> 14
        cdef int piece = self.sq[frm], victim = self.sq[to] & 7, gain, standing
        if not victim and to == self.ep and (piece & 7) == PAWN:
            victim = PAWN
        gain = EXCHANGE_VALUE[victim]
        standing = EXCHANGE_VALUE[piece & 7]
        if promotion:
            gain += EXCHANGE_VALUE[promotion] - EXCHANGE_VALUE[PAWN]
            standing = EXCHANGE_VALUE[promotion]
        return gain >= standing or self.exchange(move) >= 0

    cdef int least_attacker(self, int square, int by, char* gone) noexcept:
        """`board.Board._least_attacker`, with `gone` a flag per square."""
        cdef int s, i, kind, step, piece
        cdef int ends[8]
        cdef int pawn = 8 * by + PAWN, knight = 8 * by + KNIGHT, king = 8 * by + KING
        cdef int first = square - 17 if by == WHITE else square + 15
        for i in range(2):  # C loops, not tuples
            s = first + 2 * i
            if not off(s) and self.sq[s] == pawn and not gone[s]:
                return s
        for i in range(8):
            s = square + KNIGHT_STEPS[i]
            if not off(s) and self.sq[s] == knight and not gone[s]:
                return s
        for i in range(8):  # the first piece along each ray: diagonals, then straight lines
            step = BISHOP_STEPS[i] if i < 4 else ROOK_STEPS[i - 4]
            ends[i] = -1
            s = square + step
            while not off(s):
                if self.sq[s] and not gone[s]:
                    ends[i] = s
                    break
                s += step
        for kind in range(BISHOP, QUEEN + 1):  # bishop, rook, queen
            piece = 8 * by + kind
            for i in range(8):
                if ends[i] >= 0 and self.sq[ends[i]] == piece and (
                    kind == QUEEN or (kind == BISHOP) == (i < 4)
                ):
                    return ends[i]
        for i in range(8):
            s = square + KING_STEPS[i]
            if not off(s) and self.sq[s] == king and not gone[s]:
                return s
        return -1

    cpdef bint has_pieces(self) noexcept:
        cdef int i, piece
        for i in range(64):
            piece = self.sq[ON_BOARD[i]]
            if piece and piece >> 3 == self.turn and (piece & 7) != PAWN and (piece & 7) != KING:
                return True
        return False

    cpdef bint history_draw(self, int root_ply) except -1:
        """`Board.history_draw`."""
        if self.halfmove >= 100:
            return self.legal_cached() > 0 or not self.in_check()
        return self.repeated_since(root_ply)

    cpdef bint repeated_since(self, int root_ply) noexcept:
        cdef int current = self.nsaved, before_root = 0, index
        cdef int back = self.halfmove if self.halfmove < current else current
        index = current - 4
        while index > current - 1 - back:
            if self.hist[index] == self.key:
                if index >= root_ply:
                    return True
                before_root += 1
                if before_root == 2:
                    return True
            index -= 2
        return False

    cpdef int repetitions(self, int since) noexcept:
        cdef int current = self.nsaved, count = 0, index
        cdef int back = self.halfmove
        if since < back:
            back = since
        if current < back:
            back = current
        index = current - 2
        while index > current - 1 - back:
            if self.hist[index] == self.key:
                count += 1
            index -= 2
        return count

    cpdef bint insufficient_material(self) noexcept:
        cdef int knights = 0, colours = 0, i, square, kind
        for i in range(64):
            square = ON_BOARD[i]
            kind = self.sq[square] & 7
            if kind == PAWN or kind == ROOK or kind == QUEEN:
                return False
            if kind == KNIGHT:
                knights += 1
            elif kind == BISHOP:
                colours |= 1 << (((square >> 4) + square) & 1)
        if knights:
            return knights == 1 and not colours
        return colours != 3

    def evaluate(self, player=None) -> int:
        """`Board.evaluate`."""
        cdef int side = self.turn if player is None else player
        return self.value() if side == WHITE else -self.value()

    cdef int value(self) noexcept:
        """`evaluate` from White's side."""
        cdef int phase = self.phase if self.phase < FULL_PHASE else FULL_PHASE
        return (self.mg * phase + self.eg * (FULL_PHASE - phase)) / FULL_PHASE
