"""Training `network.py`'s backgammon network by fitted 1-ply targets: rounds of
self-play, a one-roll lookahead and a supervised fit, after TD(lambda) (`training.py`) has
done the bulk.

A **round** plays games with the network (seeded dice, game g's from the seed and g as in
`training.py`), keeps every position before a roll, values each by the network's own 1-ply
lookahead (the expectation over the 21 rolls of the outputs after the best play, the exact
outcome where a play ends the game: what TD(0) moves toward on average, here without the
dice's noise) and fits the network to those values (cross-entropy on the five sigmoid
outputs, Adam, mini-batches, from the weights it had). Each round's network is a roll
deeper than the last one's, and learns the positions it is shown, not only those of its
own games: of each `--random-every` games, one starts with up to `--random-turns` plays
chosen at random before the network takes over, so that positions of wild play (checkers
everywhere, many on the bar, late gammons) are seen and valued too. gnubg is never the
teacher: the targets are the network's own search.

`--average N` writes, after the last round, the mean of the last N rounds' weights (the
rounds themselves each start from the one before): a quieter network than any one of
them, as stochastic weight averaging finds.

`--hidden` above the network's width adds hidden units first (their inputs' weights small
and random, their outputs' weights zero: the same function, more room); `--contact` adds
the inputs of `contact.py`'s features (their weights zero: the same function again), for
the rounds to learn what they are worth.

A round's games, positions and targets are made by `--workers` processes (each a share of
the games) in backgammon's compiled kernel where it was built (`_kernel.game_positions` and
`roll_outputs`: about 24 times the speed, in CPU time at 160 hidden units, of
`play_positions` and `one_ply_outputs` here, which stay the reference the tests hold them
to); the fit runs in this one, in numpy (float32). Checkpoints are `training.Run` files
(the weights, the game count, the seed), so ``--resume`` carries on from either kind of
run.

Run it with ``python -m kibitz.games.backgammon.fitting`` where kibitz is installed, or with
``python scripts/train_td.py fit`` (the same arguments) on a machine with numpy alone.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kibitz.games.backgammon.board import apply_play, plays, start_side
from kibitz.games.backgammon.network import (
    FLIP,
    WEIGHTS,
    Network,
    afterstates,
    equity,
    flipped,
)
from kibitz.games.backgammon.training import (
    KERNEL,
    MAX_TURNS,
    Run,
    evaluation_line,
    game_dice,
    map_in_workers,
    roll,
)


@dataclass(frozen=True)
class Settings:
    """A round's settings (the defaults: those of the shipped weights' first rounds;
    docs/games.md gives the later ones')."""

    games: int = 4000
    random_every: int = 2
    random_turns: int = 100
    epochs: int = 16
    batch: int = 256
    rate: float = 1e-3
    replay: int = 1
    """Rounds of examples a fit learns from: its round's and the `replay` - 1 before (their
    targets as their rounds' networks made them)."""


# -- positions and targets ------------------------------------------------------------------------


def random_opening(game: int, settings: Settings, dice: random.Random) -> int:
    """How many of game `game`'s first plays are chosen at random (0 for the others)."""
    if settings.random_every and game % settings.random_every == settings.random_every - 1:
        return dice.randint(1, settings.random_turns)
    return 0


Pair = tuple[list[int], list[int]]
"""A position before a roll: the side of the player about to roll, the other's."""

Examples = tuple[np.ndarray, np.ndarray]
"""A round's positions, (n, 2, 25) int8 (the side on roll, the other), and targets, (n, 5)."""


def play_positions(network: Network, dice: random.Random, random_turns: int) -> list[Pair]:
    """The positions before each roll of a game from the opening whose first `random_turns`
    plays are chosen uniformly (``dice.randrange``), the others by `network` at 1-ply
    (`Network.best_play`); the dice are ``dice.randint``'s. The position a play ended the
    game in is not among them. (`_kernel.game_positions` is this in C.)"""
    sides = [start_side(), start_side()]
    player, found = 0, []
    for turn in range(MAX_TURNS):
        me, opp = sides[player], sides[1 - player]
        found.append((me[:], opp[:]))
        high, low = roll(dice)
        if turn < random_turns:
            legal = plays(me, opp, high, low)
            play = legal[dice.randrange(len(legal))] if legal else ()
        else:
            play = network.best_play(me, opp, high, low)
        apply_play(me, opp, play)
        if not any(me):
            break
        player = 1 - player
    return found


def one_ply_outputs(network: Network, on_roll: list[int], other: list[int]) -> np.ndarray:
    """The target of a position before its roll (neither side finished): over the 21
    rolls, weighted by their chances, the five outputs of the player on roll after the play
    `Network.best_play` chooses, the exact outcome where it ends the game. (`_kernel.
    roll_outputs` is this in C.)"""
    total = np.zeros(len(FLIP))
    for high in range(1, 7):
        for low in range(1, high + 1):
            legal = plays(on_roll, other, high, low) or [()]
            theirs, mine = afterstates(on_roll, other, legal)
            outputs = network.outputs(theirs, mine)
            chosen = outputs[int(np.argmin(equity(outputs)))]
            total += (1 if high == low else 2) / 36 * flipped(chosen)
    return total


