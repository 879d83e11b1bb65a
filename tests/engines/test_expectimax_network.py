"""Expectimax's option Evaluation: backgammon's leaves valued by the TD network instead of
the formula. formula gives today's answers (pinned), network at depth 1 is the network's
own 1-ply player on seeded positions, the plays of a node above the leaves valued in one
batch as one at a time, the bear-off database still answers where both sides are home, a
changed option empties the table, a bad value is refused."""

from __future__ import annotations

import random

import pytest
from backgammon_positions import TAKE_ONE_OFF, side

from kibitz.engines.alphabeta.table import TranspositionTable
from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.expectimax.batched import BatchedNodeSearch
from kibitz.engines.expectimax.kernel import kernel_for
from kibitz.engines.expectimax.nodes import NodeSearch
from kibitz.engines.types import Limits
from kibitz.games.backgammon import Backgammon, bearoff, evaluation
from kibitz.games.backgammon.bearoff import BearoffDatabase
from kibitz.games.backgammon.network import Network, afterstates, equity, shipped_network
from kibitz.games.backgammon.notation import encode_position_id

OPENING_31 = "4HPwATDgc/ABMA:31"


CONTACT = f"{encode_position_id(side({6: 2, 5: 2, 20: 1}), side({6: 3, 4: 2, 22: 1}))}:21"
"""A small position in contact (9 plays; a 2-ply search of about 1,200 nodes)."""


def answer(position: str, limits: Limits, engine: Expectimax | None = None, **options):
    """Everything a search answers but its timing and speed."""
    engine = engine or Expectimax(options)
    state = Backgammon.from_position(position)
    result = engine.search(state, limits, SearchContext())
    assert state.network is None  # the searched copy held the network
    roots = [(root.move, root.score, root.pv) for root in result.root_moves]
    stats = {name: value for name, value in result.stats.items() if name != "nps"}
    return result.best_move, result.score, result.nodes, roots, stats


