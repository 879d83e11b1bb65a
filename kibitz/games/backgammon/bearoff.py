"""A one-sided bear-off database: exact race endings once both sides are home.

For every way to place up to `CHECKERS` checkers on one side's six home points (54,264
positions for 15 checkers, counting the empty board), the database holds the probability
distribution of the number of rolls that side needs to bear everything off, each roll
played to bring the expected number of rolls down (as gnubg's one-sided database does), and
for the positions of all 15 checkers the distribution of the rolls until the first checker
is off, each roll played to bring that down (what saves a gammon).

Once neither side has a checker outside its home board there is no contact left, so the two
sides race independently: the side on roll, needing ``n`` rolls with probability ``p(n)``,
wins where the other needs at least as many, ``sum p(n) * P(other >= n)``; it wins a gammon
where it finishes before the other has taken one checker off (`race_probabilities`).
Playing each side for its own fewest rolls is not always the play that wins most often, so
the figures are those of gnubg's one-sided tables, not of a two-sided one.

Built once by one command into ``$KIBITZ_BEAROFF_DIR`` (default ``~/.cache/kibitz/bearoff``),
outside git::

    python -m kibitz.games.backgammon.bearoff build      # 15 checkers: 54,264 positions

and loaded from there (`BearoffDatabase.load`; `cached_database` keeps it in memory). A
smaller one (``--checkers 6``: seconds) serves the positions of as many checkers a side.

With it, backgammon's estimate of two sides both home is the database's race chances
(`BearoffDatabase.race_chances`, in `evaluation.pre_roll_equity` and the kernel alike)
instead of the race curves, where the engine `expectimax`'s option ``Bearoff`` puts it on
the position searched (`Backgammon.with_endgame_table`, the game's `EndgameTable`).
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

POINTS = 6
CHECKERS = 15
MAX_ROLLS = 32
"""Length of a stored distribution: 15 checkers on the six-point need at most 30 rolls."""
FILE_NAME = "bearoff-{checkers}.npz"
LAYOUT = 2
"""The files' row order: 2, `position_index` (1, by pip count, was never used to evaluate:
such a file is rebuilt)."""
BUILD_COMMAND = "python -m kibitz.games.backgammon.bearoff build"

ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (high, low, (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)
"""The 21 rolls (high, low) with their probabilities."""

Home = tuple[int, ...]
"""Checkers on the six home points, the ace point first (the board's indices 0-5)."""


def bearoff_dir() -> Path:
    """Where the database is cached: ``$KIBITZ_BEAROFF_DIR`` or ``~/.cache/kibitz/bearoff``."""
    default = Path.home() / ".cache" / "kibitz" / "bearoff"
    return Path(os.environ.get("KIBITZ_BEAROFF_DIR") or default)


def position_count(checkers: int = CHECKERS) -> int:
    """Positions of at most `checkers` checkers on the six points, the empty one included."""
    return math.comb(checkers + POINTS, POINTS)


def all_positions(checkers: int = CHECKERS) -> list[Home]:
    """Every position of at most `checkers` checkers, in row order (`position_index`): a
    roll always leads to an earlier row."""
    found: list[Home] = []

    def place(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == POINTS - 1:
            found.extend((*prefix, count) for count in range(left + 1))
            return
        for count in range(left + 1):
            place((*prefix, count), left - count)

    place((), checkers)
    found.sort(key=position_index)
    return found


def position_index(home: Sequence[int], checkers: int = CHECKERS) -> int:
    """A position's row in the database of `checkers` checkers (KeyError for a position of
    more), the same in every database that holds it: the positions of fewer checkers than
    its ``t`` come first, ``C(t + 5, 6)`` of them, then its rank among those of ``t`` in the
    combinatorial number system, the checkers counted from the six point down: the sums
    ``b_k`` of the checkers on the six point down to point ``6 - k``, plus ``k``, for
    k = 0..4, are five distinct numbers below ``t + 5``, ranked ``sum C(b_k, k + 1)``. A
    checker moved down lowers some ``b_k`` and one borne off lowers ``t``, so every roll
    leads to an earlier row. The kernel computes the same (`_kernel.pyx`)."""
    if sum(home) > checkers:
        raise KeyError(f"{tuple(home)}: more than {checkers} checkers")
    rank = total = 0
    for k in range(POINTS - 1):
        total += home[POINTS - 1 - k]
        rank += math.comb(total + k, k + 1)
    total += home[0]
    return rank + math.comb(total + POINTS - 1, POINTS)


@functools.cache
def die_moves(home: Home, die: int) -> frozenset[Home]:
    """The positions one die can leave (no opponent can block a bear-off)."""
    highest = max((point for point in range(POINTS) if home[point]), default=-1)
    found: set[Home] = set()
    for point in range(highest + 1):
        if not home[point]:
            continue
        target = point - die
        if target < -1 and point != highest:
            continue  # a higher die bears off from the highest point only
        after = list(home)
        after[point] -= 1
        if target >= 0:
            after[target] += 1
        found.add(tuple(after))
    return frozenset(found)


def roll_moves(home: Home, high: int, low: int) -> set[Home]:
    """The positions a roll can leave, every die used (all home, one always can be) unless
    everything is off before the roll is used up."""
    dice_orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    found: set[Home] = set()
    for dice in dice_orders:
        layer = {home}
        for die in dice:
            layer = {after for position in layer for after in _die_or_done(position, die)}
        found |= layer
    return found


def _die_or_done(home: Home, die: int) -> frozenset[Home]:
    return die_moves(home, die) if any(home) else frozenset((home,))


class BearoffDatabase:
    """The distributions of rolls to bear off (`off`, every position) and to take the
    first checker off (`first`, rows of the positions of all `checkers` checkers, -1
    elsewhere: `first_row`)."""

    def __init__(self, checkers: int, off: np.ndarray, first: np.ndarray, first_row: np.ndarray):
        self.checkers = checkers
        self.off = off
        self.first = first
        self.first_row = first_row

    @classmethod
    def build(cls, checkers: int = CHECKERS) -> BearoffDatabase:
        """Computes the database (15 checkers: about a minute in Python)."""
        positions = all_positions(checkers)
        index = {home: row for row, home in enumerate(positions)}
        off = np.zeros((len(positions), MAX_ROLLS), dtype=np.float64)
        mean = np.zeros(len(positions))
        off[0, 0] = 1.0  # the empty board: done
        full = [row for row, home in enumerate(positions) if sum(home) == checkers]
        first_row = np.full(len(positions), -1, dtype=np.int32)
        first_row[full] = np.arange(len(full), dtype=np.int32)
        first = np.zeros((len(full), MAX_ROLLS), dtype=np.float64)
        first_mean = np.zeros(len(full))
        for row, home in enumerate(positions[1:], start=1):
            full_row = first_row[row]
            for high, low, chance in ROLLS:
                afters = [index[after] for after in roll_moves(home, high, low)]
                best = min(afters, key=mean.__getitem__)
                off[row, 1:] += chance * off[best, :-1]
                mean[row] += chance * (1 + mean[best])
                if full_row >= 0:
                    still_full = [after for after in afters if first_row[after] >= 0]
                    if len(still_full) < len(afters):  # a checker comes off this roll
                        first[full_row, 1] += chance
                        first_mean[full_row] += chance
                    else:
                        best = min(still_full, key=lambda after: first_mean[first_row[after]])
                        first[full_row, 1:] += chance * first[first_row[best], :-1]
                        first_mean[full_row] += chance * (1 + first_mean[first_row[best]])
        return cls(checkers, off, first, first_row)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial.npz")
        np.savez_compressed(
            partial,
            checkers=np.int32(self.checkers),
            layout=np.int32(LAYOUT),
            off=self.off.astype(np.float32),
            first=self.first.astype(np.float32),
            first_row=self.first_row,
        )
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> BearoffDatabase:
        """The database saved at `path`; FileNotFoundError naming `BUILD_COMMAND` where it
        was saved with its rows in another order (`LAYOUT`)."""
        if not is_current(path):
            raise FileNotFoundError(
                f"{path} holds an earlier layout of the bear-off database: rebuild it with "
                f"{BUILD_COMMAND} --force"
            )
        with np.load(path) as data:
            return cls(
                int(data["checkers"]),
                data["off"].astype(np.float64),
                data["first"].astype(np.float64),
                data["first_row"],
            )

    def rolls(self, home: Sequence[int]) -> np.ndarray:
        """P(the side bears its last checker off on its n-th roll), n = 0..MAX_ROLLS-1."""
        return self.off[position_index(home, self.checkers)]

    def mean_rolls(self, home: Sequence[int]) -> float:
        distribution = self.rolls(home)
        return float(np.dot(distribution, np.arange(MAX_ROLLS)))

    def first_off(self, home: Sequence[int]) -> np.ndarray | None:
        """P(its first checker comes off on its n-th roll), for a side with all its checkers
        on the board; None where one is already off (no gammon to lose)."""
        row = self.first_row[position_index(home, self.checkers)]
        return None if row < 0 else self.first[row]

    def race_probabilities(
        self, mover: Sequence[int], other: Sequence[int]
    ) -> tuple[float, float, float]:
        """(P(win), P(win a gammon), P(lose a gammon)) for the side on roll, `mover`, both
        sides home (six counts each, the ace point first), a side of `checkers` checkers
        having borne none off."""
        my_first, their_first = self.first_off(mover), self.first_off(other)
        return _race(
            self.rolls(mover).tolist(),
            self.rolls(other).tolist(),
            None if my_first is None else my_first.tolist(),
            None if their_first is None else their_first.tolist(),
        )

    def race_chances(
        self, on_roll: Sequence[int], other: Sequence[int]
    ) -> tuple[float, float, float] | None:
        """`race_probabilities` of two sides of a backgammon game (25 counts each, as in
        `board.py`), where a side has borne none off when it has all its 15 checkers; None
        where a side has a checker outside its home board (or on the bar) or more checkers
        than the database holds. The kernel computes the same (`_kernel.pyx`)."""
        if any(on_roll[POINTS:]) or any(other[POINTS:]):
            return None
        rows = []
        for home in (on_roll[:POINTS], other[:POINTS]):
            if sum(home) > self.checkers:
                return None
            rows.append(position_index(home, self.checkers))
        mine, theirs = (self.off[row].tolist() for row in rows)
        my_first, their_first = (
            self.first[self.first_row[row]].tolist() if sum(side) == CHECKERS else None
            for row, side in zip(rows, (on_roll, other), strict=True)
        )
        return _race(mine, theirs, my_first, their_first)


def _race(
    mine: Sequence[float],
    theirs: Sequence[float],
    my_first: Sequence[float] | None,
    their_first: Sequence[float] | None,
) -> tuple[float, float, float]:
    """(P(win), P(win a gammon), P(lose a gammon)) of the side on roll from the two sides'
    distributions of rolls to bear off and, where a side can be gammoned, to take its first
    checker off; summed in one order, as the kernel sums them."""
    win = win_gammon = lose_gammon = 0.0
    theirs_done = their_first_done = my_first_done = 0.0  # by the rolls before the n-th
    for n in range(MAX_ROLLS):
        chance = mine[n]  # the side on roll finishes on its n-th roll, before their n-th
        win += chance * (1.0 - theirs_done)
        theirs_done += theirs[n]
        if their_first is not None:  # they are gammoned where their first checker is later
            win_gammon += chance * (1.0 - their_first_done)
            their_first_done += their_first[n]
        if my_first is not None:  # gammoned where they finish before its first is off
            my_first_done += my_first[n]
            lose_gammon += theirs[n] * (1.0 - my_first_done)
    return win, win_gammon, lose_gammon


def is_current(path: Path) -> bool:
    """Whether the database saved at `path` has its rows in this `LAYOUT`."""
    with np.load(path) as data:
        return "layout" in data and int(data["layout"]) == LAYOUT


def database_path(checkers: int = CHECKERS, directory: Path | None = None) -> Path:
    return (directory or bearoff_dir()) / FILE_NAME.format(checkers=checkers)


@functools.cache
def cached_database(checkers: int | None = None) -> BearoffDatabase:
    """The database of `checkers` checkers (None: of the most of those built) from its
    cache, loaded once; FileNotFoundError naming `BUILD_COMMAND` where it was not built."""
    sizes = range(CHECKERS, 0, -1) if checkers is None else (checkers,)
    for size in sizes:
        path = database_path(size)
        if path.exists():
            return BearoffDatabase.load(path)
    raise FileNotFoundError(f"no bear-off database at {path}: build it with {BUILD_COMMAND}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.games.backgammon.bearoff",
        description="Builds the one-sided bear-off database into $KIBITZ_BEAROFF_DIR "
        "(default ~/.cache/kibitz/bearoff).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the database (skips a cached one)")
    build.add_argument(
        "--checkers",
        type=int,
        default=CHECKERS,
        choices=range(1, CHECKERS + 1),
        metavar="N",
        help=f"checkers per side, 1-{CHECKERS} (default {CHECKERS})",
    )
    build.add_argument("--dir", type=Path, help="where to write it")
    build.add_argument("--force", action="store_true", help="rebuild a cached database")
    args = parser.parse_args(argv)
    path = database_path(args.checkers, args.dir)
    if path.exists() and is_current(path) and not args.force:
        print(f"{path} (cached)")
        return 0
    print(
        f"{position_count(args.checkers):,} positions of up to {args.checkers} checkers", flush=True
    )
    start = time.perf_counter()
    BearoffDatabase.build(args.checkers).save(path)
    print(f"{path} ({path.stat().st_size:,} bytes, {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
