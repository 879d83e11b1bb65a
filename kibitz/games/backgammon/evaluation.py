"""Backgammon's evaluation: a cubeless equity estimate for the player about to roll.

The estimate is a win probability plus the chances of gammons and backgammons, each a
logistic curve of a few features, with equity ``2 p - 1 + (gammon + backgammon of the
player on roll) - (the same of the other)``: gammons count 2, backgammons 3, no cube.

**Contact**: Gerald Tesauro's *pubeval*, the linear evaluator he published in 1993 as a
benchmark opponent ("FTPable benchmark evaluation function", rec.games.backgammon,
11 February 1993: https://www.bkgm.com/rgb/rgb.cgi?view+610), with its two weight vectors
of 122 inputs, ``wr`` for races and ``wc`` for contact. The weights below are copied
exactly from the public-domain ``pubeval.c`` kept in OpenBSD's games
(https://github.com/openbsd/src/blob/master/games/backgammon/backgammon/pubeval.c; the
same numbers as GNU Backgammon's ``pub_eval.c``). Its input encoding (``setx`` there): for
each of the mover's points 24 down to 1, five inputs (an opponent's blot there; exactly 1,
at least 2, exactly 3 checkers of the mover; (n - 3) / 2 for n >= 4), then the opponent's
checkers on the bar / 2 and the mover's checkers off / 15. pubeval scores the position
*after* the mover's play, with the opponent to roll, from the mover's side; higher is
better, and the scale means nothing: it ranks plays. It has two parts: the *structure*,
the inputs of the mover's own checkers and those borne off, and the *blots*, the inputs of
the opponent's blots and its checkers on the bar. pubeval sees the other side only through
its blots and bar, so a search that scored its leaves by it alone would judge the side on
roll by nothing but its blots (a 2-ply search crunched its own board to leave none); the
win probability weighs the *difference* of the two sides' structures, the blots and bar of
the player on roll as the side that just played sees them (pubeval's own context: the
blot weights mean something only there; scored from the other side too, they rewarded
leaving blots on one's own 7-point, and the 1-ply openings kept every back checker home),
the pip lead, and the lead over the spread of the race (below). So a 1-ply search ranks the
plays of a roll exactly as pubeval does, apart from hits (which change the pips and the
opponent's structure).

**Races** (no contact left): Kleinman's count, the lead of the player on roll plus 4 pips
over the square root of twice the pip total, whose normal distribution gives the winning
chances (as GNU Backgammon's ``KleinmanCount`` in eval.c computes it; Øystein Johansen,
"Re: Kleinman Count", rec.games.backgammon, 22 February 2001), and the same for Keith's
count (Tom Keith's pip count adjusted for wastage: 2 for each checker beyond one on the
1-point, 1 beyond one on the 2-point, 1 beyond three on the 3-point, 1 for each empty 4-,
5- and 6-point; http://bgonline.org/keith.html), plus pubeval's race scores of both sides
and the checkers left. Gammons: how far the loser's checkers are from home (and, for
backgammons, from leaving the winner's home board) against the winner's pip count.

**Calibration**: the weights of the logistic curves were fitted to GNU Backgammon's own
evaluations (`scripts/calibrate_backgammon.py`; how, and the errors, at the constants).
It is fast: every leaf of a search calls it (`python scripts/calibrate_backgammon.py
--speed` measures it).

Each side's checkers are 25 counts in gnubg's per-side convention (`board.py`): index
i < 24 is the side's own point i + 1 counted from its home, index 24 its bar; 15 minus the
sum are borne off. A checker on my index i is on the opponent's index 23 - i.

With a TD network (`network.py`), the functions below take its outputs for the curves
where nothing exact or the bear-off database answers (an engine's option chooses it:
expectimax's `Evaluation`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kibitz.games.capabilities import Chances

if TYPE_CHECKING:
    from kibitz.games.backgammon.bearoff import BearoffDatabase
    from kibitz.games.backgammon.network import Network

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
"""pubeval's ``wr``."""
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
"""pubeval's ``wc``."""
# fmt: on

