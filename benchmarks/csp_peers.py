"""The peers of the `csp` engine, each in a process of its own (`python -m
benchmarks.csp_peers SOLVER`, started by `benchmarks.csp.Peer`): python-constraint2 and
OR-Tools' CP-SAT.

A process of its own because a peer cannot be stopped from outside otherwise (python-constraint2's
compiled search never looks at signals: a hard sudoku keeps it for minutes) and because
OR-Tools pins protobuf 6 where kibitz needs protobuf 7: CP-SAT lives in an environment of its
own, ``.venv/ortools`` (scripts/bench.sh makes it). This module imports nothing of kibitz.

It reads one request a line on stdin, a JSON object ``{"problem": {...}, "count": bool}``
where the problem is `benchmarks.csp.Problem` as a dict (``domains``, ``all_different``,
``binary``), and writes one JSON line back: ``{"values": [...] | null, "solutions": n,
"seconds": s, "nodes": n | null}``: the first solution found (or null), the number of
solutions (all of them with ``count``, else 0 or 1), the seconds from building the model to
the answer, and the solver's node count where it reports one (CP-SAT: branches).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

RELATIONS: dict[str, Callable[[int, int, int], bool]] = {
    "offset": lambda a, b, k: a == b + k,
    "distance": lambda a, b, k: abs(a - b) == k,
    "not-distance": lambda a, b, k: abs(a - b) != k,
}
"""The binary constraints ``(kind, i, j, k)`` as tests of (x_i, x_j, k)."""


def python_constraint(problem: dict, count: bool) -> dict:
    """python-constraint2's default solver (backtracking with forward checking, variables
    ordered by degree and domain size)."""
    import constraint

    start = time.perf_counter()
    csp = constraint.Problem()
    for variable, domain in enumerate(problem["domains"]):
        csp.addVariable(variable, domain)
    for scope in problem["all_different"]:
        csp.addConstraint(constraint.AllDifferentConstraint(), scope)
    for kind, first, second, offset in problem["binary"]:
        test = RELATIONS[kind]
        csp.addConstraint(
            constraint.FunctionConstraint(lambda a, b, k=offset, test=test: test(a, b, k)),
            (first, second),
        )
    variables = range(len(problem["domains"]))
    if count:
        found = csp.getSolutions()
        first = found[0] if found else None
        solutions = len(found)
    else:
        first = csp.getSolution()
        solutions = int(first is not None)
    values = None if first is None else [first[variable] for variable in variables]
    return {"values": values, "solutions": solutions, "seconds": time.perf_counter() - start}


def cpsat(problem: dict, count: bool) -> dict:
    """CP-SAT on one worker (as kibitz searches on one core)."""
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0
            self.first: list[int] | None = None

        def on_solution_callback(self) -> None:
            self.count += 1
            if self.first is None:
                self.first = [self.value(variable) for variable in variables]

    start = time.perf_counter()
    model = cp_model.CpModel()
    variables = [
        model.new_int_var_from_domain(cp_model.Domain.from_values(domain), f"x{index}")
        for index, domain in enumerate(problem["domains"])
    ]
    for scope in problem["all_different"]:
        model.add_all_different(variables[index] for index in scope)
    for kind, first, second, offset in problem["binary"]:
        difference = variables[first] - variables[second]
        if kind == "offset":
            model.add(difference == offset)
        elif kind == "distance":
            model.add_abs_equality(offset, difference)
        else:
            model.add(difference != offset)
            model.add(difference != -offset)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = count
    counter = Counter()
    solver.solve(model, counter)
    return {
        "values": counter.first,
        "solutions": counter.count,
        "seconds": time.perf_counter() - start,
        "nodes": solver.num_branches,
    }


SOLVERS = {"python-constraint2": python_constraint, "cpsat": cpsat}


def main(argv: list[str]) -> None:
    solve = SOLVERS[argv[0]]
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(solve(request["problem"], request["count"])), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
