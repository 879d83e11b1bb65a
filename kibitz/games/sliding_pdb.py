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
  the Manhattan distance. The 15-puzzle's 6-6-3 partition (`PARTITIONS["663"]`) takes
  5,765,760 + 5,765,760 + 3,360 bytes; its tables are built once by::

      python -m kibitz.games.sliding_pdb build     # 1-2 minutes with the kernel, 11.5 MB

  into ``$KIBITZ_PDB_DIR`` (default ``~/.cache/kibitz/pdb``), outside git, and mapped
  read-only (`mmap`) when loaded. The 7-8 partition (`PARTITIONS["78"]`, with its reflection
  about the main diagonal in Korf & Felner) needs 518,918,400 bytes for the 8-tile table and
  a breadth-first search over its 8 tiles and the blank, 16!/7! = 4,151,347,200 states. The
  builder here keeps a byte of distance and two 8-byte queue slots per state: about 70 GB
  for that pattern (9 GB for the 7-tile one), so `build --partition 78` is only for a large
  machine; a builder that scans the distance array level by level instead of keeping
  queues (4.2 GB, or 2.1 GB at 4 bits a state) is the way to build it on a laptop.
  The reflection (a second lookup of the board mirrored about the main diagonal, the
  larger value taken) is not implemented.

`solve` is IDA* (Korf 1985) with the node-counting convention of kibitz's `idastar` engine: a
node is counted on each entry of the recursive search, root included, positions cut off
(g + h > threshold) included; the goal test comes after the cut-off test; the thresholds
start at h(root), then take the least f cut off in the previous iteration. It runs in the
compiled kernel (`kibitz/games/_sliding_kernel.pyx`) where that was built, else in
`solve_python`, the reference the kernel is tested against node for node.
"""

from __future__ import annotations

import argparse
import mmap
import os
import sys
import time
from collections.abc import Sequence
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
}

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


def build_pattern(width: int, height: int, tiles: Sequence[int]) -> bytearray:
    """`build_pattern_python`'s table, in the kernel where it was built (boards of at most
    16 cells)."""
    if _kernel is None or width * height > 16:
        return build_pattern_python(width, height, tiles)
    table = bytearray(table_size(width * height, len(tiles)))
    _kernel.build_pattern(width, height, tuple(tiles), table)
    return table


class PatternDatabase:
    """An additive pattern-database heuristic: a partition of the tiles into patterns and
    one table per pattern (bytes indexed by `pattern_rank`)."""

    def __init__(
        self, width: int, height: int, patterns: Sequence[Sequence[int]], tables: Sequence
    ) -> None:
        self.width, self.height = width, height
        self.patterns = tuple(tuple(p) for p in patterns)
        self.tables = list(tables)
        n = width * height
        for pattern, table in zip(self.patterns, self.tables, strict=True):
            if len(table) != table_size(n, len(pattern)):
                raise ValueError(f"table of pattern {pattern} has {len(table)} entries")

    @classmethod
    def build(cls, width: int, height: int, patterns: Sequence[Sequence[int]]) -> PatternDatabase:
        """Builds every table in memory (the tests' small databases)."""
        return cls(width, height, patterns, [build_pattern(width, height, p) for p in patterns])

    @classmethod
    def load(
        cls, partition: str = "663", width: int = 4, directory: Path | None = None
    ) -> PatternDatabase:
        """The cached tables of `PARTITIONS[partition]`, mapped read-only; FileNotFoundError
        names the command that builds them."""
        patterns = PARTITIONS[partition]
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
        return cls(width, width, patterns, tables)

    def value(self, tiles: Sequence[int]) -> int:
        """The heuristic value of `tiles`."""
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
    partition: str = "663", width: int = 4, directory: Path | None = None, force: bool = False
) -> list[Path]:
    """Builds and saves the tables of `PARTITIONS[partition]` that are not cached yet."""
    directory = directory or pdb_dir()
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for pattern in PARTITIONS[partition]:
        path = table_path(width, width, pattern, directory)
        paths.append(path)
        if path.exists() and not force:
            continue
        start = time.perf_counter()
        table = build_pattern(width, width, pattern)
        if 255 in table:
            raise RuntimeError(f"pattern {pattern}: unreached entries")
        partial = path.with_suffix(".part")
        partial.write_bytes(table)
        partial.replace(path)  # never a half-written table under the final name
        print(
            f"{path}: {len(table):,} entries, max {max(table)}, "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
    return paths


def _resolve(heuristic: str | PatternDatabase, width: int) -> str | PatternDatabase:
    """`heuristic` itself, the cached 6-6-3 databases for ``"pdb"``; ValueError if unknown."""
    if isinstance(heuristic, PatternDatabase):
        return heuristic
    if heuristic == "pdb":
        return PatternDatabase.load("663", width)
    if heuristic not in _KINDS:
        raise ValueError(f"unknown heuristic {heuristic!r}: {', '.join(HEURISTICS)} or pdb")
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
      or a `PatternDatabase` (``"pdb"``: ``PatternDatabase.load("663")``, the cached 6-6-3).
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
        path, nodes, thresholds = _kernel.solve(tuple(tiles), width, 2, patterns, node_limit)
    else:
        path, nodes, thresholds = _kernel.solve(
            tuple(tiles), width, _KINDS[heuristic], (), node_limit
        )
    pv = None if path is None else [MOVES[d] for d in path]
    return pv, nodes, thresholds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.games.sliding_pdb",
        description="Builds the 15-puzzle's additive pattern databases into $KIBITZ_PDB_DIR "
        "(default ~/.cache/kibitz/pdb).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the tables of a partition (skips cached ones)")
    build.add_argument("--partition", choices=sorted(PARTITIONS), default="663")
    build.add_argument("--dir", type=Path, help="where to write them")
    build.add_argument("--force", action="store_true", help="rebuild cached tables too")
    args = parser.parse_args(argv)
    if not kernel_available():
        print("warning: no compiled kernel: the Python build takes hours", file=sys.stderr)
    for path in build_partition(args.partition, 4, args.dir, args.force):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
