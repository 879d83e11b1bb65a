"""Sliding-puzzle heuristics, additive pattern databases and IDA*, in Python and in C.

Conventions (Korf's, those of the game `sliding-puzzle`): cells row by row, the blank is 0,
the goal is ``0, 1, ..., n-1`` (blank first), tile t's goal cell is t; a move is the direction
the blank moves, ``U``, ``L``, ``R``, ``D``, tried in that order with the inverse of the last
move pruned.

Heuristics (all admissible):

- ``manhattan``: the sum of the tiles' Manhattan distances.
- ``linear-conflicts``: Manhattan plus, for each row and column, 2 x (the tiles of that line
  whose goal is in the line, less the longest run of them already in goal order): each tile
  outside that run must leave the line and come back (Hansson, Mayer & Yung 1992).
- a `PatternDatabase`: additive pattern databases (Korf & Felner 2002). A partition of the
  tiles into patterns; each pattern's table holds, for every placement of its tiles, the
  fewest moves *of its own tiles* that bring them home (the blank's moves through other
  cells are free), so the tables' values add up to an admissible estimate that is at least
  the Manhattan distance. With the *reflection* (Korf & Felner), the tables are looked up
  a second time for the board's `mirror` about the main diagonal (tile t at (r, c) goes to
  (c, r) as the tile whose goal mirrors t's; the moves U and L, D and R trade places) and
  the larger sum taken: the mirror is as far from the goal, so both sums are admissible.

  Partitions (`PARTITIONS`), built once by one command each into ``$KIBITZ_PDB_DIR``
  (default ``~/.cache/kibitz/pdb``), outside git, and mapped read-only (`mmap`) when
  loaded; times with the compiled builder on one core of the 2-core development machine::

      python -m kibitz.games.sliding_pdb build                     # 6-6-3: 11.5 MB, ~10 s
      python -m kibitz.games.sliding_pdb build --partition 78      # 7-8: 577 MB, ~8 min
      python -m kibitz.games.sliding_pdb build --partition 6666    # 24-puzzle: 510 MB

  - ``663``, the 15-puzzle's 6-6-3: 5,765,760 + 5,765,760 + 3,360 bytes.
  - ``78``, the 15-puzzle's 7-8, looked up with its reflection by default (`REFLECTED`):
    57,657,600 bytes for the 7-tile table and 518,918,400 for the 8-tile one, whose
    breadth-first search runs over its 8 tiles and the blank, 16!/7! = 4,151,347,200
    states; 2.1 GB of memory at most (`build_memory`), 8 minutes of processor time
    (measured: benchmarks/README.md, "A run: the 7-8 pattern databases").
  - ``6666``, the 24-puzzle's 6-6-6-6 (5x5), also with its reflection: four tables of
    25!/19! = 127,512,000 bytes, each a search over 25!/18! = 2,422,728,000 states, 1.0 GB
    of memory each; about 17 minutes of processor time in all, estimated from the 7-8
    build's rate per state (not measured).

  The builder (`build_pattern`, in the kernel) keeps no queues: it scans a bitset of the
  current level's (tiles, blank) states and marks the next level's in another, a third
  holding those visited, so it takes 3 bits a state and the table. A move of the blank
  into a free cell costs nothing, so the states of one placement of the tiles fall into
  regions (the connected parts of the free cells), marked whole when one of their states is
  reached; the tables are those of the Python reference (`build_pattern_python`, a 0-1
  breadth-first search with queues), byte for byte.

`solve` is IDA* (Korf 1985) with the node-counting convention of kibitz's `idastar` engine: a
node is counted on each entry of the recursive search, root included, positions cut off
(g + h > threshold) included; the goal test comes after the cut-off test; the thresholds
start at h(root), then take the least f cut off in the previous iteration. It runs in the
compiled kernel (`kibitz/games/_sliding_kernel.pyx`) where that was built, else in
`solve_python`, the reference the kernel is tested against node for node.
"""

from __future__ import annotations

import argparse
import math
import mmap
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

