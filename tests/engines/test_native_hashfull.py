"""`hashfull` of both tables (the compiled one counting as stores fill its first 1000 slots,
the Python one counting over the slots it filled where they are few) against a scan of the
first 1000 slots: the same answer after every store, new search and clear."""

from __future__ import annotations

import random

import pytest

from kibitz.engines.alphabeta import kernels
from kibitz.engines.alphabeta.table import EXACT, LOWER, UPPER, TranspositionTable

pytestmark = pytest.mark.skipif(
    not kernels.available(), reason="compiled kernels not built (no C compiler at install)"
)


def scanned(table: TranspositionTable) -> int:
    """The definition: permille of the first 1000 slots holding this generation's entry."""
    sample = table.slots[:1000]
    used = sum(1 for e in sample if e is not None and e.generation == table.generation)
    return used * 1000 // len(sample)


@pytest.mark.parametrize("slots", [10, 1000, 1500, 5000])
def test_hashfull_follows_the_scan_through_replacements_and_generations(slots: int) -> None:
    """Random stores (colliding keys, shallower stores kept out, older generations
    replaced), new searches and clears: both tables report the same hashfull throughout."""
    rng = random.Random(slots)
    python, native = TranspositionTable(slots), kernels.NativeTable(slots)
    seen = set()
    for step in range(6000):
        roll = rng.random()
        if roll < 0.004:
            python.clear()
            native.clear()
        elif roll < 0.02:
            python.new_search()
            native.new_search()
        else:
            key = rng.randrange(3 * slots)
            depth = rng.randrange(1, 6)
            bound = rng.choice((EXACT, LOWER, UPPER))
            python.store(key, depth, 0, bound, None, 0)
            native.store(key, depth, 0, bound, None, 0)
        assert native.hashfull() == python.hashfull() == scanned(python), step
        seen.add(python.hashfull())
    assert len(seen) > 10  # the fill rose and fell, not stuck at 0 or 1000


def test_a_store_kept_out_or_repeated_counts_once() -> None:
    table = kernels.NativeTable(2000)
    table.new_search()
    table.store(7, 5, 0, EXACT, None, 0)
    table.store(7, 1, 0, UPPER, None, 0)  # the same key again
    table.store(7 + 2000, 1, 0, EXACT, None, 0)  # shallower, same generation: kept out
    assert table.hashfull() == 1
    table.store(1500, 1, 0, EXACT, None, 0)  # outside the first 1000 slots
    assert table.hashfull() == 1
    table.new_search()
    assert table.hashfull() == 0
    table.store(7 + 2000, 1, 0, EXACT, None, 0)  # replaces the older generation's entry
    assert table.hashfull() == 1