# -- the calibration ---------------------------------------------------------------------------
# Fitted on 2026-11-24 by `.venv/bin/python scripts/calibrate_backgammon.py` (its defaults:
# 400 games of pubeval self-play, seed 1, 1 play in 50 at random; gnubg 1.07.001 at 0-ply,
# cubeless, before the roll): fitted on the 19,324 positions of the first 300 games (16,029
# contact, 3,295 race), checked on the other 100 games' 6,330 (5,233 contact, 1,097 race).
# Mean absolute error of the equity against gnubg's on the checked positions: contact 0.217,
# races 0.048 (the estimate before this one, a gammon factor on pubeval's two views and
# Kleinman's count: 0.315 and 0.397); of the win probability: contact 0.074, races 0.012.
# gnubg's equities there average 0.73 in absolute value (self-play with random plays is
# lopsided). Its plays: 1-ply kibitz chose gnubg's 0-ply play in 461 of 915 contact
# positions (before: 405), and loses 0.011 a roll on the 15 opening rolls by gnubg's 2-ply
# judgement (before: 0.027; 6 of gnubg's plays, 65 24/13 among them).
CONTACT_WIN = (0.1226, -0.1468, -9.0592, 2.2249, 1.1141, 0.0202)
"""Contact: the win probability of the player on roll = logistic(these . `contact_features`)."""
RACE_WIN = (0.6377, 1.4133, 0.0229, 1.0056, 1.6654, 0.1462)
"""Race: the win probability of the player on roll = logistic(these . `race_features`)."""
CONTACT_GAMMON = (0.6485, 0.9340, 1.3628, -0.6651, 0.1291, -2.9097)
"""Contact: a side's chance to win a gammon or better = logistic(these . `gammon_features`)
while the loser has borne nothing off (else 0)."""
RACE_GAMMON = (1.1898, 5.4619, 0.4132, -1.1180, 0.5274, -14.2856)
CONTACT_BACKGAMMON = (0.5135, 2.2439, -2.2740, 1.3087, -0.4371, 0.2578, -6.6555)
"""Contact: a side's chance to win a backgammon = logistic(these .
`backgammon_features`) while the loser has borne nothing off and has a checker on the bar
or in the winner's home board (else 0)."""
RACE_BACKGAMMON = (2.0500, 5.5612, 7.4226, -10.0238, -22.5527, 1.5673, -27.0730)

CHECKERS = 15


def pubeval(mover: Sequence[int], opponent: Sequence[int], race: bool) -> float:
    """Tesauro's pubeval score of the position after `mover`'s play, `opponent` to roll;
    higher is better for the mover. `race`: whether the position *before* the play was a
    race (pubeval's ``race`` argument: it picks the weights)."""
    if not any(mover):
        return 99999999.0  # all borne off: the best possible play (as the original says)
    tables = _RACE_TABLES if race else _CONTACT_TABLES
    weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    score = weights[120] * opponent[24] / 2 + weights[121] * (CHECKERS - sum(mover)) / 15
    for index in range(24):
        count = mover[index] - opponent[23 - index]
        if count:
            score += tables[index][count + 15]
    return score


def pubeval_inputs(mover: Sequence[int], opponent: Sequence[int]) -> list[float]:
    """pubeval's 122 inputs (``setx`` in pubeval.c): `pubeval` is their dot product with
    the weights. For tests and for reading; `pubeval` itself uses tables."""
    x = [0.0] * 122
    for j in range(1, 25):  # the mover's points 24 down to 1
        n = mover[24 - j] - opponent[j - 1]  # pubeval's pos[25 - j]
        base = 5 * (j - 1)
        if n == -1:
            x[base] = 1.0
        if n == 1:
            x[base + 1] = 1.0
        if n >= 2:
            x[base + 2] = 1.0
        if n == 3:
            x[base + 3] = 1.0
        if n >= 4:
            x[base + 4] = (n - 3) / 2.0
    x[120] = opponent[24] / 2.0
    x[121] = (CHECKERS - sum(mover)) / 15.0
    return x


def _point_tables(weights: Sequence[float]) -> list[list[float]]:
    """For each of the mover's indices 0-23, pubeval's contribution of a count n there
    (negative: the opponent's checkers), at n + 15 (n from -15 to 15)."""
    tables = []
    for index in range(24):
        base = 5 * (23 - index)
        row = []
        for n in range(-15, 16):
            row.append(
                (weights[base] if n == -1 else 0.0)
                + (weights[base + 1] if n == 1 else 0.0)
                + (weights[base + 2] if n >= 2 else 0.0)
                + (weights[base + 3] if n == 3 else 0.0)
                + (weights[base + 4] * (n - 3) / 2.0 if n >= 4 else 0.0)
            )
        tables.append(row)
    return tables


