"""Fit the constants of kibitz/games/backgammon/evaluation.py to GNU Backgammon's own
evaluations, and print them with the quality of the fit.

Usage: .venv/bin/python scripts/calibrate_backgammon.py [--games 400] [--seed 1] [--jobs 4]
       [--cache FILE] [--speed]
(needs gnubg, unless --cache names a file of evaluations saved before; bash scripts/peers.sh
installs Debian's gnubg).

1. Positions: seeded self-play of Tesauro's pubeval as he meant it to be used (the play it
   scores best, race weights when the position before the play is a race), one play in
   fifty at random so that lopsided positions come up too. Every position before a roll
   counts. The first three quarters of the games are fitted on, the rest only checked.
   (The player does not depend on the constants being fitted: the same seed gives the
   same positions whatever evaluation.py holds.)
2. gnubg's evaluation of each (0-ply, cubeless, before the roll: `benchmarks.gnubg`, with
   --jobs processes in parallel).
3. Fits, by maximum likelihood of gnubg's probabilities as soft targets (Newton's method):
   the win probability of the player on roll, logistic in `contact_features` or
   `race_features`; a side's chance of a gammon or better while the loser has borne
   nothing off, in `gammon_features`; of a backgammon while the loser also has a checker
   on the bar or in the winner's home board, in `backgammon_features`; each for contact
   and races apart.
4. Prints the constants to paste, and the mean absolute error of the equity and of the win
   probability on both parts of the sample, next to those of the constants evaluation.py
   holds now.

--speed only measures `pre_roll_equity` (microseconds a call) on the self-play positions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kibitz.games.backgammon import evaluation
from kibitz.games.backgammon.board import apply_play, plays, start_side
from kibitz.games.backgammon.notation import encode_position_id

RANDOM_PLAYS = 0.02
"""The share of plays chosen at random in self-play (for some lopsided positions)."""
FIT_SHARE = 0.75
"""The share of the games fitted on; the rest are only checked."""

Side = list[int]
Sample = tuple[Side, Side, list[float]]
"""(on roll, other, gnubg's win, win gammon, win backgammon, lose gammon, lose backgammon)."""


# -- positions ------------------------------------------------------------------------------------


def self_play(games: int, seed: int) -> list[list[tuple[Side, Side]]]:
    """For each game, (on roll, other) before every roll, both sides with checkers left."""
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        sides = [start_side(), start_side()]
        on_roll = rng.randrange(2)
        positions = []
        while sum(sides[0]) and sum(sides[1]):
            me, opp = sides[on_roll], sides[1 - on_roll]
            positions.append((me[:], opp[:]))
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            options = plays(me, opp, max(first, second), min(first, second)) or [()]
            if rng.random() < RANDOM_PLAYS:
                play = rng.choice(options)
            else:
                race = evaluation.is_race(me, opp)
                play = max(options, key=lambda play: pubeval_after(me, opp, play, race))
            apply_play(me, opp, play)
            on_roll = 1 - on_roll
        played.append(positions)
    return played


def pubeval_after(me: Side, opp: Side, play: tuple, race: bool) -> float:
    mine, theirs = me[:], opp[:]
    apply_play(mine, theirs, play)
    return evaluation.pubeval(mine, theirs, race)


def gnubg_evaluations(positions: list[tuple[Side, Side]], jobs: int) -> list[list[float]]:
    """gnubg's 0-ply probabilities for each position, `jobs` gnubg processes at once."""
    from benchmarks.gnubg import Gnubg

    chunks = [positions[index::jobs] for index in range(jobs)]

    def evaluate(chunk: list[tuple[Side, Side]]) -> list[list[float]]:
        with Gnubg("0-ply") as gnubg:
            found = [gnubg.evaluate(encode_position_id(me, opp)) for me, opp in chunk]
        return [
            [e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon] for e in found
        ]

    with ThreadPoolExecutor(jobs) as pool:
        answers = list(pool.map(evaluate, chunks))
    result: list[list[float]] = [[] for _ in positions]
    for index, answer in enumerate(answers):
        result[index::jobs] = answer
    return result


# -- fitting --------------------------------------------------------------------------------------


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))


