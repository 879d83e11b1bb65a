"""The Connect Four benchmark (benchmarks/connect4.py): each peer is compared with kibitz on
exactly the positions it answered (Pons's solver on the whole sample, the others on a
subset). Pons's solver itself is not tested here: it comes from neither Debian nor PyPI, so
the suite cannot install it (`benchmarks/pons.py` builds it from a checkout named by
`KIBITZ_BENCH_PONS`)."""

from __future__ import annotations

import pytest

from benchmarks import connect4


def answers(*seconds: float | None) -> list[connect4.Answer]:
    """Answers taking these times; None: not solved."""
    return [connect4.Answer(None if s is None else 1, s or 0.0, 10) for s in seconds]


def test_each_peer_is_compared_on_the_positions_it_answered() -> None:
    plan = connect4.SetPlan("L2_R2", "15-27", 4, 2)
    positions = [(f"{column}", 1) for column in "1234"]
    ours = connect4.SolverRun("kibitz", 300.0, answers(1.0, 2.0, None, 5.0))
    every = connect4.SolverRun("Pons C++", 300.0, answers(0.5, 1.5, 9.0, 5.0), [0, 1, 2, 3])
    subset = connect4.SolverRun("OpenSpiel", 4.0, answers(4.0, None), [1, 3])
    report = connect4.SetReport(plan, positions, [1, 3], ours, 3, [(every, 4), (subset, 1)])
    # ours unsolved at index 2: left out; Pons 0.5 + 1.5 + 5 over ours 1 + 2 + 5
    assert connect4._ratio(report, every) == (pytest.approx(7 / 8), False)
    # OpenSpiel 4 + its cap 4 (a timeout: a lower bound) over ours 2 + 5
    assert connect4._ratio(report, subset) == (pytest.approx(8 / 7), True)
    rows = connect4.table([report], 300.0, None).splitlines()
    pons_row = next(row for row in rows if "Pons C++" in row and "best" not in row)
    assert pons_row.split()[-1] == "0.88"
    assert rows[rows.index(pons_row) + 2].split()[-1] == "0.88"  # the best peer: Pons's
    assert any(row.split()[-1] == ">=1.1" for row in rows if "OpenSpiel" in row)
