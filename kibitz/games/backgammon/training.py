"""Training `network.py`'s backgammon network by TD(lambda) self-play, as Tesauro trained
TD-Gammon, and measuring it against pubeval.

Each game starts from the opening position, the dice of game g drawn from its own seeded
generator (the seed and g: a run is reproducible, and the games played are all a resumed
run needs to carry on). The player on roll evaluates the afterstate of every legal play of
its roll in one batch and takes the best for itself (`Network.best_play`, a play that wins
valued by its exact result; greedy, no exploration: the dice explore). After each play
the network's outputs for the position before it move toward those of the position after
it, seen by the same player; at the end toward the outcome (win, gammon, backgammon for
either side). The step is ``alpha`` times the temporal difference of each output times that
output's eligibility trace (its gradients, decayed by ``lambda`` each play and kept in
player 1's view throughout).

**Workers**: with ``--workers K``, K processes each run TD on their own games from the same
weights, ``--sync`` games each; the learner moves the weights by the mean of their changes,
and the next round starts from there. So each game's updates count 1/K: K workers play K
times the games of one process at a step of alpha / K a game, a quieter run of the same
reach, for fine-tuning late in training (with K = 1 it is the plain sequential run). Adding
the changes up instead diverged: resumed from the shipped 125,000 games on 16 cores, 8
workers of 5 games a round sent the start position's equity to -1.0 within 4,000 games
(alpha 0.1: -1.167 points a game against pubeval after 112,000 games; alpha 0.04: -0.192
after 68,000, against the start's +0.244 over the same 2,400 games). The games of a round
all push the same way from the same weights, and their sum overshoots where one process's
next game would already have seen the first step.

**Checkpoints** (``--out``, every ``--checkpoint-every`` games and at the end): a ``.npz``
with the weights (`network.Network.load` reads it) and the counters: games played, the
seed, the hyperparameters. ``--resume`` carries on from one with its weights and game
count; its seed and shape are kept, ``--alpha`` and ``--lambda`` apply from then on.

**Evaluation** (``--evaluate N``): N games of the network at 1-ply against Tesauro's pubeval
(the play pubeval scores best, race weights when the position before the play is a race:
`benchmarks/backgammon.py`'s pubeval player), in pairs with the same dice and the colours
swapped; prints the network's points a game with a 95% interval.

Run it with ``python -m kibitz.games.backgammon.training`` where kibitz is installed, or
with ``python scripts/train_td.py`` (the same arguments) on a machine with numpy alone.
Where backgammon's compiled kernel was built, the self-play games run in it (`KERNEL`).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from kibitz.games.backgammon import evaluation
from kibitz.games.backgammon.board import Play, apply_play, plays, points_won, start_side
from kibitz.games.backgammon.compiled import compiled_kernel
from kibitz.games.backgammon.network import (
    FLIP,
    WEIGHTS,
    Network,
    flipped,
    outcome,
)

MAX_TURNS = 2000
"""A game still going after this many turns is stuck (both sides shut out on the bar): it
ends without a final reward (and scores 0 in an evaluation)."""

Chooser = Callable[[list[int], list[int], int, int], Play]


def roll(dice: random.Random) -> tuple[int, int]:
    first, second = dice.randint(1, 6), dice.randint(1, 6)
    return max(first, second), min(first, second)


def game_dice(seed: int, game: int) -> random.Random:
    """The dice of self-play game `game` of a run with `seed`."""
    return random.Random(seed * 2**32 + game)


# -- TD(lambda) ---------------------------------------------------------------------------------


@dataclass
class Traces:
    """The eligibility traces of the five outputs (each output's gradient with respect to
    every weight, the first axis the output), in player 1's view, times `scale`: decaying
    them all is one multiplication of `scale`, adding a gradient touches only the weights
    of the inputs that are not 0."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    scale: float = 1.0

    @classmethod
    def zero(cls, network: Network) -> Traces:
        outputs, hidden = network.w2.shape
        return cls(
            np.zeros((outputs, *network.w1.shape)),
            np.zeros((outputs, hidden)),
            np.zeros((outputs, *network.w2.shape)),
            np.zeros((outputs, outputs)),
        )

    def add(
        self,
        network: Network,
        x: np.ndarray,
        hidden: np.ndarray,
        out: np.ndarray,
        decay: float,
        player: int,
    ) -> None:
        """Decay the traces by `decay` and add the gradients of the outputs `out` of inputs
        `x` (hidden activations `hidden`), the position seen by `player`."""
        self.scale *= decay
        if self.scale < 1e-100:  # fold the scale in before it underflows
            for name in WEIGHTS:
                getattr(self, name)[...] *= self.scale
            self.scale = 1.0
        # in player 1's view, output k is player 2's output order[k] (its win 1 - theirs)
        order, sign = (FLIP, _FLIPPED_SIGN) if player else (_IDENTITY, _SIGN)
        slope = out[order] * (1.0 - out[order]) * sign / self.scale
        back = slope[:, None] * network.w2[order] * (hidden * (1.0 - hidden))
        inputs = np.flatnonzero(x)
        self.w1[:, inputs] += x[inputs][:, None] * back[:, None, :]
        self.b1 += back
        self.w2[_IDENTITY, order] += slope[:, None] * hidden
        self.b2[_IDENTITY, order] += slope

    def step(self, network: Network, error: np.ndarray, alpha: float) -> None:
        """Move the weights by `alpha` times the temporal difference `error` (of the five
        outputs, player 1's view) along the traces."""
        factors = alpha * self.scale * error
        for name in WEIGHTS:
            weights, trace = getattr(network, name), getattr(self, name)
            weights += (factors @ trace.reshape(len(factors), -1)).reshape(weights.shape)


