"""Backgammon's fitted 1-ply targets (kibitz/games/backgammon/fitting.py): the compiled
games and targets equal to the Python references, the targets equal to a hand-made
expectation, widening keeps the function, the fit's gradients are the loss's, a fit moves
the network toward its targets, and the command runs a round and resumes from it."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from backgammon_positions import side

from kibitz.games.backgammon import fitting, training
from kibitz.games.backgammon.board import apply_play, plays, start_side
from kibitz.games.backgammon.network import WEIGHTS, Network, encode, equity

ROOT = Path(__file__).resolve().parent.parent.parent

needs_kernel = pytest.mark.skipif(
    fitting.KERNEL is None, reason="the compiled kernel is not built (pure-Python install)"
)


def positions(network: Network, seed: int, random_turns: int) -> list[fitting.Pair]:
    return fitting.play_positions(network, random.Random(seed), random_turns)


# -- the games and the targets ------------------------------------------------------------------


def test_a_games_positions_follow_its_plays():
    """Each position is the one before it after a legal play of its roll (seen by the
    other player), the first random ones drawn from the same generator as the dice."""
    network = Network.random(8, seed=2)
    found = positions(network, 7, 10)
    dice = random.Random(7)
    for turn, ((me, opp), (next_on_roll, next_other)) in enumerate(itertools.pairwise(found)):
        high, low = training.roll(dice)
        legal = plays(me, opp, high, low)
        if turn < 10:
            play = legal[dice.randrange(len(legal))] if legal else ()
        else:
            play = network.best_play(me, opp, high, low)
        mover, other = me[:], opp[:]
        apply_play(mover, other, play)
        assert (next_on_roll, next_other) == (other, mover)
    assert found[0] == (start_side(), start_side())


@needs_kernel
@pytest.mark.parametrize("random_turns", [0, 25, 400])
def test_the_kernels_games_are_the_references(random_turns):
    for hidden, seed, contact in ((6, 5, False), (80, 1, False), (9, 2, True)):
        network = Network.random(hidden, seed, contact)
        for game in range(3):
            expected = positions(network, game, random_turns)
            found = fitting.KERNEL.game_positions(
                network, random.Random(game), random_turns, fitting.MAX_TURNS
            )
            assert found == expected


def test_a_target_is_the_expectation_over_the_rolls_of_the_best_plays_outputs():
    network = Network.random(12, seed=4)
    on_roll, other = side({6: 5, 8: 3, 13: 5, 24: 2}), side({6: 4, 5: 2, 13: 5, 24: 2, 1: 1})
    expected = np.zeros(5)
    for high in range(1, 7):
        for low in range(1, high + 1):
            mine, theirs = on_roll[:], other[:]
            apply_play(mine, theirs, network.best_play(on_roll, other, high, low))
            after = network.outputs([theirs], [mine])[0]  # the other on roll
            mover = np.array([1 - after[0], after[3], after[4], after[1], after[2]])
            expected += mover * (1 if high == low else 2) / 36
    found = fitting.one_ply_outputs(network, on_roll, other)
    assert np.allclose(found, expected, rtol=0, atol=1e-15)


def test_a_target_counts_the_plays_that_end_the_game_exactly():
    """Two checkers left on the ace point: every roll bears both off, a gammon (the other
    has borne none off), a backgammon where it still has a checker in the winner's home."""
    on_roll = side({1: 2})
    network = Network.random(4, seed=1)
    gammon = fitting.one_ply_outputs(network, on_roll, side({13: 15}))
    assert np.allclose(gammon, [1.0, 1.0, 0.0, 0.0, 0.0], rtol=0, atol=1e-15)
    backgammon = fitting.one_ply_outputs(network, on_roll, side({24: 1, 6: 14}))
    assert np.allclose(backgammon, [1.0, 1.0, 1.0, 0.0, 0.0], rtol=0, atol=1e-15)


@needs_kernel
def test_the_kernels_targets_are_the_references():
    for hidden, seed, contact in ((6, 5, False), (80, 1, False), (9, 2, True)):
        network = Network.random(hidden, seed, contact)
        pairs = [*positions(network, 3, 40)[::3], (side({1: 2}), side({24: 1, 6: 14}))]
        found = np.array(fitting.KERNEL.roll_outputs(network, pairs))
        expected = np.array([fitting.one_ply_outputs(network, *pair) for pair in pairs])
        assert np.allclose(found, expected, rtol=0, atol=1e-12)


# -- the fit ------------------------------------------------------------------------------------


def test_widening_keeps_the_outputs():
    network = Network.random(10, seed=3)
    wider = fitting.widen(network, 25, seed=9)
    assert wider.hidden == 25 and fitting.widen(network, 10, seed=9) is network
    x = encode(*(np.array([pair[i] for pair in positions(network, 1, 30)]) for i in (0, 1)))
    assert np.allclose(wider.forward(x)[1], network.forward(x)[1], rtol=0, atol=1e-15)


