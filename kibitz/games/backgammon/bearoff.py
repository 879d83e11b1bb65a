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

and loaded from there (`BearoffDatabase.load`; `cached_database` keeps it in memory).
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
    """Every position of at most `checkers` checkers, in index order (`position_index`):
    by pip count, so that a roll always leads to an earlier row."""
    found: list[Home] = []

    def place(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == POINTS - 1:
            found.extend((*prefix, count) for count in range(left + 1))
            return
        for count in range(left + 1):
            place((*prefix, count), left - count)

    place((), checkers)
    found.sort(key=lambda home: (pips(home), home))
    return found


def pips(home: Sequence[int]) -> int:
    return sum(count * (point + 1) for point, count in enumerate(home))


@functools.cache
def _index_table(checkers: int) -> dict[Home, int]:
    return {home: index for index, home in enumerate(all_positions(checkers))}


def position_index(home: Sequence[int], checkers: int = CHECKERS) -> int:
    """A position's row in the database; KeyError for a position outside it."""
    return _index_table(checkers)[tuple(home)]


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
        index = _index_table(checkers)
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
            off=self.off.astype(np.float32),
            first=self.first.astype(np.float32),
            first_row=self.first_row,
        )
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> BearoffDatabase:
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
        sides home (six counts each, the ace point first)."""
        mine, theirs = self.rolls(mover), self.rolls(other)
        at_least_theirs = 1 - np.concatenate(([0.0], np.cumsum(theirs)[:-1]))
        win = float(np.dot(mine, at_least_theirs))
        win_gammon = lose_gammon = 0.0
        their_first = self.first_off(other)
        if their_first is not None:  # they are gammoned where their first checker is later
            win_gammon = float(
                np.dot(mine, 1 - np.concatenate(([0.0], np.cumsum(their_first)[:-1])))
            )
        my_first = self.first_off(mover)
        if my_first is not None:  # mover is gammoned where they finish before its first is off
            my_after = 1 - np.cumsum(my_first)
            lose_gammon = float(np.dot(theirs, my_after))
        return win, win_gammon, lose_gammon


def database_path(checkers: int = CHECKERS, directory: Path | None = None) -> Path:
    return (directory or bearoff_dir()) / FILE_NAME.format(checkers=checkers)


@functools.cache
def cached_database(checkers: int = CHECKERS) -> BearoffDatabase:
    """The database from its cache, loaded once; FileNotFoundError naming `BUILD_COMMAND`
    where it was not built."""
    path = database_path(checkers)
    if not path.exists():
        raise FileNotFoundError(f"no bear-off database at {path}: build it with {BUILD_COMMAND}")
    return BearoffDatabase.load(path)


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
    if path.exists() and not args.force:
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
