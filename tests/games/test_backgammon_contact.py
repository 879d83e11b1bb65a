"""The backgammon network's contact features (kibitz/games/backgammon/contact.py): shots and
their pip loss counted by hand over the 36 rolls (direct, through open points, blocked,
doubles, from the bar), primes, and a network that takes them (the same function when their
weights are zero; the compiled kernel's features equal to these are in
test_backgammon_kernel.py)."""

from __future__ import annotations

import numpy as np
import pytest
from backgammon_positions import side

from kibitz.games.backgammon.board import start_side
from kibitz.games.backgammon.contact import contact_features, prime, shots
from kibitz.games.backgammon.network import INPUTS, Network


def counted(hitter: list[int], victim: list[int]) -> tuple[int, int]:
    """The rolls of 36 that hit, and the sum over them of the pips the largest hit costs."""
    share, loss = shots(np.array([hitter]), np.array([victim]))
    return round(share[0] * 36), round(loss[0] * 36 * 24)


# Sides are written on their own points; the victim's point q is the hitter's 25 - q.


def test_a_direct_shot_three_away():
    # hitter's 11-point against a blot on its 8 (the victim's 17): a 3, 2-1 or 1-1
    assert counted(side({11: 1, 6: 14}), side({17: 1, 1: 14})) == (11 + 2 + 1, 14 * 8)


def test_a_point_in_between_blocks_the_double_that_lands_on_it():
    # six away with the hitter's 8-point held: a 6, 5-1, 4-2, 2-2, not 3-3
    assert counted(side({11: 1, 1: 14}), side({20: 1, 17: 2, 1: 12})) == (11 + 2 + 2 + 1, 16 * 5)


def test_the_farthest_blot_reached_is_the_loss():
    # blots 3 and 8 away: the near one with a 3, 2-1, 1-1 (5-3 reaches both: the near
    # one, 10 pips, counts); the far one alone with 6-2, 4-4, 2-2 (5 pips)
    found = counted(side({13: 1, 1: 14}), side({15: 1, 20: 1, 1: 13}))
    assert found == (14 + 4, 14 * 10 + 4 * 5)


@pytest.mark.parametrize(
    ("bar", "others", "expected"),
    [
        (2, {}, 11 + 1),  # both checkers must enter: a 4, or 2-2 entering on and on
        (1, {}, 11 + 2 + 1 + 1),  # and the entered checker goes on: 3-1, 2-2, 1-1
        (1, {23: 1}, 15 + 8),  # and a checker on the 23-point hits with a 2 after entering
    ],
)
def test_shots_from_the_bar(bar, others, expected):
    hitter = side({1: 14 - sum(others.values()), **others}, bar=bar)
    assert counted(hitter, side({4: 1, 13: 14})) == (expected, expected * 21)


def test_no_blot_no_shot_and_the_start_has_none():
    assert counted(start_side(), start_side()) == (0, 0)
    assert contact_features(np.array([start_side()]), np.array([start_side()])).tolist() == [
        [0.0, 0.0, 0.0, 0.0, 1 / 6, 1 / 6]
    ]


def test_primes_are_the_longest_run_of_held_points():
    sides = np.array([side({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 3, 10: 2}), side({6: 2, 7: 3, 9: 10})])
    assert prime(sides).tolist() == [1.0, 2 / 6]


def test_the_features_follow_the_side_on_roll():
    on_roll, other = side({11: 1, 6: 14}), side({17: 1, 1: 14})
    features = contact_features(np.array([on_roll]), np.array([other]))[0]
    reversed_ = contact_features(np.array([other]), np.array([on_roll]))[0]
    assert features[:2].tolist() == pytest.approx([14 / 36, 14 * 8 / 864])
    assert reversed_[2:4].tolist() == features[:2].tolist()
    assert reversed_[:2].tolist() == features[2:4].tolist()


def test_a_network_taking_the_features_with_zero_weights_is_the_same_function():
    network = Network.random(12, seed=5)
    wider = network.with_contact()
    assert (wider.contact, network.contact) == (True, False)
    assert wider.w1.shape == (INPUTS + 6, 12) and wider.with_contact() is wider
    positions = ([side({11: 1, 6: 14}), start_side()], [side({17: 1, 1: 14}), start_side()])
    assert np.allclose(wider.outputs(*positions), network.outputs(*positions), rtol=0, atol=1e-15)
    assert wider.encode(*map(np.array, positions)).shape == (2, INPUTS + 6)
