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
MAX_MOVE = (1 << 23) - 1
"""The largest move a slot holds (a signed 24-bit field, -1 standing for None)."""


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


cdef extern from *:
    """
    #if defined(__linux__)
    #include <stdint.h>
    #include <sys/mman.h>
    static void kibitz_huge_pages(void* block, size_t size) {
        const uintptr_t huge = (uintptr_t)2 << 20;
        uintptr_t start = ((uintptr_t)block + huge - 1) & ~(huge - 1);
        uintptr_t end = ((uintptr_t)block + size) & ~(huge - 1);
        if (end > start) madvise((void*)start, end - start, MADV_HUGEPAGE);
    }
    #else
    static void kibitz_huge_pages(void* block, size_t size) { (void)block; (void)size; }
    #endif
    """
    void kibitz_huge_pages(void* block, size_t size) nogil


cdef Entry* _zeroed(size_t size) noexcept:
    """A zero-filled block of `size` bytes (NULL if there is none), allocated without the
    GIL: calloc zeroes what the system does not hand out zeroed already. On Linux the
    block asks for 2 MB pages: a probe lands anywhere in the table, and with 4 KB pages
    nearly every probe of a large table missed the processor's address cache."""
    cdef void* block
    with nogil:
        block = calloc(size, 1)
        if block != NULL:
            kibitz_huge_pages(block, size)
    return <Entry*> block


cdef class NativeTable:
    """Depth-preferred, generation-aware, one entry per slot (see `TranspositionTable`)."""

    clear_before_drop = False
    """`KeptTable.close` drops it without clearing: its block is freed without the GIL."""

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
        """Empty every slot in place, without holding the GIL (a worker's heartbeat thread
        must keep beating while gigabytes are cleared). After at most STORE_LOG stores only
        their slots are emptied: a new game after a small search neither sweeps the whole
        table nor makes the system map all of its memory (4 GB took 26 s on a loaded
        machine). After more, the table is zeroed in place: by then the stores have touched
        most of its 2 MB pages, and its pages stay mapped, so the next search does not wait
        for the system to map and zero one on its first probe there (a fresh block, zeroed
        lazily, cost a Connect Four solve of 27k nodes six times its time)."""
        cdef Entry* slots = self.slots
        cdef size_t size = self.bytes
        cdef long long stores = self.stores, i
        with nogil:
            if stores > STORE_LOG:
                memset(slots, 0, size)
            else:
                for i in range(stores):
                    memset(&slots[self.stored[i]], 0, sizeof(Entry))
        self.stores = 0
        self.sample_used = 0
        self.generation = 0
        self.probes = 0
        self.hits = 0

    def new_search(self) -> None:
        """Start a new generation (entries of earlier searches become replaceable)."""
        self.generation += 1
        self.sample_used = 0
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
        """Store a root-relative `score` searched at `ply` (see `TranspositionTable.store`);
        a move is an integer from 0 to MAX_MOVE (a slot's move field has 24 bits)."""
        if move is not None and not 0 <= move <= MAX_MOVE:
            raise ValueError(f"a move stored must be within 0..{MAX_MOVE}, got {move!r}")
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
        """Permille of the first 1000 slots holding an entry of the current generation,
        counted as stores fill them (a search reports it with every Info)."""
        cdef Py_ssize_t sample = min(HASHFULL_SAMPLE, self.size)
        if sample == 0:
            return 0
        return self.sample_used * 1000 // sample
