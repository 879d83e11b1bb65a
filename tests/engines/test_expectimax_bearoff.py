"""Expectimax's option Bearoff: backgammon's estimate from the one-sided bear-off database
where both sides are home. A known play the race curves get wrong, the option off giving
today's answers, on refused without a database, the kernel's answers the Python search's
with it on. The databases here are small (4 checkers a side, built in a second) or, for the
gammon sums of a side of 15, made of random distributions."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from backgammon_positions import TAKE_ONE_OFF, side

from kibitz.engines.base import OptionUnavailable, SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.types import Limits
from kibitz.games.backgammon import Backgammon, bearoff, evaluation
from kibitz.games.backgammon.bearoff import BearoffDatabase
from kibitz.games.backgammon.board import pips
from kibitz.games.backgammon.notation import encode_position_id

kernel = pytest.importorskip("kibitz.games.backgammon._kernel")

SMALL = 4
"""Checkers a side of the test's database."""
FORMULA = {"Evaluation": "formula"}
"""The estimate whose race curves the database replaces."""


@pytest.fixture(scope="module")
def database_dir(tmp_path_factory) -> object:
    directory = tmp_path_factory.mktemp("bearoff")
    BearoffDatabase.build(SMALL).save(bearoff.database_path(SMALL, directory))
    return directory


@pytest.fixture
def cached(database_dir, monkeypatch) -> BearoffDatabase:
    """The small database, where `cached_database` finds it."""
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(database_dir))
    bearoff.cached_database.cache_clear()
    yield bearoff.cached_database()
    bearoff.cached_database.cache_clear()


@pytest.fixture
def uncached(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(tmp_path))
    bearoff.cached_database.cache_clear()
    yield
    bearoff.cached_database.cache_clear()


def answer(position: str, limits: Limits, **options):
    """Everything a search answers but its timing and speed."""
    state = Backgammon.from_position(position)
    result = Expectimax({**FORMULA, **options}).search(state, limits, SearchContext())
    assert state.bearoff is None  # the searched copy held the database
    roots = [(root.move, root.score, root.pv) for root in result.root_moves]
    stats = {name: value for name, value in result.stats.items() if name != "nps"}
    return result.best_move, result.score, result.nodes, roots, stats


def best_play(position: str, **options) -> str:
    state = Backgammon.from_position(position)
    result = Expectimax({**FORMULA, **options}).search(state, Limits(depth=1), SearchContext())
    return state.format_move(result.best_move)


def test_the_database_takes_a_checker_off_where_the_race_curves_do_not(cached):
    assert cached.checkers == SMALL
    for kernel_on in (True, False):
        assert best_play(TAKE_ONE_OFF, Bearoff="off", Kernel=kernel_on) == "6/1 4/2"
        assert best_play(TAKE_ONE_OFF, Bearoff="on", Kernel=kernel_on) == "6/off"
        assert best_play(TAKE_ONE_OFF, Bearoff="auto", Kernel=kernel_on) == "6/off"
    two_on_four, three_left = (0, 0, 0, 2, 0, 0), (1, 1, 0, 1, 0, 0)
    assert cached.rolls(two_on_four)[1] == pytest.approx(float(Fraction(11, 36)))
    assert cached.rolls(three_left)[1] == pytest.approx(float(Fraction(5, 36)))
    # the value of 6/off: minus the opponent's equity by the database after it
    state = Backgammon.from_position(TAKE_ONE_OFF)
    result = Expectimax({**FORMULA, "Bearoff": "on"}).search(
        state, Limits(depth=1), SearchContext()
    )
    after = side({4: 2})
    expected = -evaluation.pre_roll_equity(side({3: 1, 2: 1, 1: 2}), after, cached)
    assert result.score.expected == expected
    win, gammon, lose_gammon = cached.race_probabilities((2, 1, 1, 0, 0, 0), two_on_four)
    assert (gammon, lose_gammon) == (0, 0)  # no gammons with checkers off
    assert expected == pytest.approx(1 - 2 * win)


