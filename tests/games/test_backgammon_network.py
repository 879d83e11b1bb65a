"""Backgammon's TD network (kibitz/games/backgammon/network.py) and its training
(training.py): Tesauro's 198 inputs, batched inference, exact outcomes at finished games,
the eligibility traces equal to the outputs' gradients, TD self-play deterministic by seed,
checkpoints that resume to the same run, the evaluation's games played by the rules of the
`Backgammon` game, and the training importable without kibitz's other dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from backgammon_positions import side

from benchmarks.backgammon import play_game as benchmark_game
from benchmarks.backgammon import pubeval_player
from kibitz.games.backgammon import training
from kibitz.games.backgammon.board import start_side
from kibitz.games.backgammon.contact import FEATURES
from kibitz.games.backgammon.network import (
    DEFAULT_WEIGHTS,
    INPUTS,
    WEIGHTS,
    Network,
    encode,
    equity,
    flipped,
)
from kibitz.games.capabilities import Chances

ROOT = Path(__file__).resolve().parent.parent.parent


def inputs(on_roll: list[int], other: list[int]) -> np.ndarray:
    return encode(np.array([on_roll]), np.array([other]))[0]


# -- the encoding -------------------------------------------------------------------------------


def test_the_start_encodes_both_sides_alike_in_contact():
    x = inputs(start_side(), start_side())
    assert x.shape == (INPUTS,) == (198,)
    assert np.array_equal(x[:98], x[98:196])
    assert list(x[196:]) == [1.0, 0.0]  # in contact
    # 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6: four units a point
    assert list(x[4 * 23 : 4 * 24]) == [1.0, 1.0, 0.0, 0.0]
    assert list(x[4 * 12 : 4 * 13]) == [1.0, 1.0, 1.0, 1.0]
    assert list(x[4 * 7 : 4 * 8]) == [1.0, 1.0, 1.0, 0.0]
    assert list(x[4 * 5 : 4 * 6]) == [1.0, 1.0, 1.0, 1.0]
    assert x[:96].sum() == 2 + 4 + 3 + 4  # the units, (5 - 3) / 2 the fourth of a 5
    assert x[96] == x[97] == 0.0  # none on the bar, none off


def test_counts_bar_and_borne_off_map_to_their_units():
    on_roll = side({1: 9, 2: 1}, bar=2)  # 3 borne off
    other = side({24: 1, 23: 3, 20: 7})  # 4 borne off
    x = inputs(on_roll, other)
    assert list(x[0:4]) == [1.0, 1.0, 1.0, 3.0]  # (9 - 3) / 2
    assert list(x[4:8]) == [1.0, 0.0, 0.0, 0.0]
    assert not x[8:96].any()
    assert x[96] == 1.0 and x[97] == pytest.approx(3 / 15)
    assert list(x[98 + 92 : 98 + 96]) == [1.0, 0.0, 0.0, 0.0]
    assert list(x[98 + 88 : 98 + 92]) == [1.0, 1.0, 1.0, 0.0]
    assert list(x[98 + 76 : 98 + 80]) == [1.0, 1.0, 1.0, 2.0]
    assert x[98 + 96] == 0.0 and x[98 + 97] == pytest.approx(4 / 15)
    assert list(x[196:]) == [1.0, 0.0]  # my bar checkers must pass the other's back ones


def test_a_race_is_flagged():
    x = inputs(side({6: 5, 3: 10}), side({7: 15}))
    assert list(x[196:]) == [0.0, 1.0]
    x = inputs(side({6: 5, 3: 10}), side({19: 15}))  # my 6-point is its 19-point: contact
    assert list(x[196:]) == [1.0, 0.0]


# -- inference ----------------------------------------------------------------------------------


def test_batched_outputs_match_one_at_a_time():
    network = Network.random(12, 0)
    positions = [(start_side(), start_side()), (side({1: 9, 2: 1}, 2), side({24: 1, 20: 7}))]
    on_roll, other = zip(*positions, strict=True)
    outputs = network.outputs(list(on_roll), list(other))
    assert outputs.shape == (2, 5)
    assert ((outputs > 0) & (outputs < 1)).all()
    for row, (mine, theirs) in enumerate(positions):
        assert network.pre_roll_equity(mine, theirs) == pytest.approx(equity(outputs[row]))
    hidden, _ = network.forward(encode(np.array(on_roll), np.array(other)))
    assert hidden.shape == (2, 12)


def test_flipping_negates_the_equity():
    outputs = Network.random(5, 1).outputs([start_side()], [side({1: 15})])[0]
    assert equity(flipped(outputs)) == pytest.approx(-equity(outputs))
    assert np.allclose(flipped(flipped(outputs)), outputs)


@pytest.mark.parametrize(
    ("loser", "points"),
    [
        (side({6: 14}), 1),  # one borne off: single
        (side({6: 15}), 2),  # gammon
        (side({6: 14, 19: 1}), 3),  # backgammon: one in the winner's home board
        (side({6: 14}, bar=1), 3),  # or on the bar
    ],
)
def test_a_finished_game_scores_its_outcome(loser, points):
    # the winner's last checker on its ace point; 2-1 bears it off, the afterstate is final
    network = Network.random(8, 2)
    play = network.best_play(side({1: 1}), loser, 2, 1)
    assert play == ((0, -1),)
    assert network.pre_roll_equity(loser, side({})) == -points
    assert network.pre_roll_equity(side({}), loser) == points
    assert list(network.outputs([loser], [side({})])[0]) == [0, 0, 0, points >= 2, points >= 3]
    assert network.pre_roll_chances(side({}), loser) == Chances(
        1.0, points >= 2, points >= 3, 0.0, 0.0
    )


def test_chances_are_consistent():
    network = Network.random(20, 5)
    network.b2[1:] += 3.0  # gammon and backgammon outputs far above the win chance
    chances = network.pre_roll_chances(start_side(), start_side())
    assert chances.win_backgammon == chances.win_gammon == chances.win
    assert chances.loss_backgammon == chances.loss_gammon == chances.loss


# -- TD(lambda) ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player", [0, 1])
def test_traces_are_the_gradients_of_the_first_players_outputs(player):
    network = Network.random(3, 4)
    x = inputs(side({6: 4, 8: 3, 13: 5, 24: 2}, bar=1), side({6: 5, 8: 3, 13: 5, 23: 1}))
    hidden, out = (row[0] for row in network.forward(x[None]))
    traces = training.Traces.zero(network)
    traces.add(network, x, hidden, out, 0.7, player)

    def seen(weights: Network) -> np.ndarray:
        return training.seen_by_first(weights.forward(x[None])[1][0], player)

    for name in WEIGHTS:
        weights = getattr(network, name)
        for index in np.ndindex(weights.shape):
            kept = weights[index]
            weights[index] = kept + 1e-6
            up = seen(network)
            weights[index] = kept - 1e-6
            down = seen(network)
            weights[index] = kept
            slope = traces.scale * getattr(traces, name)[(slice(None), *index)]
            assert np.allclose((up - down) / 2e-6, slope, atol=1e-8)


def train_a_little(seed: int) -> Network:
    network = Network.random(10, 3)
    training.train_games(network, seed, range(2), alpha=0.1, decay=0.7)
    return network


def test_self_play_is_deterministic_by_seed():
    first, again, other = train_a_little(5), train_a_little(5), train_a_little(6)
    fresh = Network.random(10, 3)
    for name in WEIGHTS:
        assert np.array_equal(getattr(first, name), getattr(again, name))
        assert not np.array_equal(getattr(first, name), getattr(fresh, name))
    assert not np.array_equal(first.w1, other.w1)


def test_save_and_load_round_trip(tmp_path):
    network = Network.random(6, 7)
    network.save(tmp_path / "weights.npz")
    loaded = Network.load(tmp_path / "weights.npz")
    for name in WEIGHTS:
        assert np.array_equal(getattr(loaded, name), getattr(network, name))


def test_a_resumed_run_is_the_uninterrupted_run(tmp_path):
    checkpoint = tmp_path / "run.npz"
    lines: list[str] = []
    whole = training.train(
        training.Run(Network.random(6, 1), 0, 9, 0.1, 0.7), 2, write=lines.append
    )
    half = training.Run(Network.random(6, 1), 0, 9, 0.1, 0.7)
    training.train(half, 1, out=checkpoint, write=lines.append)
    assert [line.split()[:2] for line in lines] == [["games", "2"], ["games", "1"]]
    resumed = training.Run.load(checkpoint)
    assert (resumed.games, resumed.seed, resumed.alpha, resumed.decay) == (1, 9, 0.1, 0.7)
    training.train(resumed, 1, out=checkpoint, write=lines.append)
    assert training.Run.load(checkpoint).games == 2
    for name in WEIGHTS:
        assert np.array_equal(getattr(resumed.network, name), getattr(whole.network, name))


def test_workers_changes_are_averaged():
    run = training.Run(Network.random(4, 2), 0, 3, 0.1, 0.7)
    training.train(run, 4, workers=2, sync=1, write=lambda line: None)
    # two rounds of two games, each from the weights the round before left
    expected = Network.random(4, 2)
    for games in (range(0, 2), range(2, 4)):
        base = expected.arrays()
        players = [Network.from_arrays(base) for _ in games]
        for network, game in zip(players, games, strict=True):
            training.train_games(network, 3, [game], 0.1, 0.7)
        expected = Network.from_arrays(
            {
                name: base[name] + sum(getattr(p, name) - base[name] for p in players) / 2
                for name in WEIGHTS
            }
        )
    for name in WEIGHTS:
        assert np.allclose(getattr(run.network, name), getattr(expected, name), atol=1e-12)


# -- the evaluation -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluation_games_follow_the_games_rules(seed):
    """The training's own game loop gives the benchmark's result (the `Backgammon` game
    with its pubeval player) on the same dice."""
    players = (training.pubeval_play, training.pubeval_play)
    assert training.play_game(players, seed) == benchmark_game(
        (pubeval_player, pubeval_player), seed
    )


def test_evaluation_pairs_share_the_dice():
    network = Network.random(4, 0)
    pairs = [training._evaluate_pair((network.arrays(), index)) for index in (0, 1)]
    first = training.play_game((network.best_play, training.pubeval_play), 1)
    second = training.play_game((training.pubeval_play, network.best_play), 1)
    assert pairs[1] == first - second
    mean, half = training.evaluate(network, 3, workers=1)  # rounded up to 2 pairs
    assert mean == sum(pairs) / 4
    assert half == pytest.approx(1.96 * abs(pairs[0] - pairs[1]) / 4)  # stdev / 2 / sqrt 2


def test_the_command_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        training.main(["--games", "5"])
    assert "--games needs --out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        training.main(["--resume", "no-such-checkpoint.npz", "--evaluate", "2"])
    assert "no checkpoint no-such-checkpoint.npz" in capsys.readouterr().err


def test_the_shipped_weights_load():
    network = Network.load(DEFAULT_WEIGHTS)
    assert network.contact and network.w1.shape == (INPUTS + FEATURES, network.hidden)
    assert -1 < network.pre_roll_equity(start_side(), start_side()) < 1


def test_training_imports_no_other_dependency():
    """scripts/train_td.py runs the training with numpy alone: no game but backgammon, no
    engine, no server."""
    code = (
        "import runpy, sys; runpy.run_path('scripts/train_td.py');"
        "import kibitz.games.backgammon.training;"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('kibitz', 'chess', 'grpc', 'google'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = set(result.stdout.split())
    assert loaded <= {
        "kibitz",
        "kibitz.games",
        "kibitz.games.backgammon",
        "kibitz.games.backgammon._kernel",
        "kibitz.games.backgammon.board",
        "kibitz.games.backgammon.compiled",
        "kibitz.games.backgammon.contact",
        "kibitz.games.backgammon.evaluation",
        "kibitz.games.backgammon.game",
        "kibitz.games.backgammon.notation",
        "kibitz.games.backgammon.network",
        "kibitz.games.backgammon.training",
        "kibitz.games.base",
        "kibitz.games.capabilities",
        "kibitz.games.csp",
        "kibitz.games.csp.model",
        "kibitz.games.presentation",
    }
    assert "kibitz.games.backgammon.training" in loaded


def test_the_kernels_games_are_the_references():
    if training.KERNEL is None:
        pytest.skip("the compiled kernel is not built (pure-Python install)")
    for hidden, seed, contact in ((6, 5, False), (80, 1, False), (7, 2, True)):
        python, compiled = (Network.random(hidden, seed, contact) for _ in range(2))
        for game in range(3):
            dice = training.game_dice(3, game)
            expected = training.self_play_game(python, dice, 0.1, 0.7)
            found = training.KERNEL.td_game(
                compiled, training.game_dice(3, game), 0.1, 0.7, training.MAX_TURNS
            )
            assert found == expected  # the same points after the same number of turns
        for name in WEIGHTS:
            assert np.allclose(getattr(compiled, name), getattr(python, name), rtol=0, atol=1e-13)
