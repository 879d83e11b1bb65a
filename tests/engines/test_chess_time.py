"""Alpha-beta on chess at a fixed movetime and when cut short: the search uses its whole
movetime, and an iteration cut by the deadline or a stop answers with the better move its
passes found; a node limit answers with the last completed iteration, reproducibly."""

from __future__ import annotations

import threading

from fakes import FakeClock

from kibitz.engines import Info, Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.engines.timeman import TimeManager, allocate
from kibitz.engines.types import Clock, Result
from kibitz.games.chess import Chess

WAC_11 = "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1"
"""Win At Chess 11: Bxc6 (f3c6), found in the third iteration; the second prefers Nc5."""


def stopped_at_move(uci: str) -> tuple[Chess, Result, list[Info]]:
    """WAC 11 searched until its reporter sees an Info whose line starts with `uci`."""
    state = Chess.from_position(WAC_11)
    stop = threading.Event()
    infos: list[Info] = []

    def report(info: Info) -> None:
        infos.append(info)
        if state.format_move(info.pv[0]) == uci:
            stop.set()

    # 10 ms a clock reading: the search polls, and reports, at about every node
    context = SearchContext(stop=stop, report=report, clock=FakeClock(0.01), info_interval=0.0005)
    return state, AlphaBeta().search(state, Limits(depth=8), context), infos


def test_a_stop_inside_an_iteration_answers_with_the_move_it_found() -> None:
    state, result, infos = stopped_at_move("f3c6")
    assert result.stop_reason == "stopped"
    assert result.depth == 2 and infos[-1].depth == 3  # found while the third ran
    completed = [info for info in infos if info.depth == 2][-1]
    assert state.format_move(completed.pv[0]) == "a4c5"  # the second iteration's answer
    assert state.format_move(result.best_move) == "f3c6"
    assert result.root_moves[0].move == result.best_move
    assert sorted(root.move for root in result.root_moves) == sorted(state.legal_moves())


def test_a_node_limit_answers_with_the_last_completed_iteration() -> None:
    _, stopped, _ = stopped_at_move("f3c6")
    state = Chess.from_position(WAC_11)
    result = AlphaBeta().search(state, Limits(nodes=stopped.nodes), SearchContext())
    assert (result.stop_reason, result.depth) == ("nodes", 2)
    assert state.format_move(result.best_move) == "a4c5"


def test_only_a_movetime_without_a_clock_is_a_fixed_time() -> None:
    clock = Clock(time_left=[3.0, 3.0])
    fixed = [
        TimeManager(limits, 0, FakeClock(0.0)).fixed
        for limits in (
            Limits(movetime=1.0),
            Limits(movetime=1.0, clock=clock),
            Limits(clock=clock),
            Limits(movetime=1.0, infinite=True),
            Limits(depth=3),
        )
    ]
    assert fixed == [True, False, False, False, False]


def test_a_movetime_is_used_to_its_deadline() -> None:
    """The next iteration would not finish in time, but one cut short still answers: the
    search goes on until the hard deadline instead of stopping early."""
    clock = FakeClock(0.001)
    state = Chess.from_position(WAC_11)
    result = AlphaBeta().search(state, Limits(movetime=0.05), SearchContext(clock=clock))
    hard = allocate(Limits(movetime=0.05), 0).hard
    assert result.stop_reason == "time"
    assert hard <= result.time <= hard + 2 * clock.step
    assert state.format_move(result.best_move) == "f3c6"


def test_a_clock_still_saves_what_the_move_does_not_need() -> None:
    """Under a clock no iteration starts after the soft deadline: the search ends well
    before the hard one."""
    clock = FakeClock(0.001)
    state = Chess.from_position(WAC_11)
    limits = Limits(clock=Clock(time_left=[1.5, 1.5]))  # 0.05 s soft, 0.23 s hard
    result = AlphaBeta().search(state, limits, SearchContext(clock=clock))
    deadlines = allocate(limits, 0)
    assert result.stop_reason == "time"
    assert deadlines.soft < result.time < deadlines.hard - 0.1