try:
    from kibitz.games import _sliding_kernel as _kernel
except ImportError:  # pragma: no cover - only without a C compiler at install time
    _kernel = None

MOVES = "ULRD"
"""The moves in the order they are tried; move d is undone by move 3 - d."""

PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    # A 6-6-3 partition on the blank-first goal: 1-2-4-5-8-9 (the corner around the blank),
    # 3-6-7-10-11-14 (the right side), 12-13-15 (the bottom row less 14). Chosen by
    # measurement on Korf's 100 among three (Korf & Felner's own layout is not reproduced
    # here): it averages h = 42.35 at the root and 1.8 million IDA* nodes, against 41.29
    # and 4.5 million for 1-2-3 / 4-5-8-9-12-13 / 6-7-10-11-14-15 and h = 41.23 for
    # 1-2-3-5-6-7 / 8-9-10-12-13-14 / 4-11-15 (Manhattan: 37.05; with linear conflicts:
    # 39.09).
    "663": ((1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 14), (12, 13, 15)),
    # The 7-8 partition: the top two rows less the blank, the bottom two rows.
    "78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    # The 24-puzzle's 6-6-6-6 of Korf & Felner (2002): four blocks of six tiles.
    "6666": (
        (1, 2, 5, 6, 7, 12),
        (3, 4, 8, 9, 13, 14),
        (10, 11, 15, 16, 20, 21),
        (17, 18, 19, 22, 23, 24),
    ),
}
REFLECTED = frozenset({"78", "6666"})
"""The partitions that `PatternDatabase.load` looks up with their reflection by default (as
Korf & Felner do)."""

HEURISTICS = ("manhattan", "linear-conflicts")
KERNEL_CELLS = 36
"""The largest board the kernel searches (6x6); `solve` runs larger ones in Python."""
_KINDS = {"manhattan": 0, "linear-conflicts": 1, "linear": 1, "lc": 1, "pdb": 2}


def kernel_available() -> bool:
    """Whether the compiled kernel was built (else everything here runs in Python)."""
    return _kernel is not None


def pdb_dir() -> Path:
    """Where pattern databases are cached: ``$KIBITZ_PDB_DIR`` or ``~/.cache/kibitz/pdb``."""
    return Path(os.environ.get("KIBITZ_PDB_DIR") or Path.home() / ".cache" / "kibitz" / "pdb")


def partition_width(partition: str) -> int:
    """The width of the square board that `PARTITIONS[partition]` covers (4 for the
    15-puzzle's, 5 for the 24-puzzle's)."""
    cells = 1 + max(max(pattern) for pattern in PARTITIONS[partition])
    return math.isqrt(cells - 1) + 1


def mirror(tiles: Sequence[int], width: int) -> list[int]:
    """`tiles` (a square board) reflected about the main diagonal: the tile at (r, c) goes to
    (c, r) and is renamed to the tile whose goal is the mirror of its own, so the goal is its
    own mirror and a board and its mirror are equally far from it (the moves U and L, D and
    R trade places)."""
    if len(tiles) != width * width:
        raise ValueError(f"a {width}x{width} board has {width * width} cells, not {len(tiles)}")
    out = [0] * len(tiles)
    for cell, t in enumerate(tiles):
        out[_mirror_cell(cell, width)] = _mirror_cell(t, width)
    return out


def _mirror_cell(cell: int, width: int) -> int:
    return cell % width * width + cell // width


