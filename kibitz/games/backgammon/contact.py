"""Contact features for the backgammon network: what one hidden layer on Tesauro's raw
inputs finds hard to compute, in the manner of gnubg's hand-made inputs (its ``I_P1``,
``I_PIPLOSS`` and prime-like ones), made simple.

For a **hitter** (the side whose roll is counted) and a **victim** (the other), over the 36
rolls of the hitter's dice:

- **shots**: the share of rolls on which the hitter can hit at least one of the victim's
  blots (a point of the board with one checker): with either die alone, with both dice
  through an open point, or with up to four steps of a double through open points; a
  hitter with checkers on the bar counts the checker that enters (and, when one checker
  was there, the other die of any checker after it enters). Whether the rest of the roll
  can then be played is not asked: the count is gnubg's kind of estimate, not a rule.
- **pip loss**: the mean, over the 36 rolls, of the most pips a hit costs the victim (the
  blot's distance from bearing off, less from its bar's 25; 0 where no hit), over 24.

And for each side, its **prime**: the longest run of consecutive points it holds with two
or more checkers, at most 6, over 6.

`contact_features` is the reference, vectorised over positions; backgammon's kernel
computes the same in C (`_kernel.pyx`, ``fill_contact_features``), held to it by the tests,
and `features` takes the kernel's where it was built (a network's inputs: a 1-ply search
asks for one position at a time, where numpy's fixed costs make the reference 100 times
slower).
"""

from __future__ import annotations

import numpy as np

from kibitz.games.backgammon.compiled import compiled_kernel

FEATURES = 6
"""The features of a position, by `contact_features`' order."""

_ROLLS = tuple(
    (high, low, 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 rolls with their weight among the 36."""


def contact_features(on_roll: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The (n, 6) features of each position (`on_roll`, `other`: (n, 25) arrays of the two
    sides, `board.py`'s convention): the shots of the player on roll at the other's blots
    and their pip loss, the same of the other at the player on roll's (as if it rolled
    next), then the player on roll's prime and the other's."""
    mine_shots, mine_loss = shots(on_roll, other)
    their_shots, their_loss = shots(other, on_roll)
    return np.column_stack(
        [mine_shots, mine_loss, their_shots, their_loss, prime(on_roll), prime(other)]
    )


def features(on_roll: np.ndarray, other: np.ndarray) -> np.ndarray:
    """`contact_features`, computed by backgammon's compiled kernel where it was built."""
    kernel = compiled_kernel()
    if kernel is None:
        return contact_features(on_roll, other)
    out = np.empty((len(on_roll), FEATURES))
    kernel.fill_contact_features(
        np.ascontiguousarray(on_roll, dtype=np.int64),
        np.ascontiguousarray(other, dtype=np.int64),
        out,
    )
    return out


def shots(hitter: np.ndarray, victim: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's shots (the share of the 36 rolls that hit a blot) and pip loss (the mean
    over the rolls of the largest hit's pips, over 24) of `hitter` at `victim`."""
    seen = victim[:, 23::-1]  # seen[:, t]: the victim's checkers on the hitter's index t
    blot, open_ = seen == 1, seen < 2
    board = hitter[:, :24] > 0
    bar = hitter[:, 24]
    rows = len(hitter)
    hits, loss = np.zeros(rows), np.zeros(rows)
    distance = np.arange(1, 25)  # a blot on the hitter's index t loses t + 1 pips
    for high, low, weight in _ROLLS:
        if high == low:
            hit = _double_hits(board, bar, open_, high)
        else:
            hit = _roll_hits(board, bar, open_, high, low)
        hit &= blot
        hits += weight * hit.any(axis=1)
        loss += weight * np.max(np.where(hit, distance, 0), axis=1)
    return hits / 36, loss / (36 * 24)


def _shifted(points: np.ndarray, by: int, fill: bool = False) -> np.ndarray:
    """Column t of the result is column t + `by` of `points` ((n, 24) booleans); `fill`
    past the end."""
    out = np.full_like(points, fill)
    if by < 24:
        out[:, : 24 - by] = points[:, by:]
    return out


def _target(rows: int, index: int, where: np.ndarray) -> np.ndarray:
    """An (n, 24) mask with column `index` set in the rows `where` (none if off the board)."""
    out = np.zeros((rows, 24), dtype=bool)
    if index >= 0:
        out[:, index] = where
    return out


def _roll_hits(
    board: np.ndarray, bar: np.ndarray, open_: np.ndarray, first: int, second: int
) -> np.ndarray:
    """The hitter's indices that a roll of two different dice can reach, (n, 24)."""
    rows = len(board)
    free, single = bar == 0, bar == 1
    enters = {die: open_[:, 24 - die] for die in (first, second)}
    reach = np.zeros_like(board)
    for die, other in ((first, second), (second, first)):
        # a checker on the board moving `die`: the bar empty, or its one checker entered
        allowed = free | (single & enters[other])
        reach |= _shifted(board, die) & allowed[:, None]
        reach |= _target(rows, 24 - die, bar > 0)  # the checker entering with `die`
    through = _shifted(open_, first) | _shifted(open_, second)
    reach |= _shifted(board, first + second) & through & free[:, None]
    entered = single & (enters[first] | enters[second])
    reach |= _target(rows, 24 - first - second, entered)
    return reach


def _double_hits(board: np.ndarray, bar: np.ndarray, open_: np.ndarray, die: int) -> np.ndarray:
    """The hitter's indices that a roll of double `die` can reach, (n, 24)."""
    rows = len(board)
    enters = open_[:, 24 - die]
    steps_left = np.where(bar == 0, 4, np.where(enters, np.clip(4 - bar, 0, 4), 0))
    bar_steps = np.where(bar > 0, np.maximum(5 - bar, 1), 0)
    reach = np.zeros_like(board)
    clear = np.ones_like(board)  # the points in between open, for board checkers
    for steps in range(1, 5):
        reach |= _shifted(board, steps * die) & clear & (steps_left >= steps)[:, None]
        clear &= _shifted(open_, steps * die)
        target = 24 - steps * die
        if target >= 0:
            between = np.all(open_[:, [24 - j * die for j in range(1, steps)]], axis=1)
            reach |= _target(rows, target, (bar_steps >= steps) & between)
    return reach


def prime(side: np.ndarray) -> np.ndarray:
    """Each row's longest run of consecutive points held (two or more checkers), at most
    6, over 6."""
    run = np.zeros(len(side), dtype=int)
    best = np.zeros(len(side), dtype=int)
    for index in range(24):
        run = np.where(side[:, index] >= 2, run + 1, 0)
        best = np.maximum(best, run)
    return np.minimum(best, 6) / 6