_CONTACT_TABLES = _point_tables(CONTACT_WEIGHTS)
_RACE_TABLES = _point_tables(RACE_WEIGHTS)
_STRUCTURE = [row[15:] for row in _CONTACT_TABLES]
"""Contact: pubeval's structure part of n >= 0 own checkers on each of the mover's indices."""
_BLOT = [CONTACT_WEIGHTS[5 * (23 - index)] for index in range(24)]
"""Contact: pubeval's weight of an opponent's blot on each of the mover's indices."""


def pubeval_parts(mover: Sequence[int], opponent: Sequence[int]) -> tuple[float, float]:
    """The two parts of pubeval's contact score (their sum is `pubeval`): the structure
    (the mover's own checkers and those borne off) and the blots (the opponent's blots,
    which the mover sees, and its checkers on the bar)."""
    structure = CONTACT_WEIGHTS[121] * (CHECKERS - sum(mover)) / 15
    blots = CONTACT_WEIGHTS[120] * opponent[24] / 2
    for index in range(24):
        n = mover[index]
        if n:
            structure += _STRUCTURE[index][n]
        elif opponent[23 - index] == 1:
            blots += _BLOT[index]
    return structure, blots


# -- features -------------------------------------------------------------------------------------


def is_race(first: Sequence[int], second: Sequence[int]) -> bool:
    """Whether the two sides can no longer hit or block each other."""
    return _back(first) + _back(second) < 23


def _back(side: Sequence[int]) -> int:
    """The side's rearmost occupied index (the bar is 24), -1 when none is left."""
    for index in range(24, -1, -1):
        if side[index]:
            return index
    return -1


Summary = tuple[int, int, int, int, int, int, int]
"""`_summary`'s answer."""


def _summary(side: Sequence[int]) -> Summary:
    """One pass over a side: (pips, rearmost index or -1, checkers left, pips to bring the
    checkers outside the home board home, how many they are, pips to bring the checkers on
    the bar or in the opponent's home board out of it, how many they are)."""
    pips = outside = outside_count = zone = zone_count = checkers = 0
    back = -1
    for index in range(25):
        n = side[index]
        if n:
            checkers += n
            back = index
            pips += n * (index + 1)
            if index >= 6:
                outside += n * (index - 5)
                outside_count += n
                if index >= 18:
                    zone += n * (index - 17)
                    zone_count += n
    return pips, back, checkers, outside, outside_count, zone, zone_count


def keith_count(side: Sequence[int]) -> int:
    """Tom Keith's count: the pip count plus 2 for each checker beyond one on the 1-point,
    1 for each beyond one on the 2-point, 1 for each beyond three on the 3-point, 1 for each
    empty 4-, 5- and 6-point (without the player on roll's seventh; GNU Backgammon's
    ``KeithCount``)."""
    return _summary(side)[0] + _wastage(side)


def _wastage(side: Sequence[int]) -> int:
    """What Keith's count adds to the pip count."""
    extra = 2 * max(side[0] - 1, 0) + max(side[1] - 1, 0) + max(side[2] - 3, 0)
    return extra + (not side[3]) + (not side[4]) + (not side[5])


def contact_features(on_roll: Sequence[int], other: Sequence[int]) -> tuple[float, ...]:
    """What `CONTACT_WIN` weighs, before `on_roll` rolls: pubeval's structure of the player
    on roll minus that of the other, pubeval's blot part of the other (who just played: the
    blots and bar of the player on roll as it sees them), the pip lead of the player on roll
    in hundreds, the lead over the race's spread (the square root of twice the pip total),
    4 over that spread (the pips that being on roll is worth, in Kleinman's count), and 1.
    Swapping the sides negates the first and the lead terms."""
    mine, theirs = _summary(on_roll)[0], _summary(other)[0]
    spread = math.sqrt(2 * (mine + theirs))
    my_structure, _ = pubeval_parts(on_roll, other)
    their_structure, their_blots = pubeval_parts(other, on_roll)
    return (
        my_structure - their_structure,
        their_blots,
        (theirs - mine) / 100,
        (theirs - mine) / spread,
        4 / spread,
        1.0,
    )


