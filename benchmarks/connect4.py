"""Connect Four solving: exact scores on Pascal Pons's six test sets, next to two peers.

For each set a fixed sample (every k-th line of the file) is solved by kibitz's alpha-beta
engine in solve mode, each position from a fresh transposition table and under a time cap;
an answer counts as exact only if the search finished ("solved") and its score, converted
with `kibitz.games.connect4.solver_score`, equals the published one. Then a spread subset of
the same sample is solved by easyAI's Negamax and OpenSpiel's alpha-beta (`benchmarks.peers`,
each position in a child process, one at a time after ours: never concurrently), each under
the peer time cap, and their mean times are compared with ours on exactly those positions.
Where `KIBITZ_BENCH_PONS` names a checkout of Pascal Pons's C++ solver (`benchmarks.pons`),
it solves the whole sample too, under our cap, without its opening book.

All work runs from `run()`; `python -m benchmarks` calls it under ``if __name__ ==
"__main__"`` because the peers' forkserver re-imports the caller's ``__main__``.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import pons
from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import SearchContext
from kibitz.engines.types import Limits
from kibitz.games.connect4 import ConnectFour, solver_score
from kibitz.vocabulary import Bound, ScoreKind

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
"""Pons's test sets, shipped with the tests (see the README there)."""
CELLS = 42
HASH_MB = 256
OUTCOME = {ScoreKind.WIN: 1, ScoreKind.DRAW: 0, ScoreKind.LOSS: -1}
PEER_NAMES = ("easyAI", "OpenSpiel")


@dataclass(frozen=True)
class SetPlan:
    """One test set: its name, board fill, how many positions ours and the peers solve."""

    name: str
    stones: str
    ours: int
    peers: int


# Defaults: see benchmarks/README.md ("Sampling") for how these were chosen.
PLAN: tuple[SetPlan, ...] = (
    SetPlan("L3_R1", "29-41", 100, 100),
    SetPlan("L2_R1", "15-28", 100, 20),
    SetPlan("L2_R2", "15-27", 100, 10),
    SetPlan("L1_R1", "4-14", 100, 20),
    SetPlan("L1_R2", "4-14", 100, 10),
    SetPlan("L1_R3", "1-13", 10, 2),
)
QUICK_PLAN: tuple[SetPlan, ...] = (
    SetPlan("L3_R1", "29-41", 20, 10),
    SetPlan("L2_R1", "15-28", 10, 3),
    SetPlan("L2_R2", "15-27", 5, 2),
    SetPlan("L1_R1", "4-14", 10, 3),
    SetPlan("L1_R2", "4-14", 10, 1),
    SetPlan("L1_R3", "1-13", 1, 1),
)
OUR_CAP = 300.0
PEER_CAP_FACTOR = 12
"""By default a peer's cap on a set is this many times our mean time on its positions (within
PEER_CAP_MIN..PEER_CAP_MAX): a peer that times out everywhere is then shown >= 12x slower,
so the goal of 10x is decided by the measurement, not by the cap."""
PEER_CAP_MIN = 2.0
PEER_CAP_MAX = 300.0
QUICK_OUR_CAP = 30.0
QUICK_PEER_CAP = 1.0


@dataclass
class Answer:
    """One solver's answer on one position; `score` None = not solved (cap or failure)."""

    score: int | None
    seconds: float
    nodes: int | None = None
    cutoff_rate: float | None = None
    ebf: float | None = None


@dataclass
class SolverRun:
    """A solver's answers on a list of positions (same order as the positions)."""

    name: str
    cap: float
    answers: list[Answer] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)
    """A peer's: the indexes in the set's sample of the positions it answered."""

    def solved(self) -> list[Answer]:
        return [answer for answer in self.answers if answer.score is not None]

    def mean_seconds(self) -> float:
        """Mean time with every unsolved position counted as the cap."""
        return statistics.mean(a.seconds if a.score is not None else self.cap for a in self.answers)

    def max_seconds(self) -> float:
        return max(a.seconds if a.score is not None else self.cap for a in self.answers)


@dataclass
class SetReport:
    plan: SetPlan
    positions: list[tuple[str, int]]
    peer_indexes: list[int]
    ours: SolverRun
    exact: int
    peers: list[tuple[SolverRun, int]]
    """(run on the positions at `peer_indexes`, number of exact answers)."""


