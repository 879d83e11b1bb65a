"""Time limits, measured by the engine's own clock: a fake one that advances a fixed step on
every read, so "time" is the number of reads and nothing here depends on the machine.

`timeman.allocate` gives the hard deadline. To stop, the engine must first read a time at
or past it, and it reads the clock once more to stamp `Result.time`: so a search that
stops as soon as it sees the deadline reports at most hard + 2 steps. test_alphabeta.py
covers depth mode for one movetime and one clock; these add clocks with increment and
moves to go, and solve mode, whose probes run at unlimited depth.
"""

from __future__ import annotations

from fakes import FakeClock
from test_alphabeta import run

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.timeman import allocate
from kibitz.engines.types import Clock, Limits
from kibitz.games.connect4 import ConnectFour

BUDGETS = {
    "movetime": {"movetime": 0.3},
    "sudden-death": {"clock": Clock(time_left=[2.0, 2.0])},
    "increment+mtg": {"clock": Clock(time_left=[0.5, 0.5], increment=[0.1, 0.1], moves_to_go=3)},
    "movetime+clock": {"movetime": 0.6, "clock": Clock(time_left=[3.0, 3.0])},
}
STEPS = (0.01, 0.05)
POSITIONS = ("", "4453")  # far too hard to solve within these budgets


def overruns(solve: bool) -> list[str]:
    found = []
    for moves in POSITIONS:
        game = ConnectFour.from_position(moves)
        for name, budget in BUDGETS.items():
            for step in STEPS:
                limits = Limits(solve=solve, **budget)
                hard = allocate(limits, game.to_move()).hard
                assert hard is not None and hard > 4 * step
                result, _ = run(game, limits, AlphaBeta(), clock=FakeClock(step))
                assert result.stop_reason == "time", (moves, name, step)
                assert result.best_move in game.legal_moves()
                if result.time > hard + 2 * step + 1e-9:
                    steps = (result.time - hard) / step
                    found.append(f"{moves!r} {name} step={step}: {steps:.1f} steps past {hard:.3f}")
    return found


def test_depth_mode_stops_by_the_hard_deadline() -> None:
    assert overruns(solve=False) == []


def test_solve_mode_stops_by_the_hard_deadline() -> None:
    assert overruns(solve=True) == []
