"""Constraint satisfaction (`python -m benchmarks.csp`, or a part of `python -m benchmarks`;
see benchmarks/README.md, "Constraint satisfaction").

The `csp` engine in-process next to two peers given the same model: python-constraint2 (a
general CSP library in Python, compiled with Cython) and OR-Tools' CP-SAT (the industrial
solver), each in a process of its own (benchmarks/csp_peers.py). Every solution is checked here,
independently of the solvers' models: a sudoku's rows, columns and boxes and its givens,
the queens' lines, the zebra puzzle's clues.

(a) Sudoku: Project Euler 96's 50 boards, Norvig's top95 and hardest
(tests/data/sudoku/): solved count, mean and max milliseconds, mean nodes, next to the
course's best-first search on the Euler boards. (b) Counting: all 288 4x4 sudoku grids and
the N-queens solutions next to the published counts. (c) The zebra puzzle: its answer,
proven unique. (d) Ablation: the engine's nodes with plain backtracking, then with MRV,
forward checking and MAC added, on the sudoku sets. (e) One solution of N-queens for
large N (16, 32, 64), each solution checked.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import select
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kibitz.engines import ENGINES, Bound, Limits, SearchContext
from kibitz.games import GAMES

ROOT = Path(__file__).parent.parent
DATA = ROOT / "tests" / "data" / "sudoku"
SETS = {  # name: file, one puzzle a line
    "euler96": DATA / "euler96.txt",
    "top95": DATA / "norvig-top95.txt",
    "hardest": DATA / "norvig-hardest.txt",
}
COURSE_EULER = (166.92, 11.88)
"""The course's best-first search on the 50 Project Euler boards: states, ms (means)."""
QUEENS_PUBLISHED = {
    4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712
}  # fmt: skip
"""Solutions of the N-queens puzzle (OEIS A000170)."""
SUDOKU_4X4_GRIDS = 288
QUICK_PUZZLES = 5
QUICK_QUEENS = 7
QUEENS = 10
LARGE_QUEENS = (16, 32, 64)
"""The N of part (e): one solution each, the first solve of its model in the process."""
QUICK_LARGE_QUEENS = (16,)
PUZZLE_CAP = 60.0
"""kibitz's time cap per puzzle, seconds (a capped puzzle counts as unsolved)."""
PEER_CAP = 5.0
"""The peers' time cap per puzzle, seconds (they are stopped by killing their process)."""
QUICK_PEER_CAP = 2.0
COUNT_CAP = 120.0
"""The peers' time cap per count, seconds."""
ABLATION_NODES = 20_000
QUICK_ABLATION_NODES = 2_000
ABLATION = (  # label: the `csp` engine's options
    ("backtracking", {"VariableOrder": "static", "Propagation": "none", "Preprocess": "none"}),
    ("+ MRV", {"VariableOrder": "mrv", "Propagation": "none", "Preprocess": "none"}),
    (
        "+ forward checking",
        {"VariableOrder": "mrv", "Propagation": "forward", "Preprocess": "none"},
    ),
    ("+ MAC", {"VariableOrder": "mrv", "Propagation": "mac", "Preprocess": "none"}),
    ("defaults", {}),
)
ORTOOLS_PYTHON = ROOT / ".venv" / "ortools" / "bin" / "python"
"""The interpreter of CP-SAT's environment (scripts/bench.sh makes it); KIBITZ_ORTOOLS_PYTHON
names another."""
DIGITS = "123456789ABCDEFG"