def is_solvable(tiles: Sequence[int], width: int) -> bool:
    """Whether `tiles` can reach the blank-first goal."""
    values = [t for t in tiles if t]
    inversions = sum(1 for i, a in enumerate(values) for b in values[i + 1 :] if a > b)
    if width % 2:
        return inversions % 2 == 0
    return (inversions + list(tiles).index(0) // width) % 2 == 0


def manhattan(tiles: Sequence[int], width: int) -> int:
    """The sum of the tiles' Manhattan distances to their goal cells."""
    return sum(
        abs(cell // width - t // width) + abs(cell % width - t % width)
        for cell, t in enumerate(tiles)
        if t
    )


def _line_conflict(goals: list[int]) -> int:
    best: list[int] = []
    for i, g in enumerate(goals):
        best.append(1 + max((best[j] for j in range(i) if goals[j] < g), default=0))
    return 2 * (len(goals) - max(best, default=0))


def linear_conflicts(tiles: Sequence[int], width: int) -> int:
    """The linear-conflict term alone (add `manhattan` for the heuristic)."""
    height = len(tiles) // width
    total = 0
    for row in range(height):
        cells = tiles[row * width : (row + 1) * width]
        total += _line_conflict([t % width for t in cells if t and t // width == row])
    for col in range(width):
        cells = tiles[col::width]
        total += _line_conflict([t // width for t in cells if t and t % width == col])
    return total


def pattern_rank(cells: Sequence[int], n: int) -> int:
    """The rank of distinct `cells` (the pattern tiles' cells, in the pattern's order) as a
    k-permutation of n cells: c_i = cells[i] less the earlier cells below it, read as a
    mixed-radix number with digits of radix n, n-1, ... (the first most significant)."""
    rank = 0
    for i, q in enumerate(cells):
        rank = rank * (n - i) + q - sum(1 for p in cells[:i] if p < q)
    return rank


def table_size(n: int, k: int) -> int:
    """Entries of a k-tile pattern's table on n cells: n!/(n-k)!."""
    size = 1
    for i in range(k):
        size *= n - i
    return size


def build_pattern_python(width: int, height: int, tiles: Sequence[int]) -> bytearray:
    """The additive pattern database of `tiles`, in Python (the kernel's reference; fine
    for the 8-puzzle, hours for a 15-puzzle 6-tile pattern): breadth-first from the goal
    over (pattern tiles' cells, blank cell), a pattern tile's move costing 1 and a move of
    the blank into another cell 0; each entry is the least over the blank's cells."""
    n, k = width * height, len(tiles)
    dist: dict[tuple[int, ...], int] = {}
    start = (*tiles, 0)
    dist[start] = 0
    current, level = [start], 0
    while current:
        following: list[tuple[int, ...]] = []
        head = 0
        while head < len(current):
            state = current[head]
            head += 1
            if dist[state] != level:
                continue
            blank = state[k]
            for target in _neighbours(blank, width, n):
                cells = list(state)
                cells[k] = target
                cost = 0
                if target in state[:k]:
                    cells[state.index(target)] = blank
                    cost = 1
                child = tuple(cells)
                if cost == 0 and dist.get(child, 255) > level:
                    dist[child] = level
                    current.append(child)
                elif cost == 1 and child not in dist:
                    dist[child] = level + 1
                    following.append(child)
        current, level = following, level + 1
    table = bytearray([255]) * table_size(n, k)
    for state, d in dist.items():
        r = pattern_rank(state[:k], n)
        table[r] = min(table[r], d)
    return table


def _neighbours(blank: int, width: int, n: int) -> list[int]:
    """The cells the blank reaches by U, L, R, D (only the legal ones), in that order."""
    out = []
    if blank >= width:
        out.append(blank - width)
    if blank % width:
        out.append(blank - 1)
    if blank % width != width - 1:
        out.append(blank + 1)
    if blank + width < n:
        out.append(blank + width)
    return out


def build_pattern(
    width: int,
    height: int,
    tiles: Sequence[int],
    progress: Callable[[int, int, int], object] | None = None,
) -> bytearray:
    """`build_pattern_python`'s table, byte for byte, in the kernel where it was built
    (boards of at most `KERNEL_CELLS` cells, patterns of at most 8 tiles): breadth-first
    level by level over bitsets, about 3 bits a (tiles, blank) state besides the table.
    `progress(level, states, entries)` is called after each level in the kernel (the
    states reached at that level, the table entries first reached there)."""
    if _kernel is None or width * height > KERNEL_CELLS or len(tiles) > 8:
        return build_pattern_python(width, height, tiles)
    table = bytearray(table_size(width * height, len(tiles)))
    _kernel.build_pattern(width, height, tuple(tiles), table, progress)
    return table


def build_memory(width: int, height: int, k: int) -> int:
    """Bytes the kernel takes to build a k-tile pattern's table: the table and three bits
    per (tiles, blank) state."""
    n = width * height
    return table_size(n, k) + 3 * (table_size(n, k) * (n - k) // 8)


class PatternDatabase:
    """An additive pattern-database heuristic: a partition of the tiles into patterns and
    one table per pattern (bytes indexed by `pattern_rank`). With `reflect` (square boards),
    the tables are also looked up for the board's `mirror` and the larger sum taken (Korf &
    Felner's reflection: both sums are admissible, the mirror being as far from the goal)."""

    def __init__(
        self,
        width: int,
        height: int,
        patterns: Sequence[Sequence[int]],
        tables: Sequence,
        *,
        reflect: bool = False,
    ) -> None:
        self.width, self.height = width, height
        self.patterns = tuple(tuple(p) for p in patterns)
        self.tables = list(tables)
        self.reflect = reflect
        n = width * height
        if reflect and width != height:
            raise ValueError(f"reflection needs a square board, not {width}x{height}")
        for pattern, table in zip(self.patterns, self.tables, strict=True):
            if len(table) != table_size(n, len(pattern)):
                raise ValueError(f"table of pattern {pattern} has {len(table)} entries")

    @classmethod
    def build(
        cls, width: int, height: int, patterns: Sequence[Sequence[int]], *, reflect: bool = False
    ) -> PatternDatabase:
        """Builds every table in memory (the tests' small databases)."""
        tables = [build_pattern(width, height, p) for p in patterns]
        return cls(width, height, patterns, tables, reflect=reflect)

    @classmethod
    def load(
        cls,
        partition: str = "663",
        width: int | None = None,
        directory: Path | None = None,
        *,
        reflect: bool | None = None,
    ) -> PatternDatabase:
        """The cached tables of `PARTITIONS[partition]` (on its board, `partition_width`),
        mapped read-only, with the reflection if `reflect` (by default for the partitions in
        `REFLECTED`); FileNotFoundError names the command that builds them."""
        patterns = PARTITIONS[partition]
        width = width or partition_width(partition)
        if reflect is None:
            reflect = partition in REFLECTED
        tables = []
        for pattern in patterns:
            path = table_path(width, width, pattern, directory)
            if not path.exists():
                raise FileNotFoundError(
                    f"{path} is missing: build it with "
                    f"`python -m kibitz.games.sliding_pdb build --partition {partition}`"
                )
            with path.open("rb") as handle:
                tables.append(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
        return cls(width, width, patterns, tables, reflect=reflect)

    def value(self, tiles: Sequence[int]) -> int:
        """The heuristic value of `tiles` (the larger of it and its mirror's with `reflect`)."""
        value = self._sum(tiles)
        if self.reflect:
            value = max(value, self._sum(mirror(tiles, self.width)))
        return value

    def _sum(self, tiles: Sequence[int]) -> int:
        n = self.width * self.height
        where = [0] * n
        for cell, t in enumerate(tiles):
            where[t] = cell
        return sum(
            table[pattern_rank([where[t] for t in pattern], n)]
            for pattern, table in zip(self.patterns, self.tables, strict=True)
        )


def table_path(
    width: int, height: int, pattern: Sequence[int], directory: Path | None = None
) -> Path:
    """The file of one pattern's table."""
    name = f"{width}x{height}-" + "-".join(str(t) for t in pattern) + ".pdb"
    return (directory or pdb_dir()) / name


def build_partition(
    partition: str = "663",
    width: int | None = None,
    directory: Path | None = None,
    force: bool = False,
    verbose: bool = False,
) -> list[Path]:
    """Builds and saves the tables of `PARTITIONS[partition]` (on its board,
    `partition_width`) that are not cached yet; `verbose` prints each level."""
    width = width or partition_width(partition)
    directory = directory or pdb_dir()
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for pattern in PARTITIONS[partition]:
        path = table_path(width, width, pattern, directory)
        paths.append(path)
        if path.exists() and not force:
            continue
        start = time.perf_counter()
        levels: list[tuple[int, int]] = []
        table = build_pattern(width, width, pattern, _progress(levels, verbose))
        if 255 in table:
            raise RuntimeError(f"pattern {pattern}: unreached entries")
        partial = path.with_suffix(".part")
        partial.write_bytes(table)
        partial.replace(path)  # never a half-written table under the final name
        deepest = max((level for level, entries in levels if entries), default=max(table))
        print(
            f"{path}: {len(table):,} entries, max {deepest}, {time.perf_counter() - start:.1f} s",
            flush=True,
        )
    return paths


def _progress(levels: list[tuple[int, int]], verbose: bool) -> Callable[[int, int, int], None]:
    """A `build_pattern` progress callback that appends (level, entries) to `levels` and,
    if `verbose`, prints each level with the seconds since it was made."""
    start = time.perf_counter()

    def progress(level: int, states: int, entries: int) -> None:
        levels.append((level, entries))
        if verbose:
            print(
                f"  level {level:>2}: {states:>13,} states, {entries:>11,} entries, "
                f"{time.perf_counter() - start:7.1f} s",
                flush=True,
            )

    return progress


def _resolve(heuristic: str | PatternDatabase, width: int) -> str | PatternDatabase:
    """`heuristic` itself, the cached 6-6-3 databases for ``"pdb"``, those of partition P
    (with its default reflection) for ``"pdb-P"``; ValueError if unknown."""
    if isinstance(heuristic, PatternDatabase):
        return heuristic
    if heuristic == "pdb":
        return PatternDatabase.load("663", width)
    if heuristic.startswith("pdb-") and heuristic[4:] in PARTITIONS:
        return PatternDatabase.load(heuristic[4:], width)
    if heuristic not in _KINDS:
        names = [*HEURISTICS, "pdb", *(f"pdb-{name}" for name in PARTITIONS)]
        raise ValueError(f"unknown heuristic {heuristic!r}: {', '.join(names[:-1])} or {names[-1]}")
    return heuristic


def _heuristic_function(heuristic: str | PatternDatabase, width: int):
    heuristic = _resolve(heuristic, width)
    if isinstance(heuristic, PatternDatabase):
        return heuristic.value
    kind = _KINDS[heuristic]
    if kind == 0:
        return lambda tiles: manhattan(tiles, width)
    return lambda tiles: manhattan(tiles, width) + linear_conflicts(tiles, width)


def solve_python(
    tiles: Sequence[int],
    width: int,
    heuristic: str | PatternDatabase = "linear-conflicts",
    node_limit: int | None = None,
) -> tuple[list[str] | None, int, list[int]]:
    """`solve` in pure Python: the reference of the kernel's search."""
    h = _heuristic_function(heuristic, width)
    board = list(tiles)
    n = len(board)
    path: list[int] = []
    nodes = 0
    aborted = False
    next_threshold = 0

    def search(g: int, threshold: int, last: int) -> bool:
        nonlocal nodes, aborted, next_threshold
        nodes += 1
        if node_limit is not None and nodes >= node_limit:
            aborted = True
            return False
        value = h(board)
        f = g + value
        if f > threshold:
            next_threshold = min(next_threshold, f)
            return False
        if value == 0 and all(board[i] == i for i in range(n)):
            return True
        blank = board.index(0)
        for d, target in _moves(blank, width, n):
            if d == 3 - last:
                continue
            board[blank], board[target] = board[target], 0
            path.append(d)
            found = search(g + 1, threshold, d)
            board[target], board[blank] = board[blank], 0
            if found:
                return True
            path.pop()
            if aborted:
                return False
        return False

    threshold = h(board)
    thresholds = []
    infinity = 1 << 30
    while True:
        thresholds.append(threshold)
        next_threshold = infinity
        if search(0, threshold, -1):
            return [MOVES[d] for d in path], nodes, thresholds
        if aborted or next_threshold == infinity:
            return None, nodes, thresholds
        threshold = next_threshold


def _moves(blank: int, width: int, n: int) -> list[tuple[int, int]]:
    out = []
    if blank >= width:
        out.append((0, blank - width))
    if blank % width:
        out.append((1, blank - 1))
    if blank % width != width - 1:
        out.append((2, blank + 1))
    if blank + width < n:
        out.append((3, blank + width))
    return out


def solve(
    tiles: Sequence[int],
    width: int,
    heuristic: str | PatternDatabase = "linear-conflicts",
    node_limit: int | None = None,
    *,
    kernel: bool = True,
) -> tuple[list[str] | None, int, list[int]]:
    """IDA* from `tiles` to the blank-first goal: ``(pv, nodes, thresholds)``.

    - `tiles`: the cells row by row, 0 the blank (``len(tiles) % width == 0``; boards of more
      than `KERNEL_CELLS` cells run in Python); the board must be solvable (`is_solvable`),
      else IDA* does not end.
    - `heuristic`: ``"manhattan"``, ``"linear-conflicts"`` (Manhattan plus linear conflicts)
      or a `PatternDatabase` (``"pdb"``: ``PatternDatabase.load("663")``, the cached 6-6-3;
      ``"pdb-78"``: the 7-8 with reflection; any ``"pdb-"`` and a key of `PARTITIONS`).
    - `node_limit`: at most this many nodes, as the engine's limit: the search stops when
      the count reaches it (before that node's tests), ``pv = None``, ``nodes == node_limit``.
    - `pv`: the optimal solution as moves of the blank (``"U"``, ``"L"``, ``"R"``, ``"D"``),
      ``[]`` at the goal, None when stopped by `node_limit`; `nodes` as the module docstring
      counts them, over all iterations; `thresholds`: each iteration's threshold, the last
      one the solution's length when solved.
    - `kernel`: False runs `solve_python` even where the kernel was built.
    """
    if not kernel or _kernel is None or len(tiles) > KERNEL_CELLS:
        return solve_python(tiles, width, heuristic, node_limit)
    heuristic = _resolve(heuristic, width)
    if isinstance(heuristic, PatternDatabase):
        patterns = list(zip(heuristic.patterns, heuristic.tables, strict=True))
        path, nodes, thresholds = _kernel.solve(
            tuple(tiles), width, 2, patterns, node_limit, heuristic.reflect
        )
    else:
        path, nodes, thresholds = _kernel.solve(
            tuple(tiles), width, _KINDS[heuristic], (), node_limit
        )
    pv = None if path is None else [MOVES[d] for d in path]
    return pv, nodes, thresholds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.games.sliding_pdb",
        description="Builds the sliding puzzles' additive pattern databases into "
        "$KIBITZ_PDB_DIR (default ~/.cache/kibitz/pdb): 663 and 78 for the 15-puzzle, 6666 "
        "for the 24-puzzle.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the tables of a partition (skips cached ones)")
    build.add_argument("--partition", choices=sorted(PARTITIONS), default="663")
    build.add_argument("--dir", type=Path, help="where to write them")
    build.add_argument("--force", action="store_true", help="rebuild cached tables too")
    build.add_argument("--verbose", action="store_true", help="print each level")
    args = parser.parse_args(argv)
    if not kernel_available():
        print("warning: no compiled kernel: the Python build takes hours", file=sys.stderr)
    width = partition_width(args.partition)
    for pattern in PARTITIONS[args.partition]:
        size = table_size(width * width, len(pattern))
        print(
            f"{width}x{width} pattern {'-'.join(map(str, pattern))}: {size:,} bytes, "
            f"{build_memory(width, width, len(pattern)) / 2**30:.2f} GiB to build",
            flush=True,
        )
    for path in build_partition(args.partition, width, args.dir, args.force, args.verbose):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
