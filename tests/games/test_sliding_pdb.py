"""Sliding-puzzle heuristics and additive pattern databases (kibitz/games/sliding_pdb.py):
Korf's 100 instances as data, pattern ranks, the databases against breadth-first distances
over the whole 8-puzzle (admissible, at least Manhattan), the kernel's build byte for byte
against the Python one, and the cache's files."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest

from benchmarks.puzzles import korf100
from kibitz.games import sliding_pdb as pdb


def test_korf100_is_the_published_set() -> None:
    rows = [(number, length, tiles) for number, length, _, tiles in korf100()]
    assert [number for number, _, _ in rows] == list(range(1, 101))
    assert rows[0][1:] == (57, [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3])
    assert sum(length for _, length, _ in rows) == 5305  # 53.05 moves on average
    assert max(length for _, length, _ in rows) == 66  # instances 17 and 60
    assert rows[87][1] == 65  # 88, the one with the most nodes
    for _, length, tiles in rows:
        assert sorted(tiles) == list(range(16))
        assert pdb.is_solvable(tiles, 4)
        assert pdb.manhattan(tiles, 4) <= length
        assert (length - pdb.manhattan(tiles, 4)) % 2 == 0  # every move changes it by 1


def test_pattern_rank_is_a_bijection() -> None:
    for n, k in ((6, 3), (9, 2), (5, 5)):
        ranks = sorted(pdb.pattern_rank(cells, n) for cells in itertools.permutations(range(n), k))
        assert ranks == list(range(pdb.table_size(n, k)))


@pytest.fixture(scope="module")
def distances() -> dict[tuple[int, ...], int]:
    """Every 8-puzzle position's optimal length, breadth-first from the goal."""
    goal = tuple(range(9))
    seen = {goal: 0}
    queue = deque([goal])
    while queue:
        tiles = queue.popleft()
        blank = tiles.index(0)
        for _, target in pdb._moves(blank, 3, 9):
            child = list(tiles)
            child[blank], child[target] = child[target], 0
            key = tuple(child)
            if key not in seen:
                seen[key] = seen[tiles] + 1
                queue.append(key)
    assert len(seen) == 181440
    return seen


@pytest.fixture(scope="module")
def sample(distances) -> list[tuple[tuple[int, ...], int]]:
    """3,000 seeded positions of every length."""
    return random.Random(31).sample(sorted(distances.items()), 3000)


@pytest.mark.parametrize("partition", [((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 3, 5), (2, 4, 6, 7, 8))])
def test_additive_databases_are_admissible_on_the_8_puzzle(sample, partition) -> None:
    database = pdb.PatternDatabase(
        3, 3, partition, [pdb.build_pattern_python(3, 3, pattern) for pattern in partition]
    )
    tighter = 0
    for tiles, optimal in sample:
        value = database.value(tiles)
        manhattan = pdb.manhattan(tiles, 3)
        assert manhattan <= value <= optimal, tiles
        assert manhattan + pdb.linear_conflicts(tiles, 3) <= optimal, tiles
        tighter += value > manhattan
    assert tighter > len(sample) // 4
    assert database.value(tuple(range(9))) == 0


def test_one_pattern_of_every_tile_is_the_exact_distance(sample) -> None:
    """With all eight tiles in one pattern, every move is a pattern move: the table is the
    breadth-first distance itself (the blank's cell is left out of the index, so each entry
    is the least over the blank's cells: the position with the blank where it stands is
    among them)."""
    table = pdb.build_pattern(3, 3, range(1, 9))
    for tiles, optimal in sample:
        cells = [tiles.index(t) for t in range(1, 9)]
        assert table[pdb.pattern_rank(cells, 9)] == optimal


@pytest.mark.skipif(not pdb.kernel_available(), reason="the sliding kernel was not built")
@pytest.mark.parametrize(
    "shape, pattern",
    [((3, 3), (1, 2, 3, 4)), ((3, 3), (8, 5)), ((2, 3), (1, 2, 5)), ((4, 4), (1, 2, 3))],
)
def test_the_kernel_builds_the_same_table(shape, pattern) -> None:
    width, height = shape
    table = bytearray(pdb.table_size(width * height, len(pattern)))
    pdb._kernel.build_pattern(width, height, pattern, table)
    assert table == pdb.build_pattern_python(width, height, pattern)
    assert 255 not in table


def test_the_cache_saves_and_maps_tables(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(pdb.PARTITIONS, "tiny", ((1, 2), (3,)))
    monkeypatch.setenv("KIBITZ_PDB_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="sliding_pdb build --partition tiny"):
        pdb.PatternDatabase.load("tiny")
    assert pdb.main(["build", "--partition", "tiny"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["4x4-1-2.pdb", "4x4-3.pdb"]
    database = pdb.PatternDatabase.load("tiny")
    rng = random.Random(3)
    for _ in range(50):
        tiles = list(range(16))
        rng.shuffle(tiles)
        where = {t: cell for cell, t in enumerate(tiles)}
        expected = sum(abs(where[t] // 4 - t // 4) + abs(where[t] % 4 - t % 4) for t in (1, 2, 3))
        assert expected <= database.value(tiles)  # at least the Manhattan distance of 1-3


def test_linear_conflicts_take_the_longest_ordered_run() -> None:
    # row 0 holds 3, 2, 1 (goals 3, 2, 1): one may stay, two must leave and come back
    assert pdb.linear_conflicts([0, 3, 2, 1, *range(4, 16)], 4) == 4
    assert pdb.linear_conflicts(list(range(16)), 4) == 0
    assert pdb.linear_conflicts([2, 1, 0, 3, 4, 5, 6, 7, 8], 3) == 2