def dot(weights: list[float] | tuple[float, ...], features: tuple[float, ...]) -> float:
    return sum(w * v for w, v in zip(weights, features, strict=True))


def fit_logistic(features: list[tuple[float, ...]], targets: list[float]) -> list[float]:
    """Weights w maximising the likelihood of `targets` (probabilities) under
    p = logistic(w . x): Newton's method, each step halved until the likelihood improves."""
    size = len(features[0])

    def loss(weights: list[float]) -> float:
        total = 0.0
        for x, y in zip(features, targets, strict=True):
            p = min(max(sigmoid(dot(weights, x)), 1e-12), 1 - 1e-12)
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return total

    weights = [0.0] * size
    before = loss(weights)
    for _ in range(50):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for x, y in zip(features, targets, strict=True):
            p = sigmoid(dot(weights, x))
            curvature = p * (1 - p) + 1e-9
            for i in range(size):
                gradient[i] += (p - y) * x[i]
                row, scaled = hessian[i], curvature * x[i]
                for j in range(size):
                    row[j] += scaled * x[j]
        step = solve(hessian, gradient)
        factor = 1.0
        while True:
            trial = [w - factor * d for w, d in zip(weights, step, strict=True)]
            after = loss(trial)
            if after <= before or factor < 1e-6:
                break
            factor /= 2
        weights = trial
        if before - after < 1e-9 * max(1.0, abs(before)):
            break
        before = after
    return weights


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix . x = vector (Gaussian elimination with partial pivoting; a tiny ridge
    keeps a feature that never varies from making it singular)."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for index in range(size):
        rows[index][index] += 1e-9
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(size):
            if row != column:
                ratio = rows[row][column] / rows[column][column]
                rows[row] = [a - ratio * b for a, b in zip(rows[row], rows[column], strict=True)]
    return [rows[index][size] / rows[index][index] for index in range(size)]


def fit(samples: list[Sample], race: bool) -> dict[str, list[float]]:
    """The win, gammon and backgammon weights for contact (`race` False) or races."""
    rows = [(a, b, p) for a, b, p in samples if evaluation.is_race(a, b) == race]
    features = evaluation.race_features if race else evaluation.contact_features
    win_x = [features(a, b) for a, b, _ in rows]
    win = fit_logistic(win_x, [p[0] for _, _, p in rows])
    gammon_x, gammon_y, backgammon_x, backgammon_y = [], [], [], []
    for (a, b, p), x in zip(rows, win_x, strict=True):
        logit = max(-50.0, min(50.0, dot(win, x)))
        for winner, loser, own, on_roll, gammon, backgammon in (
            (a, b, logit, True, p[1], p[2]),
            (b, a, -logit, False, p[3], p[4]),
        ):
            if sum(loser) == evaluation.CHECKERS:
                gammon_x.append(evaluation.gammon_features(winner, loser, own, on_roll))
                gammon_y.append(gammon)
                if any(loser[18:]):
                    backgammon_x.append(evaluation.backgammon_features(winner, loser, own, on_roll))
                    backgammon_y.append(backgammon)
    return {
        "WIN": win,
        "GAMMON": fit_logistic(gammon_x, gammon_y),
        "BACKGAMMON": fit_logistic(backgammon_x, backgammon_y),
    }


def equity(p: list[float]) -> float:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = p
    return 2 * win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