def game_positions(network: Network, seed: int, game: int, settings: Settings) -> list[Pair]:
    """The positions before each roll of game `game` of the run with `seed`."""
    dice = game_dice(seed, game)
    turns = random_opening(game, settings, dice)
    if KERNEL is not None:
        return KERNEL.game_positions(network, dice, turns, MAX_TURNS)
    return play_positions(network, dice, turns)


def targets(network: Network, positions: Sequence[Pair]) -> np.ndarray:
    """The (n, 5) targets of `positions`."""
    if KERNEL is not None:
        return np.array(KERNEL.roll_outputs(network, list(positions)))
    return np.array([one_ply_outputs(network, *pair) for pair in positions])


def _examples(task: tuple[dict[str, np.ndarray], int, Sequence[int], Settings]):
    """A worker's share of a round: its games' positions, (n, 2, 25) int8, and their 1-ply
    targets, (n, 5)."""
    arrays, seed, games, settings = task
    network = Network.from_arrays(arrays)
    positions = [pair for game in games for pair in game_positions(network, seed, game, settings)]
    return np.array(positions, dtype=np.int8), targets(network, positions)


def examples(
    network: Network, seed: int, games: range, settings: Settings, workers: int
) -> Examples:
    """The positions of games `games` and their targets, made by `workers` processes."""
    arrays = network.arrays()
    shares = max(workers * 4, 1)
    tasks = [
        (arrays, seed, games[start::shares], settings) for start in range(min(shares, len(games)))
    ]
    parts = map_in_workers(_examples, tasks, workers)
    return np.concatenate([p for p, _ in parts]), np.concatenate([t for _, t in parts])


# -- the fit --------------------------------------------------------------------------------------


def widen(network: Network, hidden: int, seed: int) -> Network:
    """`network` with `hidden` hidden units: the new ones' input weights uniform in +-0.1,
    their output weights zero (the outputs unchanged)."""
    extra = hidden - network.hidden
    if extra <= 0:
        return network
    rng = np.random.default_rng(seed)
    return Network(
        np.hstack([network.w1, rng.uniform(-0.1, 0.1, (network.w1.shape[0], extra))]),
        np.concatenate([network.b1, rng.uniform(-0.1, 0.1, extra)]),
        np.hstack([network.w2, np.zeros((network.w2.shape[0], extra))]),
        network.b2.copy(),
    )


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0)))


