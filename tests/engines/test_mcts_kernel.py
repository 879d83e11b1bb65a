"""The compiled tree walk of `mcts` (kernels/_walk.pyx) against the Python search, its
reference: with the same seed, the same tree node for node (visits, returns, proofs, RAVE's
entries, untried moves in order), so the same root moves, best move and simulation count;
across tree reuse, a full tree, a restricted root; and the searches it does not repeat stay
in Python."""

from __future__ import annotations

import random

import pytest
from testdata import connect4_positions

from kibitz.engines.base import SearchContext
from kibitz.engines.mcts import MCTS, kernels
from kibitz.engines.mcts.tree import Node
from kibitz.engines.types import Info, Limits, StopReason
from kibitz.games import Game
from kibitz.games.connect4 import ConnectFour
from kibitz.games.hex import Hex

pytestmark = pytest.mark.skipif(kernels.Walk is None, reason="the kernels were not built")


def tree(node) -> tuple:
    """Everything a node holds that a search reads or reports, its subtree included."""
    return (
        node.move,
        node.mover,
        node.player,
        node.visits,
        node.total,
        node.wins,
        node.draws,
        node.pessimistic,
        node.optimistic,
        node.plies,
        node.prior,
        node.untried,
        node.amaf,
        [tree(child) for child in node.children],
    )


def search(state: Game, limits: Limits, engine: MCTS):
    result = engine.search(state, limits, SearchContext())
    return result, engine._previous[1] if engine._previous else None


def both(state: Game, limits: Limits, **options):
    """The search with the compiled walk and without: (result, root) each."""
    compiled = search(state, limits, MCTS({"Seed": 5, **options}))
    python = search(state, limits, MCTS({"Seed": 5, "Kernel": False, **options}))
    return compiled, python


def assert_same(compiled, python) -> None:
    (result, root), (reference, reference_root) = compiled, python
    assert type(root).__name__ == "KernelNode" and type(reference_root) is Node
    assert result.nodes == reference.nodes and result.best_move == reference.best_move
    assert result.stop_reason == reference.stop_reason and result.pv == reference.pv
    assert [(line.move, line.score, line.pv) for line in result.root_moves] == [
        (line.move, line.score, line.pv) for line in reference.root_moves
    ]
    assert result.stats == reference.stats
    assert result.depth == reference.depth and result.seldepth == reference.seldepth
    assert tree(root) == tree(reference_root)


def hex_after(size: int, moves: int, seed: int) -> Hex:
    """A Hex position `moves` seeded random moves into the game (not over)."""
    state = Hex.from_position(str(size))
    rng = random.Random(seed)
    for _ in range(moves):
        state.play(rng.choice(state.legal_moves()))
    assert not state.is_terminal()
    return state


OPTIONS = {
    "defaults": {},
    "rave": {"RAVE": "on"},
    "no-solver": {"Solver": False},
    "no-hooks": {"GameHooks": False},
    "fpu0-rave": {"FPU": 0, "RAVE": "on", "RAVEEquivalence": 50, "Exploration": 40},
}


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("moves", ["", "4453", "44444432", "32164625", "444333"])
def test_connect_four_searches_node_for_node(moves, options):
    state = ConnectFour.from_position(moves)
    compiled, python = both(state, Limits(nodes=1500), **options)
    assert_same(compiled, python)
    assert compiled[0].nodes == 1500


@pytest.mark.parametrize("line", connect4_positions("Test_L3_R1")[:4], ids=str)
def test_connect_four_endgames_are_proven_alike(line):
    compiled, python = both(ConnectFour.from_position(line[0]), Limits(nodes=50_000))
    assert compiled[0].stop_reason == StopReason.SOLVED
    assert_same(compiled, python)


HEX = {
    "5": lambda: Hex.from_position("5"),
    "7-midgame": lambda: hex_after(7, 12, 3),
    "9-late": lambda: hex_after(9, 40, 8),
    "3x3": lambda: Hex.from_position("b2/1w1/3 b"),
}


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("position", HEX.values(), ids=HEX.keys())
def test_hex_searches_node_for_node(position, options):
    compiled, python = both(position(), Limits(nodes=800), **options)
    assert_same(compiled, python)


@pytest.mark.parametrize("position", HEX.values(), ids=HEX.keys())
def test_hex_searches_with_uniform_playouts_node_for_node(position):
    """Patterns off: the fill-at-once playouts, as before the bridge playouts."""
    compiled, python = both(position(), Limits(nodes=800), Patterns=False)
    assert_same(compiled, python)


