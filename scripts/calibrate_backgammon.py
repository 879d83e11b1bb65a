"""Fit the constants of kibitz/games/backgammon/evaluation.py to GNU Backgammon's own
evaluations, and print them with the quality of the fit.

Usage: .venv/bin/python scripts/calibrate_backgammon.py [--games N] [--positions N]
(needs gnubg: bash scripts/peers.sh installs it).

Positions come from seeded self-play: a 1-ply player (the play whose resulting position
pubeval likes best, races by pip count) with one play in fifty at random, so that the sample
has lopsided positions too. Each sampled position, before the roll, gets gnubg's static
(0-ply) evaluation. Then:
- contact: the mover's win probability = logistic(w . (pubeval for the mover, pubeval for
  the opponent, pip lead / 100, 1)), fitted by maximum likelihood (Newton's method) on
  gnubg's win probabilities;
- the gammon factor: cubeless equity ~ factor * (2p - 1), least squares;
- races: the same for the race features (Kleinman's count, pubeval's race scores of both
  sides, 1), and their gammon factor.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gnubg import Gnubg
from kibitz.games.backgammon import Backgammon, evaluation
from kibitz.games.backgammon.board import apply_play
from kibitz.games.backgammon.notation import encode_position_id

RANDOM_PLAYS = 0.02
"""The share of plays chosen at random in self-play (for some lopsided positions)."""


def self_play_positions(games: int, rng: random.Random) -> list[tuple[list[int], list[int]]]:
    """(on roll, other) before every roll of `games` self-play games."""
    positions = []
    for _ in range(games):
        game = Backgammon()
        while not game.is_terminal():
            on_roll = game.on_roll
            positions.append((game.sides[on_roll][:], game.sides[1 - on_roll][:]))
            game.play((max(d := (rng.randint(1, 6), rng.randint(1, 6))), min(d)))
            moves = game.legal_moves()
            if rng.random() < RANDOM_PLAYS:
                game.play(rng.choice(moves))
                continue
            me, opp = game.sides[on_roll], game.sides[1 - on_roll]
            game.play(max(moves, key=lambda play, me=me, opp=opp: play_value(me, opp, play)))
    return positions


def play_value(me: list[int], opp: list[int], play) -> float:
    """The 1-ply value of `play` for its mover (the estimate of the position after it)."""
    mine, theirs = me[:], opp[:]
    apply_play(mine, theirs, play)
    if not sum(mine):
        return math.inf
    return -evaluation.pre_roll_equity(theirs, mine)


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-500.0, min(500.0, x))))


def fit_logistic(features: list[tuple[float, ...]], targets: list[float]) -> list[float]:
    """Weights w maximising the likelihood of `targets` (probabilities) under
    p = logistic(w . x): Newton's method, each step halved until the likelihood improves."""
    size = len(features[0])

    def loss(weights: list[float]) -> float:
        total = 0.0
        for x, y in zip(features, targets, strict=True):
            p = min(
                max(sigmoid(sum(w * v for w, v in zip(weights, x, strict=True))), 1e-12), 1 - 1e-12
            )
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return total

    weights = [0.0] * size
    for _ in range(30):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for x, y in zip(features, targets, strict=True):
            p = sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))
            for i in range(size):
                gradient[i] += (p - y) * x[i]
                for j in range(size):
                    hessian[i][j] += p * (1 - p) * x[i] * x[j]
        step = solve(hessian, gradient)
        before, factor = loss(weights), 1.0
        while (
            factor > 1e-6
            and loss([w - factor * d for w, d in zip(weights, step, strict=True)]) > before
        ):
            factor /= 2
        weights = [w - factor * d for w, d in zip(weights, step, strict=True)]
    return weights


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix . x = vector (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(size):
            if row != column:
                ratio = rows[row][column] / rows[column][column]
                rows[row] = [a - ratio * b for a, b in zip(rows[row], rows[column], strict=True)]
    return [rows[index][size] / rows[index][index] for index in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--positions", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = self_play_positions(args.games, rng)
    sample = rng.sample(positions, min(args.positions, len(positions)))
    contact, race = [], []
    with Gnubg() as gnubg:
        for on_roll, other in sample:
            if not sum(on_roll) or not sum(other):
                continue
            found = gnubg.evaluate(encode_position_id(on_roll, other))
            (race if evaluation.is_race(on_roll, other) else contact).append(
                (on_roll, other, found)
            )
    print(f"{len(positions)} positions from {args.games} games; {len(contact)} contact and "
          f"{len(race)} race positions evaluated by gnubg (0-ply)")  # fmt: skip

    features = [evaluation.contact_features(other, on_roll) for on_roll, other, _ in contact]
    mover_wins = [1 - found.win for _, _, found in contact]
    weights = fit_logistic(features, mover_wins)
    twice = [2 * sigmoid(sum(w * v for w, v in zip(weights, x, strict=True))) - 1 for x in features]
    equities = [-found.equity for _, _, found in contact]  # the mover's
    factor = sum(e * t for e, t in zip(equities, twice, strict=True)) / sum(t * t for t in twice)
    contact_error = statistics.fmean(
        abs(e - factor * t) for e, t in zip(equities, twice, strict=True)
    )
    shown = ", ".join(f"{weight:.4f}" for weight in weights)
    print(f"CALIBRATION = ({shown})\nGAMMON_FACTOR = {factor:.4f}")
    print(f"contact: mean absolute equity error {contact_error:.3f}")

    if race:
        features = [evaluation.race_features(on_roll, other) for on_roll, other, _ in race]
        weights = fit_logistic(features, [found.win for _, _, found in race])
        twice = [
            2 * sigmoid(sum(w * v for w, v in zip(weights, x, strict=True))) - 1 for x in features
        ]
        equities = [found.equity for _, _, found in race]
        factor = sum(e * t for e, t in zip(equities, twice, strict=True)) / sum(
            t * t for t in twice
        )
        race_error = statistics.fmean(
            abs(factor * t - e) for t, e in zip(twice, equities, strict=True)
        )
        shown = ", ".join(f"{weight:.4f}" for weight in weights)
        print(f"RACE_CALIBRATION = ({shown})\nRACE_GAMMON_FACTOR = {factor:.4f}")
        print(f"race: mean absolute equity error {race_error:.3f}")


if __name__ == "__main__":
    main()
