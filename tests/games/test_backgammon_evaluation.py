"""Backgammon's estimate (kibitz/games/backgammon/evaluation.py): Tesauro's pubeval exactly
as published (weights, input encoding, hand-computed scores), the fast estimate equal to
its plain definition, its bounds, its exact symmetries, won and lost races, monotonicity in
the race lead. No gnubg needed (scripts/calibrate_backgammon.py compares with gnubg)."""

from __future__ import annotations

import math
import random

import pytest
from backgammon_positions import side

from kibitz.games.backgammon import evaluation
from kibitz.games.backgammon.board import apply_play, plays, start_side
from kibitz.games.backgammon.evaluation import (
    CONTACT_WEIGHTS,
    RACE_WEIGHTS,
    contact_features,
    is_race,
    pre_roll_chances,
    pre_roll_equity,
    pubeval,
    pubeval_inputs,
    pubeval_parts,
    race_features,
    reference_equity,
    win_logit,
)


def random_positions(games: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """(on roll, other) before every roll of random games: contact, races, bear-offs,
    checkers on the bar, gammonish and finished-off positions."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        sides = [start_side(), start_side()]
        on_roll = 0
        while sum(sides[0]) and sum(sides[1]):
            me, opp = sides[on_roll], sides[1 - on_roll]
            found.append((me[:], opp[:]))
            options = plays(me, opp, rng.randint(1, 6), rng.randint(1, 6)) or [()]
            apply_play(me, opp, rng.choice(options))
            on_roll = 1 - on_roll
    return found


POSITIONS = random_positions(40, seed=7)


# -- pubeval --------------------------------------------------------------------------------------


def test_the_weights_are_tesauros():
    """Spot checks against pubeval.c (OpenBSD's copy, cited in the module docstring)."""
    assert len(CONTACT_WEIGHTS) == len(RACE_WEIGHTS) == 122
    assert CONTACT_WEIGHTS[:3] == (0.25696, -0.66937, -1.66135)
    assert CONTACT_WEIGHTS[92] == 3.35809 and CONTACT_WEIGHTS[-2:] == (5.62596, -2.75800)
    assert RACE_WEIGHTS[92] == 5.16874 and RACE_WEIGHTS[-3:] == (-12.32252, 0.0, 3.42040)
    # in races an opponent's blot means nothing (every fifth weight, and the bar's, is 0)
    assert all(RACE_WEIGHTS[index] == 0 for index in range(0, 121, 5))
    assert sum(CONTACT_WEIGHTS) == pytest.approx(-6.72565, abs=1e-9)
    assert sum(RACE_WEIGHTS) == pytest.approx(-31.29905, abs=1e-9)


def test_pubeval_scores_computed_by_hand():
    # two checkers on the mover's 6-point, 13 off; the opponent has one checker on the bar:
    # pos[6] = 2 sets x[5 * 18 + 2] = x[92]; x[120] = 1 / 2; x[121] = 13 / 15
    mover, opponent = side({6: 2}), side({}, bar=1)
    assert pubeval(mover, opponent, race=False) == pytest.approx(
        3.35809 + 5.62596 / 2 - 2.75800 * 13 / 15, abs=1e-12
    )
    assert pubeval(mover, opponent, race=True) == pytest.approx(
        5.16874 + 0 / 2 + 3.42040 * 13 / 15, abs=1e-12
    )
    # four on the 13-point (x[57] = 1, x[59] = (4 - 3) / 2), 11 off, and an opponent's blot
    # on the mover's 1-point (its own 24-point): pos[1] = -1 sets x[115]
    mover, opponent = side({13: 4}), side({24: 1})
    assert pubeval(mover, opponent, race=False) == pytest.approx(
        1.78389 + 0.36797 / 2 + 1.23606 - 2.75800 * 11 / 15, abs=1e-12
    )
    assert pubeval(side({}), opponent, race=False) == 99999999.0  # all off: the best


def test_pubeval_is_the_dot_product_of_its_inputs_and_splits_in_two():
    for mover, opponent in POSITIONS[::7]:
        inputs = pubeval_inputs(mover, opponent)
        for race, weights in ((False, CONTACT_WEIGHTS), (True, RACE_WEIGHTS)):
            expected = sum(w * x for w, x in zip(weights, inputs, strict=True))
            assert pubeval(mover, opponent, race) == pytest.approx(expected, abs=1e-9)
        structure, blots = pubeval_parts(mover, opponent)
        assert structure + blots == pytest.approx(pubeval(mover, opponent, False), abs=1e-9)
        assert blots == pytest.approx(
            sum(CONTACT_WEIGHTS[i] * inputs[i] for i in [*range(0, 120, 5), 120]), abs=1e-9
        )


def test_the_start_has_pubevals_start_inputs():
    inputs = pubeval_inputs(start_side(), start_side())
    # the mover's 24, 13, 8 and 6 points hold 2, 5, 3, 5; its 1, 12, 17 and 19 points face
    # the opponent's two, five, three and five (no input: only a blot counts)
    assert [i for i, x in enumerate(inputs) if x] == [2, 57, 59, 82, 83, 92, 94]
    assert inputs[59] == inputs[94] == 1.0 and sum(inputs) == 7.0


# -- the estimate ---------------------------------------------------------------------------------


def test_the_fast_estimate_equals_its_plain_definition():
    assert any(is_race(*p) for p in POSITIONS) and not all(is_race(*p) for p in POSITIONS)
    for on_roll, other in POSITIONS:
        assert pre_roll_equity(on_roll, other) == pytest.approx(
            reference_equity(on_roll, other), abs=1e-12
        )


def test_the_estimate_stays_within_minus_three_and_three():
    extremes = [
        (side({1: 1}), side({20: 15})),  # a race about to win a backgammon
        (side({20: 15}), side({1: 1})),  # about to lose one
        (side({}, bar=15), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})),  # closed out
        (start_side(), start_side()),
    ]
    values = [pre_roll_equity(a, b) for a, b in [*POSITIONS, *extremes]]
    assert all(-3.0 <= value <= 3.0 for value in values)
    assert pre_roll_equity(*extremes[0]) > 2.5 and pre_roll_equity(*extremes[1]) < -2.5
    assert pre_roll_equity(*extremes[2]) < -1.0