def race_features(on_roll: Sequence[int], other: Sequence[int]) -> tuple[float, ...]:
    """What `RACE_WIN` weighs: the pip lead of the player on roll over the race's spread
    (Kleinman's count without its 4 pips for the roll), the same lead in Keith's counts,
    pubeval's race score for the player on roll minus that for the other, the other's
    checkers left minus those of the player on roll (over 15), 4 over the spread, and 1.
    Swapping the sides negates all but the last two."""
    mine, theirs = _summary(on_roll)[0], _summary(other)[0]
    spread = math.sqrt(2 * (mine + theirs))
    return (
        (theirs - mine) / spread,
        (keith_count(other) - keith_count(on_roll)) / spread,
        pubeval(on_roll, other, race=True) - pubeval(other, on_roll, race=True),
        (sum(other) - sum(on_roll)) / CHECKERS,
        4 / spread,
        1.0,
    )


def gammon_features(
    winner: Sequence[int], loser: Sequence[int], win_logit: float, winner_on_roll: bool
) -> tuple[float, ...]:
    """What the gammon curves weigh: the winner's win logit, the pips the loser needs to
    bring its checkers home (over 50), how many checkers those are (over 15), the winner's
    pip count (over 100), whether the winner is on roll, and 1."""
    _, _, _, outside, outside_count, _, _ = _summary(loser)
    return (
        win_logit,
        outside / 50,
        outside_count / 15,
        _summary(winner)[0] / 100,
        1.0 if winner_on_roll else 0.0,
        1.0,
    )


def backgammon_features(
    winner: Sequence[int], loser: Sequence[int], win_logit: float, winner_on_roll: bool
) -> tuple[float, ...]:
    """What the backgammon curves weigh: the winner's win logit, the pips the loser needs to
    leave the winner's home board and the bar (over 20), how many checkers those are (over
    5), the pips the loser needs to bring its checkers home (over 50), the winner's pip
    count (over 100), whether the winner is on roll, and 1."""
    _, _, _, outside, _, zone, zone_count = _summary(loser)
    return (
        win_logit,
        zone / 20,
        zone_count / 5,
        outside / 50,
        _summary(winner)[0] / 100,
        1.0 if winner_on_roll else 0.0,
        1.0,
    )


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * f for w, f in zip(weights, features, strict=True))


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def win_logit(on_roll: Sequence[int], other: Sequence[int]) -> float:
    """The log-odds of the player on roll winning (the reference definition, through the
    feature functions; `pre_roll_equity` computes the same faster)."""
    if is_race(on_roll, other):
        return _dot(RACE_WIN, race_features(on_roll, other))
    return _dot(CONTACT_WIN, contact_features(on_roll, other))


def reference_equity(on_roll: Sequence[int], other: Sequence[int]) -> float:
    """`pre_roll_equity` written plainly with the feature functions (for the tests and the
    calibration; the same value, slower)."""
    if not any(on_roll) or not any(other):
        return _result(on_roll, other)
    if _summary(on_roll)[0] <= 3 and sum(on_roll) <= 2:
        return _points(other)
    race = is_race(on_roll, other)
    gammon = RACE_GAMMON if race else CONTACT_GAMMON
    backgammon = RACE_BACKGAMMON if race else CONTACT_BACKGAMMON
    logit = max(-50.0, min(50.0, win_logit(on_roll, other)))
    equity = 2 * _logistic(logit) - 1
    for winner, loser, sign in ((on_roll, other, 1), (other, on_roll, -1)):
        if sum(loser) == CHECKERS:
            own = sign * logit
            features = gammon_features(winner, loser, own, sign > 0)
            equity += sign * _logistic(_dot(gammon, features))
            if any(loser[18:]):
                features = backgammon_features(winner, loser, own, sign > 0)
                equity += sign * _logistic(_dot(backgammon, features))
    return equity


def pre_roll_equity(
    on_roll: Sequence[int],
    other: Sequence[int],
    bearoff: BearoffDatabase | None = None,
    network: Network | None = None,
) -> float:
    """Cubeless equity (gammons counted; within [-3, 3]) of the player on roll, before
    rolling; each side in the per-side convention of `board.py`. Exact at a finished game
    (a side with nothing left) and where every roll bears the last checkers off (at most
    two, at most 3 pips); with a `bearoff` database, where both sides are home and it holds
    them, its one-sided race chances (`BearoffDatabase.race_chances`) instead of the race
    curves; with a `network`, its outputs instead of the curves everywhere else."""
    return _equity(_curves(on_roll, other, bearoff, network))