_IDENTITY = np.arange(len(FLIP))
_SIGN = np.ones(len(FLIP))
_FLIPPED_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])


def seen_by_first(out: np.ndarray, player: int) -> np.ndarray:
    return flipped(out) if player else out


def self_play_game(
    network: Network, dice: random.Random, alpha: float, decay: float
) -> tuple[float, int]:
    """One game of TD(lambda) self-play, the network trained as it goes (in place); returns
    player 1's points (0 for a stuck game) and the turns played."""
    sides = [start_side(), start_side()]
    player = 0
    x = network.encode(np.array(sides[:1]), np.array(sides[1:]))
    hidden, out = (row[0] for row in network.forward(x))
    traces = Traces.zero(network)
    traces.add(network, x[0], hidden, out, decay, player)
    value = seen_by_first(out, player)
    for turn in range(MAX_TURNS):
        mine, theirs = sides[player], sides[1 - player]
        apply_play(mine, theirs, network.best_play(mine, theirs, *roll(dice)))
        final = outcome(theirs, mine)
        if final is not None:  # the mover has won
            traces.step(network, seen_by_first(flipped(final), player) - value, alpha)
            points = points_won(theirs)
            return (points if player == 0 else -points), turn + 1
        player = 1 - player
        x = network.encode(np.array([theirs]), np.array([mine]))
        hidden, out = (row[0] for row in network.forward(x))
        following = seen_by_first(out, player)
        traces.step(network, following - value, alpha)
        traces.add(network, x[0], hidden, out, decay, player)
        value = following
    return 0.0, MAX_TURNS


@dataclass
class Batch:
    """What a batch of self-play games reports: player 1's points and each game's turns."""

    points: list[float] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)

    def extend(self, other: Batch) -> None:
        self.points += other.points
        self.turns += other.turns


KERNEL = compiled_kernel()
"""Where not None, self-play games are its `td_game`: `self_play_game` in C, the same games
(the same plays, dice and choices) and the weights to the last bits, about eight times as
fast. `self_play_game` stays the reference."""


def train_games(
    network: Network, seed: int, games: Sequence[int], alpha: float, decay: float
) -> Batch:
    """Self-play games number `games` of the run with `seed` (the network trained in place)."""
    batch = Batch()
    for game in games:
        dice = game_dice(seed, game)
        if KERNEL is not None:
            points, turns = KERNEL.td_game(network, dice, alpha, decay, MAX_TURNS)
        else:
            points, turns = self_play_game(network, dice, alpha, decay)
        batch.points.append(points)
        batch.turns.append(turns)
    return batch


def _train_worker(
    task: tuple[dict[str, np.ndarray], int, Sequence[int], float, float],
) -> tuple[dict[str, np.ndarray], Batch]:
    """A worker's part of a round: its games from the learner's weights."""
    arrays, seed, games, alpha, decay = task
    network = Network.from_arrays(arrays)
    batch = train_games(network, seed, games, alpha, decay)
    return network.arrays(), batch


# -- checkpoints --------------------------------------------------------------------------------


