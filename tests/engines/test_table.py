"""The transposition tables: storage, replacement, mate-score shifting, fill.

Each test runs on the Python table and on its C twin used by the compiled kernels, which
must behave identically (moves are small integers, as the C table requires).
"""

from __future__ import annotations

import pytest

from kibitz.engines.alphabeta import kernels
from kibitz.engines.alphabeta.table import (
    ENTRY_BYTES,
    EXACT,
    LOWER,
    PROVEN,
    UPPER,
    KeptTable,
    TranspositionTable,
    entries_for_mb,
    from_tt,
    to_tt,
)
from kibitz.engines.types import WIN

TABLES = [
    pytest.param(TranspositionTable, id="python"),
    pytest.param(kernels.NativeTable, id="native"),
]


@pytest.mark.parametrize("table", TABLES)
def test_store_and_probe(table) -> None:
    tt = table(64)
    tt.new_search()
    assert tt.probe(5) is None
    tt.store(5, 3, 42, EXACT, 6, ply=7)
    key, depth, score, bound, move, generation = tt.probe(5)
    assert (key, depth, score, bound, move, generation) == (5, 3, 42, EXACT, 6, 1)
    assert tt.probe(5 + 64) is None  # same slot, other key
    assert (tt.probes, tt.hits) == (3, 1)
    assert tt.best_move(5) == 6 and tt.best_move(5 + 64) is None
    assert (tt.probes, tt.hits) == (3, 1)  # best_move is not a probe


@pytest.mark.parametrize("table", TABLES)
def test_win_scores_are_stored_relative_to_the_node(table) -> None:
    tt = table(8)
    win_in_9_from_root = WIN - 9
    tt.store(1, 4, win_in_9_from_root, LOWER, None, ply=4)
    stored = tt.probe(1)[2]
    assert stored == WIN - 5  # win in 5 from the node
    assert from_tt(stored, 4) == win_in_9_from_root
    assert from_tt(stored, 2) == WIN - 7  # the same node reached two plies earlier
    assert from_tt(to_tt(-(WIN - 6), 3), 3) == -(WIN - 6)
    assert to_tt(123, 9) == 123 and from_tt(-123, 9) == -123


@pytest.mark.parametrize("table", TABLES)
def test_replacement_policy(table) -> None:
    tt = table(1)
    tt.new_search()
    tt.store(1, 5, 10, EXACT, 1, 0)
    tt.store(2, 4, 20, EXACT, 2, 0)  # shallower, same generation: kept out
    assert tt.probe(1) is not None and tt.probe(2) is None
    tt.store(2, 5, 20, EXACT, 2, 0)  # as deep: replaces
    assert tt.probe(2)[2] == 20
    tt.store(2, 1, 30, UPPER, None, 0)  # same key: always, keeping the old move
    assert tt.probe(2)[1:5] == (1, 30, UPPER, 2)
    tt.store(3, PROVEN, 0, EXACT, 3, 0)
    tt.new_search()
    tt.store(4, 1, 0, EXACT, 4, 0)  # older generation: replaced even if deeper
    assert tt.probe(4)[1] == 1


@pytest.mark.parametrize("table", TABLES)
def test_hashfull_counts_the_current_generation(table) -> None:
    tt = table(2000)
    tt.new_search()
    assert tt.hashfull() == 0
    for key in range(0, 500):
        tt.store(key, 1, 0, EXACT, None, 0)
    assert tt.hashfull() == 500
    tt.new_search()
    assert tt.hashfull() == 0
    small = table(10)
    small.new_search()
    small.store(3, 1, 0, EXACT, None, 0)
    assert small.hashfull() == 100


@pytest.mark.parametrize("table", TABLES)
def test_sizes_and_disabled_table(table) -> None:
    assert entries_for_mb(1) > 1000
    assert entries_for_mb(16) == 16 * 1024 * 1024 // ENTRY_BYTES
    assert entries_for_mb(16, kernels.ENTRY_BYTES) == 16 * 1024 * 1024 // 24
    assert entries_for_mb(0, kernels.ENTRY_BYTES) == 0
    off = table(0)
    off.store(1, 1, 1, EXACT, None, 0)
    assert off.probe(1) is None and off.hashfull() == 0 and off.best_move(1) is None
    tt = table(entries_for_mb(1))
    tt.store(7, 1, 1, EXACT, None, 0)
    tt.clear()
    assert tt.probe(7) is None
    with pytest.raises(ValueError, match="entries must be >= 0"):
        table(-1)


@pytest.mark.parametrize("table", TABLES)
def test_clear_empties_every_slot_and_restarts_the_counters(table) -> None:
    tt = table(1000)
    tt.clear()  # a table nothing was stored in yet
    # the native table empties the slots of up to 4096 stores one by one, after more all
    for stores in (300, 4096, 4097, 9000, 10):
        tt.new_search()
        for key in range(stores):  # past 1000: every slot filled, most overwritten
            tt.store(key, 1, key, EXACT, key % 7, 0)
        assert tt.hashfull() == min(stores, 1000)
        tt.clear()
        assert (tt.generation, tt.probes, tt.hits, tt.hashfull()) == (0, 0, 0, 0)
        assert all(tt.probe(key) is None for key in range(stores))
        assert all(tt.best_move(key) is None for key in range(stores))
    tt.store(205, 2, 9, LOWER, 3, 0)  # the cleared table is the same table, still in use
    assert tt.probe(205)[1:5] == (2, 9, LOWER, 3)


def test_closing_drops_a_native_table_as_it_is_and_empties_a_python_one() -> None:
    kept = KeptTable()
    native = kept.get(kernels.NativeTable, 1, kernels.ENTRY_BYTES)
    native.store(3, 1, 5, EXACT, 2, 0)
    kept.close()  # freed without the GIL: zeroing it first would be wasted
    assert kept.table is None and native.probe(3)[1:5] == (1, 5, EXACT, 2)
    python = kept.get(TranspositionTable, 1, ENTRY_BYTES)
    python.store(3, 1, 5, EXACT, 2, 0)
    kept.close()  # emptied in steps: dropped whole, it would hold the interpreter
    assert kept.table is None and python.probe(3) is None


def test_clear_empties_the_few_slots_filled_or_else_every_slot():
    """A clear after a small search empties just the slots it filled (tracked), after a
    large one the whole table; either way every slot is empty and nothing is found."""
    table = TranspositionTable(64)
    for key in (3, 67, 10):  # 67 replaces 3 in slot 3: two slots filled
        table.store(key, 1, 5, EXACT, None, 0)
    assert table.filled == [3, 10]
    table.clear()
    assert table.slots == [None] * 64 and table.filled == []
    for key in range(64):  # more than a 32nd of the table: tracking stops
        table.store(key, 1, key, EXACT, None, 0)
    assert table.filled is None
    table.clear()
    assert table.slots == [None] * 64 and table.filled == []
    assert all(table.probe(key) is None for key in range(64))