def pre_roll_equities(
    positions: Sequence[tuple[Sequence[int], Sequence[int]]],
    bearoff: BearoffDatabase | None,
    network: Network,
) -> list[float]:
    """`pre_roll_equity` with `network` of each position (the player on roll's side, the
    other's), the network's outputs for all that need them in one batch (a matrix product
    of many rows: its last bit may differ from one row's)."""
    curves = [_known(on_roll, other, bearoff) for on_roll, other in positions]
    pending = [index for index, known in enumerate(curves) if known is None]
    if pending:
        rows = network.outputs(
            [positions[index][0] for index in pending], [positions[index][1] for index in pending]
        )
        for index, row in zip(pending, rows, strict=True):
            curves[index] = _outputs(row)
    return [_equity(known) for known in curves]  # type: ignore[arg-type]


def _equity(curves: float | tuple[float, float, float, float, float]) -> float:
    """The equity of `_curves`'s answer."""
    if isinstance(curves, float):
        return curves
    win, gammon, backgammon, lose_gammon, lose_backgammon = curves
    equity = 2.0 * win - 1.0
    equity += gammon
    equity += backgammon
    equity -= lose_gammon
    equity -= lose_backgammon
    return equity


def _outputs(row: Sequence[float]) -> tuple[float, float, float, float, float]:
    """A row of the network's outputs as `_curves` gives them."""
    win, gammon, backgammon, lose_gammon, lose_backgammon = (float(value) for value in row)
    return win, gammon, backgammon, lose_gammon, lose_backgammon


def pre_roll_chances(
    on_roll: Sequence[int],
    other: Sequence[int],
    bearoff: BearoffDatabase | None = None,
    network: Network | None = None,
) -> Chances:
    """The chances behind `pre_roll_equity`, for the player on roll: its win curve and
    gammon and backgammon curves, made consistent (a gammon curve above the win chance is
    cut to it, a backgammon curve to the gammon chance; `pre_roll_equity` adds the curves
    uncut, which differs only where a curve overshoots). Exact where the equity is."""
    curves = _curves(on_roll, other, bearoff, network)
    if isinstance(curves, float):  # decided: the points won (or lost, negative)
        points = abs(curves)
        decided = Chances(1.0, float(points >= 2), float(points >= 3))
        return decided if curves > 0 else decided.flipped()
    win, gammon, backgammon, lose_gammon, lose_backgammon = curves
    gammon = min(gammon, win)
    lose_gammon = min(lose_gammon, 1.0 - win)
    return Chances(
        win, gammon, min(backgammon, gammon), lose_gammon, min(lose_backgammon, lose_gammon)
    )


def _curves(
    on_roll: Sequence[int],
    other: Sequence[int],
    bearoff: BearoffDatabase | None,
    network: Network | None = None,
) -> float | tuple[float, float, float, float, float]:
    """The estimate's curves for the player on roll: (win, gammon or better, backgammon,
    the other's gammon or better, the other's backgammon), each a logistic (or where both
    sides are home and the `bearoff` database holds them, its chances; elsewhere, with a
    `network`, its outputs); or, where the game is decided, its points for the player on
    roll (a float)."""
    mine_summary, their_summary = _summary(on_roll), _summary(other)
    known = _known(on_roll, other, bearoff, mine_summary, their_summary)
    if known is not None:
        return known
    if network is not None:
        return _outputs(network.outputs([on_roll], [other])[0])
    return _formula(on_roll, other, mine_summary, their_summary)


def _known(
    on_roll: Sequence[int],
    other: Sequence[int],
    bearoff: BearoffDatabase | None,
    mine_summary: Summary | None = None,
    their_summary: Summary | None = None,
) -> float | tuple[float, float, float, float, float] | None:
    """`_curves`'s answer where no estimate is needed: the game decided or decided by the
    next roll (points, a float), or the `bearoff` database's chances; else None."""
    mine, _, my_left, _, my_out_n, _, _ = mine_summary or _summary(on_roll)
    _, _, their_left, _, their_out_n, _, _ = their_summary or _summary(other)
    if not my_left or not their_left:
        return _result(on_roll, other)
    if mine <= 3 and my_left <= 2:  # every roll bears the last checkers off
        return _points(other)
    if bearoff is not None and not my_out_n and not their_out_n:
        chances = bearoff.race_chances(on_roll, other)
        if chances is not None:  # no backgammon once the loser is home
            win, win_gammon, lose_gammon = chances
            return win, win_gammon, 0.0, lose_gammon, 0.0
    return None