@dataclass
class Run:
    """A training run: the network and its counters (what a checkpoint holds)."""

    network: Network
    games: int
    seed: int
    alpha: float
    decay: float

    def save(self, path: str | Path) -> None:
        """Write the checkpoint (atomically: a crash leaves the previous one)."""
        path = Path(path)
        partial = path.with_name(path.name + ".partial.npz")
        np.savez(
            partial,
            **self.network.arrays(),
            games=self.games,
            seed=self.seed,
            alpha=self.alpha,
            decay=self.decay,
        )
        os.replace(partial, path)

    @classmethod
    def load(cls, path: str | Path) -> Run:
        with np.load(path) as data:
            counters = (int(data["games"]), int(data["seed"]))
            rates = (float(data["alpha"]), float(data["decay"]))
        return cls(Network.load(path), *counters, *rates)


# -- evaluation against pubeval -------------------------------------------------------------------


def pubeval_play(me: list[int], opp: list[int], high: int, low: int) -> Play:
    """Tesauro's benchmark player: the play pubeval scores best (race weights when the
    position before the play is a race), the first of equals; () to pass."""
    legal = plays(me, opp, high, low)
    if len(legal) < 2:
        return legal[0] if legal else ()
    race = evaluation.is_race(me, opp)

    def score(play: Play) -> float:
        mine, theirs = me[:], opp[:]
        apply_play(mine, theirs, play)
        return evaluation.pubeval(mine, theirs, race)

    return max(legal, key=score)


def play_game(players: tuple[Chooser, Chooser], seed: int) -> float:
    """Player 1's points in one game whose k-th roll is the k-th of `seed`'s sequence."""
    dice = random.Random(seed)
    sides = [start_side(), start_side()]
    player = 0
    for _ in range(MAX_TURNS):
        me, opp = sides[player], sides[1 - player]
        apply_play(me, opp, players[player](me, opp, *roll(dice)))
        if not any(me):
            return float(points_won(opp) if player == 0 else -points_won(opp))
        player = 1 - player
    return 0.0


def _evaluate_pair(task: tuple[dict[str, np.ndarray], int]) -> float:
    """The network's points over the two games of pair `index` (same dice, colours
    swapped)."""
    arrays, index = task
    network = Network.from_arrays(arrays)
    first = play_game((network.best_play, pubeval_play), index)
    second = -play_game((pubeval_play, network.best_play), index)
    return first + second


