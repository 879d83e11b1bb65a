"""The backgammon benchmark's equity tables (benchmarks/backgammon.py) against the real gnubg:
the plays it judges, the positions it samples, and the equity-loss table's rows."""

from __future__ import annotations

import argparse

import pytest

from benchmarks import backgammon
from benchmarks.gnubg import Gnubg, available
from kibitz.games.backgammon import Backgammon

pytestmark = pytest.mark.skipif(
    not available(), reason="gnubg is missing (bash scripts/peers.sh installs Debian's gnubg)"
)


@pytest.mark.parametrize(
    ("loss", "name"),
    [(0.0, "supernatural"), (0.0019, "supernatural"), (0.002, "world class"),
     (0.0265, "beginner"), (0.035, "awful")],
)  # fmt: skip
def test_error_rates_get_gnubgs_names(loss, name):
    assert backgammon.rating(loss) == name


def test_every_legal_play_is_judged():
    with Gnubg("0-ply") as judge:
        state, equity = backgammon.judged_plays(judge, f"{backgammon.START}:31")
    assert set(equity) == set(state.legal_moves()) and len(equity) == 16
    best = max(equity, key=equity.__getitem__)
    assert state.format_move(best) == "8/5 6/5"
    assert equity[best] == pytest.approx(0.16, abs=0.01)
    assert equity[state.parse_move("24/21 24/23")] < equity[best]


def test_positions_are_seeded_halves_with_a_choice():
    found = backgammon.loss_positions(6, seeds=(5,))
    assert list(found) == ["3 from random play", "3 from gnubg 0-ply self-play"]
    assert found == backgammon.loss_positions(6, seeds=(5,))
    for texts in found.values():
        assert len(texts) == 3
        for text in texts:
            assert len(Backgammon.from_position(text).legal_moves()) > 1
    # more seeds pool each seed's positions by kind
    pooled = backgammon.loss_positions(6, seeds=(5, 11))
    assert list(pooled) == ["6 from random play", "6 from gnubg 0-ply self-play"]
    other = backgammon.loss_positions(6, seeds=(11,))
    kinds = zip(pooled.values(), found.values(), other.values(), strict=True)
    assert all(pooled_texts == fives + elevens for pooled_texts, fives, elevens in kinds)


def test_seeds_are_distinct_integers():
    assert backgammon._seeds("5, 11,12") == (5, 11, 12)
    for bad in ("5,x", "", "5,5"):
        with pytest.raises(argparse.ArgumentTypeError, match="seeds"):
            backgammon._seeds(bad)


def test_the_judges_own_play_loses_nothing_and_pubeval_loses_some():
    lines = list(
        backgammon.equity_loss_table(4, seeds=(5,), players=("gnubg 0-ply", "pubeval"), workers=1)
    )
    assert len(lines) == 2 + 2 * 3 + 1
    own = lines[2:5]
    assert own[0].startswith("gnubg 0-ply") and "all 4" in own[2]
    for row in own:
        assert "100.0%" in row and "0.0000" in row and "supernatural" in row
    assert lines[5].startswith("pubeval") and "all 4" in lines[7]
    assert float(lines[7][67:78]) > 0  # pubeval's loss per move over all four


def test_unknown_players_are_named():
    assert backgammon._names("formula-2, network-1") == ("formula-2", "network-1")
    with pytest.raises(argparse.ArgumentTypeError, match="unknown player 'bogus'"):
        backgammon._names("formula-1,bogus")
