"""Backgammon's compiled kernel (`_kernel.pyx`) against the pure-Python reference: the same
plays in the same order for every roll of positions from seeded random games and of the
1,206 bar and bear-off positions counted against gnubg, the same estimate bit for bit, and
the search's calls on a `Backgammon` state (`moves`, `estimate`) equal to the game's
(`decide` is held to the Python search in tests/engines/test_expectimax_kernel.py)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from backgammon_positions import side

from kibitz.games.backgammon import Backgammon, evaluation
from kibitz.games.backgammon.board import BAR, apply_play, plays, random_play, start_side
from kibitz.games.backgammon.contact import contact_features, features
from kibitz.games.backgammon.game import ROLLS
from kibitz.games.backgammon.network import Network, shipped_network
from kibitz.games.backgammon.notation import encode_position_id

kernel = pytest.importorskip("kibitz.games.backgammon._kernel")

COUNTS = Path(__file__).resolve().parent.parent / "data" / "backgammon" / "play_counts.txt"


def random_positions(games: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """(on roll, other) before every roll of seeded random games."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        sides = [start_side(), start_side()]
        on_roll = 0
        while sum(sides[0]) and sum(sides[1]):
            me, opp = sides[on_roll], sides[1 - on_roll]
            found.append((me[:], opp[:]))
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            apply_play(me, opp, random_play(me, opp, max(first, second), min(first, second), rng))
            on_roll = 1 - on_roll
    return found


POSITIONS = random_positions(6, seed=11)

EDGE_CASES = [
    # shut out on the bar: every roll passes
    (side({13: 14}, bar=1), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 10: 3})),
    # on the bar against a board with one point open
    (side({13: 13}, bar=2), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 10: 5})),
    # one die only, the larger
    (side({13: 1, 1: 14}), side({23: 2, 1: 13})),
    # bearing off: higher dice from the highest point, misses, the last checkers
    (side({4: 1, 2: 2}), side({13: 5})),
    (side({5: 1, 1: 1}), side({13: 5})),
    (side({6: 3, 5: 2, 1: 4}), side({23: 2, 13: 13})),
    (side({1: 1}), side({23: 1})),
    # blots everywhere, hits from the bar
    (side({24: 1, 20: 1, 16: 1, 12: 1, 8: 1, 4: 1}, bar=2), side({22: 1, 18: 1, 10: 1, 3: 1})),
]


def test_the_plays_of_every_roll_are_the_references_in_its_order():
    checked = blocked = one_die = 0
    for me, opp in POSITIONS + EDGE_CASES:
        for high, low in ROLLS:
            found = kernel.plays(me, opp, high, low)
            assert found == plays(me, opp, high, low), (encode_position_id(me, opp), high, low)
            checked += 1
            blocked += not found
            one_die += high != low and len(found[0]) == 1 if found else 0
    # the seeded games: 195 positions with a checker on the bar, 47 bearing off, 670
    # rolls that cannot move, 394 that play one die
    assert sum(1 for me, _ in POSITIONS if me[BAR]) == 195
    assert sum(1 for me, _ in POSITIONS if not any(me[6:])) == 47
    assert blocked > 670 and one_die > 394
    assert len(POSITIONS) == 582 and checked == 21 * (582 + len(EDGE_CASES))


def test_the_plays_of_the_bar_and_bear_off_positions_counted_against_gnubg():
    checked = 0
    for line in COUNTS.read_text().splitlines():
        if line.startswith("#"):
            continue
        position_id, roll, count = line.split()
        state = Backgammon.from_position(f"{position_id}:{roll}")
        me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
        found = kernel.plays(me, opp, *state.dice)
        assert found == plays(me, opp, *state.dice), (position_id, roll)
        assert len(found) == int(count)
        checked += 1
    assert checked == 1206


def test_the_sides_are_left_as_they_were():
    me, opp = EDGE_CASES[-1]
    before = (me[:], opp[:])
    for high, low in ROLLS:
        kernel.plays(me, opp, high, low)
    assert (me, opp) == before


def test_the_estimate_is_the_references_bit_for_bit():
    positions = POSITIONS + EDGE_CASES
    positions += [(side({1: 1}), side({6: 15})), (side({}), side({19: 1, 6: 14}))]
    positions += [(side({2: 1}), side({6: 2})), (side({6: 15}), side({}))]
    races = 0
    for me, opp in positions:
        for on_roll, other in ((me, opp), (opp, me)):
            assert kernel.pre_roll_equity(on_roll, other) == evaluation.pre_roll_equity(
                on_roll, other
            ), encode_position_id(on_roll, other)
            races += evaluation.is_race(on_roll, other)
    assert races > 100  # races and contact both covered


def test_the_moves_and_estimates_of_a_state_are_the_games():
    for (me, opp), on_roll in zip(POSITIONS[::10] + EDGE_CASES, [0, 1] * 100, strict=False):
        for dice in ("31", "66", "65", "11"):
            state = Backgammon.from_position(f"{encode_position_id(me, opp)}:{dice}")
            if on_roll:  # the same position with player 1 on roll
                state.sides, state.on_roll = [opp[:], me[:]], 1
            moves = kernel.moves(state)
            assert moves == state.legal_moves()
            assert kernel.estimate(state) == state.expected_return(0)
            for move in moves:
                state.play(move)
                assert kernel.estimate(state) == state.expected_return(0)
                state.undo()


# -- the TD network ------------------------------------------------------------------------------


def test_the_networks_equity_is_the_references_to_the_last_bits():
    networks = (shipped_network(), Network.random(7, seed=2), Network.random(7, 3, contact=True))
    for network in networks:
        for mine, theirs in random_positions(5, seed=8):
            expected = evaluation.pre_roll_equity(mine, theirs, None, network)
            found = kernel.pre_roll_equity(mine, theirs, None, network)
            assert found == pytest.approx(expected, rel=0, abs=1e-12)
        # and without it, the formula again, bit for bit
        assert kernel.pre_roll_equity(mine, theirs) == evaluation.pre_roll_equity(mine, theirs)


def test_a_network_given_new_weights_is_read_again():
    network = Network.random(5, seed=4)
    start = start_side()
    before = kernel.pre_roll_equity(start, start, None, network)
    network.b2 = network.b2 + 1.0  # new arrays on the same network, as training sets them
    after = kernel.pre_roll_equity(start, start, None, network)
    assert after != before
    assert after == pytest.approx(
        evaluation.pre_roll_equity(start, start, None, network), rel=0, abs=1e-12
    )


def test_the_contact_features_are_the_references():
    pairs = [*random_positions(8, seed=21), *EDGE_CASES, *((b, a) for a, b in EDGE_CASES)]
    assert any(me[BAR] for me, _ in pairs)
    expected = contact_features(*(np.array([pair[i] for pair in pairs]) for i in (0, 1)))
    found = np.empty_like(expected)
    kernel.fill_contact_features(*(np.array([pair[i] for pair in pairs]) for i in (0, 1)), found)
    assert np.allclose(found, expected, rtol=0, atol=1e-15)
    assert np.array_equal(features(*(np.array([pair[i] for pair in pairs]) for i in (0, 1))), found)


def test_a_network_of_another_shape_is_refused():
    network = Network.random(5, seed=4)
    network.w1 = network.w1[:100]
    start = start_side()
    with pytest.raises(ValueError, match="100 inputs and 5 hidden units"):
        kernel.pre_roll_equity(start, start, None, network)
