"""Time management: Limits + side to move + a clock -> a soft and a hard deadline.

The soft deadline says "do not start another iteration after this"; the hard one says
"abort the search now". Both are seconds since the search started, or None (no limit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kibitz.engines.types import Limits

MARGIN = 0.02
"""Seconds kept in reserve for returning the answer (shrunk for very short budgets)."""
DEFAULT_MOVES_TO_GO = 30
"""Moves assumed left in the game under sudden death (``moves_to_go == 0``)."""
HARD_FACTOR = 5.0
"""The hard deadline is at most this many soft budgets..."""
HARD_SHARE = 0.5
"""...and at most this share of the time left."""


def _margin(budget: float) -> float:
    return min(MARGIN, max(budget, 0.0) * 0.1)


@dataclass(frozen=True, slots=True)
class Deadlines:
    soft: float | None
    hard: float | None


def allocate(limits: Limits, side: int) -> Deadlines:
    """Soft and hard deadlines (seconds from the start) for the player `side`.

    movetime: both = movetime - margin. Clock: soft = time_left / moves_to_go + 0.75 *
    increment, hard = min(5 * soft, time_left / 2) - margin, neither beyond time_left -
    margin. With both, the tighter of each wins. Infinite or neither: no deadlines.
    `max_time` caps the hard deadline in every case (and the soft one where there is one).
    """
    soft, hard = _deadlines(limits, side)
    cap = limits.max_time
    if cap is not None:
        hard = cap if hard is None else min(hard, cap)
        soft = None if soft is None else min(soft, cap)
    return Deadlines(soft, hard)


def _deadlines(limits: Limits, side: int) -> tuple[float | None, float | None]:
    if limits.infinite:
        return None, None
    soft: float | None = None
    hard: float | None = None
    if limits.movetime is not None:
        budget = max(0.0, limits.movetime - _margin(limits.movetime))
        soft = hard = budget
    clock = limits.clock
    if clock is not None and 0 <= side < len(clock.time_left):
        left = max(0.0, clock.time_left[side])
        increment = clock.increment[side] if side < len(clock.increment) else 0.0
        moves_to_go = clock.moves_to_go if clock.moves_to_go > 0 else DEFAULT_MOVES_TO_GO
        margin = _margin(left)
        ceiling = max(0.0, left - margin)
        c_soft = left / moves_to_go + 0.75 * increment
        c_hard = min(ceiling, max(0.0, min(HARD_FACTOR * c_soft, left * HARD_SHARE) - margin))
        c_soft = min(c_soft, c_hard)
        soft = c_soft if soft is None else min(soft, c_soft)
        hard = c_hard if hard is None else min(hard, c_hard)
    return soft, hard


class TimeManager:
    """Deadlines anchored at the moment of construction on a given clock."""

    __slots__ = ("clock", "fixed", "hard", "soft", "start")

    def __init__(
        self, limits: Limits, side: int, clock: Callable[[], float], start: float | None = None
    ) -> None:
        """`start`: the clock reading the deadlines count from (default: now)."""
        self.clock = clock
        self.start = clock() if start is None else start
        deadlines = allocate(limits, side)
        self.soft = deadlines.soft
        self.hard = deadlines.hard
        self.fixed = limits.movetime is not None and limits.clock is None and not limits.infinite
        """The time is this move's alone (a movetime, no clock): what it leaves unused is
        not saved for a later move."""

    def elapsed(self) -> float:
        return self.clock() - self.start

    def hard_passed(self, elapsed: float) -> bool:
        return self.hard is not None and elapsed >= self.hard

    def can_start_iteration(self, elapsed: float, branching: float, began: float = 0.0) -> bool:
        """Whether a new iteration is worth starting, `elapsed` seconds into the search.

        No after the soft deadline, nor when the next iteration is predicted to run past the
        hard deadline: the search so far, from `began` (when the engine started, later than
        0 when the request waited in a queue), times `branching`.
        """
        if self.soft is not None and elapsed > self.soft:
            return False
        finish = began + (elapsed - began) * max(branching, 1.0)
        return not (self.hard is not None and finish > self.hard)