# -- the model every peer reads ------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """A constraint model as plain data: variables 0..n-1 with their `domains`, groups that
    are `all_different`, and `binary` constraints ``(kind, i, j, k)``: ``offset`` (x_i ==
    x_j + k), ``distance`` (|x_i - x_j| == k), ``not-distance`` (|x_i - x_j| != k)."""

    domains: list[list[int]]
    all_different: list[list[int]]
    binary: list[tuple[str, int, int, int]] = field(default_factory=list)


def read_set(name: str) -> list[str]:
    """The puzzles of a sudoku set, one 81-character line each."""
    return [line.strip() for line in SETS[name].read_text().splitlines() if line.strip()]


def givens(line: str) -> list[int | None]:
    """The digits of a sudoku line by cell (None: blank)."""
    return [None if char in ".0" else DIGITS.index(char) + 1 for char in line]


def sudoku_problem(line: str) -> Problem:
    """Sudoku: a variable per cell (row by row), its domain 1..n or its given, and an
    all-different per row, column and box."""
    size = math.isqrt(len(line))
    box = math.isqrt(size)
    cells = range(size)
    rows = [[row * size + column for column in cells] for row in cells]
    columns = [[row * size + column for row in cells] for column in cells]
    boxes = [
        [(top + row) * size + left + column for row in range(box) for column in range(box)]
        for top in range(0, size, box)
        for left in range(0, size, box)
    ]
    domains = [list(range(1, size + 1)) if given is None else [given] for given in givens(line)]
    return Problem(domains, rows + columns + boxes)


def queens_problem(size: int) -> Problem:
    """N-queens: a variable per row, the queen's column; all columns different and no two
    queens on a diagonal (a pairwise constraint)."""
    binary = [
        ("not-distance", first, second, second - first)
        for first in range(size)
        for second in range(first + 1, size)
    ]
    return Problem([list(range(size)) for _ in range(size)], [list(range(size))], binary)


ZEBRA_GROUPS = (
    ("englishman", "spaniard", "ukrainian", "norwegian", "japanese"),
    ("red", "green", "ivory", "yellow", "blue"),
    ("coffee", "tea", "milk", "orange juice", "water"),
    ("old gold", "kools", "chesterfields", "lucky strike", "parliaments"),
    ("dog", "snails", "fox", "horse", "zebra"),
)
ZEBRA_NAMES = tuple(name for group in ZEBRA_GROUPS for name in group)
"""The zebra puzzle's 25 variables, each the house (1-5, left to right) of one thing."""
ZEBRA_CLUES = (  # (kind, a, b): same house, a right of b, next to each other, a in house b
    ("same", "englishman", "red"),
    ("same", "spaniard", "dog"),
    ("same", "coffee", "green"),
    ("same", "ukrainian", "tea"),
    ("right", "green", "ivory"),
    ("same", "old gold", "snails"),
    ("same", "kools", "yellow"),
    ("house", "milk", 3),
    ("house", "norwegian", 1),
    ("next", "chesterfields", "fox"),
    ("next", "kools", "horse"),
    ("same", "lucky strike", "orange juice"),
    ("same", "japanese", "parliaments"),
    ("next", "norwegian", "blue"),
)
"""The clues of the puzzle as Life International printed it (1962): five houses in a row,
each of one colour, nationality, drink, smoke and pet."""


def zebra_problem() -> Problem:
    """The zebra puzzle: 25 variables with domains 1-5, all-different per group, a binary
    constraint per clue relating two things and a one-value domain per clue fixing one."""
    index = {name: number for number, name in enumerate(ZEBRA_NAMES)}
    domains = [[1, 2, 3, 4, 5] for _ in ZEBRA_NAMES]
    binary: list[tuple[str, int, int, int]] = []
    kinds = {"same": ("offset", 0), "right": ("offset", 1), "next": ("distance", 1)}
    for kind, first, second in ZEBRA_CLUES:
        if kind == "house":
            domains[index[first]] = [int(second)]
        else:
            relation, offset = kinds[kind]
            binary.append((relation, index[first], index[str(second)], offset))
    groups = [[index[name] for name in group] for group in ZEBRA_GROUPS]
    return Problem(domains, groups, binary)


# -- the independent checks -----------------------------------------------------------------


