"""The match statistics against published reference numbers (fastchess's own unit tests,
app/tests/elo_test.cpp and sprt_test.cpp, which reproduce fishtest's values) and against an
independent computation of the pentanomial variance and the SPRT bounds."""

from __future__ import annotations

import math

import pytest

from kibitz.match import stats
from kibitz.match.spec import SprtSpec
from kibitz.match.tally import Tally


def approx(value: float) -> object:
    return pytest.approx(value, rel=0.01, abs=0.01)


# fastchess Stats(wins, losses, draws) -> trinomial(wins, draws, losses)
@pytest.mark.parametrize(
    ("wins", "losses", "draws", "nelo", "nelo_error", "elo", "elo_error", "los"),
    [
        (76, 89, 123, -20.76, 40.13, None, None, 0.1553),
        (136, 96, 111, 49.77, 36.77, 40.70, 30.43, 0.9960),
    ],
)
def test_trinomial_matches_fastchess(wins, losses, draws, nelo, nelo_error, elo, elo_error, los):
    estimate = stats.trinomial(wins, draws, losses)
    assert estimate.nelo == approx(nelo)
    assert estimate.nelo_error == approx(nelo_error)
    assert estimate.los == pytest.approx(los, abs=5e-5)
    if elo is not None:
        assert estimate.elo == approx(elo)
        assert estimate.elo_error == approx(elo_error)


# fastchess Stats(LL, LD, WL, DD, WD, WW) -> pentanomial(LL, LD, WL + DD, WD, WW)
@pytest.mark.parametrize(
    ("penta", "nelo", "nelo_error", "elo", "elo_error", "los"),
    [
        ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 1.0),
        ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 0.0505),
        ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, 0.0),
    ],
)
def test_pentanomial_matches_fastchess(penta, nelo, nelo_error, elo, elo_error, los):
    ll, ld, wl, dd, wd, ww = penta
    estimate = stats.pentanomial((ll, ld, wl + dd, wd, ww))
    assert estimate.nelo == approx(nelo)
    assert estimate.nelo_error == approx(nelo_error)
    assert estimate.elo == approx(elo)
    assert estimate.elo_error == approx(elo_error)
    assert estimate.los == pytest.approx(los, abs=5e-5)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "model", "expected"),
    [
        (36433, 36027, 68692, 0, 2, "normalized", 0.92),
        (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
        (4250, 0, 0, 0, 10, "normalized", 120.56),
        (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
        (57433, 57030, 106593, 0, 2, "logistic", -2.59),
    ],
)
def test_trinomial_llr_matches_fastchess(wins, losses, draws, elo0, elo1, model, expected):
    spec = SprtSpec(elo0=elo0, elo1=elo1, model=model)
    assert stats.llr((losses, draws, wins), spec) == approx(expected)


@pytest.mark.parametrize(
    ("penta", "elo0", "elo1", "model", "expected"),
    [
        ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
        ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
        ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
        ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
        ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
    ],
)
def test_pentanomial_llr_matches_fastchess(penta, elo0, elo1, model, expected):
    ll, ld, wl, dd, wd, ww = penta
    spec = SprtSpec(elo0=elo0, elo1=elo1, model=model)
    assert stats.llr((ll, ld, wl + dd, wd, ww), spec) == approx(expected)


def test_sprt_bounds_are_walds():
    spec = SprtSpec.parse("elo0=0,elo1=5,alpha=0.05,beta=0.05")
    assert spec.lower == pytest.approx(-2.944438979)  # log(0.05 / 0.95)
    assert spec.upper == pytest.approx(2.944438979)
    assert stats.sprt_decision(3.0, spec) == "H1"
    assert stats.sprt_decision(-3.0, spec) == "H0"
    assert stats.sprt_decision(0.0, spec) is None


def test_logistic_llr_is_the_likelihood_ratio_of_the_maximum_likelihood_fits():
    """Independently: the ML distribution with a given mean is the empirical one tilted by
    p_i = p^_i / (1 + theta (a_i - s)); check the solved distributions have the asked mean,
    sum to one, and give the LLR as the difference of log-likelihoods."""
    counts = (30, 50, 45, 60, 35)
    values = stats.PENTANOMIAL_SCORES
    probs = [c / sum(counts) for c in counts]
    spec = SprtSpec(elo0=0, elo1=40, model="logistic")
    fits = [stats.mle_expected(values, probs, stats.elo_to_score(e)) for e in (0, 40)]
    for fit, elo in zip(fits, (0, 40), strict=True):
        assert sum(fit) == pytest.approx(1)
        mean = sum(v * p for v, p in zip(values, fit, strict=True))
        assert mean == pytest.approx(stats.elo_to_score(elo))
    loglik = [sum(c * math.log(p) for c, p in zip(counts, fit, strict=True)) for fit in fits]
    assert stats.llr(counts, spec) == pytest.approx(loglik[1] - loglik[0])


def test_the_tally_counts_pairs_from_the_first_engines_view():
    tally = Tally(["a", "b"], [(0, 1)])
    # pair 0: a wins as first player and draws as second -> 1.5 points (WD)
    tally.add(game(0, players=(0, 1), returns=(1, -1)))
    tally.add(game(0, players=(1, 0), returns=(0, 0)))
    # pair 1: a loses both -> LL
    tally.add(game(1, players=(0, 1), returns=(-1, 1)))
    tally.add(game(1, players=(1, 0), returns=(2, -2)))  # a backgammon gammon counts as a loss
    assert tally.wdl[0][1] == [1, 1, 2]
    assert tally.wdl[1][0] == [2, 1, 1]
    assert tally.penta[0] == [1, 0, 0, 1, 0]
    summary = tally.head_to_head()
    assert (summary["wins"], summary["draws"], summary["losses"]) == (1, 1, 2)
    assert summary["score"] == pytest.approx(3 / 8)
    assert summary["pentanomial"]["pairs"] == 2


def game(pair: int, players: tuple[int, int], returns: tuple[float, float]) -> dict:
    return {"encounter": 0, "pair": pair, "players": list(players), "returns": list(returns),
            "moves": [], "forfeit_engine": None}  # fmt: skip
