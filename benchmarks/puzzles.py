"""Single-agent search on sliding puzzles (`python -m benchmarks.puzzles`, or a part of
`python -m benchmarks`; see benchmarks/README.md, "Sliding puzzles").

(a) Korf's 100 15-puzzle instances (tests/data/korf100/) with IDA* in the compiled kernel
(`kibitz.games.sliding_pdb.solve`): Manhattan distance plus linear conflicts, the additive
6-6-3 pattern databases and the 7-8 ones with their reflection (built once by ``python -m
kibitz.games.sliding_pdb build`` and ``build --partition 78``; without them a row is
skipped, saying so). Solved count, every length against the published one, nodes and time
per instance, next to Korf & Felner's published averages and to the course's Java figures
on five instances.

(b) The 8-puzzle: 100 seeded random solvable boards, A* (the `astar` engine, in Python)
with each heuristic of the game (misplaced tiles, Manhattan, linear conflicts): states
expanded next to the course's averages.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

KORF = Path(__file__).parent.parent / "tests" / "data" / "korf100" / "korf100.txt"

KORF_FELNER_2002 = {  # average nodes generated on Korf's 100, Korf & Felner (2002), Table 2
    "Manhattan": 401_189_630,
    "6-6-3 PDB": 617_555,
    "7-8 PDB + reflection": 36_710,
}
COURSE_JAVA = {  # the course's Java IDA*, Manhattan + linear conflicts: instance: (nodes, s)
    85: (1.5e7, 12.3),
    5: (2.6e7, 20.4),
    2: (3.8e7, 31.2),
    54: (1.9e8, 150.5),
    1: (2.5e8, 212.3),
}
COURSE_8_PUZZLE = {  # the course's A* averages, states expanded, on random 8-puzzles
    "misplaced": 12_263.89,
    "manhattan": 1_024.44,
    "linear-conflicts": 530.14,
}
QUICK_INSTANCES = 10
HEURISTICS = {  # --heuristics: the rows of part (a), by key: name, then the partition or None
    "lc": ("Manhattan + linear conflicts", None),
    "663": ("6-6-3 PDB", "663"),
    "78": ("7-8 PDB + reflection", "78"),
}
EIGHT_PUZZLE_BOARDS = 100
EIGHT_PUZZLE_SEED = 2002


def korf100() -> list[tuple[int, int, int, list[int]]]:
    """(number, optimal length, Korf's 1985 IDA* node count, tiles) of the 100 instances."""
    rows = []
    for line in KORF.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fields = [int(word) for word in line.split()]
            rows.append((fields[0], fields[1], fields[2], fields[3:]))
    return rows


def easiest(count: int) -> list[tuple[int, int, int, list[int]]]:
    """The `count` instances with the fewest nodes in Korf's 1985 run, in their order."""
    rows = korf100()
    chosen = {row[0] for row in sorted(rows, key=lambda row: row[2])[:count]}
    return [row for row in rows if row[0] in chosen]


def solve_all(instances, heuristic) -> list[tuple[int, int, int, int, float]]:
    """(number, published length, our length, nodes, seconds) for each instance."""
    from kibitz.games import sliding_pdb

    out = []
    for number, length, _, tiles in instances:
        start = time.perf_counter()
        pv, nodes, _ = sliding_pdb.solve(tiles, 4, heuristic)
        seconds = time.perf_counter() - start
        out.append((number, length, -1 if pv is None else len(pv), nodes, seconds))
        print(
            f"    #{number:<3} length {out[-1][2]:>2} (published {length})  "
            f"{nodes:>13,} nodes  {seconds:8.2f} s",
            flush=True,
        )
    return out


def korf(
    quick: bool, instances: list[int] | None = None, keys: Sequence[str] = tuple(HEURISTICS)
) -> bool:
    """Part (a) with the rows `keys` of `HEURISTICS`; False if a length differs from the
    published one."""
    from kibitz.games import sliding_pdb

    if not sliding_pdb.kernel_available():
        print("Korf's 100: skipped (the sliding kernel was not built; Python would take days)")
        return True
    rows = korf100()
    if instances:
        chosen = [rows[number - 1] for number in instances]
    else:
        chosen = easiest(QUICK_INSTANCES) if quick else rows
    label = f"{len(chosen)} instances" + (" (the easiest by Korf's 1985 counts)" if quick else "")
    print(f"Korf's 100 15-puzzle instances, IDA* in the compiled kernel: {label}")
    heuristics: list[tuple[str, object]] = []
    for key in keys:
        name, partition = HEURISTICS[key]
        if partition is None:
            heuristics.append((name, "linear-conflicts"))
            continue
        try:  # the 7-8 with its reflection, as Korf & Felner (`REFLECTED`)
            heuristics.append((name, sliding_pdb.PatternDatabase.load(partition)))
        except FileNotFoundError as missing:
            print(f"  {name}: skipped ({missing})")
    ok = True
    summary = []
    for name, heuristic in heuristics:
        print(f"  {name}:")
        results = solve_all(chosen, heuristic)
        solved = sum(1 for r in results if r[2] >= 0)
        exact = all(r[1] == r[2] for r in results)
        ok &= exact
        nodes = statistics.fmean(r[3] for r in results)
        seconds = statistics.fmean(r[4] for r in results)
        total = sum(r[4] for r in results)
        summary.append((name, solved, exact, nodes, seconds, total, results))
    print()
    print(
        f"  {'heuristic':<30} {'solved':>7} {'lengths':>9} {'nodes/instance':>15} "
        f"{'s/instance':>11} {'Mnodes/s':>9}"
    )
    for name, solved, exact, nodes, seconds, total, results in summary:
        rate = sum(r[3] for r in results) / total / 1e6 if total else 0.0
        print(
            f"  {name:<30} {solved:>3}/{len(results):<3} "
            f"{'= pub.' if exact else 'DIFFER':>9} {nodes:>15,.0f} {seconds:>11.3f} {rate:>9.1f}"
        )
    print("  published (Korf & Felner 2002, all 100, nodes generated per instance):")
    for name, nodes in KORF_FELNER_2002.items():
        ours = next((row for row in summary if row[0] == name), None)
        ratio = ""
        if ours is not None and len(ours[6]) == 100:
            ratio = f"   ours / theirs = {ours[3] / nodes:.2f}"
        print(f"    {name:<28} {nodes:>15,}{ratio}")
    lc = next((row for row in summary if row[0].startswith("Manhattan")), None)
    if lc is not None:
        by_number = {r[0]: r for r in lc[6]}
        shown = [n for n in COURSE_JAVA if n in by_number]
        if shown:
            print("  the course's Java IDA* (Manhattan + linear conflicts) on the same instances:")
            print(
                f"    {'#':>4} {'Java nodes':>12} {'Java s':>8} {'our nodes':>13} {'our s':>8} "
                f"{'nodes ratio':>12} {'speed-up':>9}"
            )
            for number in shown:
                java_nodes, java_s = COURSE_JAVA[number]
                _, _, _, nodes, seconds = by_number[number]
                print(
                    f"    {number:>4} {java_nodes:>12.2g} {java_s:>8.1f} {nodes:>13,} "
                    f"{seconds:>8.2f} {nodes / java_nodes:>12.2f} {java_s / seconds:>8.0f}x"
                )
    return ok


def random_boards(count: int, seed: int) -> list[list[int]]:
    """`count` seeded random solvable 8-puzzle boards (uniform over the solvable half)."""
    from kibitz.games import sliding_pdb

    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        tiles = list(range(9))
        rng.shuffle(tiles)
        if sliding_pdb.is_solvable(tiles, 3) and tiles != list(range(9)):
            boards.append(tiles)
    return boards


def eight_puzzle(count: int) -> bool:
    """Part (b); False if two heuristics disagree on a length."""
    try:
        from kibitz.engines import Limits, SearchContext
        from kibitz.engines.single import AStar
        from kibitz.games.sliding import SlidingPuzzle
    except ImportError as missing:
        print(f"8-puzzle A*: skipped ({missing})")
        return True
    boards = random_boards(count, EIGHT_PUZZLE_SEED)
    print(
        f"8-puzzle: {count} random solvable boards (seed {EIGHT_PUZZLE_SEED}), A* (the astar "
        "engine, Python); expanded = positions taken off the open list less the goal"
    )
    print(
        f"  {'heuristic':<18} {'expanded (mean)':>16} {'course':>10} {'ratio':>6} "
        f"{'median':>8} {'ms/board':>9}"
    )
    lengths: dict[str, list[float]] = {}
    for name, course in COURSE_8_PUZZLE.items():
        expanded, seconds = [], 0.0
        lengths[name] = []
        for tiles in boards:
            state = SlidingPuzzle.from_position(",".join(map(str, tiles)))
            start = time.perf_counter()
            result = AStar({"Heuristic": name}).search(state, Limits(), SearchContext())
            seconds += time.perf_counter() - start
            expanded.append(result.nodes - 1)
            lengths[name].append(len(result.pv))
        mean = statistics.fmean(expanded)
        print(
            f"  {name:<18} {mean:>16,.2f} {course:>10,.2f} {mean / course:>6.2f} "
            f"{statistics.median(expanded):>8,.0f} {1000 * seconds / count:>9.1f}"
        )
    same = len({tuple(v) for v in lengths.values()}) == 1
    print(
        f"  solution lengths: {'the same' if same else 'DIFFER'} under the three heuristics, "
        f"mean {statistics.fmean(next(iter(lengths.values()))):.2f} moves"
    )
    return same


def run(
    quick: bool = False,
    instances: list[int] | None = None,
    eight: int | None = None,
    keys: Sequence[str] = tuple(HEURISTICS),
) -> bool:
    ok = korf(quick, instances, keys)
    if eight != 0:
        print()
        ok &= eight_puzzle(eight or (20 if quick else EIGHT_PUZZLE_BOARDS))
    return ok


def heuristic_keys(text: str) -> tuple[str, ...]:
    """`--heuristics`: keys of `HEURISTICS`, comma-separated."""
    keys = tuple(text.split(","))
    unknown = [key for key in keys if key not in HEURISTICS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown {', '.join(unknown)}: choose among {', '.join(HEURISTICS)}"
        )
    return keys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.puzzles", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"the {QUICK_INSTANCES} easiest of Korf's 100, 20 8-puzzles",
    )
    parser.add_argument(
        "--instances",
        type=lambda text: [int(n) for n in text.split(",")],
        help="Korf instances to run, by number, comma-separated (e.g. 85,5,2,54,1)",
    )
    parser.add_argument(
        "--eight", type=int, metavar="N", help="8-puzzle boards (default 100; 0: none)"
    )
    parser.add_argument(
        "--heuristics",
        type=heuristic_keys,
        default=tuple(HEURISTICS),
        help=f"the rows of Korf's 100, comma-separated among {','.join(HEURISTICS)} "
        "(default: all; e.g. 663,78 leaves out the 4-minute linear conflicts)",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    ok = run(args.quick, args.instances, args.eight, args.heuristics)
    print(f"\n({time.perf_counter() - start:.0f} s in all)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
