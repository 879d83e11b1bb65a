"""Expectimax with backgammon's compiled kernel (option Kernel) against the pure-Python
search: the same best move, value, root moves, lines and node counts, on the opening rolls,
before the roll, on positions from seeded games and under every pruning setting."""

from __future__ import annotations

import random

import pytest

from kibitz.engines.alphabeta.table import TranspositionTable
from kibitz.engines.base import SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.expectimax.kernel import KernelNodeSearch, kernel_for
from kibitz.engines.expectimax.nodes import NodeSearch
from kibitz.engines.types import Limits
from kibitz.games.backgammon import Backgammon
from kibitz.games.backgammon.board import random_play
from kibitz.games.backgammon.notation import encode_position_id
from kibitz.games.tictactoe import TicTacToe

pytest.importorskip("kibitz.games.backgammon._kernel")

START = "4HPwATDgc/ABMA"
COUNTED = (
    "decision_nodes",
    "chance_nodes",
    "leaves",
    "star2_probes",
    "tt_hits",
    "tt_probes",
    "solved",
)


def side(points: dict[int, int], bar: int = 0) -> list[int]:
    """A side from {point (1-24, its own numbering): checkers}."""
    checkers = [0] * 25
    for point, count in points.items():
        checkers[point - 1] = count
    checkers[24] = bar
    return checkers


END = f"{encode_position_id(side({1: 1, 2: 1}), side({6: 3, 13: 12}))}:21"
"""Two checkers left: 2/off 1/off wins a gammon, 2/1 1/off does not end the game."""
SHUT_OUT = f"{encode_position_id(side({13: 14}, bar=1), side({p: 2 for p in range(1, 8)}))}:65"
"""On the bar against a closed board: the pass."""


FORMULA = {"Evaluation": "formula"}
"""The estimate compared exactly here (the network's sums differ in the last bits:
tests/engines/test_expectimax_network.py)."""


def answer(state: Backgammon, limits: Limits, engine: Expectimax | None = None, **options):
    """Everything a search answers but its timing: compared exactly, kernel on and off."""
    engine = engine or Expectimax({**FORMULA, **options})
    result = engine.search(state, limits, SearchContext())
    roots = [(root.move, root.score, root.pv, root.probability) for root in result.root_moves]
    counts = {name: result.stats[name] for name in COUNTED}
    return result.best_move, result.score, result.pv, result.nodes, result.depth, roots, counts


