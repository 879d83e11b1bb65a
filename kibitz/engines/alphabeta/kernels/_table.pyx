# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The transposition table of `table.py` in C: the same slots, replacement and statistics.

For the compiled search kernels, which probe and store through the inline functions of
`_table.pxd` without Python objects; Python code (the root, principal-variation extension,
Info) uses the same methods as `TranspositionTable`. Moves are small integers (-1 stands for
None), keys unsigned 64-bit integers.
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memset

from kibitz.engines.alphabeta.table import Entry as TableEntry
from kibitz.engines.types import WIN_THRESHOLD


ENTRY_BYTES = sizeof(Entry)
"""Memory of one slot."""


cdef extern from *:
    """
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    static int kibitz_cpu_has_popcnt(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") != 0;
    }
    #else
    static int kibitz_cpu_has_popcnt(void) { return 1; }  /* built without -mpopcnt */
    #endif
    """
    int kibitz_cpu_has_popcnt()


def cpu_has_popcnt() -> bool:
    """Whether this processor can run a kernel built with -mpopcnt (setup.py builds the
    Connect Four kernel so on x86); this module itself is built without it."""
    return kibitz_cpu_has_popcnt() != 0


cdef Entry* _zeroed(size_t size) noexcept:
    """A zero-filled block of `size` bytes (NULL if there is none), allocated without the
    GIL: calloc zeroes what the system does not hand out zeroed already."""
    cdef void* block
    with nogil:
        block = calloc(size, 1)
    return <Entry*> block


cdef class NativeTable:
    """Depth-preferred, generation-aware, one entry per slot (see `TranspositionTable`)."""

    def __cinit__(self, Py_ssize_t entries):
        if entries < 0:
            raise ValueError(f"entries must be >= 0, got {entries}")
        self.size = entries
        self.win_threshold = WIN_THRESHOLD
        self.bytes = max(entries, 1) * sizeof(Entry)
        self.slots = _zeroed(self.bytes)  # every slot empty
        if self.slots == NULL:
            raise MemoryError(f"no memory for a table of {entries} entries")

    def __dealloc__(self):
        cdef Entry* slots = self.slots
        self.slots = NULL
        with nogil:  # unmapping gigabytes takes a while
            free(slots)

    def clear(self) -> None:
        """Empty every slot, without holding the GIL (a worker's heartbeat thread must keep
        beating while gigabytes are cleared): a fresh zero-filled block replaces the old
        one (large blocks come zeroed from the system, lazily: a slot never used again costs
        neither time nor memory); the old one is zeroed where no fresh block is to be had."""
        cdef size_t size = self.bytes
        cdef Entry* old = self.slots
        cdef Entry* fresh = _zeroed(size)
        with nogil:
            if fresh == NULL:
                memset(old, 0, size)
            else:
                free(old)
        if fresh != NULL:
            self.slots = fresh
        self.generation = 0
        self.probes = 0
        self.hits = 0

    def new_search(self) -> None:
        """Start a new generation (entries of earlier searches become replaceable)."""
        self.generation += 1
        self.probes = 0
        self.hits = 0

    def probe(self, uint64_t key):
        """The `table.Entry` for `key`, or None."""
        cdef Entry* entry = table_lookup(self, key)
        if entry == NULL:
            return None
        move = None if entry.move < 0 else entry.move
        return TableEntry(entry.key, entry.depth, entry.score, entry.bound, move, entry.generation)

    def store(self, uint64_t key, int depth, int score, int bound, move, int ply) -> None:
        """Store a root-relative `score` searched at `ply` (see `TranspositionTable.store`)."""
        table_store(self, key, depth, score, bound, -1 if move is None else move, ply)

    def best_move(self, uint64_t key):
        """The stored move for `key`, or None; not counted as a probe."""
        if self.size == 0:
            return None
        cdef Entry* entry = table_slot(self, key)
        if entry.bound == 0 or entry.key != key or entry.move < 0:
            return None
        return entry.move

    def hashfull(self) -> int:
        """Permille of the first 1000 slots holding an entry of the current generation."""
        cdef Py_ssize_t sample = min(1000, self.size), used = 0, i
        if sample == 0:
            return 0
        for i in range(sample):
            if self.slots[i].bound != 0 and self.slots[i].generation == self.generation:
                used += 1
        return used * 1000 // sample
