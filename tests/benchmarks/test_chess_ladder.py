"""The chess benchmark's ladder (benchmarks/chess.py): kibitz's rating fitted by maximum
likelihood over games against Stockfish's UCI_Elo rungs, its likelihood-ratio interval, and
the table that reports them, on made-up results with known answers."""

from __future__ import annotations

import math

import pytest

from benchmarks import chess
from benchmarks.chess import LIKELIHOOD_DROP, MatchResult, fit_rating, ladder_games, ladder_table
from kibitz.match.stats import elo_to_score, score_to_elo


def games(rating: float, wins: int, draws: int, losses: int) -> list[tuple[float, float]]:
    return [(rating, 1.0)] * wins + [(rating, 0.5)] * draws + [(rating, 0.0)] * losses


def rung(rating: int, wins: int, draws: int, losses: int) -> MatchResult:
    return MatchResult(f"stockfish UCI_Elo {rating}", wins, draws, losses, {}, rating=rating)


def log_likelihood_drop(games_: int, score: float, difference: float) -> float:
    """n KL(s || p): how far the log-likelihood of n games scoring s against one opponent
    falls when kibitz is `difference` Elo above it rather than at its best."""
    p = elo_to_score(difference)
    drop = 0.0
    if score > 0:
        drop += score * math.log(score / p)
    if score < 1:
        drop += (1 - score) * math.log((1 - score) / (1 - p))
    return games_ * drop


def test_an_even_score_against_one_rung_is_that_rungs_rating():
    fit = fit_rating(games(1600, 40, 20, 40))
    assert fit.rating == pytest.approx(1600, abs=1e-6)
    assert fit.games == 100
    assert 1600 - fit.low == pytest.approx(fit.high - 1600, abs=1e-6)  # symmetric
    # the ends are where the log-likelihood is 1.92 below its maximum
    for end in (fit.low, fit.high):
        assert log_likelihood_drop(100, 0.5, end - 1600) == pytest.approx(LIKELIHOOD_DROP)
    # near the normal approximation's +-69 Elo for 100 games scoring 0 or 1
    assert fit.high - 1600 == pytest.approx(68.31, abs=0.01)


def test_wins_and_losses_weigh_as_draws_do():
    split = fit_rating(games(1600, 50, 0, 50))
    assert fit_rating(games(1600, 0, 100, 0)) == split  # half points: the same likelihood
    assert fit_rating(games(1600, 40, 20, 40)) == split


def test_one_rung_gives_the_logistic_difference():
    fit = fit_rating(games(1800, 60, 30, 10))  # 75%
    assert fit.rating == pytest.approx(1800 + 400 * math.log10(3), abs=1e-6)  # 1990.85
    for end in (fit.low, fit.high):
        assert log_likelihood_drop(100, 0.75, end - 1800) == pytest.approx(LIKELIHOOD_DROP)
    assert fit.low < fit.rating - 60 and fit.high > fit.rating + 60
    assert fit.high - fit.rating > fit.rating - fit.low  # the logistic curve flattens upwards


def test_mirrored_rungs_fit_their_middle():
    fit = fit_rating(games(1400, 7, 0, 3) + games(1800, 3, 0, 7))
    assert fit.rating == pytest.approx(1600, abs=1e-6)
    assert 1600 - fit.low == pytest.approx(fit.high - 1600, abs=1e-6)
    flipped = fit_rating([(-rating, 1 - score) for rating, score in games(1350, 8, 1, 1)])
    assert flipped.rating == pytest.approx(-fit_rating(games(1350, 8, 1, 1)).rating, abs=1e-6)


def test_the_fit_balances_expected_and_actual_score_over_the_rungs():
    played = games(1350, 10, 0, 0) + games(1600, 4, 2, 4) + games(1800, 1, 2, 7)
    fit = fit_rating(played)
    expected = sum(elo_to_score(fit.rating - rating) for rating, _ in played)
    assert expected == pytest.approx(10 + 5 + 2, abs=1e-9)  # the likelihood's maximum
    assert 1350 < fit.rating < 1800
    assert fit.low < fit.rating < fit.high


def test_every_game_won_leaves_the_top_open():
    fit = fit_rating(games(2200, 10, 0, 0))
    assert fit.rating == math.inf and fit.high == math.inf
    # the low end: ten wins are 1.92 less likely than certain ones, 10 log p = -1.92
    assert fit.low == pytest.approx(2200 + score_to_elo(math.exp(-LIKELIHOOD_DROP / 10)))
    assert fit.low == pytest.approx(2469.66, abs=0.01)


def test_every_game_lost_leaves_the_bottom_open():
    fit = fit_rating(games(1350, 0, 0, 10) + games(1600, 0, 0, 10))
    assert fit.rating == -math.inf and fit.low == -math.inf
    assert math.isfinite(fit.high) and fit.high < 1350


def test_nothing_to_fit_is_refused():
    with pytest.raises(ValueError, match="no games"):
        fit_rating([])
    with pytest.raises(ValueError, match="not 2"):
        fit_rating([(1600, 2)])


def test_the_ladder_table():
    results = [rung(1350, 6, 2, 2), rung(1600, 3, 4, 3), rung(1800, 1, 2, 7)]
    assert ladder_games(results[:1]) == games(1350, 6, 2, 2)
    assert ladder_games([MatchResult("sunfish", 5, 0, 0, {})]) == []  # unrated: not a rung
    fit = fit_rating(ladder_games(results))
    lines = ladder_table(results, 10, 0.1).splitlines()
    assert lines[0].split()[:5] == ["Stockfish", "UCI_Elo", "games", "W-D-L", "score"]
    assert lines[2].split()[:4] == ["1600", "10", "3-4-3", "0.500"]
    assert lines[2].split()[-1] == "1600"  # the rating an even score puts kibitz at
    assert lines[-1] == (
        f"kibitz's rating over the ladder: {fit.rating:.0f} (95% interval {fit.low:.0f} to "
        f"{fit.high:.0f}; 30 games, maximum likelihood)"
    )


def test_the_ladder_table_of_a_clean_sweep_says_it_is_open_ended():
    last = ladder_table([rung(1350, 4, 0, 0), rung(1600, 4, 0, 0)], 10, 0.1).splitlines()[-1]
    low = fit_rating(games(1350, 4, 0, 0) + games(1600, 4, 0, 0)).low
    assert last == (
        f"kibitz's rating over the ladder: above every rung, open-ended (95% interval "
        f"{low:.0f} to open; 8 games, maximum likelihood)"
    )


@pytest.mark.skipif(chess.stockfish_command() is None, reason="scripts/peers.sh installs it")
def test_a_rung_outside_stockfishs_range_is_refused_by_name():
    lowest, highest = chess.stockfish_elo_range()
    assert lowest <= min(chess.LADDER) and max(chess.LADDER) <= highest
    with pytest.raises(ValueError, match=f"from {lowest} to {highest}, not 1000"):
        chess.make_opponent("stockfish", 1000)
    opponent = chess.make_opponent("stockfish", 1600)
    opponent.close()
    assert opponent.name == "stockfish UCI_Elo 1600"