def test_the_gradients_are_the_cross_entropys():
    rng = np.random.default_rng(5)
    network = Network.random(4, seed=6)
    x, y = rng.uniform(0, 1, (7, 198)), rng.uniform(0, 1, (7, 5))

    def loss(weights: list[np.ndarray]) -> float:
        out = Network(*weights).forward(x)[1]
        return float(-np.mean(np.sum(y * np.log(out) + (1 - y) * np.log(1 - out), axis=1)))

    weights = [getattr(network, name) for name in WEIGHTS]
    gradients = fitting.gradients(weights, x, y)
    for index, (array, gradient) in enumerate(zip(weights, gradients, strict=True)):
        for at in [(0,) * array.ndim, tuple(n - 1 for n in array.shape)]:
            nudged = [w.copy() for w in weights]
            nudged[index][at] += 1e-6
            lower = [w.copy() for w in weights]
            lower[index][at] -= 1e-6
            numeric = (loss(nudged) - loss(lower)) / 2e-6
            assert gradient[at] == pytest.approx(numeric, rel=1e-5, abs=1e-9)


def test_a_fit_moves_the_network_toward_its_targets():
    network = Network.random(16, seed=8)
    pairs = positions(network, 2, 60) + positions(network, 3, 0)
    x = encode(*(np.array([pair[i] for pair in pairs]) for i in (0, 1)))
    y = fitting.targets(network, pairs)
    settings = fitting.Settings(epochs=20, batch=16, rate=3e-3)
    fitted = fitting.fit(network, x, y, settings, seed=1)
    assert fitting.equity_error(fitted, x, y) < fitting.equity_error(network, x, y) / 2
    again = fitting.fit(network, x, y, settings, seed=1)
    assert all(np.array_equal(getattr(again, n), getattr(fitted, n)) for n in WEIGHTS)


def test_a_round_learns_the_earlier_rounds_examples_too():
    network = Network.random(8, seed=3)
    pairs = positions(network, 5, 30)
    earlier = (np.array(pairs, dtype=np.int8), np.tile([1.0, 1.0, 1.0, 0.0, 0.0], (len(pairs), 1)))
    settings = fitting.Settings(games=2, epochs=10, batch=16, rate=3e-3, replay=2)
    x = encode(*(np.array([pair[i] for pair in pairs]) for i in (0, 1)))

    def equity_there(earlier_rounds) -> float:
        run = training.Run(network, 0, 4, 0.1, 0.7)
        found = fitting.train_round(run, settings, 1, lambda line: None, earlier_rounds)
        assert found[0].shape == (len(found[1]), 2, 25) and found[1].shape[1] == 5
        return float(np.mean(equity(run.network.forward(x)[1])))

    assert equity_there([earlier]) > equity_there([]) + 0.5  # toward their +3


# -- the command --------------------------------------------------------------------------------


def test_the_command_runs_rounds_and_resumes_from_them(tmp_path):
    start = tmp_path / "start.npz"
    training.Run(Network.random(6, seed=1), 100, 4, 0.1, 0.7).save(start)
    out = tmp_path / "fitted.npz"
    command = [sys.executable, "scripts/train_td.py", "fit", "--out", str(out), "--games", "3"]
    arguments = ["--epochs", "1", "--workers", "2", "--hidden", "9", "--rounds", "2"]
    result = subprocess.run(
        [*command, "--resume", str(start), *arguments, "--average", "2"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[0] == f"resumed {start}: 100 games, 9 hidden units, 198 inputs"
    assert lines[1].startswith("games 103  positions ") and lines[2].startswith("games 106  ")
    assert lines[3] == "wrote the mean of the last 2 rounds' weights"
    run = training.Run.load(out)
    assert (run.games, run.seed, run.network.hidden) == (106, 4, 9)
    subprocess.run([*command, "--resume", str(out)], cwd=ROOT, check=True, capture_output=True)
    assert training.Run.load(out).games == 109
    subprocess.run(
        [*command, "--resume", str(out), "--contact"], cwd=ROOT, check=True, capture_output=True
    )
    run = training.Run.load(out)
    assert (run.games, run.network.contact, run.network.w1.shape[0]) == (112, True, 204)


def test_the_mean_network_is_the_mean_of_the_weights():
    first, second = Network.random(5, seed=1), Network.random(5, seed=2)
    mean = fitting.mean_network([first, second])
    for name in WEIGHTS:
        assert np.allclose(getattr(mean, name), (getattr(first, name) + getattr(second, name)) / 2)


def test_the_command_rejects_bad_arguments(capsys, tmp_path):
    with pytest.raises(SystemExit):
        fitting.main(["--resume", "no-such.npz", "--out", str(tmp_path / "x.npz")])
    assert "no checkpoint no-such.npz" in capsys.readouterr().err
    start = tmp_path / "start.npz"
    training.Run(Network.random(6, seed=1), 0, 4, 0.1, 0.7).save(start)
    with pytest.raises(SystemExit):
        fitting.main(["--resume", str(start), "--out", str(start), "--games", "0"])
    assert "must be >= 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fitting.main(["--resume", str(start), "--out", str(start), "--random-turns", "0"])
    assert "--random-turns must be >= 1" in capsys.readouterr().err.replace("\n", " ")
    with pytest.raises(SystemExit):
        fitting.main(["--resume", str(start), "--out", str(start), "--hidden", "4"])
    assert "--hidden 4: the network has 6 hidden units already" in capsys.readouterr().err