def sudoku_solved(line: str, values: Sequence[int | None] | None) -> bool:
    """Whether `values` (by cell, row by row) fill the grid of `line`: its givens kept, and
    every row, column and box holding each digit once."""
    if values is None or len(values) != len(line) or None in values:
        return False
    if any(
        given is not None and given != value
        for given, value in zip(givens(line), values, strict=True)
    ):
        return False
    size = math.isqrt(len(line))
    box = math.isqrt(size)
    full = set(range(1, size + 1))
    for unit in range(size):
        top, left = box * (unit // box), box * (unit % box)
        row = {values[unit * size + column] for column in range(size)}
        column = {values[row_ * size + unit] for row_ in range(size)}
        square = {
            values[(top + down) * size + left + across]
            for down in range(box)
            for across in range(box)
        }
        if not row == column == square == full:
            return False
    return True


def queens_solved(values: Sequence[int]) -> bool:
    """Whether `values` (a column per row, counted from 0 or 1 alike) place non-attacking
    queens."""
    return len(set(values)) == len(values) and all(
        abs(values[first] - values[second]) != second - first
        for first in range(len(values))
        for second in range(first + 1, len(values))
    )


def zebra_answer(houses: dict[str, int]) -> str | None:
    """Who owns the zebra and who drinks water, where `houses` (each thing's house) obey
    every clue and put each group's things in different houses; None where they do not."""
    if set(houses) != set(ZEBRA_NAMES):
        return None
    if any(len({houses[name] for name in group}) != 5 for group in ZEBRA_GROUPS):
        return None
    tests: dict[str, Callable[[int, int], bool]] = {
        "same": lambda a, b: a == b,
        "right": lambda a, b: a == b + 1,
        "next": lambda a, b: abs(a - b) == 1,
        "house": lambda a, b: a == b,
    }
    for kind, first, second in ZEBRA_CLUES:
        wanted = second if kind == "house" else houses[str(second)]
        if not tests[kind](houses[first], int(wanted)):
            return None
    owner = {houses[nation]: nation for nation in ZEBRA_GROUPS[0]}
    return f"{owner[houses['zebra']]} owns the zebra, {owner[houses['water']]} drinks water"


# -- the solvers ------------------------------------------------------------------------------


@dataclass
class Run:
    """What a solver answered on one problem."""

    values: list[int] | None
    """The first solution, by variable (None: none found)."""
    solutions: int
    """The solutions found: all of them when counting, else 0 or 1."""
    seconds: float
    nodes: int | None = None
    """The solver's node count, where it reports one (CP-SAT: branches)."""
    complete: bool = True
    """False where a limit cut the search."""


class Peer:
    """A peer solver in a child process (benchmarks/csp_peers.py; a context manager): a
    request that outlasts its cap kills the process, answers "not solved", and the next
    request starts a new one."""

    def __init__(self, label: str, solver: str, python: Path) -> None:
        self.label = label
        self.solver = solver
        self.python = python
        self.process: subprocess.Popen[str] | None = None

    @staticmethod
    def available() -> list[Peer]:
        """The peers installed: python-constraint2 in this environment, CP-SAT in its own
        (`ORTOOLS_PYTHON`); each missing one is named on stdout."""
        found = []
        if importlib.util.find_spec("constraint") is not None:
            found.append(Peer("python-constraint2", "python-constraint2", Path(sys.executable)))
        else:
            print("python-constraint2: skipped (missing: bash scripts/bench.sh installs it)")
        ortools = Path(os.environ.get("KIBITZ_ORTOOLS_PYTHON", ORTOOLS_PYTHON))
        if ortools.is_file():
            found.append(Peer("OR-Tools CP-SAT", "cpsat", ortools))
        else:
            print(
                f"OR-Tools CP-SAT: skipped ({ortools} is missing: bash scripts/bench.sh makes it)"
            )
        return found

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def __call__(self, problem: Problem, count: bool = False, cap: float = PEER_CAP) -> Run:
        """Solve (or count) `problem` within `cap` seconds."""
        if self.process is None:
            self.process = subprocess.Popen(
                [str(self.python), "-m", "benchmarks.csp_peers", self.solver],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            self._ask(Problem([[1]], []), False, 60.0)  # the imports, before the clock runs
        answer = self._ask(problem, count, cap)
        if answer is None:
            self.close()
            return Run(None, 0, cap, complete=False)
        return Run(answer["values"], answer["solutions"], answer["seconds"], answer.get("nodes"))

    def _ask(self, problem: Problem, count: bool, cap: float) -> dict | None:
        assert self.process is not None and self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps({"problem": asdict(problem), "count": count}) + "\n")
        self.process.stdin.flush()
        if not select.select([self.process.stdout], [], [], cap)[0]:
            return None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.label} ended without an answer")
        return json.loads(line)


