"""The benchmark of three players and more (benchmarks/multiplayer.py): its --quick run, the
scoring of its tables, its seeded positions and its move for move translation to OpenSpiel's
Chinese checkers (skipped where pyspiel is missing)."""

from __future__ import annotations

import importlib.util

import pytest

from benchmarks import multiplayer
from kibitz.engines import Limits

needs_pyspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel is missing"
)


def test_a_standing_scores_places_as_the_match_runner_does():
    standing = multiplayer.Standing([], [], [])
    for place, seconds, depths in ((1, [0.01], [2]), (2, [0.03], [3]), (3, [], []), (1, [], [])):
        standing.add(place, seconds, depths)
    assert standing.score() == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    # games, rank points with their interval, mean place, wins 2 of 4, 20 ms, depth 2.5
    assert standing.row("maxn", 3).split() == [
        "maxn", "4", "0.625", "0.219-1.031", "1.75", "0.94-2.56", "2", "50.0%",
        "15.0%-85.0%", "20.0", "2.50",
    ]  # fmt: skip
    level = multiplayer.Standing([], [], [])
    level.add(2.0, [], [])  # a game without a winner: everyone level, place 2
    assert level.row("mcts", 3).split()[1:8] == ["1", "0.500", "0.500-0.500", "2.00",
                                                 "2.00-2.00", "0", "0.0%"]  # fmt: skip


def test_the_sampled_positions_are_seeded_and_two_turns_per_player_in():
    sampled = multiplayer.sample_positions(4, 2)
    assert sampled[0] == "4"
    assert sampled[1:] == multiplayer.sample_positions(4, 2)[1:]
    assert len(set(sampled)) == 3
    assert all(position.endswith(" 1 8") for position in sampled[1:])  # player 1, 8 turns


def test_a_capped_game_is_level_and_times_every_move():
    task = multiplayer.Task(("maxn", "paranoid", "brs"), Limits(nodes=200), 0, 1, turn_cap=4)
    record = multiplayer.play_game(task)
    assert record["returns"] == [0.0, 0.0, 0.0]
    assert record["turns"] == 4
    assert [len(seconds) for seconds in record["latency"]] == [2, 1, 1]
    assert all(depth >= 1 for depths in record["depths"] for depth in depths)


def test_the_quick_run_prints_its_three_tables(capsys):
    multiplayer.run(quick=True)
    lines = capsys.readouterr().out.splitlines()
    depth_rows = lines[2:6]
    assert [row[:27].split() for row in depth_rows] == [
        ["3", "maxn"],
        ["maxn,", "no", "pruning"],
        ["paranoid"],
        ["brs"],
    ]
    assert [float(row[27:39]) for row in depth_rows] == [2, 2, 2, 2]  # at 300 nodes
    start = next(i for i, line in enumerate(lines) if line.startswith("Round robin"))
    overall = [line.split() for line in lines[start + 2 : start + 6]]
    # games stopped after 6 turns are level: every engine 18 games (3 threes x 6 orders), 1/2
    assert sorted(row[0] for row in overall) == sorted(multiplayer.ROUND_ROBIN)
    assert {tuple(row[1:8]) for row in overall} == {
        ("18", "0.500", "0.500-0.500", "2.00", "2.00-2.00", "0", "0.0%")
    }
    assert "24 games (6 per three)" in lines[start]
    if importlib.util.find_spec("pyspiel") is not None:
        match = next(i for i, line in enumerate(lines) if line.startswith("kibitz mcts"))
        assert [line.split()[:2] for line in lines[match + 2 : match + 4]] == [
            ["mcts", "9"],
            ["openspiel", "9"],
        ]


@needs_pyspiel
def test_openspiel_follows_the_kibitz_game_move_for_move():
    assert multiplayer.check_translation(players=3, turns=60, seed=3) == 60
    assert multiplayer.check_translation(players=6, turns=30, seed=5) == 30
    task = multiplayer.Task(("openspiel", "mcts", "openspiel"), Limits(nodes=8), 0, 2, 5)
    record = multiplayer.play_openspiel(task)
    assert record["returns"] == [0.0, 0.0, 0.0] and record["turns"] == 5
    assert [len(seconds) for seconds in record["latency"]] == [2, 2, 1]
