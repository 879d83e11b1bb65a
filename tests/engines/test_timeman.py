"""The time manager: Limits + side + clock -> soft and hard deadlines."""

from __future__ import annotations

import pytest

from kibitz.engines.timeman import MARGIN, TimeManager, allocate
from kibitz.engines.types import Clock, Limits


def test_movetime_gives_both_deadlines() -> None:
    deadlines = allocate(Limits(movetime=2.0), side=0)
    assert deadlines.soft == deadlines.hard == pytest.approx(2.0 - MARGIN)
    tiny = allocate(Limits(movetime=0.01), side=0)
    assert 0 < tiny.hard < 0.01


def test_no_time_limit() -> None:
    assert allocate(Limits(depth=5), 0) == allocate(Limits(infinite=True, movetime=1.0), 1)
    assert allocate(Limits(), 0).soft is None and allocate(Limits(), 0).hard is None


def test_sudden_death_clock() -> None:
    limits = Limits(clock=Clock(time_left=[60.0, 3.0], increment=[1.0, 0.0]))
    mine = allocate(limits, side=0)
    assert mine.soft == pytest.approx(60.0 / 30 + 0.75)
    assert mine.hard == pytest.approx(5 * (2.0 + 0.75) - MARGIN)
    theirs = allocate(limits, side=1)
    assert theirs.soft == pytest.approx(0.1)
    assert theirs.hard == pytest.approx(min(0.5, 3.0 * 0.5) - MARGIN)


def test_moves_to_go_and_caps() -> None:
    limits = Limits(clock=Clock(time_left=[10.0, 10.0], moves_to_go=2))
    deadlines = allocate(limits, 0)
    assert deadlines.hard == pytest.approx(10.0 * 0.5 - MARGIN)  # 5 * 5 s capped at half
    assert deadlines.soft == pytest.approx(5.0 - MARGIN)  # never past the hard deadline
    big_increment = Limits(clock=Clock(time_left=[1.0, 1.0], increment=[30.0, 30.0]))
    assert allocate(big_increment, 0).hard <= 1.0 - 0.02 + 1e-9
    flagged = allocate(Limits(clock=Clock(time_left=[0.0, 0.0])), 0)
    assert flagged.soft == flagged.hard == 0.0


def test_movetime_and_clock_take_the_tighter() -> None:
    limits = Limits(movetime=1.0, clock=Clock(time_left=[6.0, 6.0]))
    deadlines = allocate(limits, 0)
    assert deadlines.soft == pytest.approx(0.2)
    assert deadlines.hard == pytest.approx(1.0 - MARGIN)


def test_time_manager_with_a_fake_clock() -> None:
    now = [10.0]
    manager = TimeManager(Limits(movetime=1.0), 0, lambda: now[0])
    assert manager.elapsed() == 0.0
    assert manager.can_start_iteration(0.1, branching=3.0)
    assert not manager.can_start_iteration(0.5, branching=3.0)  # predicted not to finish
    assert not manager.can_start_iteration(0.99, branching=1.0)  # past the soft deadline
    # after waiting 0.4 s in a queue, 0.1 s of search predicts 0.3 s more, not 1.5 s
    assert manager.can_start_iteration(0.5, branching=3.0, began=0.4)
    now[0] = 10.5
    assert manager.elapsed() == pytest.approx(0.5)
    assert not manager.hard_passed(manager.elapsed())
    now[0] = 11.0
    assert manager.hard_passed(manager.elapsed())
    unlimited = TimeManager(Limits(), 0, lambda: now[0])
    assert unlimited.can_start_iteration(1e9, 100.0) and not unlimited.hard_passed(1e9)
