"""The GNU Backgammon driver (benchmarks/gnubg.py) against the real gnubg, and kibitz's play
notation against gnubg's: every play gnubg lists for the opening rolls reads as one of
kibitz's legal plays and is written back exactly as gnubg writes it."""

from __future__ import annotations

import math

import pytest

from benchmarks.gnubg import Gnubg, GnubgError, available
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
    chosen, equity = gnubg.best_move(START, roll)
    assert chosen == play and -0.1 < equity < 0.3


def test_the_opening_is_about_even_for_gnubg(gnubg):
    found = gnubg.evaluate(START).as_dict()
    assert abs(found["equity"]) < 0.1 and 0.45 < found["win"] < 0.55
    assert found["equity"] == pytest.approx(
        2 * found["win"] - 1 + found["win_gammon"] + found["win_backgammon"]
        - found["lose_gammon"] - found["lose_backgammon"]
    )  # fmt: skip


def test_plays_are_ranked_by_cubeless_equity_with_gammons(gnubg):
    hints = gnubg.hints(START, (3, 1), 3)
    assert hints[0].play == "8/5 6/5"
    assert hints[0].equity == pytest.approx(0.16, abs=0.01)  # the cubeful figure is 0.2
    assert hints[0].equity >= hints[1].equity >= hints[2].equity


def test_bad_requests_raise_and_the_driver_carries_on(gnubg):
    with pytest.raises(ValueError, match="Position ID"):
        gnubg.best_move("4HPwATDgc/AB", (3, 1))  # gnubg itself would read some position
    with pytest.raises(ValueError, match="dice"):
        gnubg.best_move(START, (7, 1))
    with pytest.raises(GnubgError, match="Illegal position"):
        gnubg.best_move("//////////////", (3, 1))  # too many checkers
    assert gnubg.best_move(START, (3, 1)).play == "8/5 6/5"


def test_a_timeout_gives_the_process_up_and_the_next_call_starts_another():
    with Gnubg("2-ply", timeout=0.001) as driver:
        with pytest.raises(GnubgError, match="did not answer"):
            driver.plays(START, (1, 1))
        driver.timeout = 60
        assert driver.best_move(START, (6, 5)).play == "24/13" and driver.starts == 2


def test_the_weakest_setting_plays_beginners_moves(gnubg):
    gnubg.use("beginner")
    try:
        assert gnubg.best_move(START, (3, 1)).play == "8/4"  # deterministic noise
        assert abs(gnubg.evaluate(START).equity) < 0.1  # evaluated without noise
    finally:
        gnubg.use("0-ply")


def test_evaluate_at_one_ply(gnubg):
    gnubg.use("1-ply")
    try:
        assert gnubg.evaluate(START).equity == pytest.approx(0.076, abs=0.005)
    finally:
        gnubg.use("0-ply")


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
    play, equity = gnubg.best_move(position_id, (6, 5))
    assert play == "pass" and math.isnan(equity)
    assert Backgammon.from_position(f"{position_id}:65").legal_moves() == [()]