def seeded_positions(count: int, seed: int) -> list[str]:
    """`count` positions after a roll, from random games (seeded) in their first 30 turns,
    where each side has more than two checkers left (so that no afterstate is one whose
    equity the game knows exactly: every roll bearing the last checkers off)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state = Backgammon.from_position("")
        for _ in range(30):
            state.play(rng.choice(state.legal_moves()))
            if min(sum(state.sides[0]), sum(state.sides[1])) <= 2:
                break
            if len(state.legal_moves()) > 1 and rng.random() < 0.2:
                found.append(state.position())
            state.play(rng.choice(state.legal_moves()))
            if state.is_terminal():
                break
    return found[:count]


def test_formula_is_the_search_before_the_network():
    for kernel_on in (True, False):
        formula = answer(
            OPENING_31, Limits(depth=2), Kernel=kernel_on, Bearoff="off", Evaluation="formula"
        )
        best, score, nodes, _, stats = formula
        # the answer before the option existed (the same with the kernel on and off)
        assert best == ((7, 4), (5, 4)) and score.expected == 0.3073286185639671
        assert nodes == 7827 and stats["leaves"] == 7475


def test_the_default_auto_is_the_network():
    assert Expectimax.default_options()["Evaluation"] == "auto"
    assert Backgammon.strongest_estimate == "network"
    default = answer(CONTACT, Limits(depth=2), Bearoff="off")
    assert default == answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="network")
    assert default != answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="formula")


def test_network_at_depth_one_is_the_networks_own_player():
    network = shipped_network()
    engine = Expectimax({"Evaluation": "network", "Bearoff": "off"})
    positions = seeded_positions(12, seed=7)
    assert len(positions) == 12
    for position in positions:
        state = Backgammon.from_position(position)
        me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
        result = engine.search(state, Limits(depth=1), SearchContext())
        assert result.best_move == network.best_play(me, opp, *state.dice), position
        # every play's value: minus the opponent's equity by the network after it (one
        # position at a time there, batched here: the last bit may differ)
        plays = [root.move for root in result.root_moves]
        theirs, mine = afterstates(me, opp, plays)
        values = [-float(value) for value in equity(network.outputs(theirs, mine))]
        found = [root.score.expected for root in result.root_moves]
        assert found == pytest.approx(values, rel=0, abs=1e-12)
        assert result.stats["leaves"] == len(plays)


def test_network_changes_the_values_and_keeps_the_tree():
    formula = answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="formula", Kernel=False)
    network = answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="network")
    assert network[1].expected != formula[1].expected
    # the same plays and rolls searched: only the pruning, driven by the values, differs
    assert {move for move, _, _ in network[3]} == {move for move, _, _ in formula[3]}
    assert network[2] > 0 and network[4]["chance_nodes"] > 0
    python = answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="network", Kernel=False)
    assert_alike(network, python)


def assert_alike(compiled: tuple, python: tuple) -> None:
    """Two answers of one search, the network's values summed in C and in numpy: the same
    tree (moves, lines, nodes, every count), the values to the last bits."""
    best, score, nodes, roots, stats = compiled
    assert (best, nodes, stats) == (python[0], python[2], python[4])
    assert [(move, line) for move, _, line in roots] == [(m, line) for m, _, line in python[3]]
    values = [root_score.expected for _, root_score, _ in roots]
    assert values == pytest.approx([s.expected for _, s, _ in python[3]], rel=0, abs=1e-12)
    assert score.expected == pytest.approx(python[1].expected, rel=0, abs=1e-12)


@pytest.mark.parametrize("star2", [True, False])
def test_the_kernel_searches_with_the_network_as_python_does(star2):
    if kernel_for(Backgammon, "network") is None:
        pytest.skip("the compiled kernel is not built (pure-Python install)")
    for position in (OPENING_31, *seeded_positions(3, seed=5)):
        options = {"Bearoff": "off", "Evaluation": "network", "Star2": star2}
        compiled = answer(position, Limits(depth=2), Kernel=True, **options)
        python = answer(position, Limits(depth=2), Kernel=False, **options)
        assert_alike(compiled, python)


def test_the_game_takes_its_estimate_from_the_network_it_holds():
    network = shipped_network()
    state = Backgammon.from_position("4HPwATDgc/ABMA")
    state.network = network
    start = list(state.sides[0])
    assert state.expected_return(0) == network.pre_roll_equity(start, start)
    assert state.expected_return(1) == -network.pre_roll_equity(start, start)
    assert state.outcome_chances(0) == network.pre_roll_chances(start, start)
    assert state.clone().network is network
    state.network = None
    assert state.expected_return(0) == evaluation.pre_roll_equity(start, start)


def test_a_batch_of_leaves_is_valued_as_one_leaf_at_a_time():
    network = Network.random(80, seed=3)  # fixed here: the shipped weights are retrained
    for position in (CONTACT, OPENING_31, *seeded_positions(4, seed=11)):
        state = Backgammon.from_position(position)
        state.network = network
        moves = state.legal_moves()
        values, estimated = state.values_after(moves)
        for move, value, estimate in zip(moves, values, estimated, strict=True):
            state.play(move)
            single = state.returns()[0] if state.is_terminal() else state.expected_return(0)
            assert estimate is not state.is_terminal()
            state.undo()
            assert value == pytest.approx(single, rel=0, abs=1e-12)
    # a search two decisions deep (Star1/Star2 cuts below): the same nodes, leaves,
    # estimates and value
    state = Backgammon.from_position(CONTACT)
    state.network = network
    one, batched = (kind(state, TranspositionTable(0)) for kind in (NodeSearch, BatchedNodeSearch))
    assert batched.value(2, -3.0, 3.0) == pytest.approx(one.value(2, -3.0, 3.0), abs=1e-12)
    counts = [(search.nodes, search.leaves, search.estimates) for search in (one, batched)]
    assert counts == [(963, 690, 690)] * 2
    assert state.position() == CONTACT and batched.batch is None


@pytest.fixture
def cached(tmp_path, monkeypatch) -> BearoffDatabase:
    """A database of 4 checkers a side, where `cached_database` finds it."""
    BearoffDatabase.build(4).save(bearoff.database_path(4, tmp_path))
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(tmp_path))
    bearoff.cached_database.cache_clear()
    yield bearoff.cached_database()
    bearoff.cached_database.cache_clear()


def test_the_database_answers_before_the_network(cached):
    # every afterstate of TAKE_ONE_OFF has both sides home: the database values them all
    with_network = answer(TAKE_ONE_OFF, Limits(depth=2), Bearoff="on", Evaluation="network")
    with_formula = answer(TAKE_ONE_OFF, Limits(depth=2), Bearoff="on", Kernel=False)
    assert with_network == with_formula
    state = Backgammon.from_position(TAKE_ONE_OFF)
    assert state.format_move(with_network[0]) == "6/off"


def test_a_changed_option_empties_the_table():
    engine = Expectimax({"Bearoff": "off", "Evaluation": "formula"})
    formula = answer(CONTACT, Limits(depth=2), engine)
    engine.set_options({"Evaluation": "network"})
    fresh = answer(CONTACT, Limits(depth=2), Bearoff="off", Evaluation="network")
    assert answer(CONTACT, Limits(depth=2), engine) == fresh
    engine.set_options({"Evaluation": "formula"})
    assert answer(CONTACT, Limits(depth=2), engine) == formula


def test_a_bad_value_is_refused():
    with pytest.raises(OptionError, match="Evaluation"):
        Expectimax({"Evaluation": "neural"})
