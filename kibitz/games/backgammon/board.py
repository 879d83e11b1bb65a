"""Backgammon's board and move generation (no notation, no evaluation).

A side's checkers are 25 counts in GNU Backgammon's per-side convention: index i < 24 is
the side's own point i + 1, counted from its own home (index 0 is its ace point, 0-5 its
home board, 23 its 24-point where it starts two checkers), index 24 its bar; checkers borne
off are 15 minus the sum. The opponent's own index j is this side's index 23 - j.

A **step** is one checker moved by one die: ``(source, target)`` in the mover's indexing,
source 24 for the bar, target -1 for borne off. A **play** is the tuple of steps of a roll
in the order played; `plays()` lists one play per distinct resulting position, under the
rules that a roll must be used in full if it can be (both dice, or all four of a double),
else as much of it as possible, and when only one die of a non-double can be played, the
larger if it can.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence

BAR = 24
OFF = -1
CHECKERS = 15

Step = tuple[int, int]
Play = tuple[Step, ...]


def start_side() -> list[int]:
    """One side's checkers at the start: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6."""
    side = [0] * 25
    side[23], side[12], side[7], side[5] = 2, 5, 3, 5
    return side


def borne_off(side: list[int]) -> int:
    return CHECKERS - sum(side)


POINT_NUMBERS = range(1, 26)
"""Each index's distance from bearing off (the bar: 25)."""


def pips(side: Sequence[int]) -> int:
    """The side's pip count: what it must still move to bear everything off."""
    return sum(map(operator.mul, side, POINT_NUMBERS))


def all_home(side: list[int]) -> bool:
    """Whether every checker still on the board is in the home board (bearing off allowed)."""
    return not any(side[6:])


def step_target(me: list[int], opp: list[int], source: int, die: int) -> int | None:
    """Where a checker of `me` on `source` lands with `die` (OFF when borne off), or None
    when that is not legal (blocked, not all home, a higher checker must go first)."""
    target = source - die
    if target >= 0:
        return target if opp[23 - target] < 2 else None
    if not all_home(me):
        return None
    if target == OFF:
        return OFF
    # a higher die bears off from the highest point only
    return OFF if not any(me[source + 1 : 6]) else None


def move_checker(me: list[int], opp: list[int], source: int, target: int) -> bool:
    """Move one checker of `me` (in place); True when it hit an opponent's blot."""
    me[source] -= 1
    if target == OFF:
        return False
    me[target] += 1
    point = 23 - target
    if opp[point] == 1:
        opp[point] = 0
        opp[BAR] += 1
        return True
    return False


def apply_play(me: list[int], opp: list[int], play: Play) -> None:
    """Play `play` on the two sides (in place)."""
    for source, target in play:
        move_checker(me, opp, source, target)


def _sources(me: list[int], highest: int) -> range | tuple[int, ...]:
    """The points a checker may leave, at most `highest` (the bar first when occupied)."""
    if me[BAR]:
        return (BAR,)
    return range(min(highest, 23), -1, -1)


def plays(me: list[int], opp: list[int], high: int, low: int) -> list[Play]:
    """Every legal play of the roll (high, low), one per distinct resulting position, in a
    fixed order (the high die first, sources from the back). An empty list means no checker
    can move (the only "play" is to pass)."""
    found: dict[tuple, Play] = {}
    if high == low:
        _extend(me[:], opp[:], (high,) * 4, (), BAR, True, found)
    else:
        _extend(me[:], opp[:], (high, low), (), BAR, False, found)
        _extend(me[:], opp[:], (low, high), (), BAR, False, found)
    most = max((len(play) for play in found.values()), default=0)
    if most == 1 and high != low:  # one die only: the larger wherever it can be played
        return _single_die(me, opp, high) or _single_die(me, opp, low)
    return [play for play in found.values() if len(play) == most]


def _single_die(me: list[int], opp: list[int], die: int) -> list[Play]:
    found: dict[tuple, Play] = {}
    _extend(me[:], opp[:], (die,), (), BAR, False, found)
    return list(found.values())


def _extend(
    me: list[int],
    opp: list[int],
    dice: tuple[int, ...],
    steps: Play,
    highest: int,
    doubles: bool,
    found: dict[tuple, Play],
) -> None:
    """Depth-first over the dice left: records every play that uses them all or stops
    where no checker can move, keyed by its resulting position (the longest per position)."""
    used = len(steps)
    if used < len(dice):
        die = dice[used]
        moved = False
        # with doubles the steps' sources never increase: other orders give the same plays
        for source in _sources(me, highest if doubles else BAR):
            if not me[source]:
                continue
            target = step_target(me, opp, source, die)
            if target is None:
                continue
            moved = True
            hit = move_checker(me, opp, source, target)
            _extend(me, opp, dice, (*steps, (source, target)), source, doubles, found)
            # take the step back
            if target != OFF:
                me[target] -= 1
                if hit:
                    opp[23 - target] = 1
                    opp[BAR] -= 1
            me[source] += 1
        if moved:
            return
    if steps:
        key = (tuple(me), tuple(opp))
        known = found.get(key)
        if known is None or len(known) < len(steps):
            found[key] = steps


def random_play(me: list[int], opp: list[int], high: int, low: int, rng: random.Random) -> Play:
    """A random legal play of the roll, fast: each die in turn moves a random checker that
    can move; a play that uses every die is legal. Only where that fails (some die cannot
    be used) are all plays enumerated, and one of them drawn."""
    if high == low:
        dice: tuple[int, ...] = (high,) * 4
    else:
        dice = (high, low) if rng.random() < 0.5 else (low, high)
    mine, theirs = me[:], opp[:]
    steps: list[Step] = []
    for die in dice:
        options = []
        for source in _sources(mine, BAR):
            if mine[source]:
                target = step_target(mine, theirs, source, die)
                if target is not None:
                    options.append((source, target))
        if not options:
            legal = plays(me, opp, high, low)
            return rng.choice(legal) if legal else ()
        step = rng.choice(options)
        move_checker(mine, theirs, *step)
        steps.append(step)
    return tuple(steps)


def points_won(loser: list[int]) -> int:
    """What a finished game is worth to the winner, by the loser's checkers: 1, 2 for a
    gammon (none borne off), 3 for a backgammon (and one still on the bar or in the
    winner's home board, the loser's indices 18-23)."""
    if borne_off(loser):
        return 1
    return 3 if any(loser[18:]) else 2