def load(name: str) -> list[tuple[str, int]]:
    """All (moves, score) pairs of `Test_<name>`."""
    pairs = []
    with (DATA / f"Test_{name}").open() as lines:
        for line in lines:
            if line.strip():
                moves, score = line.split()
                pairs.append((moves, int(score)))
    return pairs


def spread(count: int, total: int) -> list[int]:
    """Indexes of a fixed sample of `count` out of `total`: every k-th, k = total // count."""
    count = max(0, min(count, total))
    if count == 0:
        return []
    step = total // count
    return list(range(0, step * count, step))


def solve_ours(engine: AlphaBeta, moves: str, cap: float) -> Answer:
    """Solve `moves` from an empty table; `seconds` is the wall time of `search()` alone.

    `new_game()` empties the table (the native table zeroes the slots of a small search one
    by one, or all of them in place; the Python table gets a fresh list of ~420k slots for
    64 MB). The collection right after it,
    part of the untimed set-up, moves that list out of the young generation: otherwise the
    garbage collector's first passes over it (about 3 ms) land in the search.
    """
    engine.new_game()
    state = ConnectFour.from_position(moves)
    gc.collect()
    start = time.perf_counter()
    result = engine.search(state, Limits(solve=True, movetime=cap), SearchContext())
    seconds = time.perf_counter() - start
    score = result.score
    exact = result.stop_reason == "solved" and score.kind in OUTCOME and score.bound == Bound.EXACT
    value = solver_score(OUTCOME[score.kind], score.plies, len(moves)) if exact else None
    ebf = None
    if value is not None and result.nodes > 0:
        # solve mode has no iterations to compare: nodes^(1/d), d = plies to the game's end
        plies = score.plies if score.kind != ScoreKind.DRAW else CELLS - len(moves)
        ebf = result.nodes ** (1 / max(1, plies))
    return Answer(
        value,
        seconds,
        result.nodes,
        result.stats.get("first_move_cutoff_rate"),
        ebf,
    )


def _peer_solvers() -> dict[str, Callable[[str, float], object]] | None:
    """The peers' solve functions, or None (with a message) when the extra is not installed."""
    try:
        from benchmarks import peers
    except ImportError as error:
        print(f"peers not installed: pip install -e .[bench] ({error})", flush=True)
        return None
    return {"easyAI": peers.solve_easyai, "OpenSpiel": peers.solve_openspiel}


def solve_peer(solve: Callable[[str, float], object], moves: str, cap: float) -> Answer:
    try:
        reply = solve(moves, cap)
    except RuntimeError as error:  # the child raised or died: report it, count it unsolved
        print(f"  peer error on {moves}: {error}", flush=True)
        return Answer(None, cap)
    if reply is None:
        return Answer(None, cap)
    return Answer(reply.score, reply.seconds, reply.nodes)  # type: ignore[attr-defined]


def adaptive_peer_cap(ours: SolverRun, indexes: Sequence[int]) -> float:
    """PEER_CAP_FACTOR x our mean time on the peers' positions, within the cap bounds."""
    if not indexes:
        return PEER_CAP_MIN
    mean = statistics.mean(
        ours.answers[i].seconds if ours.answers[i].score is not None else ours.cap for i in indexes
    )
    return min(PEER_CAP_MAX, max(PEER_CAP_MIN, round(PEER_CAP_FACTOR * mean, 1)))


