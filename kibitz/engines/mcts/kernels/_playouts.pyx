# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled playouts: a game's `playout(rng, record)` in C, move for move.

Each function repeats its game's pure-Python `playout` exactly, drawing the same random
numbers from the same `random.Random` (one `rng.random()` per move), so that a search gives
the same result with or without the kernel (tests/engines/test_mcts.py checks it).
"""

from libc.stdint cimport uint64_t

from kibitz.games.connect4_bits cimport has_four

cdef int WIDTH = 7
cdef int CELLS = 42
cdef uint64_t BOTTOM[7]
cdef uint64_t TOP[7]
cdef uint64_t COLUMN[7]
for _col in range(7):
    BOTTOM[_col] = (<uint64_t>1) << (7 * _col)
    TOP[_col] = (<uint64_t>1) << (7 * _col + 5)
    COLUMN[_col] = (<uint64_t>63) << (7 * _col)


def connect4_playout(state, rng, list record=None):
    """`ConnectFour.playout` (the position is not over)."""
    cdef uint64_t current, mask, bit
    cdef int moves = state.moves_played()
    cdef int free[7]
    cdef int count = 0, col, index
    current, mask = state.bitboards()
    draw = rng.random
    for col in range(WIDTH):
        if not mask & TOP[col]:
            free[count] = col
            count += 1
    while moves < CELLS:
        index = <int>(<double>draw() * count)
        col = free[index]
        bit = (mask + BOTTOM[col]) & COLUMN[col]
        if record is not None:
            record.append((moves & 1, col))
        if has_four(current | bit):
            return (1.0, -1.0) if moves & 1 == 0 else (-1.0, 1.0)
        current ^= mask
        mask |= bit
        moves += 1
        if bit & TOP[col]:
            count -= 1
            free[index] = free[count]
    return (0.0, 0.0)