def test_the_bridge_playouts_reach_the_walk():
    """From a position with a last move (a bridge intrusion or not), the compiled walk with
    Patterns on and off grow different trees, each the Python search's."""
    state = hex_after(7, 12, 3)
    on, off = (both(state, Limits(nodes=400), Patterns=patterns) for patterns in (True, False))
    assert_same(*on)
    assert_same(*off)
    assert tree(on[0][1]) != tree(off[0][1])


@pytest.mark.parametrize("rave", ["on", "off"])
def test_hex_11x11_node_for_node(rave):
    compiled, python = both(Hex.from_position("11"), Limits(nodes=600), RAVE=rave)
    assert_same(compiled, python)
    assert compiled[0].nodes == 600 and (compiled[1].amaf is not None) == (rave == "on")


@pytest.mark.parametrize(
    ("game", "moves"),
    [(ConnectFour, ["", "4", "3", "4"]), (Hex, ["5", "c3", "b4"])],
    ids=["connect4", "hex"],
)
def test_tree_reuse_between_moves_is_the_same(game, moves):
    state = game.from_position(moves[0])
    engines = MCTS({"Seed": 2}), MCTS({"Seed": 2, "Kernel": False})
    for move in [*moves[1:], None]:
        compiled, python = (search(state, Limits(nodes=700), engine) for engine in engines)
        assert_same(compiled, python)
        if move is not None:
            state.play(state.parse_move(move))
    assert compiled[0].stats["reused_visits"] > 0


def test_a_full_tree_and_a_restricted_root_are_the_same():
    state = ConnectFour.from_position("")
    compiled, python = both(state, Limits(nodes=4000), TreeMemory=1, RAVE="on")
    assert compiled[0].stats["tree_full"] == 1.0
    assert_same(compiled, python)
    compiled, python = both(state, Limits(nodes=600, search_moves=[1, 3, 5]))
    assert {line.move for line in compiled[0].root_moves} == {1, 3, 5}
    assert compiled[0].best_move in (1, 3, 5) and compiled[1] is None is python[1]
    assert compiled[0].root_moves == python[0].root_moves


class StopAfter:
    """A stop signal raised at its `polls`-th poll."""

    def __init__(self, polls: int) -> None:
        self.polls = polls

    def is_set(self) -> bool:
        self.polls -= 1
        return self.polls < 0


def test_infos_stop_and_depth_limit_work_with_the_compiled_walk():
    state = Hex.from_position("7")
    infos: list[Info] = []
    engine = MCTS({"Seed": 1})
    context = SearchContext(report=infos.append, stop=StopAfter(30))
    result = engine.search(state, Limits(infinite=True), context)
    assert type(engine._previous[1]).__name__ == "KernelNode"
    assert result.stop_reason == StopReason.STOPPED and result.nodes > 0
    assert infos and infos[-1].nodes == result.nodes and infos[-1].root_moves
    assert result.best_move == max(result.root_moves, key=lambda r: r.score.visits).move
    deep = MCTS({"Seed": 1}).search(ConnectFour(), Limits(depth=3), SearchContext())
    assert deep.stop_reason == StopReason.DEPTH and deep.depth == 3


@pytest.mark.parametrize(
    ("position", "options"),
    [
        ("7 swap", {}),
        ("7", {"Kernel": False}),
        ("7", {"Policy": "puct"}),
        ("7", {"Evaluation": "heuristic"}),
    ],
)
def test_searches_the_walk_does_not_repeat_stay_in_python(position, options):
    engine = MCTS({"Seed": 1, **options})
    result, root = search(Hex.from_position(position), Limits(nodes=200), engine)
    assert type(root) is Node and result.nodes == 200


def test_a_tree_of_one_kind_is_not_reused_by_a_search_of_the_other():
    state = ConnectFour.from_position("44")
    for first, second in ((True, False), (False, True)):
        previous = MCTS({"Kernel": first})
        previous.search(state, Limits(nodes=300), SearchContext())
        engine = MCTS({"Kernel": second})
        engine._previous = previous._previous
        assert engine.search(state, Limits(nodes=10), SearchContext()).stats["reused_visits"] == 0
        previous.search(state, Limits(nodes=10), SearchContext())  # its own kind: reused
        assert previous.search(state, Limits(nodes=10), SearchContext()).stats["reused_visits"] > 0


def test_kernel_nodes_read_like_nodes():
    node = kernels.KernelNode(None, -2)
    assert node.move is None and node.player is None and node.amaf is None
    assert (node.visits, node.total, node.pessimistic, node.optimistic) == (0, 0.0, -1, 1)
    assert node.proven is None and node.mean == 0.0 and node.child(3) is None
    node.prove(1, 4)
    assert node.proven == 1 and node.plies == 4 and list(node.walk()) == [node]
    node.move = 5
    assert node.move == 5