def run_set(
    plan: SetPlan,
    our_cap: float,
    peer_cap: float | None,
    peers: dict[str, Callable[[str, float], object]] | None,
    reference: pons.PonsSolver | None = None,
) -> SetReport:
    """Ours on the whole sample, then each peer on its subset, one position at a time, then
    Pons's solver (`reference`, if given) on the whole sample under our cap.

    `peer_cap` None: the adaptive cap (`adaptive_peer_cap`)."""
    pairs = load(plan.name)
    positions = [pairs[i] for i in spread(plan.ours, len(pairs))]
    peer_indexes = spread(plan.peers, len(positions)) if peers else []
    print(
        f"{plan.name}: kibitz on {len(positions)} of {len(pairs)} positions"
        + (f", peers on {len(peer_indexes)}" if peers else "")
        + (", Pons's solver on all" if reference is not None else ""),
        flush=True,
    )

    engine = AlphaBeta({"Hash": HASH_MB})
    # Allocates the table and fills it enough that the first new_game() zeroes all of it in
    # place: no timed search waits for the system to map a page of it (Pons's solver zeroes
    # its table when it is made).
    engine.search(ConnectFour(), Limits(depth=10), SearchContext())
    ours = SolverRun("kibitz", our_cap)
    exact = 0
    for moves, expected in positions:
        answer = solve_ours(engine, moves, our_cap)
        ours.answers.append(answer)
        if answer.score is None:
            print(
                f"  NOT SOLVED kibitz {plan.name} {moves} {expected}: "
                f"stopped after {answer.seconds:.1f} s",
                flush=True,
            )
        elif answer.score != expected:
            print(
                f"  MISMATCH kibitz {plan.name} {moves} expected {expected} got {answer.score}",
                flush=True,
            )
        else:
            exact += 1

    peer_runs: list[tuple[SolverRun, int]] = []
    if peer_cap is None:
        peer_cap = adaptive_peer_cap(ours, peer_indexes)
    for name, solve in (peers if peer_indexes else {}).items():
        peer_runs.append(run_peer(name, solve, peer_cap, positions, peer_indexes, plan.name))
    if reference is not None:
        every = list(range(len(positions)))
        run = run_peer("Pons C++", reference.solve, our_cap, positions, every, plan.name)
        peer_runs.append(run)
    return SetReport(plan, positions, peer_indexes, ours, exact, peer_runs)


def run_peer(
    name: str,
    solve: Callable[[str, float], object],
    cap: float,
    positions: list[tuple[str, int]],
    indexes: list[int],
    set_name: str,
) -> tuple[SolverRun, int]:
    """A peer on the positions at `indexes`: its run and its number of exact answers."""
    run = SolverRun(name, cap, indexes=indexes)
    peer_exact = 0
    for index in indexes:
        moves, expected = positions[index]
        answer = solve_peer(solve, moves, cap)
        run.answers.append(answer)
        if answer.score is not None and answer.score != expected:
            print(
                f"  MISMATCH {name} {set_name} {moves} expected {expected} got {answer.score}",
                flush=True,
            )
        peer_exact += answer.score == expected
    return run, peer_exact


# -- the table ----------------------------------------------------------------------------

HEADER = (
    f"{'set':<6}{'stones':<7}{'solver':<10}{'n':>4}{'solved':>7}{'exact':>6}"
    f"{'mean s':>9}{'max s':>8}{'mean nodes':>12}{'nodes/s':>9}{'EBF':>6}{'cut1st':>7}"
    f"{'x ours':>9}"
)


def _num(value: float, width: int, digits: int) -> str:
    return f"{value:>{width}.{digits}f}"


def _seconds(value: float, width: int) -> str:
    digits = 5 if value < 0.01 else 4 if value < 1 else 2  # Pons's solver takes microseconds
    return f"{value:>{width}.{digits}f}"


def _ratio(report: SetReport, run: SolverRun) -> tuple[float, bool] | None:
    """Peer mean / our mean on the same positions, and whether it is only a lower bound.

    Only positions kibitz solved count (a capped time of ours would make the ratio neither a
    bound nor a measurement); None when there are none. A peer timeout counts as the peer's
    cap, so any timeout makes the ratio a lower bound.
    """
    pairs = [
        (report.ours.answers[index], answer)
        for index, answer in zip(run.indexes, run.answers, strict=True)
        if report.ours.answers[index].score is not None
    ]
    if not pairs:
        return None
    ours = statistics.mean(mine.seconds for mine, _ in pairs)
    theirs = statistics.mean(
        peer.seconds if peer.score is not None else run.cap for _, peer in pairs
    )
    timeouts = any(peer.score is None for _, peer in pairs)
    return (theirs / ours if ours > 0 else math.inf), timeouts


def _format_ratio(ratio: tuple[float, bool] | None) -> str:
    if ratio is None:
        return "-"
    ratio, lower_bound = ratio
    if ratio < 0.1:  # Pons's solver on the smallest positions
        text = f"{ratio:.2g}"
    else:
        text = f"{ratio:.2f}" if ratio < 1 else f"{ratio:.1f}" if ratio < 100 else f"{ratio:.0f}"
    return f"{'>=' if lower_bound else ''}{text}"


