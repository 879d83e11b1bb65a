"""The compiled chess board's declarations, for the compiled search kernel that cimports it
(`kibitz/engines/alphabeta/kernels/_chess.pyx`) and calls its methods without Python calls."""

from libc.stdint cimport uint64_t


cdef enum:
    WHITE = 0
    BLACK = 1
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    FULL_PHASE = 24
    MAX_MOVES = 256


ctypedef struct Saved:
    int move
    int captured
    int castling
    int ep
    int halfmove
    int mg
    int eg
    int phase
    uint64_t key


cdef class CompiledBoard:
    cdef int sq[128]
    cdef int _kings[2]
    cdef readonly int turn, castling, ep, halfmove, fullmove, mg, eg, phase
    cdef readonly uint64_t key
    cdef Saved* saved
    cdef uint64_t* hist
    cdef int nsaved, capacity
    cdef int cached[MAX_MOVES]
    cdef int ncached
    cdef uint64_t cached_key
    cdef bint cache_valid

    cdef void grow(self) except *
    cdef bint pawn_can_take_on(self, int target, int turn) noexcept
    cpdef void play(self, int move) except *
    cpdef void undo(self) except *
    cpdef void play_null(self) except *
    cpdef bint attacked(self, int square, int by) noexcept
    cpdef bint in_check(self) noexcept
    cdef int checks_and_pins(self, int* checkers, int* pinned) noexcept
    cdef int generate(self, int* moves) noexcept
    cdef int pawn_moves(self, int frm, int* moves, int n) noexcept
    cdef int castling_moves(self, int king, int* moves, int n) noexcept
    cdef int legal(self, int* out) except -1
    cdef int legal_cached(self) except -1
    cpdef bint has_moves(self) except -1
    cpdef bint is_over(self) except -1
    cpdef bint is_legal(self, int move) except -1
    cdef bint is_noisy(self, int move) noexcept
    cdef int sorted_noisy(self, int* moves) except -1
    cdef int ordered(self, int* moves, int* noisy) except -1
    cpdef int exchange(self, int move) noexcept
    cpdef bint exchange_holds(self, int move) noexcept
    cdef int least_attacker(self, int square, int by, char* gone) noexcept
    cpdef bint has_pieces(self) noexcept
    cpdef bint history_draw(self, int root_ply) except -1
    cpdef bint repeated_since(self, int root_ply) noexcept
    cpdef int repetitions(self, int since) noexcept
    cpdef bint insufficient_material(self) noexcept
    cdef int value(self) noexcept