@dataclass
class Kibitz:
    """The `csp` engine in-process on one of kibitz's games."""

    game: str
    options: dict[str, object] = field(default_factory=dict)

    def __call__(
        self, position: str, count: bool = False, nodes: int | None = None, cap: float = PUZZLE_CAP
    ) -> Run:
        """Solve (or count) from `position` within `cap` seconds; the values are by the
        model's variables."""
        options = dict(self.options, CountSolutions=True) if count else self.options
        engine = ENGINES["csp"](options)
        start = time.perf_counter()
        state = GAMES[self.game].from_position(position)
        limits = Limits(solve=True, nodes=nodes, max_time=cap)
        result = engine.search(state, limits, SearchContext())
        seconds = time.perf_counter() - start
        values = state.assignment()
        for variable, value in result.pv:
            values[variable] = value
        solved = None not in values and state.constraint_model().violated(values) is None
        if count:
            solutions = int(result.stats.get("solutions", 0))
            complete = bool(result.stats.get("count_complete", 0))
        else:
            solutions, complete = int(solved), solved or result.score.bound == Bound.EXACT
        return Run(values if solved else None, solutions, seconds, result.nodes, complete)

    def names(self, position: str) -> tuple[str, ...]:
        """The model's variable names at `position`."""
        return GAMES[self.game].from_position(position).constraint_model().variables


def by_cell(names: Sequence[str], values: Sequence[int], size: int) -> list[int]:
    """Sudoku values by cell, row by row, from values by variables named ``r<row>c<col>``."""
    cells = [0] * (size * size)
    for name, value in zip(names, values, strict=True):
        row, column = name[1:].split("c")
        cells[(int(row) - 1) * size + int(column) - 1] = value
    return cells


# -- the tables -------------------------------------------------------------------------------


def mean_ms(runs: Sequence[Run]) -> str:
    """The mean milliseconds of `runs`, marked >= where a cap cut one (its cap counted)."""
    bound = "" if all(run.complete for run in runs) else ">="
    return f"{bound}{1000 * statistics.fmean(run.seconds for run in runs):.2f}"


def sudoku(sets: dict[str, list[str]], peers: Sequence[Peer], cap: float) -> bool:
    """Part (a); False if kibitz missed a puzzle or any solver's solution failed the check
    (a peer stopped at its cap is no failure)."""
    print(
        "Sudoku: the puzzles one after the other on one core, each solution checked (givens "
        "kept; every row, column and box 1-9); ms per puzzle, from reading it to the "
        f"solution; the peers' cap {cap:g} s a puzzle (a capped one counts its cap)"
    )
    print(
        f"  {'set':<9} {'solver':<24} {'solved':>8} {'mean ms':>10} {'max ms':>10} "
        f"{'mean nodes':>11} {'ms / kibitz':>12}"
    )
    kibitz = Kibitz("sudoku")
    ok = True
    for name, lines in sets.items():
        names = kibitz.names(lines[0])
        runs = [kibitz(line) for line in lines]
        checks = [
            run.values is not None and sudoku_solved(line, by_cell(names, run.values, 9))
            for line, run in zip(lines, runs, strict=True)
        ]
        rows: list[tuple[str, list[Run], list[bool]]] = [("kibitz csp", runs, checks)]
        for peer in peers:
            runs = [peer(sudoku_problem(line), cap=cap) for line in lines]
            checks = [
                sudoku_solved(line, run.values) for line, run in zip(lines, runs, strict=True)
            ]
            rows.append((peer.label, runs, checks))
        ours = statistics.fmean(run.seconds for run in rows[0][1])
        for label, runs, checks in rows:
            ok &= all(
                check or (label != "kibitz csp" and not run.complete)
                for check, run in zip(checks, runs, strict=True)
            )
            mean = statistics.fmean(run.seconds for run in runs)
            nodes = [run.nodes for run in runs if run.nodes is not None]
            shown_nodes = f"{statistics.fmean(nodes):,.1f}" if len(nodes) == len(runs) else "-"
            print(
                f"  {name:<9} {label:<24} {sum(checks):>4}/{len(lines):<3} {mean_ms(runs):>10} "
                f"{1000 * max(run.seconds for run in runs):>10.2f} {shown_nodes:>11} "
                f"{mean / ours:>12.2f}"
            )
        if name == "euler96" and len(lines) == 50:
            states, ms = COURSE_EULER
            print(
                f"  {name:<9} {'the course, best-first':<24} {'50/50':>8} {ms:>10.2f} "
                f"{'-':>10} {states:>11,.2f} {ms / 1000 / ours:>12.2f}"
            )
    print(
        "  nodes: kibitz's search nodes, CP-SAT's branches (0: solved by propagation in "
        "presolve); python-constraint2 reports none"
    )
    return ok


