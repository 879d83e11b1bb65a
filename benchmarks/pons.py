"""Pascal Pons's C++ Connect Four solver as a benchmark peer, built from a checkout of it.

Its sources are not shipped here (their licence is the AGPL): the environment variable
``KIBITZ_BENCH_PONS`` names a checkout of Pons's ``connect4`` repository, and `solver()`
compiles that checkout's ``Solver.cpp`` with the small driver below (``-O3``, as its own
Makefile does). The driver solves one position a line, **without the opening book**, after
emptying the transposition table (as kibitz's benchmark empties its own: positions are
independent), and prints ``score nodes microseconds``: the time of ``Solver::solve`` alone,
the emptying excluded. Scores are already in the published convention.
"""

from __future__ import annotations

import os
import select
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ENV = "KIBITZ_BENCH_PONS"
"""The environment variable naming a checkout of Pons's solver."""
DRIVER = r"""
#include "Solver.hpp"
#include <chrono>
#include <iostream>
using namespace GameSolver::Connect4;
int main() {
  Solver solver;  // no loadBook: the opening book stays empty
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    if (P.play(line) != line.size()) { std::cout << "invalid" << std::endl; continue; }
    solver.reset();
    auto start = std::chrono::steady_clock::now();
    int score = solver.solve(P, false);
    auto end = std::chrono::steady_clock::now();
    std::cout << score << " " << solver.getNodeCount() << " "
              << std::chrono::duration_cast<std::chrono::microseconds>(end - start).count()
              << std::endl;
  }
}
"""


@dataclass(frozen=True)
class PonsAnswer:
    """Pons's exact score for a position, its search time and its node count."""

    score: int
    seconds: float
    nodes: int


def build(checkout: Path, into: Path) -> Path:
    """Compile the driver against `checkout`'s solver into the folder `into`; the binary."""
    driver = into / "pons_driver.cpp"
    driver.write_text(DRIVER)
    binary = into / "pons_driver"
    command = [
        "g++", "--std=c++11", "-O3", "-DNDEBUG", f"-I{checkout}",
        "-o", str(binary), str(driver), str(checkout / "Solver.cpp"),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, text=True)
    return binary


class PonsSolver:
    """One driver process answering positions one at a time; a position that takes longer
    than its cap kills the process (the next position starts a fresh one)."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.process: subprocess.Popen[str] | None = None

    def solve(self, moves: str, cap: float) -> PonsAnswer | None:
        """The exact score of `moves` (column digits 1-7), or None past `cap` seconds."""
        if self.process is None:
            self.process = subprocess.Popen(
                [str(self.binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(moves + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], cap + 1.0)  # + the reset
        if not ready:
            self.close()
            return None
        fields = process.stdout.readline().split()
        if len(fields) != 3:
            raise RuntimeError(f"Pons's solver did not answer {moves!r}: {fields}")
        score, nodes, micros = (int(field) for field in fields)
        if micros / 1e6 > cap:
            return None
        return PonsAnswer(score, micros / 1e6, nodes)

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def solver() -> PonsSolver | None:
    """Pons's solver built from the checkout `KIBITZ_BENCH_PONS` names, or None (with a
    message) when it names none or the build fails."""
    checkout = os.environ.get(ENV)
    if not checkout:
        return None
    try:
        binary = build(Path(checkout), Path(tempfile.mkdtemp(prefix="kibitz-pons-")))
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or error
        print(f"Pons's solver not built from {checkout}: {detail}", flush=True)
        return None
    return PonsSolver(binary)
