"""Sliding-puzzle heuristics and additive pattern databases (kibitz/games/sliding_pdb.py):
Korf's 100 instances as data, pattern ranks, the databases against breadth-first distances
over the whole 8-puzzle (admissible, at least Manhattan, with and without the reflection
about the main diagonal), the kernel's build byte for byte against the Python one, the
partitions, and the cache's files."""

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


def test_the_mirror_is_as_far_from_the_goal(distances) -> None:
    assert pdb.mirror(range(9), 3) == list(range(9))  # the goal is its own mirror
    # tile 1 at (0, 0) stays there as tile 3 (the tile whose goal mirrors 1's); tile 3 at
    # (0, 1) goes to (1, 0) as tile 1; the blank at (1, 0) to (0, 1); the rest are home
    assert pdb.mirror([1, 3, 2, 0, 4, 5, 6, 7, 8], 3) == [3, 0, 2, 1, 4, 5, 6, 7, 8]
    for tiles, optimal in itertools.islice(distances.items(), 0, None, 97):
        mirrored = pdb.mirror(tiles, 3)
        assert distances[tuple(mirrored)] == optimal
        assert pdb.mirror(mirrored, 3) == list(tiles)
    with pytest.raises(ValueError, match="3x3 board has 9 cells, not 8"):
        pdb.mirror(range(8), 3)


@pytest.mark.parametrize(
    "partition", [((1, 2, 3), (4, 5, 6), (7, 8)), ((1, 2, 5), (3, 4, 6, 7, 8))]
)
def test_the_reflection_takes_the_larger_admissible_sum(sample, partition) -> None:
    plain = pdb.PatternDatabase.build(3, 3, partition)
    reflected = pdb.PatternDatabase(3, 3, partition, plain.tables, reflect=True)
    tighter = 0
    for tiles, optimal in sample:
        mirrored = pdb.mirror(tiles, 3)
        value = reflected.value(tiles)
        assert value == max(plain.value(tiles), plain.value(mirrored))
        assert value == reflected.value(mirrored)  # symmetric
        assert pdb.manhattan(tiles, 3) <= plain.value(tiles) <= value <= optimal, tiles
        tighter += value > plain.value(tiles)
    assert tighter > len(sample) // 20
    with pytest.raises(ValueError, match="square board, not 3x2"):
        pdb.PatternDatabase(3, 2, [(1, 2)], [bytearray(30)], reflect=True)


@pytest.mark.skipif(not pdb.kernel_available(), reason="the sliding kernel was not built")
@pytest.mark.parametrize(
    "shape, pattern",
    [
        ((3, 3), (1, 2, 3, 4)),
        ((3, 3), (8, 5)),
        ((2, 3), (1, 2, 5)),
        ((4, 4), (1, 2, 3)),
        ((4, 4), (12, 13, 15)),
        ((4, 2), (7, 3, 1)),
        ((2, 4), (1, 2, 3, 4, 5, 6, 7)),  # every tile: half the placements unreachable
        ((5, 5), (1, 2)),
    ],
)
def test_the_kernel_builds_the_same_table(shape, pattern) -> None:
    width, height = shape
    n = width * height
    table = bytearray(pdb.table_size(n, len(pattern)))
    levels = []
    reached = pdb._kernel.build_pattern(
        width, height, pattern, table, lambda *level: levels.append(level)
    )
    assert table == pdb.build_pattern_python(width, height, pattern)
    # the progress: each level's states and new table entries; the deepest is the maximum
    assert [level for level, _, _ in levels] == list(range(len(levels)))
    assert sum(states for _, states, _ in levels) == reached
    assert sum(entries for _, _, entries in levels) == len(table) - table.count(255)
    assert max(level for level, _, entries in levels if entries) == max(set(table) - {255})
    if len(pattern) < n - 1:
        assert 255 not in table
        assert reached == len(table) * (n - len(pattern))  # every (tiles, blank) state
    else:
        assert reached == len(table) // 2  # the solvable half


@pytest.mark.skipif(not pdb.kernel_available(), reason="the sliding kernel was not built")
def test_the_kernel_build_refuses_bad_patterns() -> None:
    with pytest.raises(ValueError, match="bad pattern"):
        pdb._kernel.build_pattern(3, 3, (1, 1), bytearray(72))
    with pytest.raises(ValueError, match="at most 36 cells and 8 pattern tiles"):
        pdb._kernel.build_pattern(4, 4, tuple(range(1, 10)), bytearray(1))
    with pytest.raises(ValueError, match="out must hold 72 bytes"):
        pdb._kernel.build_pattern(3, 3, (1, 2), bytearray(71))


def test_the_partitions_cover_their_boards() -> None:
    for name, width in (("663", 4), ("78", 4), ("6666", 5)):
        tiles = sorted(t for pattern in pdb.PARTITIONS[name] for t in pattern)
        assert tiles == list(range(1, width * width))
        assert pdb.partition_width(name) == width
    # what the 7-8 and the 24-puzzle's 6-tile patterns take to build: table + 3 bits a state
    assert pdb.build_memory(4, 4, 8) == 518_918_400 + 3 * 518_918_400 * 8 // 8
    assert pdb.table_size(25, 6) == 127_512_000
    assert pdb.build_memory(5, 5, 6) == 127_512_000 + 3 * 127_512_000 * 19 // 8


def test_the_cache_saves_and_maps_tables(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(pdb.PARTITIONS, "tiny", ((1, 2), (3, 15)))  # tile 15: a 4x4 board
    monkeypatch.setenv("KIBITZ_PDB_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="sliding_pdb build --partition tiny"):
        pdb.PatternDatabase.load("tiny")
    assert pdb.main(["build", "--partition", "tiny", "--verbose"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["4x4-1-2.pdb", "4x4-3-15.pdb"]
    printed = capsys.readouterr().out
    assert "4x4 pattern 1-2: 240 bytes" in printed
    assert "  level  0:            14 states,           1 entries" in printed  # 1-2 home
    assert f"{tmp_path / '4x4-3-15.pdb'}: 240 entries, max " in printed
    database = pdb.PatternDatabase.load("tiny")
    assert not database.reflect  # by default only for the partitions in REFLECTED
    reflected = pdb.PatternDatabase.load("tiny", reflect=True)
    rng = random.Random(3)
    for _ in range(50):
        tiles = list(range(16))
        rng.shuffle(tiles)
        where = {t: cell for cell, t in enumerate(tiles)}
        expected = sum(
            abs(where[t] // 4 - t // 4) + abs(where[t] % 4 - t % 4) for t in (1, 2, 3, 15)
        )
        assert expected <= database.value(tiles)  # at least the Manhattan distance of 1-3, 15
        mirrored = pdb.mirror(tiles, 4)
        assert reflected.value(tiles) == max(database.value(tiles), database.value(mirrored))


def test_linear_conflicts_take_the_longest_ordered_run() -> None:
    # row 0 holds 3, 2, 1 (goals 3, 2, 1): one may stay, two must leave and come back
    assert pdb.linear_conflicts([0, 3, 2, 1, *range(4, 16)], 4) == 4
    assert pdb.linear_conflicts(list(range(16)), 4) == 0
    assert pdb.linear_conflicts([2, 1, 0, 3, 4, 5, 6, 7, 8], 3) == 2
