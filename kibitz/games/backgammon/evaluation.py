"""Backgammon's evaluation: a cubeless equity estimate for the player about to roll.

**Contact positions**: Gerald Tesauro's *pubeval*, the linear evaluator he published for
benchmarking backgammon programs ("Provided as a public service to the backgammon
programming community by Gerry Tesauro, IBM Research"), with its two published weight
vectors: 122 weights for racing positions, 122 for contact ones. The weights below are
copied from the copy kept in GNU Backgammon's sources (``pub_eval.c``, "by Gerry Tesauro,
modified by Gary Wong for GNU Backgammon, 1999"); the input encoding follows Tesauro's
description there: for each of the mover's points 24 down to 1, five inputs (an opponent's
blot; one, at least two, exactly three checkers of the mover; (n - 3) / 2 beyond three),
then the opponent's checkers on the bar / 2 and the mover's checkers off / 15. pubeval
scores the position *after* the mover's play, with the opponent to roll.

**Races** (no contact left): Kleinman's count (the lead in pips plus 4 for being on roll,
over the square root of twice the pip total) with pubeval's race scores of both sides (how
well each is placed to bear off), weighed as below.

**Calibration**: pubeval's score is a ranking, not an equity. The features become a win
probability through a logistic curve, and the equity (gammons counted, cubeless) is the win
probability's ``2p - 1`` scaled by a factor for gammons; the constants were fitted against
GNU Backgammon's own 0-ply evaluations of positions from play
(`scripts/calibrate_backgammon.py`; the figures are in the constants' comments).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kibitz.games.backgammon.board import pips

# fmt: off
RACE_WEIGHTS = (
    .00000, -.17160, .27010, .29906, -.08471, .00000, -1.40375,
    -1.05121, .07217, -.01351, .00000, -1.29506, -2.16183, .13246,
    -1.03508, .00000, -2.29847, -2.34631, .17253, .08302, .00000,
    -1.27266, -2.87401, -.07456, -.34240, .00000, -1.34640, -2.46556,
    -.13022, -.01591, .00000, .27448, .60015, .48302, .25236, .00000,
    .39521, .68178, .05281, .09266, .00000, .24855, -.06844, -.37646,
    .05685, .00000, .17405, .00430, .74427, .00576, .00000, .12392,
    .31202, -.91035, -.16270, .00000, .01418, -.10839, -.02781, -.88035,
    .00000, 1.07274, 2.00366, 1.16242, .22520, .00000, .85631, 1.06349,
    1.49549, .18966, .00000, .37183, -.50352, -.14818, .12039, .00000,
    .13681, .13978, 1.11245, -.12707, .00000, -.22082, .20178, -.06285,
    -.52728, .00000, -.13597, -.19412, -.09308, -1.26062, .00000, 3.05454,
    5.16874, 1.50680, 5.35000, .00000, 2.19605, 3.85390, .88296, 2.30052,
    .00000, .92321, 1.08744, -.11696, -.78560, .00000, -.09795, -.83050,
    -1.09167, -4.94251, .00000, -1.00316, -3.66465, -2.56906, -9.67677,
    .00000, -2.77982, -7.26713, -3.40177, -12.32252, .00000, 3.42040,
)
CONTACT_WEIGHTS = (
    .25696, -.66937, -1.66135, -2.02487, -2.53398, -.16092, -1.11725,
    -1.06654, -.92830, -1.99558, -1.10388, -.80802, .09856, -.62086,
    -1.27999, -.59220, -.73667, .89032, -.38933, -1.59847, -1.50197,
    -.60966, 1.56166, -.47389, -1.80390, -.83425, -.97741, -1.41371,
    .24500, .10970, -1.36476, -1.05572, 1.15420, .11069, -.38319, -.74816,
    -.59244, .81116, -.39511, .11424, -.73169, -.56074, 1.09792, .15977,
    .13786, -1.18435, -.43363, 1.06169, -.21329, .04798, -.94373, -.22982,
    1.22737, -.13099, -.06295, -.75882, -.13658, 1.78389, .30416, .36797,
    -.69851, .13003, 1.23070, .40868, -.21081, -.64073, .31061, 1.59554,
    .65718, .25429, -.80789, .08240, 1.78964, .54304, .41174, -1.06161,
    .07851, 2.01451, .49786, .91936, -.90750, .05941, 1.83120, .58722,
    1.28777, -.83711, -.33248, 2.64983, .52698, .82132, -.58897, -1.18223,
    3.35809, .62017, .57353, -.07276, -.36214, 4.37655, .45481, .21746,
    .10504, -.61977, 3.54001, .04612, -.18108, .63211, -.87046, 2.47673,
    -.48016, -1.27157, .86505, -1.11342, 1.24612, -.82385, -2.77082,
    1.23606, -1.59529, .10438, -1.30206, -4.11520, 5.62596, -2.75800,
)
# fmt: on

# Fitted on 2026-11-24 by `python scripts/calibrate_backgammon.py --games 200` (4,000
# positions from 200 self-play games: 3,646 contact, 354 race; gnubg 1.07.001 at 0-ply);
# mean absolute error of the equity against gnubg's: contact 0.347, race 0.434.
CALIBRATION = (0.0631, -0.0571, 0.8427, -0.1991)
"""Win probability of the mover after its play = logistic(these . `contact_features`)."""
GAMMON_FACTOR = 1.9041
"""Cubeless equity = (2p - 1) * this (gammons make a lopsided game worth more)."""
RACE_CALIBRATION = (2.0848, -0.0855, 0.0679, -0.7716)
"""Race: win probability of the player on roll = logistic(these . `race_features`)."""
RACE_GAMMON_FACTOR = 1.3938
"""Race: cubeless equity = (2p - 1) * this."""


def _point_tables(weights: Sequence[float]) -> list[list[float]]:
    """For each of the mover's points 1-24, the pubeval contribution of a count n of
    checkers there (negative: the opponent's), indexed by n + 15."""
    tables = []
    for point in range(1, 25):
        base = 5 * (24 - point)
        row = []
        for n in range(-15, 16):
            value = 0.0
            if n == -1:
                value += weights[base]
            if n == 1:
                value += weights[base + 1]
            if n >= 2:
                value += weights[base + 2]
            if n == 3:
                value += weights[base + 3]
            if n >= 4:
                value += weights[base + 4] * (n - 3) / 2
            row.append(value)
        tables.append(row)
    return tables


_CONTACT_TABLES = _point_tables(CONTACT_WEIGHTS)
_RACE_TABLES = _point_tables(RACE_WEIGHTS)


def pubeval(mover: Sequence[int], opponent: Sequence[int], race: bool) -> float:
    """Tesauro's pubeval score of the position after `mover`'s play, `opponent` to roll
    (sides in the per-side convention of `board.py`); higher is better for the mover."""
    if sum(mover) == 0:
        return 99999999.0  # all borne off: the best possible play (as the original says)
    tables = _RACE_TABLES if race else _CONTACT_TABLES
    weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    score = 0.0
    for index in range(24):
        count = mover[index] - opponent[23 - index]
        if count:
            score += tables[index][count + 15]
    score += weights[120] * opponent[24] / 2
    score += weights[121] * (15 - sum(mover)) / 15
    return score


def is_race(first: Sequence[int], second: Sequence[int]) -> bool:
    """Whether the two sides can no longer hit or block each other."""
    return _back(first) + _back(second) < 23


def _back(side: Sequence[int]) -> int:
    """The side's rearmost occupied index (the bar is 24), -1 when none is left."""
    for index in range(24, -1, -1):
        if side[index]:
            return index
    return -1


def race_features(
    on_roll: Sequence[int], other: Sequence[int]
) -> tuple[float, float, float, float]:
    """What the race calibration weighs: Kleinman's count (the lead in pips of the player on
    roll plus 4, over the square root of twice the pip total), pubeval's race score for the
    side that just played and for the side on roll (as if it had: how well each side's
    checkers are placed to bear off), and 1."""
    mine, theirs = pips(on_roll), pips(other)
    count = (theirs - mine + 4) / math.sqrt(2 * max(mine + theirs, 1))
    return count, pubeval(other, on_roll, race=True), pubeval(on_roll, other, race=True), 1.0


def pre_roll_equity(on_roll: Sequence[int], other: Sequence[int]) -> float:
    """Cubeless equity (gammons counted; within [-3, 3]) of the player on roll, before
    rolling; each side in the per-side convention of `board.py`."""
    if is_race(on_roll, other):
        wins = _logistic(RACE_CALIBRATION, race_features(on_roll, other))
        return (2 * wins - 1) * RACE_GAMMON_FACTOR
    mover_wins = _logistic(CALIBRATION, contact_features(other, on_roll))  # other just played
    return -(2 * mover_wins - 1) * GAMMON_FACTOR


def _logistic(weights: Sequence[float], features: Sequence[float]) -> float:
    logit = sum(weight * value for weight, value in zip(weights, features, strict=True))
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, logit))))


def contact_features(
    mover: Sequence[int], opponent: Sequence[int]
) -> tuple[float, float, float, float]:
    """What the calibration weighs, after `mover`'s play: pubeval's score of the position
    for the mover, pubeval's score of it for the opponent (as if the opponent had just
    played: pubeval sees the other side only through its blots and its bar, so it takes
    both views to see both sides' points), the mover's lead in pips (in hundreds), and 1."""
    lead = (pips(opponent) - pips(mover)) / 100
    return pubeval(mover, opponent, race=False), pubeval(opponent, mover, race=False), lead, 1.0