def test_a_finished_game_is_worth_its_points():
    assert pre_roll_equity(side({}), side({6: 15})) == 2.0  # the other is gammoned
    assert pre_roll_equity(side({}), side({20: 1, 6: 14})) == 3.0
    assert pre_roll_equity(side({6: 1}), side({})) == -1.0
    # every roll bears the last checkers off (here with the other still on the bar)
    assert pre_roll_equity(side({1: 1, 2: 1}), side({19: 14}, bar=1)) == 3.0
    assert pre_roll_equity(side({3: 1}), side({6: 14})) == 1.0
    assert pre_roll_equity(side({2: 2}), side({6: 14})) < 1.0  # 2-1 leaves one


def test_a_won_race_is_worth_about_one_point():
    ahead = pre_roll_equity(side({1: 5, 2: 5}), side({6: 10}))  # 15 pips against 60
    assert 0.9 < ahead <= 1.0  # the other has borne off 5: no gammon
    behind = pre_roll_equity(side({6: 10}), side({1: 5, 2: 5}))
    assert -1.0 <= behind < -0.9
    # the other has borne off nothing and has far to go: a gammon, about two points
    assert pre_roll_equity(side({1: 2}), side({10: 5, 9: 5, 8: 5})) > 1.8


def test_the_estimate_grows_with_the_race_lead():
    mine = side({3: 5, 4: 5, 5: 5})  # 60 pips, all home
    values = []
    for point in range(1, 19):  # the other's last checker further and further back
        other = side({5: 5, 6: 5, point: 1}) if point not in (5, 6) else None
        if other is not None:
            assert is_race(mine, other)
            values.append(pre_roll_equity(mine, other))
    assert values == sorted(values) and values[-1] - values[0] > 0.5