def evaluate(network: Network, games: int, workers: int) -> tuple[float, float]:
    """The network's mean points a game at 1-ply against pubeval over `games` games
    (rounded up to pairs), and the half-width of its 95% interval (over the pairs)."""
    arrays = network.arrays()
    tasks = [(arrays, index) for index in range((games + 1) // 2)]
    pairs = list(map_in_workers(_evaluate_pair, tasks, workers))
    mean = statistics.fmean(pairs) / 2
    spread = statistics.stdev(pairs) / 2 if len(pairs) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(pairs))


def evaluation_line(network: Network, games: int, workers: int) -> str:
    """`evaluate`'s result as the commands print it."""
    mean, half = evaluate(network, games, workers)
    played = 2 * ((games + 1) // 2)
    return f"against pubeval at 1-ply, {played} games: {mean:+.3f} points a game +- {half:.3f}"


def map_in_workers(function: Callable, tasks: list, workers: int) -> list:
    """`function` of each task, in order: in `workers` spawned processes (`_pool`), or in
    this one where `workers` is 1."""
    if workers <= 1:
        return [function(task) for task in tasks]
    with _pool(workers) as pool:
        return list(pool.map(function, tasks))


def _pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes (spawned: they import only what they need) whose numpy runs on one
    thread each."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    return ProcessPoolExecutor(workers, mp_context=get_context("spawn"))


# -- the command --------------------------------------------------------------------------------


def train(
    run: Run,
    games: int,
    workers: int = 1,
    sync: int = 10,
    out: str | Path | None = None,
    checkpoint_every: int = 1000,
    report_every: int = 100,
    write: Callable[[str], None] = print,
) -> Run:
    """Play `games` more self-play games of `run` (in place), `workers` processes each
    playing `sync` games a round; checkpoint to `out` every `checkpoint_every` games and at
    the end; a progress line every `report_every` games."""
    end = run.games + games
    chunk = sync if workers > 1 else 1
    started, last_report, last_checkpoint = time.perf_counter(), run.games, run.games
    recent = Batch()
    pool = _pool(workers) if workers > 1 else None
    try:
        while run.games < end:
            numbers = range(run.games, min(end, run.games + chunk * workers))
            if pool is None:
                recent.extend(train_games(run.network, run.seed, numbers, run.alpha, run.decay))
            else:
                base = run.network.arrays()
                tasks = [
                    (base, run.seed, numbers[start::workers], run.alpha, run.decay)
                    for start in range(min(workers, len(numbers)))
                ]
                results = list(pool.map(_train_worker, tasks))
                for name in WEIGHTS:
                    change = sum(weights[name] - base[name] for weights, _ in results)
                    setattr(run.network, name, base[name] + change / len(results))
                for _, batch in results:
                    recent.extend(batch)
            run.games = numbers.stop
            if run.games - last_report >= report_every or run.games == end:
                write(
                    _progress(run, recent, time.perf_counter() - started, run.games - last_report)
                )
                started, last_report, recent = time.perf_counter(), run.games, Batch()
            if out is not None and (
                run.games - last_checkpoint >= checkpoint_every or run.games == end
            ):
                run.save(out)
                last_checkpoint = run.games
    finally:
        if pool is not None:
            pool.shutdown()
    return run


def _progress(run: Run, recent: Batch, seconds: float, games: int) -> str:
    start = run.network.pre_roll_equity(start_side(), start_side())
    magnitudes = [abs(points) for points in recent.points]
    gammons = sum(points >= 2 for points in magnitudes) / len(magnitudes)
    backgammons = sum(points >= 3 for points in magnitudes) / len(magnitudes)
    return (
        f"games {run.games}  {games / seconds:.1f} games/s  "
        f"first player {statistics.fmean(recent.points):+.3f} points a game  "
        f"gammons {gammons:.1%}  backgammons {backgammons:.1%}  "
        f"turns {statistics.fmean(recent.turns):.1f}  start equity {start:+.3f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.games.backgammon.training",
        description="Train the backgammon network by TD(lambda) self-play (see the docstring).",
    )
    parser.add_argument("--games", type=int, default=0, help="self-play games to play")
    parser.add_argument("--seed", type=int, default=1, help="of the first weights and the dice")
    parser.add_argument("--out", help="the checkpoint to write (.npz)")
    parser.add_argument("--resume", help="a checkpoint to carry on from")
    parser.add_argument("--workers", type=int, default=1, help="self-play processes")
    parser.add_argument("--sync", type=int, default=10, help="games per worker a round (10)")
    parser.add_argument("--hidden", type=int, default=80, help="hidden units of a new run")
    parser.add_argument("--alpha", type=float, default=None, help="step size (0.1)")
    parser.add_argument("--lambda", dest="decay", type=float, help="the traces' decay (0.7)")
    parser.add_argument("--checkpoint-every", type=int, default=1000, help="games (1000)")
    parser.add_argument("--report-every", type=int, default=100, help="games a line (100)")
    parser.add_argument("--evaluate", type=int, default=0, help="games against pubeval")
    args = parser.parse_args(argv)
    if args.games < 0 or args.evaluate < 0 or args.workers < 1 or args.sync < 1:
        parser.error("--games and --evaluate must be >= 0, --workers and --sync >= 1")
    if args.games and not args.out:
        parser.error("--games needs --out (the checkpoint)")
    if args.resume:
        if not Path(args.resume).is_file():
            parser.error(f"--resume: no checkpoint {args.resume}")
        run = Run.load(args.resume)
        run.alpha = run.alpha if args.alpha is None else args.alpha
        run.decay = run.decay if args.decay is None else args.decay
        print(f"resumed {args.resume}: {run.games} games, seed {run.seed}", flush=True)
    else:
        network = Network.random(args.hidden, args.seed)
        alpha = 0.1 if args.alpha is None else args.alpha
        run = Run(network, 0, args.seed, alpha, 0.7 if args.decay is None else args.decay)

    def write(line: str) -> None:
        print(line, flush=True)

    if args.games:
        train(run, args.games, args.workers, args.sync, args.out, args.checkpoint_every,
              args.report_every, write)  # fmt: skip
    if args.evaluate:
        write(evaluation_line(run.network, args.evaluate, args.workers))


if __name__ == "__main__":
    main(sys.argv[1:])
