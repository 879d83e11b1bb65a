"""The GNU Backgammon driver (benchmarks/gnubg.py) against the real gnubg, and kibitz's play
notation against gnubg's: every play gnubg lists for the opening rolls reads as one of
kibitz's legal plays and is written back exactly as gnubg writes it."""

from __future__ import annotations

import pytest

from benchmarks.gnubg import Gnubg, available
from kibitz.games.backgammon import Backgammon
from kibitz.games.backgammon.notation import encode_position_id

pytestmark = pytest.mark.skipif(
    not available(), reason="gnubg is missing (bash scripts/peers.sh installs Debian's gnubg)"
)
START = "4HPwATDgc/ABMA"
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


@pytest.fixture(scope="module")
def gnubg():
    with Gnubg("0-ply") as driver:
        yield driver


@pytest.mark.parametrize(
    ("roll", "play"), [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 5), "24/13")]
)
def test_gnubg_plays_the_known_opening_moves(gnubg, roll, play):
    assert gnubg.best_move(START, roll).play == play


def test_the_opening_is_about_even_for_gnubg(gnubg):
    assert abs(gnubg.evaluate(START).equity) < 0.1


@pytest.mark.parametrize("roll", ROLLS, ids=lambda roll: f"{roll[0]}{roll[1]}")
def test_kibitz_reads_and_writes_every_opening_play_as_gnubg_does(gnubg, roll):
    state = Backgammon.from_position(f"{START}:{roll[0]}{roll[1]}")
    texts = gnubg.plays(START, roll)
    moves = [state.parse_move(text) for text in texts]
    assert sorted(map(repr, moves)) == sorted(map(repr, state.legal_moves()))
    assert [state.format_move(move) for move in moves] == texts


def test_a_player_who_cannot_move_passes(gnubg):
    closed = [2, 2, 2, 2, 2, 2] + [0] * 3 + [3] + [0] * 15  # its home board closed
    on_bar = [0] * 12 + [14] + [0] * 11 + [1]
    position_id = encode_position_id(on_bar, closed)
    assert gnubg.best_move(position_id, (6, 5)).play == "pass"
    assert Backgammon.from_position(f"{position_id}:65").legal_moves() == [()]