def _formula(
    on_roll: Sequence[int], other: Sequence[int], mine_summary: Summary, their_summary: Summary
) -> tuple[float, float, float, float, float]:
    """The curves of a position no exact value or database answers."""
    mine, my_back, my_left, my_out, my_out_n, my_zone, my_zone_n = mine_summary
    theirs, their_back, their_left, their_out, their_out_n, zone, zone_n = their_summary
    spread = math.sqrt(2 * (mine + theirs))
    lead = theirs - mine
    exp = math.exp
    if my_back + their_back < 23:  # a race
        w = RACE_WIN
        logit = (
            w[0] * lead / spread
            + w[1] * (lead + _wastage(other) - _wastage(on_roll)) / spread
            + w[2] * (pubeval(on_roll, other, True) - pubeval(other, on_roll, True))
            + w[3] * (their_left - my_left) / CHECKERS
            + w[4] * 4 / spread
            + w[5]
        )
        gammon, backgammon = RACE_GAMMON, RACE_BACKGAMMON
    else:
        structure = CONTACT_WEIGHTS[121] * (their_left - my_left) / 15  # borne off
        blots = CONTACT_WEIGHTS[120] * on_roll[24] / 2  # what the other sees
        table, blot = _STRUCTURE, _BLOT
        for index in range(24):
            n = on_roll[index]
            if n:
                structure += table[index][n]
                if n == 1:
                    blots += blot[23 - index]
            n = other[index]
            if n:
                structure -= table[index][n]
        w = CONTACT_WIN
        logit = (
            w[0] * structure
            + w[1] * blots
            + w[2] * lead / 100
            + w[3] * lead / spread
            + w[4] * 4 / spread
            + w[5]
        )
        gammon, backgammon = CONTACT_GAMMON, CONTACT_BACKGAMMON
    logit = max(-50.0, min(50.0, logit))
    win = 1.0 / (1.0 + exp(-logit))
    win_g = win_bg = lose_g = lose_bg = 0.0
    if their_left == CHECKERS:  # the player on roll can win a gammon
        g = gammon
        x = g[0] * logit + g[1] * their_out / 50 + g[2] * their_out_n / 15
        x += g[3] * mine / 100 + g[4] + g[5]
        win_g = 1.0 / (1.0 + exp(-max(-50.0, min(50.0, x))))
        if zone_n:  # the other has checkers on the bar or in my home board
            b = backgammon
            x = b[0] * logit + b[1] * zone / 20 + b[2] * zone_n / 5
            x += b[3] * their_out / 50 + b[4] * mine / 100 + b[5] + b[6]
            win_bg = 1.0 / (1.0 + exp(-max(-50.0, min(50.0, x))))
    if my_left == CHECKERS:  # the other can
        g = gammon
        x = -g[0] * logit + g[1] * my_out / 50 + g[2] * my_out_n / 15 + g[3] * theirs / 100
        x += g[5]
        lose_g = 1.0 / (1.0 + exp(-max(-50.0, min(50.0, x))))
        if my_zone_n:
            b = backgammon
            x = -b[0] * logit + b[1] * my_zone / 20 + b[2] * my_zone_n / 5
            x += b[3] * my_out / 50 + b[4] * theirs / 100 + b[6]
            lose_bg = 1.0 / (1.0 + exp(-max(-50.0, min(50.0, x))))
    return win, win_g, win_bg, lose_g, lose_bg


def _result(on_roll: Sequence[int], other: Sequence[int]) -> float:
    """The points of a finished game for the player on roll (negative when lost)."""
    return _points(other) if not any(on_roll) else -_points(on_roll)


def _points(loser: Sequence[int]) -> float:
    """What a game won against `loser` is worth: 1, 2 when it has borne nothing off (a
    gammon), 3 when it also has a checker on the bar or in the winner's home board."""
    if sum(loser) < CHECKERS:
        return 1.0
    return 3.0 if any(loser[18:]) else 2.0