def _row(report: SetReport, run: SolverRun, exact: int, first: bool) -> str:
    plan = report.plan
    prefix = f"{plan.name:<6}{plan.stones:<7}" if first else " " * 13
    solved = run.solved()
    line = (
        f"{prefix}{run.name:<10}{len(run.answers):>4}{len(solved):>7}{exact:>6}"
        f"{_seconds(run.mean_seconds(), 9)}{_seconds(run.max_seconds(), 8)}"
    )
    nodes = [a.nodes for a in solved if a.nodes is not None]
    if nodes:
        busy = sum(a.seconds for a in solved if a.nodes is not None)
        nps = sum(nodes) / busy if busy > 0 else 0.0
        line += f"{statistics.mean(nodes):>12.0f}{nps:>9.0f}"
    else:
        line += f"{'-':>12}{'-':>9}"
    ebfs = [a.ebf for a in solved if a.ebf is not None]
    line += _num(statistics.mean(ebfs), 6, 2) if ebfs else f"{'-':>6}"
    weighted = [(a.cutoff_rate, a.nodes) for a in solved if a.cutoff_rate is not None and a.nodes]
    if weighted:
        rate = sum(r * n for r, n in weighted) / sum(n for _, n in weighted)
        line += _num(rate, 7, 3)
    else:
        line += f"{'-':>7}"
    if run is not report.ours and run.answers:
        line += f"{_format_ratio(_ratio(report, run)):>9}"
    return line


def table(reports: Sequence[SetReport], our_cap: float, peer_cap: float | None) -> str:
    caps = (
        f"peers cap {peer_cap:g} s"
        if peer_cap is not None
        else f"peers cap {PEER_CAP_FACTOR}x our mean, {PEER_CAP_MIN:g}-{PEER_CAP_MAX:g} s"
    )
    lines = [
        f"Connect Four solving (kibitz alphabeta, solve mode, Hash {HASH_MB} MB, "
        f"cap {our_cap:g} s; {caps})",
        HEADER,
        "-" * len(HEADER),
    ]
    for report in reports:
        lines.append(_row(report, report.ours, report.exact, first=True))
        ratios = []
        for run, exact in report.peers:
            lines.append(_row(report, run, exact, first=False))
            ratio = _ratio(report, run)
            if ratio is not None:
                ratios.append((ratio, run.name))
        if ratios:
            ratio, name = min(ratios)
            cap = next(run.cap for run, _ in report.peers if run.name == name)
            label = f"best peer: {name} (peer cap {cap:g} s)"
            lines.append(f"{'':13}{label:<{len(HEADER) - 22}}{_format_ratio(ratio):>9}")
    lines.append("-" * len(HEADER))
    lines += [
        "mean/max s: search time per position, unsolved positions counted as the cap.",
        "x ours: peer mean s / kibitz mean s on the same positions (those kibitz solved;",
        "  Pons C++: the whole sample, under our cap, without its opening book);",
        "  '>=' = the peer timed out on some, so the true ratio is at least this.",
        "nodes, nodes/s, EBF: over solved positions.",
        "EBF = nodes^(1/plies to the end of the game), averaged; cut1st = first-move cutoff",
        "  rate, node-weighted mean.",
    ]
    return "\n".join(lines)


def run(
    sets: Sequence[str] | None = None,
    per_set: int | None = None,
    peer_per_set: int | None = None,
    our_cap: float | None = None,
    peer_cap: float | None = None,
    use_peers: bool = True,
    quick: bool = False,
) -> str:
    """Run the benchmark, print progress and the table; returns the table."""
    plans = {plan.name: plan for plan in (QUICK_PLAN if quick else PLAN)}
    names = list(sets) if sets else list(plans)
    unknown = [name for name in names if name not in plans]
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(plans)}")
    our_cap = our_cap if our_cap is not None else QUICK_OUR_CAP if quick else OUR_CAP
    if peer_cap is None and quick:
        peer_cap = QUICK_PEER_CAP
    peers = _peer_solvers() if use_peers else None
    solver = pons.solver() if use_peers else None

    print(f"\nConnect Four solving, test sets in {DATA}", flush=True)
    reports = []
    for name in names:
        plan = plans[name]
        if per_set is not None:
            plan = SetPlan(plan.name, plan.stones, per_set, min(plan.peers, per_set))
        if peer_per_set is not None:
            plan = SetPlan(plan.name, plan.stones, plan.ours, peer_per_set)
        start = time.perf_counter()
        report = run_set(plan, our_cap, peer_cap, peers, solver)
        reports.append(report)
        print(f"  done in {time.perf_counter() - start:.0f} s", flush=True)
    if solver is not None:
        solver.close()
    text = table(reports, our_cap, peer_cap)
    print("\n" + text, flush=True)
    return text
