from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t


ctypedef struct Entry:
    uint64_t key
    int32_t score      # node-relative, as in tt.py
    int32_t depth
    uint32_t generation
    int8_t bound       # EXACT/LOWER/UPPER; 0 = empty slot
    int8_t move        # -1 = no move


cdef class NativeTable:
    cdef Entry* slots
    cdef readonly Py_ssize_t size
    cdef public uint32_t generation
    cdef public long long probes
    cdef public long long hits

    cdef Entry* lookup(self, uint64_t key) noexcept
    cdef void put(self, uint64_t key, int depth, int score, int bound, int move, int ply) noexcept
