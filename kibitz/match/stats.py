"""Match statistics: W/D/L, score, Elo with its 95% interval, LOS, draw ratio, the
pentanomial statistics of game pairs, and the SPRT log-likelihood ratio.

The formulas are fastchess's and fishtest's (docs/match.md names the sources):

- score s = (W + D/2) / N; Elo = -400 log10(1/s - 1) (the logistic model);
- the 95% interval maps s +- 1.959964 sqrt(var / N) through the same function, var being the
  per-game (trinomial) or per-pair (pentanomial: pair scores 0, 1/4, 1/2, 3/4, 1) variance;
- LOS = (1 - erf(-(s - 1/2) / sqrt(2 var / N))) / 2;
- normalized Elo = (s - 1/2) / sigma * 800 / ln 10, sigma the standard deviation per game
  (pentanomial: sqrt(2 var_pair));
- the SPRT's generalized log-likelihood ratio (Van den Bergh's GSPRT): N sum_i p^_i
  log(p1_i / p0_i), with p0 and p1 the maximum-likelihood distributions under H0 and H1
  (logistic bounds: an expected score; normalized bounds: a t-value), zero counts replaced
  by 1e-3 as both programs do.

Pure functions of counts; nothing here knows about games or engines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kibitz.match.spec import SprtSpec

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""
NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (fishtest's nelo_divided_by_nt, 347.43...)."""
REGULARIZE = 1e-3
"""What a zero count becomes in the SPRT (fishtest's and fastchess's regularisation)."""
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score in [0, 1] (+-inf at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def mean_variance(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mean = sum(v * p for v, p in zip(values, probs, strict=True))
    return mean, sum(p * (v - mean) ** 2 for v, p in zip(values, probs, strict=True))


@dataclass(frozen=True)
class Estimate:
    """An Elo estimate from a distribution of results (games or game pairs)."""

    samples: int
    score: float
    variance: float
    """Per sample (game or pair) variance of the score."""
    elo: float
    elo_low: float
    elo_high: float
    los: float
    nelo: float
    nelo_error: float

    @property
    def elo_error(self) -> float:
        """The half-width of the 95% interval (fastchess's +/-)."""
        return (self.elo_high - self.elo_low) / 2


def estimate(counts: Sequence[float], values: Sequence[float], per_game_factor: float) -> Estimate:
    """The estimate from `counts` of results worth `values` (scores in [0, 1]);
    `per_game_factor` turns the per-sample variance into a per-game one (1 for games, 2 for
    pairs of games)."""
    n = sum(counts)
    if n == 0:
        return Estimate(0, 0.5, 0.0, 0.0, -math.inf, math.inf, 0.5, 0.0, math.inf)
    probs = [c / n for c in counts]
    score, variance = mean_variance(values, probs)
    stderr = math.sqrt(variance / n)
    low, high = score - Z95 * stderr, score + Z95 * stderr
    if stderr > 0:
        los = (1 - math.erf(-(score - 0.5) / math.sqrt(2 * variance / n))) / 2
    else:
        los = 0.5 if score == 0.5 else float(score > 0.5)
    sigma = math.sqrt(per_game_factor * variance)
    if sigma > 0:
        nelo = (score - 0.5) / sigma * NELO_PER_T
        nelo_error = (high - low) / 2 / sigma * NELO_PER_T
    else:
        nelo, nelo_error = (0.0 if score == 0.5 else math.copysign(math.inf, score - 0.5)), 0.0
    return Estimate(
        samples=int(n),
        score=score,
        variance=variance,
        elo=score_to_elo(score),
        elo_low=score_to_elo(low),
        elo_high=score_to_elo(high),
        los=los,
        nelo=nelo,
        nelo_error=nelo_error,
    )


def trinomial(wins: int, draws: int, losses: int) -> Estimate:
    """The estimate from single games (fastchess's EloWDL)."""
    return estimate((losses, draws, wins), TRINOMIAL_SCORES, 1)


def pentanomial(penta: Sequence[int]) -> Estimate:
    """The estimate from game pairs; `penta` counts pairs scoring 0, 1/2, 1, 3/2, 2 points
    (LL, LD, WL+DD, WD, WW) (fastchess's EloPentanomial)."""
    return estimate(penta, PENTANOMIAL_SCORES, 2)


# ---------------------------------------------------------------------------- SPRT


def _solve(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of a function decreasing on (low, high) that changes sign there (bisection
    to machine precision)."""
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _secular(phi: Sequence[float], probs: Sequence[float]) -> list[float]:
    """The distribution p_i = p^_i / (1 + theta phi_i) where theta solves
    sum p^_i phi_i / (1 + theta phi_i) = 0 (Van den Bergh, Proposition 1.1)."""
    low, high = -1 / max(phi), -1 / min(phi)
    span = high - low
    theta = _solve(
        lambda x: sum(p * a / (1 + x * a) for a, p in zip(phi, probs, strict=True)),
        low + span * 1e-15,
        high - span * 1e-15,
    )
    return [p / (1 + theta * a) for a, p in zip(phi, probs, strict=True)]


def mle_expected(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The maximum-likelihood distribution with expectation `s` given the empirical one."""
    return _secular([v - s for v in values], probs)


def mle_t_value(
    values: Sequence[float], probs: Sequence[float], ref: float, t: float
) -> list[float]:
    """The maximum-likelihood distribution with t-value (mu - ref) / sigma = `t` given the
    empirical one (Van den Bergh, "Comments on normalized Elo", section 4.1): iterated from
    the uniform distribution."""
    p = [1 / len(values)] * len(values)
    for _ in range(100):
        mu, var = mean_variance(values, p)
        sigma = math.sqrt(var)
        phi = [v - ref - t * sigma * (1 + ((v - mu) / sigma) ** 2) / 2 for v in values]
        new = _secular(phi, probs)
        done = max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-12
        p = new
        if done:
            break
    return p


def llr(counts: Sequence[float], spec: SprtSpec) -> float:
    """The generalized log-likelihood ratio of H1 against H0 for trinomial counts (L, D, W)
    or pentanomial ones (LL, LD, WL+DD, WD, WW)."""
    regularized = [c if c > 0 else REGULARIZE for c in counts]
    n = sum(regularized)
    probs = [c / n for c in regularized]
    values = TRINOMIAL_SCORES if len(counts) == 3 else PENTANOMIAL_SCORES
    if len(counts) not in (3, 5):
        raise ValueError("counts must be trinomial (3) or pentanomial (5)")
    if spec.model == "logistic":
        p0 = mle_expected(values, probs, elo_to_score(spec.elo0))
        p1 = mle_expected(values, probs, elo_to_score(spec.elo1))
    else:
        scale = 1.0 if len(counts) == 3 else math.sqrt(2)
        t0, t1 = (scale * elo / NELO_PER_T for elo in (spec.elo0, spec.elo1))
        p0 = mle_t_value(values, probs, 0.5, t0)
        p1 = mle_t_value(values, probs, 0.5, t1)
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True))


def sprt_decision(value: float, spec: SprtSpec) -> str | None:
    """ "H1" (accept elo1) when the LLR reaches the upper bound, "H0" at the lower one, else
    None (play on)."""
    if value >= spec.upper:
        return "H1"
    if value <= spec.lower:
        return "H0"
    return None


# ---------------------------------------------------------------------------- N seats


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes / n` (95% by default); (0, 1)
    without samples."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of per-game values and its interval `mean +- z sqrt(var / N)`, var being
    their (population) variance: the trinomial estimate's interval for any per-game score."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = sum(values) / n
    variance = sum((value - mean) ** 2 for value in values) / n
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half
