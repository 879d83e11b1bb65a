"""Double-dummy bridge tables (`python -m benchmarks.bridge`, or a part of `python -m
benchmarks`; see benchmarks/README.md, "Bridge: double-dummy tables").

DDS's `hands/list100.txt` (tests/data/bridge/): for each deal the full 20-cell table (five
strains, four declarers) by kibitz's solver (the compiled kernel, `kibitz.engines.dds`) and by
DDS itself through endplay's bindings (`calc_dd_table`, with DDS held to one thread by
`SetMaxThreads(1)`), in the same run, one deal after the other. Every cell of both is checked
against the table published in the file; the time per table is reported for each, with the
ratio. The single-threaded bridge-solver (dds-bridge/dds issue #367) is quoted at about 87 ms
per table on the same file, on its author's machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from kibitz.engines.dds import best_solver, solver

LIST100 = Path(__file__).parent.parent / "tests" / "data" / "bridge" / "list100.txt"
BRIDGE_SOLVER_MS = 87  # per table, single-threaded, quoted in dds-bridge/dds issue #367
QUICK_DEALS = 5


def list100() -> list[tuple[str, list[list[int]]]]:
    """(PBN deal, published table [strain][declarer]) of each deal of list100.txt."""
    deals: list[tuple[str, list[list[int]]]] = []
    pbn = None
    for line in LIST100.read_text().splitlines():
        if line.startswith("PBN "):
            pbn = line.split('"')[1]
        elif line.startswith("TABLE ") and pbn is not None:
            cells = [int(field) for field in line.split()[1:]]
            deals.append((pbn, [cells[4 * strain : 4 * strain + 4] for strain in range(5)]))
            pbn = None
    return deals


def _right(table: list[list[int]], published: list[list[int]]) -> int:
    """How many of the 20 cells equal the published ones."""
    return sum(
        a == b
        for row, prow in zip(table, published, strict=True)
        for a, b in zip(row, prow, strict=True)
    )


def _dds_table():
    """endplay's single-threaded DDS table function, or None where endplay is missing."""
    try:
        import endplay._dds as dds_library
        from endplay.dds import calc_dd_table
        from endplay.types import Deal
    except ImportError:
        return None
    dds_library.SetMaxThreads(1)
    return lambda pbn: calc_dd_table(Deal(pbn)).to_list()


def run(quick: bool = False, deals: int | None = None) -> bool:
    """Times both solvers on the first `deals` deals; True when every cell is right."""
    rows = list100()[: deals or (QUICK_DEALS if quick else len(list100()))]
    dds_table = _dds_table()
    solver_class = best_solver()
    ours: list[float] = []
    theirs: list[float] = []
    ours_right = theirs_right = 0
    for pbn, published in rows:
        hands = solver.parse_hands(pbn)
        start = time.perf_counter()
        table = solver.dd_table(hands, solver_class)
        ours.append(time.perf_counter() - start)
        ours_right += _right(table, published)
        if dds_table is not None:
            start = time.perf_counter()
            table = dds_table(pbn)
            theirs.append(time.perf_counter() - start)
            theirs_right += _right(table, published)
    cells = 20 * len(rows)
    kind = "kernel" if solver_class is not solver.Solver else "pure Python"
    print(f"Bridge: double-dummy tables, DDS's list100 ({len(rows)} deals, {cells} cells)")
    print(f"{'solver':<26}{'right':>11}{'mean ms':>10}{'median':>9}{'worst':>9}{'ratio':>8}")
    mean_ours = statistics.fmean(ours)
    print(
        f"{'kibitz dds (' + kind + ')':<26}{ours_right:>5}/{cells:<5}{1000 * mean_ours:>10.0f}"
        f"{1000 * statistics.median(ours):>9.0f}{1000 * max(ours):>9.0f}"
        f"{mean_ours / statistics.fmean(theirs) if theirs else float('nan'):>8.1f}"
    )
    if theirs:
        print(
            f"{'DDS (endplay, 1 thread)':<26}{theirs_right:>5}/{cells:<5}"
            f"{1000 * statistics.fmean(theirs):>10.0f}{1000 * statistics.median(theirs):>9.0f}"
            f"{1000 * max(theirs):>9.0f}{1.0:>8.1f}"
        )
    else:
        print("DDS (endplay) not installed: no peer row")
    print(f"{'bridge-solver (published)':<26}{'':>11}{BRIDGE_SOLVER_MS:>10}   (dds issue #367)")
    return ours_right == cells


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bridge", description=__doc__)
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_DEALS} deals")
    parser.add_argument("--deals", type=int, metavar="N", help="the first N deals (default 100)")
    args = parser.parse_args(argv)
    return 0 if run(quick=args.quick, deals=args.deals) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
