"""The double-dummy bridge solver (DDS's techniques) and the engine `dds` on top of it.

`solver.Solver` is the pure-Python search and the reference; `KernelSolver` (built from
`kernels/_solver.pyx`) is the same search in C, node for node, or None where it could not
be built.
"""

from __future__ import annotations

from collections.abc import Sequence

from kibitz.engines.dds import solver
from kibitz.engines.dds.solver import Solver

try:
    from kibitz.engines.dds.kernels._solver import KernelSolver
except ImportError:  # pragma: no cover - only without a C compiler at install time
    KernelSolver = None  # type: ignore[assignment,misc]


def best_solver() -> type:
    """The compiled solver where it was built, else the Python one."""
    return KernelSolver if KernelSolver is not None else Solver


def dd_table(hands: Sequence[int]) -> list[list[int]]:
    """DDS's double-dummy table of a deal (`solver.dd_table`), with the fastest solver."""
    return solver.dd_table(hands, best_solver())


__all__ = ["KernelSolver", "Solver", "best_solver", "dd_table"]