def test_swapping_the_sides_negates_all_but_being_on_roll():
    """The win logit of a side is minus the other's, except for the terms of being on roll
    (and, in contact, the blot term: pubeval judges blots only from the side that just
    played), so identical sides are worth exactly those terms."""
    for on_roll, other in POSITIONS[::5]:
        if is_race(on_roll, other):
            mine, theirs = race_features(on_roll, other), race_features(other, on_roll)
            odd = 4  # race_features: four lead terms, then 4 / spread and 1
        else:
            mine, theirs = contact_features(on_roll, other), contact_features(other, on_roll)
            assert mine[0] == pytest.approx(-theirs[0], abs=1e-12)
            mine, theirs = (mine[0], *mine[2:]), (theirs[0], *theirs[2:])  # without blots
            odd = 3
        for index in range(odd):
            assert mine[index] == pytest.approx(-theirs[index], abs=1e-12)
        assert mine[odd:] == pytest.approx(theirs[odd:], abs=1e-12)
    race = side({1: 5, 2: 5, 3: 5})
    spread = math.sqrt(2 * (30 + 30))
    assert win_logit(race, race) == pytest.approx(
        evaluation.RACE_WIN[4] * 4 / spread + evaluation.RACE_WIN[5], abs=1e-12
    )
    start = start_side()
    spread = math.sqrt(2 * (167 + 167))
    assert win_logit(start, start) == pytest.approx(
        evaluation.CONTACT_WIN[4] * 4 / spread + evaluation.CONTACT_WIN[5], abs=1e-12
    )  # no blots at the start


def test_being_on_roll_at_the_start_is_worth_a_little():
    # gnubg 1.07 at 0-ply: +0.067
    assert 0.0 < pre_roll_equity(start_side(), start_side()) < 0.25


# -- win, gammon and backgammon chances -------------------------------------------------------


def test_the_chances_are_consistent_everywhere():
    for on_roll, other in POSITIONS:
        chances = pre_roll_chances(on_roll, other)
        assert 0.0 <= chances.win_backgammon <= chances.win_gammon <= chances.win <= 1.0
        assert 0.0 <= chances.loss_backgammon <= chances.loss_gammon <= chances.loss <= 1.0
        assert chances.win + chances.loss == pytest.approx(1.0)


def test_the_chances_make_the_equity_where_no_curve_overshoots():
    """Cut or not, the equity of the chances is the estimate's equity wherever the gammon
    curves lie below the win chances (almost everywhere)."""
    checked = 0
    for on_roll, other in POSITIONS:
        c = pre_roll_chances(on_roll, other)
        if 0.02 < c.win < 0.98:
            equity = 2 * c.win - 1 + c.win_gammon + c.win_backgammon
            equity -= c.loss_gammon + c.loss_backgammon
            if c.win_gammon < c.win - 1e-9 and c.loss_gammon < c.loss - 1e-9:
                assert equity == pytest.approx(pre_roll_equity(on_roll, other), abs=1e-9)
                checked += 1
    assert checked > 100


def test_a_side_that_has_borne_off_cannot_be_gammoned():
    # a race: the player on roll far behind, but it has borne a checker off
    behind = pre_roll_chances(side({6: 4, 5: 5, 13: 5}), side({1: 3, 2: 3}))
    assert behind.loss_gammon == 0.0 and behind.loss_backgammon == 0.0
    ahead = pre_roll_chances(side({1: 3, 2: 3}), side({6: 4, 5: 5, 13: 5}))
    assert ahead.win_gammon == 0.0 and ahead.win_backgammon == 0.0
    assert ahead.win > 0.95  # and it still wins almost surely


def test_no_backgammon_without_a_checker_in_the_winners_home_or_on_the_bar():
    chances = pre_roll_chances(side({1: 2, 2: 2}), side({8: 5, 9: 5, 10: 5}))
    assert chances.win_gammon > 0.5  # 4 pips to go, nothing borne off against it
    assert chances.win_backgammon == 0.0
    trapped = pre_roll_chances(side({1: 2, 2: 2}), side({8: 5, 9: 5, 20: 5}))
    assert trapped.win_backgammon > 0.0


def test_a_finished_game_has_certain_chances():
    gammoned = pre_roll_chances(side({}), side({6: 15}))
    assert (gammoned.win, gammoned.win_gammon, gammoned.win_backgammon) == (1.0, 1.0, 0.0)
    lost = pre_roll_chances(side({20: 1, 6: 14}), side({}))
    assert (lost.win, lost.loss_gammon, lost.loss_backgammon) == (0.0, 1.0, 1.0)
    single = pre_roll_chances(side({3: 1}), side({6: 14}))  # every roll bears it off
    assert (single.win, single.win_gammon, single.loss_gammon) == (1.0, 0.0, 0.0)
