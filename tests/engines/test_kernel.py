"""The compiled Connect Four kernel against the pure-Python search it replaces.

The kernel must be the same search, not merely a correct one: on every position, limit and
option set below, the two engines (with tables of the same number of slots) must agree on
the node count, every root move's score and line, the principal variation, the Info
stream and the statistics. A node limit must cut both at the same node. A stop, an error
in the reporter, or a fresh game must leave the kernel usable and the state untouched.
"""

from __future__ import annotations

import pytest
from fakes import FakeClock
from search_answers import answer
from test_alphabeta import internal, run
from toys import published_internal

from kibitz.engines.alphabeta import AlphaBeta, kernels
from kibitz.engines.base import SearchContext
from kibitz.engines.types import Info, Limits, Result
from kibitz.games.connect4 import ConnectFour

SLOTS = (0, 1009, 100_003)
"""Table sizes: none, one small enough to force replacements, and a roomy one."""
DEPTH_CASES = [("", 8), ("4453", 9), ("444444", 9), ("3232", 8), ("4455", 12)]
SOLVE_CASES = [  # (moves, published score) from Pascal Pons's test sets
    ("576144672552167723", 3),
    ("24621527764723641553255", -1),
    ("72347723255677763", 0),
    ("32164625", 11),
    ("2556433363141147", 8),
    ("364766114", -12),
]
OPTION_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param({"PVS": False}, id="PVS=false"),
    pytest.param({"ETC": False}, id="ETC=false"),
    pytest.param({"GameHooks": False}, id="GameHooks=false"),
    pytest.param({"Quiescence": False}, id="Quiescence=false"),
    pytest.param({"Aspiration": 0}, id="Aspiration=0"),
]

pytestmark = pytest.mark.skipif(
    not kernels.available(), reason="compiled kernels not built (no C compiler at install)"
)


def test_the_kernels_are_built() -> None:
    """CI installs with a C compiler: a kernel that silently failed to build is a bug."""
    assert kernels.available()
    assert kernels.kernel_for(ConnectFour) is not None


def both(moves: str, limits: Limits, slots: int, **options) -> tuple[tuple, tuple, Result]:
    """(Python fingerprint, kernel fingerprint, kernel result) for one search each."""
    prints = []
    for kernel in (False, True):
        engine = AlphaBeta({"Kernel": kernel, **options}, tt_entries=slots)
        result, infos = run(ConnectFour.from_position(moves), limits, engine, info_interval=0)
        assert result.stats["kernel"] == (1.0 if kernel else 0.0)
        prints.append(answer(result, infos))
    return prints[0], prints[1], result


@pytest.mark.parametrize("slots", SLOTS)
@pytest.mark.parametrize(("moves", "depth"), DEPTH_CASES)
def test_depth_limited_searches_are_identical(moves: str, depth: int, slots: int) -> None:
    python, kernel, _ = both(moves, Limits(depth=depth), slots)
    assert kernel == python


@pytest.mark.parametrize("slots", SLOTS[1:])
@pytest.mark.parametrize(("moves", "score"), SOLVE_CASES)
def test_solves_are_identical_and_exact(moves: str, score: int, slots: int) -> None:
    python, kernel, result = both(moves, Limits(solve=True), slots)
    assert kernel == python
    assert internal(result.score) == published_internal(score, len(moves))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_option_is_honoured_identically(options: dict) -> None:
    python, kernel, _ = both("444444", Limits(depth=9), 1009, **options)
    assert kernel == python
    python, kernel, _ = both("2556433363141147", Limits(solve=True), 1009, **options)
    assert kernel == python


def test_multipv_and_search_moves_are_identical() -> None:
    python, kernel, _ = both("4453", Limits(depth=8, multipv=3), 1009)
    assert kernel == python
    python, kernel, _ = both("4453", Limits(depth=8, search_moves=[0, 6]), 1009)
    assert kernel == python


@pytest.mark.parametrize("nodes", [1, 700, 5_000, 20_000])
def test_a_node_limit_cuts_both_at_the_same_node(nodes: int) -> None:
    python, kernel, result = both("", Limits(depth=30, nodes=nodes), 1009)
    assert kernel == python
    assert result.nodes <= max(nodes, 200)  # depth 1 always completes
    python, kernel, result = both("3232", Limits(solve=True, nodes=nodes), 1009)
    assert kernel == python
    assert result.stop_reason == "nodes" and nodes <= result.nodes <= nodes + 1  # + the root


def test_a_stop_inside_the_kernel_returns_the_best_so_far() -> None:
    """The first periodic Info (sent from the kernel's poll) sets the stop signal."""
    engine = AlphaBeta()
    game = ConnectFour.from_position("4")
    stop = ReporterStop()
    clock = FakeClock(0.01)
    context = SearchContext(stop=stop, report=stop.report, clock=clock, info_interval=0.05)
    result = engine.search(game, Limits(solve=True), context)
    assert result.stop_reason == "stopped"
    assert result.best_move in game.legal_moves()
    assert game.position() == ConnectFour.from_position("4").position()
    again, _ = run(game, Limits(depth=6), engine)  # the engine and its kernel go on
    assert again.stop_reason == "depth" and again.stats["kernel"] == 1.0


def test_an_error_in_the_reporter_propagates_and_leaves_the_engine_usable() -> None:
    def failing(info: Info) -> None:
        raise RuntimeError("reporter broke")

    engine = AlphaBeta()
    game = ConnectFour.from_position("4")
    context = SearchContext(report=failing, clock=FakeClock(0.01), info_interval=0.05)
    with pytest.raises(RuntimeError, match="reporter broke"):
        engine.search(game, Limits(solve=True), context)
    assert game.position() == ConnectFour.from_position("4").position()
    result, _ = run(game, Limits(depth=5), engine)
    assert result.stop_reason == "depth"


def test_tables_follow_the_option_and_new_game() -> None:
    engine = AlphaBeta({"Hash": 1})
    run(ConnectFour.from_position("44"), Limits(depth=6), engine)
    assert isinstance(engine.kept_table.table, kernels.NativeTable)
    assert engine.kept_table.table.size == 1024 * 1024 // kernels.ENTRY_BYTES
    engine.set_options({"Kernel": False})
    run(ConnectFour.from_position("44"), Limits(depth=6), engine)
    assert not isinstance(engine.kept_table.table, kernels.NativeTable)
    table = engine.kept_table.table
    table.store(7, 1, 0, 1, None, 0)
    engine.new_game()
    assert engine.kept_table.table is table and table.probe(7) is None


class ReporterStop:
    """A stop signal that the first Info sets."""

    def __init__(self) -> None:
        self.stopped = False

    def is_set(self) -> bool:
        return self.stopped

    def report(self, info: Info) -> None:
        self.stopped = True