def positions(count: int, seed: int) -> list[str]:
    """`count` positions with their roll from seeded random games, some turns apart."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state = Backgammon.from_position(START)
        while not state.is_terminal() and len(found) < count:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            state.play((max(first, second), min(first, second)))
            if rng.random() < 0.15:
                found.append(state.position())
            me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
            state.play(random_play(me, opp, *state.dice, rng))
    return found


def test_a_decision_above_the_leaves_is_the_python_searchs():
    """`decide` against `NodeSearch.decision` at depth 1 (and over one move against Star2's
    `first_value`): value, best move, leaves and estimates, in several windows, with and
    without the table's move first; positions from play with player 0 and player 1 on roll,
    bear-offs that end the game, a pass."""
    texts = [*positions(12, seed=5), END, SHUT_OUT]
    windows = [(-3.0, 3.0), (-0.2, 0.0), (0.3, 0.4), (-1.0, -0.9)]
    kernel = kernel_for(Backgammon)
    compared = 0
    for text in texts:
        state = Backgammon.from_position(text)
        moves = state.legal_moves()
        for first in (None, moves[0], moves[-1], moves[len(moves) // 2]):
            for window in windows:
                reference = NodeSearch(state, TranspositionTable(0))
                value, move = reference.decision(state.on_roll, 1, *window, first)
                found = kernel.decide(state, *window, -3.0, 3.0, first)
                assert found == (value, move, reference.leaves, reference.estimates), text
                probe = NodeSearch(state, TranspositionTable(0))  # Star2's probe: one move
                value = probe.first_value(1, first, *window)
                value_1, _, leaves_1, estimates_1 = kernel.decide(
                    state, *window, -3.0, 3.0, first, 1
                )
                assert (value_1, leaves_1, estimates_1) == (value, 1, probe.estimates)
                compared += 1
    assert compared == 14 * 4 * 4
    # 7 of the 12 from play have player 1 on roll (a Match ID after the Position ID)
    assert sum(len(text.split(":")[1]) == 12 for text in texts) == 7
    gammon = kernel.decide(Backgammon.from_position(END), -3.0, 3.0, -3.0, 3.0, None)
    assert gammon == (2.0, ((1, -1), (0, -1)), 2, 1)  # a gammon won, one leaf estimated


def test_the_kernel_is_found_for_backgammon_only():
    assert kernel_for(Backgammon) is not None
    assert kernel_for(TicTacToe) is None


@pytest.mark.parametrize("roll", ["21", "43", "64", "66"])
def test_an_opening_roll_at_2_ply_is_answered_alike(roll):
    state = Backgammon.from_position(f"{START}:{roll}")
    engines = [Expectimax({**FORMULA, "Kernel": kernel}) for kernel in (True, False)]
    on, off = (answer(state, Limits(depth=2), engine) for engine in engines)
    assert on == off
    assert state.position() == f"{START}:{roll}"  # the state is left as it was
    # again with the table each engine kept: its answers (tt_hits among them) alike too
    again = [answer(state, Limits(depth=2), engine) for engine in engines]
    assert again[0] == again[1] and again[0][6]["tt_hits"] > 0


def test_before_the_roll_every_outcome_is_answered_alike():
    state = Backgammon.from_position(START)
    assert answer(state, Limits(depth=1)) == answer(state, Limits(depth=1), Kernel=False)


SETTINGS = [
    {},
    {"ExactRoot": False},
    {"Star2": False},
    {"Star1": False, "Hash": 0},
]


@pytest.mark.parametrize("options", SETTINGS)
def test_positions_from_play_are_answered_alike_under_every_setting(options):
    texts = positions(3, seed=3)
    assert len(set(texts)) == 3
    for text in texts:
        state = Backgammon.from_position(text)
        on = answer(state, Limits(depth=2), **options)
        assert on == answer(state, Limits(depth=2), Kernel=False, **options), text


def test_a_race_to_the_end_is_solved_alike():
    me, opp = [0] * 25, [0] * 25
    me[0], me[2], opp[1] = 1, 1, 1  # two checkers against one, the opponent on roll next
    state = Backgammon.from_position(f"{encode_position_id(me, opp)}:21")
    on = answer(state, Limits(depth=4))
    assert on == answer(state, Limits(depth=4), Kernel=False)
    assert on[0] == ((2, 0), (0, -1)) and on[6]["solved"] == 1.0


WINDOWS = [  # (alpha, beta), the value and counts the Python search found when written
    ((-0.2, 0.0), (-0.10902531852320166, 42, 470, 470, 21)),  # exact
    ((0.0, 0.5), (-0.020975470407628663, 21, 21, 21, 21)),  # Star2's probes decide it
    ((-3.0, -0.5), (-0.47694650993596144, 16, 234, 234, 0)),  # Star1 cuts after 16 rolls
]


@pytest.mark.parametrize(("window", "walk"), WINDOWS)
def test_the_kernel_node_search_walks_the_python_ones_tree(window, walk):
    """A chance node one decision above the leaves, in windows around its value, above it
    and below it: value, decision nodes, leaves, estimates, Star2 probes."""
    state = Backgammon.from_position(f"{START}:52")
    state.play(state.legal_moves()[3])  # the other player to roll: a chance node
    walks, tables = [], []
    for nodes in (
        NodeSearch(state, TranspositionTable(4096)),
        KernelNodeSearch(kernel_for(Backgammon), state, TranspositionTable(4096)),
    ):
        value = nodes.value(1, *window)
        stored = [tuple(entry) for entry in nodes.table.slots if entry is not None]
        walks.append((value, nodes.decision_nodes, nodes.leaves, nodes.estimates, nodes.probes))
        tables.append(sorted(stored))
    assert walks == [walk, walk]
    assert tables[0] == tables[1] and len(tables[0]) == walk[1] - walk[4] + 1
