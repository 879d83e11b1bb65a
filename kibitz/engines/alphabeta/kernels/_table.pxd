from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t


cdef extern from *:
    """
    #include <stdint.h>
    /* 24 bytes: the move a 24-bit field beside the bound (a chess move takes 17 bits). */
    typedef struct {
        uint64_t key;
        int32_t score;
        int32_t depth;
        uint32_t generation;
        int8_t bound;
        int32_t move : 24;
    } kibitz_table_entry;
    """
    ctypedef struct Entry "kibitz_table_entry":
        uint64_t key
        int32_t score      # node-relative, as in table.py
        int32_t depth
        uint32_t generation
        int8_t bound       # EXACT/LOWER/UPPER; 0 = empty slot
        int32_t move       # -1 = no move (a signed 24-bit field)


cdef extern from *:
    void prefetch "__builtin_prefetch"(const void*) nogil


cdef enum:
    STORE_LOG = 4096  # stores whose slots `clear` empties one by one; after more, all slots
    HASHFULL_SAMPLE = 1000  # the first slots, whose use `hashfull` reports


cdef class NativeTable:
    cdef Entry* slots
    cdef size_t bytes
    cdef size_t stored[STORE_LOG]  # the slots of the first STORE_LOG stores since a clear
    cdef long long stores  # stores since the table was made or cleared
    cdef long long sample_used  # slots of the first HASHFULL_SAMPLE holding this generation
    cdef readonly Py_ssize_t size
    cdef public uint32_t generation
    cdef public long long probes
    cdef public long long hits
    cdef int win_threshold  # types.WIN_THRESHOLD: scores beyond it are shifted by the ply


# The hot paths, inline in the kernels that cimport them.


cdef inline Entry* table_slot(NativeTable table, uint64_t key) noexcept:
    """`key`'s slot (the table must have slots)."""
    return &table.slots[key % <uint64_t> table.size]


cdef inline Entry* table_find(NativeTable table, uint64_t key) noexcept:
    """`key`'s slot, or NULL where the table has none: for `table_read` and `table_write`,
    so that a node finds its slot once for its probe and its store."""
    if table.size == 0:
        return NULL
    return table_slot(table, key)


cdef inline Entry* table_read(NativeTable table, Entry* slot, uint64_t key) noexcept:
    """The entry for `key` in its `slot` (`table_find`'s), or NULL; counted in `probes` and
    `hits` (`TranspositionTable.probe`)."""
    if slot == NULL:
        return NULL
    table.probes += 1
    if slot.bound != 0 and slot.key == key:
        table.hits += 1
        return slot
    return NULL


cdef inline Entry* table_lookup(NativeTable table, uint64_t key) noexcept:
    """`table_read` in `key`'s slot."""
    return table_read(table, table_find(table, key), key)


cdef inline void table_write(
    NativeTable table, Entry* old, uint64_t key, int depth, int score, int bound, int move,
    int ply
) noexcept:
    """`TranspositionTable.store` into `key`'s slot `old` (`table_find`'s; NULL: no table);
    `move` -1 stands for None."""
    if old == NULL:
        return
    if table.stores < STORE_LOG:
        table.stored[table.stores] = old - table.slots
    table.stores += 1
    if old.bound != 0:
        if old.key == key:
            if move < 0:
                move = old.move
        elif old.generation == table.generation and depth < old.depth:
            return
    if (old.bound == 0 or old.generation != table.generation) and (
        <size_t> (old - table.slots) < HASHFULL_SAMPLE
    ):
        table.sample_used += 1
    if score >= table.win_threshold:
        score += ply
    elif score <= -table.win_threshold:
        score -= ply
    old.key = key
    old.depth = depth
    old.score = score
    old.bound = bound
    old.move = move
    old.generation = table.generation


cdef inline void table_store(
    NativeTable table, uint64_t key, int depth, int score, int bound, int move, int ply
) noexcept:
    """`table_write` into `key`'s slot."""
    table_write(table, table_find(table, key), key, depth, score, bound, move, ply)