def counting(queens: int, peers: Sequence[Peer], cap: float) -> bool:
    """Part (b); False if a count differs from the published one (a peer stopped at its
    cap may count fewer)."""
    print(
        f"Counting every solution: the empty 4x4 sudoku, N-queens for N = 4..{queens}; "
        f"solutions and ms, the peers' cap {cap:g} s (+: a lower bound, the cap cut it)"
    )
    problems: list[tuple[str, int, Problem, str, str]] = [
        ("4x4 sudoku", SUDOKU_4X4_GRIDS, sudoku_problem("." * 16), "sudoku", "." * 16)
    ]
    problems += [
        (f"{size}-queens", QUEENS_PUBLISHED[size], queens_problem(size), "n-queens", str(size))
        for size in range(4, queens + 1)
    ]
    labels = ["kibitz csp"] + [peer.label for peer in peers]
    print(f"  {'problem':<12} {'published':>9}" + "".join(f" {label:>22}" for label in labels))
    ok = True
    for label, published, problem, game, position in problems:
        runs = [Kibitz(game)(position, count=True, cap=cap)]
        runs += [peer(problem, count=True, cap=cap) for peer in peers]
        ok &= all(
            run.solutions == published if run.complete else run.solutions <= published
            for run in runs
        )
        ok &= runs[0].complete
        shown = "".join(
            f" {run.solutions:>10,}{'' if run.complete else '+'} {1000 * run.seconds:>10.1f}"
            for run in runs
        )
        print(f"  {label:<12} {published:>9,}{shown}")
    return ok


def zebra(peers: Sequence[Peer], cap: float) -> bool:
    """Part (c); False if a solver's answer fails the clues or is not unique."""
    print("The zebra puzzle (25 variables, 14 clues): the answer, checked against every clue")
    print(f"  {'solver':<20} {'solve ms':>9} {'nodes':>7} {'solutions':>10}  answer")
    kibitz = Kibitz("zebra")
    position = GAMES["zebra"].default_position
    names = [name.lower().replace("-", " ") for name in kibitz.names(position)]  # "old gold"
    run = kibitz(position)
    answer = zebra_answer(dict(zip(names, run.values or [], strict=False)))
    rows: list[tuple[str, Run, Run, str | None]] = [
        ("kibitz csp", run, kibitz(position, count=True), answer)
    ]
    problem = zebra_problem()
    for peer in peers:
        run = peer(problem, cap=cap)
        values = run.values
        answer = (
            None if values is None else zebra_answer(dict(zip(ZEBRA_NAMES, values, strict=True)))
        )
        rows.append((peer.label, run, peer(problem, count=True, cap=cap), answer))
    ok = True
    for label, run, count, answer in rows:
        ok &= answer is not None and count.solutions == 1 and count.complete
        nodes = "-" if run.nodes is None else f"{run.nodes:,}"
        print(
            f"  {label:<20} {1000 * run.seconds:>9.2f} {nodes:>7} {count.solutions:>10}  "
            f"{answer or 'WRONG'}"
        )
    return ok