class Adam:
    """Adam (Kingma and Ba) over `Network`'s four arrays, in float32."""

    def __init__(self, network: Network, rate: float) -> None:
        self.weights = [getattr(network, name).astype(np.float32) for name in WEIGHTS]
        self.first = [np.zeros_like(w) for w in self.weights]
        self.second = [np.zeros_like(w) for w in self.weights]
        self.rate, self.steps = rate, 0

    def step(self, gradients: Sequence[np.ndarray]) -> None:
        self.steps += 1
        correction = math.sqrt(1 - 0.999**self.steps) / (1 - 0.9**self.steps)
        for w, m, v, g in zip(self.weights, self.first, self.second, gradients, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            w -= self.rate * correction * m / (np.sqrt(v) + 1e-8)

    def network(self) -> Network:
        return Network(*(w.astype(np.float64) for w in self.weights))


def gradients(weights: Sequence[np.ndarray], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """The gradients of the mean cross-entropy of the outputs against targets `y`."""
    w1, b1, w2, b2 = weights
    hidden = _sigmoid(x @ w1 + b1)
    slope = (_sigmoid(hidden @ w2.T + b2) - y) / len(x)
    back = (slope @ w2) * hidden * (1.0 - hidden)
    return [x.T @ back, back.sum(axis=0), slope.T @ hidden, slope.sum(axis=0)]


def equity_error(network: Network, x: np.ndarray, y: np.ndarray) -> float:
    """The mean absolute difference between the network's equity and the targets'."""
    _, out = network.forward(x)
    return float(np.mean(np.abs(equity(out) - equity(y))))


def fit(network: Network, x: np.ndarray, y: np.ndarray, settings: Settings, seed: int) -> Network:
    """`network` fitted to targets `y` of inputs `x` (a new network)."""
    rng = np.random.default_rng(seed)
    adam = Adam(network, settings.rate)
    x, y = x.astype(np.float32), y.astype(np.float32)
    for _ in range(settings.epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), settings.batch):
            rows = order[start : start + settings.batch]
            adam.step(gradients(adam.weights, x[rows], y[rows]))
    return adam.network()


def mean_network(networks: Sequence[Network]) -> Network:
    """The mean of the weights of `networks` (of one shape)."""
    return Network(*(np.mean([getattr(n, name) for n in networks], axis=0) for name in WEIGHTS))


# -- rounds ---------------------------------------------------------------------------------------


def train_round(
    run: Run,
    settings: Settings,
    workers: int,
    write: Callable[[str], None],
    earlier: Sequence[Examples] = (),
) -> Examples:
    """One round: `settings.games` games from `run.games` on, their targets, the fit (on
    them and the `earlier` rounds' examples); returns the round's examples."""
    started = time.perf_counter()
    games = range(run.games, run.games + settings.games)
    positions, y = examples(run.network, run.seed, games, settings, workers)
    made = time.perf_counter()
    held = np.arange(len(y)) % 20 == 0  # a twentieth of this round's held out, to see the fit
    learnt = np.concatenate([positions[~held], *(p for p, _ in earlier)])
    x = run.network.encode(learnt[:, 0].astype(np.int64), learnt[:, 1].astype(np.int64))
    x_held = run.network.encode(
        positions[held, 0].astype(np.int64), positions[held, 1].astype(np.int64)
    )
    before = equity_error(run.network, x_held, y[held])
    y_learnt = np.concatenate([y[~held], *(targets for _, targets in earlier)])
    run.network = fit(run.network, x, y_learnt, settings, run.seed + run.games)
    after = equity_error(run.network, x_held, y[held])
    run.games = games.stop
    write(
        f"games {run.games}  positions {len(y)}  {made - started:.0f} s to make, "
        f"{time.perf_counter() - made:.0f} s to fit  held-out equity error "
        f"{before:.4f} -> {after:.4f}  "
        f"start equity {run.network.pre_roll_equity(start_side(), start_side()):+.3f}"
    )
    return positions, y


def main(argv: Sequence[str] | None = None) -> None:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.games.backgammon.fitting",
        description="Train the backgammon network by fitted 1-ply targets (see the docstring).",
    )
    parser.add_argument("--resume", required=True, help="the checkpoint to start from (.npz)")
    parser.add_argument("--out", required=True, help="the checkpoint to write (.npz)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to run (1)")
    parser.add_argument("--games", type=int, default=defaults.games, help="games a round")
    parser.add_argument(
        "--random-every",
        type=int,
        default=defaults.random_every,
        help="one game in this many starts with random plays (0: none)",
    )
    parser.add_argument(
        "--random-turns",
        type=int,
        default=defaults.random_turns,
        help="at most this many random plays at a game's start",
    )
    parser.add_argument("--epochs", type=int, default=defaults.epochs, help="of each fit")
    parser.add_argument("--batch", type=int, default=defaults.batch, help="positions a step")
    parser.add_argument("--rate", type=float, default=defaults.rate, help="Adam's step size")
    parser.add_argument(
        "--replay",
        type=int,
        default=defaults.replay,
        help="fit on this many rounds' examples: the round's and those of the rounds before it",
    )
    parser.add_argument("--hidden", type=int, default=0, help="widen the network to this")
    parser.add_argument(
        "--contact",
        action="store_true",
        help="add the contact features' inputs (shots, pip loss, primes) first",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes making targets")
    parser.add_argument(
        "--average", type=int, default=1, help="write the mean of the last N rounds' weights"
    )
    parser.add_argument("--evaluate", type=int, default=0, help="games against pubeval")
    args = parser.parse_args(argv)
    if not Path(args.resume).is_file():
        parser.error(f"--resume: no checkpoint {args.resume}")
    counts = (
        args.rounds,
        args.games,
        args.epochs,
        args.batch,
        args.workers,
        args.average,
        args.replay,
        args.random_turns,
    )
    if min(counts) < 1 or args.random_every < 0 or args.rate <= 0:
        parser.error(
            "--rounds, --games, --epochs, --batch, --workers, --average, --replay and "
            "--random-turns must be >= 1, --random-every >= 0, --rate > 0"
        )
    settings = Settings(
        args.games,
        args.random_every,
        args.random_turns,
        args.epochs,
        args.batch,
        args.rate,
        args.replay,
    )
    run = Run.load(args.resume)
    if 0 < args.hidden < run.network.hidden:
        parser.error(
            f"--hidden {args.hidden}: the network has {run.network.hidden} hidden units already "
            "(it can be widened, not narrowed)"
        )
    run.network = widen(run.network, args.hidden, run.seed + run.games)
    if args.contact:
        run.network = run.network.with_contact()

    def write(line: str) -> None:
        print(line, flush=True)

    write(
        f"resumed {args.resume}: {run.games} games, {run.network.hidden} hidden units, "
        f"{run.network.w1.shape[0]} inputs"
    )
    recent: list[Network] = []
    kept: list[Examples] = []
    for _ in range(args.rounds):
        found = train_round(run, settings, args.workers, write, kept)
        kept = [found, *kept][: settings.replay - 1]
        run.save(args.out)
        recent = [*recent, run.network][-args.average :]
    if args.average > 1:
        run.network = mean_network(recent)
        run.save(args.out)
        write(f"wrote the mean of the last {len(recent)} rounds' weights")
    if args.evaluate:
        write(evaluation_line(run.network, args.evaluate, args.workers))


if __name__ == "__main__":
    main(sys.argv[1:])
