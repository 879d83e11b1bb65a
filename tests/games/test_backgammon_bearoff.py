"""The one-sided bear-off database: exact small cases worked by hand, its rows, its command,
and the estimate that uses it."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from kibitz.games.backgammon import Backgammon, bearoff, evaluation
from kibitz.games.backgammon.bearoff import BearoffDatabase


@pytest.fixture(scope="module")
def three() -> BearoffDatabase:
    return BearoffDatabase.build(3)


@pytest.fixture(scope="module")
def two() -> BearoffDatabase:
    return BearoffDatabase.build(2)


def point(number: int, checkers: int = 1) -> tuple[int, ...]:
    """`checkers` checkers on the home point `number` (1 = the ace point)."""
    home = [0] * 6
    home[number - 1] = checkers
    return tuple(home)


def test_counts_and_order():
    assert bearoff.position_count(15) == 54264
    positions = bearoff.all_positions(3)
    assert len(positions) == bearoff.position_count(3) == 84
    assert positions[0] == (0,) * 6
    for row, home in enumerate(positions):  # every roll leads to an earlier row
        for high, low, _ in bearoff.ROLLS:
            after_rows = [
                bearoff.position_index(after, 3) for after in bearoff.roll_moves(home, high, low)
            ]
            assert all(after < row for after in after_rows) or row == 0


def test_roll_probabilities_sum_to_one():
    assert sum(Fraction(1 if high == low else 2, 36) for high, low, _ in bearoff.ROLLS) == 1


@pytest.mark.parametrize(
    "number, mean",
    [(1, 1), (2, 1), (3, 1), (4, 1 + 2 / 36), (5, 1 + 5 / 36), (6, 1 + 9 / 36)],
)
def test_one_checker(three, number, mean):
    # e.g. from the six point, 1-2, 1-3, 1-4, 2-3 and 1-1 (9 rolls in 36) leave it on
    # the board, from where any roll takes it off
    assert three.mean_rolls(point(number)) == pytest.approx(mean)


def test_distributions(three):
    assert three.rolls(point(6))[:3] == pytest.approx([0, 0.75, 0.25])
    assert three.mean_rolls(point(1, 3)) == pytest.approx(1 + 30 / 36)  # doubles only in one
    np.testing.assert_allclose(three.off.sum(axis=1), 1.0)
    np.testing.assert_allclose(three.first.sum(axis=1), 1.0)


def test_race(three, two):
    win, win_gammon, lose_gammon = three.race_probabilities(point(6), point(1))
    assert (win, win_gammon, lose_gammon) == pytest.approx((0.75, 0, 0))
    # two checkers on the six point, all the side has (2-checker database): both off at
    # once with 3-3 or higher doubles; the first off on the first roll with a 6 (11 rolls),
    # 5-1, 4-2 (4) or 2-2 to 5-5 (4), 19 in 36: with 4-3 or 5-2 the checker moved down
    # cannot bear off past the one left on the six point
    win, win_gammon, lose_gammon = two.race_probabilities(point(6, 2), point(1))
    assert (win, lose_gammon) == pytest.approx((4 / 36, 17 / 36))
    assert win_gammon == 0  # the other side has a checker off already
    win, win_gammon, lose_gammon = two.race_probabilities(point(1), point(6, 2))
    assert (win, win_gammon, lose_gammon) == pytest.approx((1, 1, 0))


def test_outside_the_database(three):
    with pytest.raises(KeyError):
        three.rolls(point(6, 4))


def test_build_command_and_cache(tmp_path, monkeypatch):
    command = [sys.executable, "-m", "kibitz.games.backgammon.bearoff", "build"]
    built = subprocess.run(
        [*command, "--checkers", "3", "--dir", str(tmp_path)], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    assert "84 positions of up to 3 checkers" in built.stdout
    path = tmp_path / "bearoff-3.npz"
    assert BearoffDatabase.load(path).mean_rolls(point(6)) == pytest.approx(1.25)
    again = subprocess.run(
        [*command, "--checkers", "3", "--dir", str(tmp_path)], capture_output=True, text=True
    )
    assert again.stdout.strip() == f"{path} (cached)"
    bad = subprocess.run([*command, "--checkers", "16"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--checkers" in bad.stderr

    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(tmp_path))
    bearoff.cached_database.cache_clear()
    assert bearoff.cached_database(3).checkers == 3
    with pytest.raises(FileNotFoundError, match=re.escape(bearoff.BUILD_COMMAND)):
        bearoff.cached_database(2)
    bearoff.cached_database.cache_clear()


def board(home: tuple[int, ...], outside: dict[int, int] | None = None) -> list[int]:
    """A side of a game (25 counts) with `home` on its home points and `outside` ({index:
    checkers}) elsewhere."""
    side = [*home, *[0] * 19]
    for index, count in (outside or {}).items():
        side[index] = count
    return side


def test_rows_by_rank_the_same_in_every_size(three):
    assert [bearoff.position_index(point(number)) for number in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert bearoff.position_index(point(1, 15)) == bearoff.position_count(14)
    assert bearoff.position_index(point(6, 15)) == bearoff.position_count(15) - 1
    four = BearoffDatabase.build(4)
    np.testing.assert_array_equal(four.off[: len(three.off)], three.off)
    assert four.first_row[bearoff.position_index(point(6, 4))] >= 0
    assert four.first_row[bearoff.position_index(point(6, 3))] == -1


def test_race_chances_of_a_game(three):
    mover, other = point(6, 3), point(1)
    # in a game, three checkers left means twelve are off: no gammon either way
    assert three.race_chances(board(mover), board(other)) == pytest.approx(
        (three.race_probabilities(mover, other)[0], 0, 0)
    )
    assert three.race_probabilities(mover, other)[2] > 0  # the database's own 3-checker side
    assert three.race_chances(board(point(6, 4)), board(other)) is None  # too many
    assert three.race_chances(board(mover), board((1, 0, 0, 0, 0, 0), {6: 1})) is None
    assert three.race_chances(board(mover), board((0,) * 6, {24: 1})) is None  # the bar


def test_the_estimate_with_a_database(three):
    mover, other = board(point(6, 2)), board((1, 1, 0, 0, 0, 0))
    win, _, _ = three.race_chances(mover, other)
    assert evaluation.pre_roll_equity(mover, other, three) == 2 * win - 1
    assert evaluation.pre_roll_equity(mover, other, three) != evaluation.pre_roll_equity(
        mover, other
    )
    chances = evaluation.pre_roll_chances(mover, other, three)
    assert (chances.win, chances.win_gammon, chances.loss_gammon) == (win, 0, 0)
    contact = board(point(6, 2)), board((1, 0, 0, 0, 0, 0), {20: 1})
    assert evaluation.pre_roll_equity(*contact, three) == evaluation.pre_roll_equity(*contact)
    game = Backgammon()
    game.sides = [mover, other]
    game.bearoff = three
    assert game.expected_return(1) == -(2 * win - 1)
    assert game.clone().bearoff is three


def test_a_file_of_the_earlier_layout_is_rebuilt(tmp_path):
    path = bearoff.database_path(2, tmp_path)
    built = BearoffDatabase.build(2)
    np.savez_compressed(path, checkers=np.int32(2), off=built.off, first=built.first)
    with pytest.raises(FileNotFoundError, match="--force"):
        BearoffDatabase.load(path)
    assert bearoff.main(["build", "--checkers", "2", "--dir", str(tmp_path)]) == 0
    np.testing.assert_array_equal(BearoffDatabase.load(path).off, built.off.astype(np.float32))


def test_the_largest_database_built_is_the_cached_one(tmp_path, monkeypatch):
    for checkers in (2, 3):
        BearoffDatabase.build(checkers).save(bearoff.database_path(checkers, tmp_path))
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(tmp_path))
    bearoff.cached_database.cache_clear()
    assert bearoff.cached_database().checkers == 3
    assert bearoff.cached_database(2).checkers == 2
    bearoff.cached_database.cache_clear()