def ablation(sets: dict[str, list[str]], nodes: int) -> bool:
    """Part (d); False if a configuration finds a solution that fails the check."""
    kibitz = Kibitz("sudoku")
    print(
        f"Ablation: the csp engine's nodes per puzzle with each technique added, at most "
        f"{nodes:,} nodes a puzzle (a capped puzzle counts its nodes so far: the mean is then "
        f"a lower bound, marked >=)"
    )
    print(f"  {'options':<20}" + "".join(f" {name:>27}" for name in sets))
    print(f"  {'':<20}" + f" {'solved  mean nodes  mean ms':>27}" * len(sets))
    ok = True
    for label, options in ABLATION:
        solver = Kibitz("sudoku", dict(options))
        cells = []
        for lines in sets.values():
            names = kibitz.names(lines[0])
            runs = [solver(line, nodes=nodes) for line in lines]
            solved = [
                sudoku_solved(line, by_cell(names, run.values, 9))
                for line, run in zip(lines, runs, strict=True)
                if run.values is not None
            ]
            ok &= all(solved)
            mean = statistics.fmean(run.nodes or 0 for run in runs)
            bound = ">=" if len(solved) < len(lines) else ""
            cells.append(
                f"{sum(solved):>3}/{len(lines):<3} {bound:>2}{mean:>10,.0f} "
                f"{1000 * statistics.fmean(run.seconds for run in runs):>8.1f}"
            )
        print(f"  {label:<20}" + "".join(f" {cell:>27}" for cell in cells))
    return ok


def large_queens(sizes: Sequence[int], peers: Sequence[Peer], cap: float) -> bool:
    """Part (e); False if a solver's answer places queens that attack each other."""
    print(
        f"One solution of N-queens for N = {', '.join(map(str, sizes))}: ms (and nodes, where "
        f"the solver reports them), each solution checked; the peers' cap {cap:g} s"
    )
    labels = ["kibitz csp"] + [peer.label for peer in peers]
    print(f"  {'problem':<10}" + "".join(f" {label:>26}" for label in labels))
    ok = True
    for size in sizes:
        runs = [Kibitz("n-queens")(str(size))]
        runs += [peer(queens_problem(size), cap=cap) for peer in peers]
        cells = []
        for run in runs:
            if run.values is None:
                cells.append(f"{'capped' if not run.complete else 'unsolved':>26}")
                ok &= not run.complete  # a solver may run out of time, not be wrong
                continue
            ok &= queens_solved(run.values)  # kibitz's ranks 1..N, the peers' columns 0..N-1
            nodes = "" if run.nodes is None else f"{run.nodes:,} nodes "
            cells.append(f"{nodes + f'{1000 * run.seconds:,.1f} ms':>26}")
        print(f"  {f'{size}-queens':<10}" + "".join(cells))
    return ok


def run(
    quick: bool = False,
    queens: int | None = None,
    ablation_nodes: int | None = None,
    cap: float | None = None,
) -> bool:
    """Every part; False if any check failed."""
    count = QUICK_PUZZLES if quick else None
    sets = {name: read_set(name)[:count] for name in SETS}
    queens = queens or (QUICK_QUEENS if quick else QUEENS)
    nodes = ablation_nodes or (QUICK_ABLATION_NODES if quick else ABLATION_NODES)
    cap = cap or (QUICK_PEER_CAP if quick else PEER_CAP)
    with contextlib.ExitStack() as stack:
        peers = [stack.enter_context(peer) for peer in Peer.available()]
        ok = sudoku(sets, peers, cap)
        print()
        ok &= counting(queens, peers, COUNT_CAP)
        print()
        ok &= zebra(peers, cap)
        print()
        ok &= large_queens(QUICK_LARGE_QUEENS if quick else LARGE_QUEENS, peers, cap)
    print()
    ok &= ablation(sets, nodes)
    return ok


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.csp", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"the first {QUICK_PUZZLES} puzzles of each set, N-queens up to {QUICK_QUEENS}, "
        f"the peers' cap {QUICK_PEER_CAP:g} s, the ablation's {QUICK_ABLATION_NODES:,} nodes",
    )
    parser.add_argument(
        "--queens",
        type=int,
        choices=range(4, max(QUEENS_PUBLISHED) + 1),
        metavar="N",
        help=f"count N-queens up to N, at most {max(QUEENS_PUBLISHED)} (default {QUEENS})",
    )
    parser.add_argument(
        "--cap",
        type=float,
        metavar="S",
        help=f"the peers' time cap per puzzle, seconds (default {PEER_CAP:g})",
    )
    parser.add_argument(
        "--ablation-nodes",
        type=int,
        metavar="N",
        help=f"node cap per puzzle in the ablation (default {ABLATION_NODES:,})",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    ok = run(args.quick, args.queens, args.ablation_nodes, args.cap)
    print(f"\n({time.perf_counter() - start:.0f} s in all)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