def errors(samples: list[Sample], race: bool) -> tuple[int, float, float]:
    """(positions, mean absolute error of the equity, of the win probability) of the
    constants evaluation.py holds now."""
    rows = [(a, b, p) for a, b, p in samples if evaluation.is_race(a, b) == race]
    if not rows:
        return 0, math.nan, math.nan
    equity_error = statistics.fmean(
        abs(evaluation.pre_roll_equity(a, b) - equity(p)) for a, b, p in rows
    )
    win_error = statistics.fmean(
        abs(sigmoid(evaluation.win_logit(a, b)) - p[0]) for a, b, p in rows
    )
    return len(rows), equity_error, win_error


def install(constants: dict[str, list[float]]) -> dict[str, tuple[float, ...]]:
    """Put fitted constants into the evaluation module (for measuring); return the old."""
    old = {}
    for name, weights in constants.items():
        old[name] = getattr(evaluation, name)
        setattr(evaluation, name, tuple(round(weight, 4) for weight in weights))
    return old


# -- main -----------------------------------------------------------------------------------------


def speed(games: list[list[tuple[Side, Side]]]) -> None:
    positions = [position for game in games for position in game]
    for title, chosen in (
        ("contact", [p for p in positions if not evaluation.is_race(*p)]),
        ("race", [p for p in positions if evaluation.is_race(*p)]),
        ("all", positions),
    ):
        best = math.inf
        for _ in range(5):
            start = time.perf_counter()
            for on_roll, other in chosen:
                evaluation.pre_roll_equity(on_roll, other)
            best = min(best, time.perf_counter() - start)
        print(f"pre_roll_equity, {title}: {best / len(chosen) * 1e6:.1f} µs a call "
              f"(best of 5 over {len(chosen)} positions)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=4, help="gnubg processes at once")
    parser.add_argument("--cache", help="a JSON file of gnubg's evaluations (made if missing)")
    parser.add_argument("--speed", action="store_true", help="only time pre_roll_equity")
    args = parser.parse_args()
    games = self_play(args.games, args.seed)
    if args.speed:
        speed(games)
        return
    positions = [position for game in games for position in game]
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        found = json.loads(cache.read_text())
        if len(found) != len(positions):
            sys.exit(f"{cache} holds {len(found)} evaluations, not {len(positions)}")
    else:
        start = time.perf_counter()
        found = gnubg_evaluations(positions, args.jobs)
        print(f"gnubg evaluated {len(found)} positions in {time.perf_counter() - start:.0f} s")
        if cache is not None:
            cache.write_text(json.dumps(found))
    split = sum(len(game) for game in games[: round(len(games) * FIT_SHARE)])
    samples = [(a, b, p) for (a, b), p in zip(positions, found, strict=True)]
    fitted, checked = samples[:split], samples[split:]
    print(f"{len(positions)} positions from {args.games} games (seed {args.seed}); fitted on "
          f"the first {split} ({round(len(games) * FIT_SHARE)} games), checked on the other "
          f"{len(checked)}")  # fmt: skip
    print(f"mean |gnubg's equity| {statistics.fmean(abs(equity(p)) for _, _, p in samples):.3f}")

    before = {
        (part, race): errors(data, race)
        for part, data in (("fitted", fitted), ("checked", checked))
        for race in (False, True)
    }
    constants: dict[str, list[float]] = {}
    for race, prefix in ((False, "CONTACT_"), (True, "RACE_")):
        for name, weights in fit(fitted, race).items():
            constants[prefix + name] = weights
    for name, weights in constants.items():
        print(f"{name} = ({', '.join(f'{weight:.4f}' for weight in weights)})")
    install(constants)
    for part in ("fitted", "checked"):
        for race in (False, True):
            count, equity_error, win_error = errors(fitted if part == "fitted" else checked, race)
            _, old_equity, old_win = before[part, race]
            print(f"{part:>7} {'race' if race else 'contact':<7} {count:>6} positions: mean "
                  f"absolute error of the equity {equity_error:.3f} (evaluation.py now: "
                  f"{old_equity:.3f}), of the win probability {win_error:.3f} "
                  f"({old_win:.3f})")  # fmt: skip


if __name__ == "__main__":
    main()
