"""A fixed-size transposition table for game-tree search (no search logic here).

Storage is one Python list of slots, each `None` or an `Entry`, a named tuple. Measured
against parallel lists (one per field) and a dict keyed by slot index, the list of tuples
was as fast as parallel lists (within 5 %) and faster than the dict, and `probe` can hand
out the stored entry without allocating, so it is the simplest of the three.

Scores near +/-WIN (wins and losses at a distance) are stored relative to the node, not to
the root: `store` and `adjust_probe` shift them by the node's ply.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, NamedTuple, TypeVar

from kibitz.engines.types import WIN_THRESHOLD
from kibitz.games import Move
from kibitz.vocabulary import Bound

EXACT, LOWER, UPPER = 1, 2, 3
"""An entry's bound as the search loops compare it: a small int (the compiled table stores
it in a byte, 0 marking an empty slot), not the `Bound` a Score carries."""
BOUNDS = (None, Bound.EXACT, Bound.LOWER, Bound.UPPER)
"""The `Bound` of each code."""

PROVEN = 10**6
"""Depth of an entry whose value (or bound) is proven: usable at any remaining depth."""

ENTRY_BYTES = 160
"""Approximate memory of one filled slot (list pointer + tuple + key and score ints)."""

CLEAR_STEP = 1 << 14
"""Slots `clear` empties at a time. Freeing a full table's millions of entries takes
seconds; between steps other threads get the interpreter (a server worker's heartbeat)."""

TRACKED_FRACTION = 32
"""`clear` empties one by one the slots filled since the last clear while they are at most
this fraction of the table (a small search's few), else the whole table by slices (a Python
loop over a slot costs about what a slice costs over 30)."""


class Entry(NamedTuple):
    """One stored search result."""

    key: int
    depth: int
    """Remaining depth it was searched to; `PROVEN` for a proven value or bound."""
    score: int
    """Node-relative (see `from_tt`)."""
    bound: int
    """EXACT, LOWER or UPPER."""
    move: Move | None
    """The best move found (on a fail low: the move with the best bound), if any."""
    generation: int
    """The search that stored it (`TranspositionTable.new_search`)."""


_new_entry = functools.partial(tuple.__new__, Entry)
"""`Entry` from a tuple of its fields, at half the cost of `Entry._make` (one store a node)."""


def entries_for_mb(megabytes: int, entry_bytes: int = ENTRY_BYTES) -> int:
    """Number of slots of `entry_bytes` that fit in `megabytes` MB; 0 MB means no table."""
    if megabytes <= 0:
        return 0
    return max(1, megabytes * 1024 * 1024 // entry_bytes)


Table = TypeVar("Table")


class KeptTable:
    """An engine's transposition table, kept between its searches (alpha-beta's, the
    multi-player engines'): `get` answers it, made again where the kind or the size wanted
    changed. Its size comes from the engine's Hash option in MB, unless `entries` (the
    engines' `tt_entries` test hook) fixes the slot count: 0 = no table at all."""

    def __init__(self, entries: int | None = None) -> None:
        self.entries = entries
        self.table: Any = None

    def get(self, kind: type[Table], megabytes: int, entry_bytes: int) -> Table:
        entries = self.entries
        if entries is None:
            entries = entries_for_mb(megabytes, entry_bytes)
        if type(self.table) is not kind or self.table.size != entries:
            self.close()
            self.table = kind(entries)
        return self.table

    def clear(self) -> None:
        """Empty the table (a new game)."""
        if self.table is not None:
            self.table.clear()

    def close(self) -> None:
        """Let go of the table, emptied first: its `clear` frees millions of entries in
        steps, where dropping it whole would hold the interpreter for seconds. A table whose
        class says `clear_before_drop = False` (the native one frees its block without the
        GIL) is dropped as it is."""
        if getattr(type(self.table), "clear_before_drop", True):
            self.clear()
        self.table = None


def to_tt(score: int, ply: int) -> int:
    """Root-relative score -> node-relative score for storing."""
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def from_tt(score: int, ply: int) -> int:
    """Node-relative stored score -> root-relative score at `ply`."""
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


class TranspositionTable:
    """Depth-preferred, generation-aware, one entry per slot.

    Replacement: a store for the same key always replaces (keeping the old best move if the
    new one is None); a store for a different key replaces when the slot is empty, holds an
    entry of an older generation, or holds an entry of depth <= the new depth.
    """

    __slots__ = ("filled", "generation", "hits", "probes", "size", "slots")

    def __init__(self, entries: int) -> None:
        if entries < 0:
            raise ValueError(f"entries must be >= 0, got {entries}")
        self.size = entries
        self.slots: list[Entry | None] = [None] * entries
        self.generation = 0
        self.probes = 0
        self.hits = 0
        self.filled: list[int] | None = []
        """The slots filled since the last clear, None once there are too many to track
        (`TRACKED_FRACTION`)."""

    def clear(self) -> None:
        """Empty every slot: those filled since the last clear where there were few, else
        all, CLEAR_STEP slots at a time (see there)."""
        slots, size = self.slots, self.size
        if self.filled is not None:
            for index in self.filled:
                slots[index] = None
        else:
            empty: list[Entry | None] = [None] * min(CLEAR_STEP, size)
            for start in range(0, size, CLEAR_STEP):
                end = min(start + CLEAR_STEP, size)
                slots[start:end] = empty if end - start == len(empty) else empty[: end - start]
        self.filled = []
        self.generation = 0
        self.probes = 0
        self.hits = 0

    def new_search(self) -> None:
        """Start a new generation (entries of earlier searches become replaceable)."""
        self.generation += 1
        self.probes = 0
        self.hits = 0

    def probe(self, key: int) -> Entry | None:
        """The stored tuple for `key`, or None. Its score is node-relative: see `from_tt`."""
        size = self.size
        if not size:
            return None
        self.probes += 1
        entry = self.slots[key % size]
        if entry is not None and entry.key == key:
            self.hits += 1
            return entry
        return None

    def store(
        self, key: int, depth: int, score: int, bound: int, move: Move | None, ply: int
    ) -> None:
        """Store a root-relative `score` searched at `ply` (converted to node-relative)."""
        size = self.size
        if not size:
            return
        index = key % size
        slots = self.slots
        old = slots[index]
        if old is not None:
            if old.key == key:
                if move is None:
                    move = old.move
            elif old.generation == self.generation and depth < old.depth:
                return
        elif self.filled is not None:
            self.filled.append(index)
            if len(self.filled) * TRACKED_FRACTION > size:
                self.filled = None
        if score >= WIN_THRESHOLD:
            score += ply
        elif score <= -WIN_THRESHOLD:
            score -= ply
        slots[index] = _new_entry((key, depth, score, bound, move, self.generation))

    def best_move(self, key: int) -> Move | None:
        """The stored move for `key`, or None; not counted as a probe."""
        if not self.size:
            return None
        entry = self.slots[key % self.size]
        if entry is None or entry.key != key:
            return None
        return entry.move

    def hashfull(self) -> int:
        """Permille of the first 1000 slots holding an entry of the current generation
        (counted over the slots filled since the last clear where they are fewer: a small
        search's Infos and Result then cost no scan of the sample)."""
        sample = min(1000, self.size)
        if not sample:
            return 0
        slots, generation = self.slots, self.generation
        if self.filled is not None and len(self.filled) < sample:
            indices: Iterable[int] = (index for index in self.filled if index < sample)
        else:
            indices = range(sample)
        used = 0
        for index in indices:
            entry = slots[index]
            if entry is not None and entry.generation == generation:
                used += 1
        return used * 1000 // sample
