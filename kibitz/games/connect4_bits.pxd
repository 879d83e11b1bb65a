"""Connect Four's bitboard arithmetic for the compiled kernels, once.

`connect4.py`'s layout: bit ``7 * column + row`` is a cell (row 0 at the bottom), bit 6 of
every column an always-empty sentinel. The alphabeta kernel (`_connect4.pyx`) and the mcts
kernels (`_walk.pyx`, `_playouts.pyx`) cimport these inline functions.
"""

from libc.stdint cimport uint64_t


cdef inline uint64_t line_ends(uint64_t s) noexcept nogil:
    """`connect4._line_ends`: cells completing four in a row with stones `s` (occupied ones
    and bits past the board too)."""
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
    """`connect4._winning_cells`: the empty cells (playable or not) where `stones` would
    complete four in a row; `mask` holds every stone. 0xFDFBF7EFDFBF is `connect4._BOARD`,
    the 42 cells."""
    return line_ends(stones) & (<uint64_t> 0xFDFBF7EFDFBF ^ mask)


cdef inline bint has_four(uint64_t s) noexcept nogil:
    """`connect4._has_four`: four in a row anywhere among stones `s`."""
    cdef uint64_t m = s & (s >> 7)
    if m & (m >> 14):
        return True
    m = s & (s >> 6)
    if m & (m >> 12):
        return True
    m = s & (s >> 8)
    if m & (m >> 16):
        return True
    m = s & (s >> 1)
    return (m & (m >> 2)) != 0
