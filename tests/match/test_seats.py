"""Matches with N seats as pure functions: seatings, places and results from returns, the
schedule of rotation sets, the tally and its table, with numbers worked out by hand."""

from __future__ import annotations

import math

import pytest

from kibitz.match import schedule
from kibitz.match.report import summary_text
from kibitz.match.seats import SeatTally, places, rank_points, result_text, seatings
from kibitz.match.spec import SpecError
from kibitz.match.stats import Z95, mean_interval, wilson


def test_rotations_put_every_engine_in_every_seat_once():
    assert seatings(3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert seatings(2) == [(0, 1), (1, 0)]  # a game pair
    four = seatings(4)
    assert all(sorted(game[seat] for game in four) == [0, 1, 2, 3] for seat in range(4))
    orders = seatings(3, "permutations")
    assert len(orders) == 6 == len(set(orders)) and orders[0] == (0, 1, 2)
    with pytest.raises(SpecError, match="--seating must be one of rotations, permutations"):
        seatings(3, "shuffled")


@pytest.mark.parametrize(
    ("returns", "expected_places", "result"),
    [
        ((2, -1, -1), [1, 2.5, 2.5], "1-0-0"),  # one winner (Chinese checkers' returns)
        ((-1, 2, -1), [2.5, 1, 2.5], "0-1-0"),
        ((3, 1, 2), [1, 3, 2], "1-0-0"),  # a ranking by points
        ((1, 1, -2), [1.5, 1.5, 3], "1/2-1/2-0"),
        ((0, 0, 0), [2, 2, 2], "1/3-1/3-1/3"),
        ((1, -1), [1, 2], "1-0"),  # two players: as PGN
        ((-1, 1), [2, 1], "0-1"),
        ((0, 0), [1.5, 1.5], "1/2-1/2"),
        ((2, -2), [1, 2], "1-0"),  # a backgammon gammon
    ],
)
def test_places_and_results_follow_the_returns(returns, expected_places, result):
    assert places(returns) == expected_places
    assert result_text(returns) == result


def test_rank_points_run_from_first_to_last():
    assert [rank_points(place, 3) for place in (1, 2, 2.5, 3)] == [1.0, 0.5, 0.25, 0.0]
    assert [rank_points(place, 2) for place in (1, 1.5, 2)] == [1.0, 0.5, 0.0]


def test_rotation_sets_share_their_opening_and_dice():
    tasks = schedule.build_seated(game="tictactoe", seats=3, rounds=2, random_plies=2, seed=5)
    assert [task.players for task in tasks] == seatings(3) * 2
    assert [(task.pair, task.pair_game) for task in tasks] == [
        (pair, game) for pair in (0, 1) for game in (0, 1, 2)
    ]
    assert [task.id for task in tasks] == list(range(6))
    first, second = tasks[:3], tasks[3:]
    for rotation_set in (first, second):
        assert len({(task.opening, task.dice_seed) for task in rotation_set}) == 1
    assert first[0].opening != second[0].opening and first[0].dice_seed != second[0].dice_seed
    # the same seed, the same schedule; --games cuts the last set short
    again = schedule.build_seated(game="tictactoe", seats=3, games=4, random_plies=2, seed=5)
    assert again == tasks[:4]
    orders = schedule.build_seated(game="tictactoe", seats=3, seating="permutations")
    assert [task.players for task in orders] == seatings(3, "permutations")


def test_the_seats_are_the_start_positions_players():
    assert schedule.seats_of("connect4") == 2


def test_wilson_and_mean_intervals():
    # 1 success in 3 and 10 in 10: the Wilson score interval's published values
    assert wilson(1, 3) == pytest.approx((0.06149, 0.79234), abs=5e-5)
    assert wilson(10, 10) == pytest.approx((0.72246, 1.0), abs=5e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    mean, low, high = mean_interval([1.0, 0.25, 0.5])
    half = Z95 * math.sqrt(7 / 72 / 3)  # variance 7/72 over 3 games
    assert (mean, low, high) == pytest.approx((7 / 12, 7 / 12 - half, 7 / 12 + half))


def record(players: tuple[int, ...], returns: tuple[float, ...], **extra) -> dict:
    return {"players": list(players), "returns": list(returns), "moves": [], **extra}


def test_a_tally_of_one_rotation_set():
    tally = SeatTally(["a", "b", "c"])
    tally.add(record((0, 1, 2), (2, -1, -1)))  # a wins
    moves = [{"player": 0, "latency": 0.004}, {"player": 2, "latency": 0.002}]
    tally.add(record((1, 2, 0), (-1, 2, -1), moves=moves))  # c (seat 2) wins
    tally.add(record((2, 0, 1), (0, 0, 0), forfeit_engine=None))  # level: a draw
    assert tally.games == 3
    assert tally.places == [[1, 2.5, 2], [2.5, 2.5, 2], [2.5, 1, 2]]
    a, c, b = tally.table()  # a and c level on score: the first named first
    assert [row["name"] for row in (a, c, b)] == ["a", "c", "b"]
    assert [row["rank"] for row in (a, c, b)] == [1, 2, 3]
    assert (a["games"], a["points"], a["wins"]) == (3, 1, 1)
    assert (b["points"], b["wins"], c["points"], c["wins"]) == (-2, 0, 1, 1)
    assert a["score"] == pytest.approx(7 / 12) and b["score"] == pytest.approx(1 / 3)
    assert a["mean_rank"] == pytest.approx(11 / 6) and b["mean_rank"] == pytest.approx(7 / 3)
    half = Z95 * math.sqrt(7 / 72 / 3)
    assert a["score_ci95"] == pytest.approx([7 / 12 - half, 7 / 12 + half])
    # mean rank = 3 - 2 score: its interval is the score's, mapped
    assert a["mean_rank_ci95"] == pytest.approx([11 / 6 - 2 * half, 11 / 6 + 2 * half])
    assert a["win_rate"] == pytest.approx(1 / 3)
    assert a["win_rate_ci95"] == pytest.approx([0.06149, 0.79234], abs=5e-5)
    # head to head: finished above, level, below
    assert a["results"] == {"b": "1-2-0", "c": "1-1-1"}
    assert b["results"] == {"a": "0-2-1", "c": "0-2-1"}
    assert c["results"] == {"a": "1-1-1", "b": "1-2-0"}
    # latencies by engine: seat 0 of the second game is b, seat 2 is a
    assert (b["latency_mean"], a["latency_mean"], c["latency_mean"]) == (0.004, 0.002, None)


def test_a_forfeit_counts_against_the_engine_that_forfeited():
    tally = SeatTally(["a", "b", "c"])
    tally.add(record((0, 1, 2), (1, -2, 1), forfeit_engine=1))
    a, c, b = tally.table()
    assert (b["forfeits"], a["forfeits"], b["mean_rank"], a["mean_rank"]) == (1, 0, 3, 1.5)
    assert a["wins"] == c["wins"] == 0  # first place shared: no outright win


def test_the_summary_text_of_an_n_seat_match():
    tally = SeatTally(["maxn", "paranoid", "brs"])
    tally.add(record((0, 1, 2), (2, -1, -1)))
    summary = {
        "game": "chinese-checkers",
        "seats": 3,
        "seating": "rotations",
        "games": 1,
        "table": tally.table(),
        "stopped": None,
    }
    lines = summary_text(summary).splitlines()
    assert lines[0] == "3 seats of chinese-checkers (rotations): 1 games"
    assert lines[2].split()[:8] == ["1", "maxn", "1", "2", "100.0%", "[100,", "100]", "1.00"]
    assert lines[2].endswith("1 100.0% [21, 100]        0      n/a  paranoid 1-0-0, brs 1-0-0")
    empty = SeatTally(["x", "y", "z"]).table()
    assert empty[0]["score"] is None and empty[0]["win_rate_ci95"] is None
    assert "n/a" in summary_text({**summary, "games": 0, "table": empty})