def test_off_answers_as_without_a_database(cached, tmp_path, monkeypatch):
    offs = {}
    for kernel_on in (True, False):
        offs[kernel_on] = answer(TAKE_ONE_OFF, Limits(depth=2), Kernel=kernel_on, Bearoff="off")
        on = answer(TAKE_ONE_OFF, Limits(depth=2), Kernel=kernel_on, Bearoff="on")
        assert offs[kernel_on][0] != on[0] and offs[kernel_on][2] == on[2]
    assert offs[True] == offs[False]
    holding = Backgammon.from_position(TAKE_ONE_OFF)
    holding.bearoff = cached  # a position that carries a database is searched without it
    result = Expectimax({**FORMULA, "Bearoff": "off"}).search(
        holding, Limits(depth=1), SearchContext()
    )
    assert holding.format_move(result.best_move) == "6/1 4/2" and holding.bearoff is cached
    # the 1-ply value of the curves' play: minus the opponent's equity by the curves
    state = Backgammon.from_position(TAKE_ONE_OFF)
    result = Expectimax({**FORMULA, "Bearoff": "off"}).search(
        state, Limits(depth=1), SearchContext()
    )
    expected = -evaluation.pre_roll_equity(side({3: 1, 2: 1, 1: 2}), side({4: 1, 2: 1, 1: 1}))
    assert result.score.expected == expected
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(tmp_path))  # no database: auto is today's
    bearoff.cached_database.cache_clear()
    for kernel_on in (True, False):
        assert answer(TAKE_ONE_OFF, Limits(depth=2), Kernel=kernel_on) == offs[kernel_on]


def test_on_without_a_database_is_refused_with_the_command(uncached):
    state = Backgammon.from_position(TAKE_ONE_OFF)
    with pytest.raises(OptionUnavailable, match=r"Bearoff: no bear-off database .* build it"):
        Expectimax.check_options_at(state, {"Bearoff": "on"})
    with pytest.raises(OptionUnavailable, match=bearoff.BUILD_COMMAND):
        Expectimax({**FORMULA, "Bearoff": "on"}).search(state, Limits(depth=1), SearchContext())
    Expectimax.check_options_at(state, {"Bearoff": "auto"})  # auto: the race curves
    assert best_play(TAKE_ONE_OFF, Bearoff="auto") == "6/1 4/2"


def race_positions(count: int, seed: int, most: int) -> list[str]:
    """`count` positions after a roll with both sides home, up to `most` checkers a side."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        sides = []
        for _ in range(2):
            checkers = [0] * 25
            for _ in range(rng.randint(1, most)):
                checkers[rng.randrange(6)] += 1
            sides.append(checkers)
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        found.append(f"{encode_position_id(*sides)}:{max(first, second)}{min(first, second)}")
    return found


@pytest.mark.parametrize("star2", [True, False])
def test_the_kernel_answers_as_the_python_search_with_it_on(cached, star2):
    # up to 6 checkers: positions the database holds and, past 4, some it does not
    texts = race_positions(5, seed=5, most=6)
    changed = 0
    for text in [*texts, texts[0].split(":")[0]]:  # a chance root too
        on = answer(text, Limits(depth=2), Bearoff="on", Star2=star2)
        assert on == answer(text, Limits(depth=2), Bearoff="on", Star2=star2, Kernel=False)
        changed += on[1] != answer(text, Limits(depth=2), Bearoff="off", Star2=star2)[1]
    assert changed >= 3


def test_the_kernel_sums_a_side_of_15_as_python_does():
    """Gammons: a database of 15 checkers made of random distributions (the sums' order
    and the rows, not the figures, are what is compared)."""
    rng = np.random.default_rng(7)
    rows = bearoff.position_count(15)
    full = bearoff.position_count(15) - bearoff.position_count(14)
    off = rng.random((rows, bearoff.MAX_ROLLS))
    first = rng.random((full, bearoff.MAX_ROLLS))
    off /= off.sum(axis=1, keepdims=True)
    first /= first.sum(axis=1, keepdims=True)
    first_row = np.full(rows, -1, dtype=np.int32)
    first_row[rows - full :] = np.arange(full, dtype=np.int32)
    database = BearoffDatabase(15, off, first, first_row)
    picker = random.Random(9)
    checked = gammons = 0
    for _ in range(400):
        sides = []
        for _ in range(2):
            checkers = [0] * 25
            for _ in range(15 if picker.random() < 0.5 else picker.randint(1, 15)):
                checkers[picker.randrange(6)] += 1
            sides.append(checkers)
        python = evaluation.pre_roll_equity(*sides, database)
        assert kernel.pre_roll_equity(*sides, database) == python, sides
        chances = database.race_chances(*sides)
        assert chances is not None
        win, win_gammon, lose_gammon = chances
        if pips(sides[0]) > 3 or sum(sides[0]) > 2:  # not a sure last roll
            assert python == 2 * win - 1 + win_gammon - lose_gammon
            checked += 1
        gammons += sum(sides[1]) == 15 or sum(sides[0]) == 15
    assert checked > 350 and gammons > 200
