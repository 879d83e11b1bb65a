"""A solve's probes: in one kernel call or in Python, with or without anyone listening.

With the compiled kernel every probe of a solve runs inside one kernel call
(`Connect4Search.probes`), calling back after each; without a reporter no Info is built.
Neither may change an answer or a node count. A solve cut short after proving only that no
quick result exists answers with the static estimate, not with those bounds.
"""

from __future__ import annotations

import pytest
from search_answers import answer
from test_alphabeta import internal, run
from toys import published_internal

from kibitz.engines.alphabeta import AlphaBeta, kernels
from kibitz.engines.base import SearchContext
from kibitz.engines.types import Limits
from kibitz.games.connect4 import ConnectFour
from kibitz.vocabulary import Bound, ScoreKind

SOLVE_CASES = [  # (moves, published score) from Pascal Pons's test sets
    ("2252576253462244111563365343671351441", -1),  # L3_R1: a few dozen nodes
    ("576144672552167723", 3),
    ("24621527764723641553255", -1),
    ("364766114", -12),  # a quick loss: settled by the quick-loss probe
]
KERNEL = [
    False,
    pytest.param(
        True, marks=pytest.mark.skipif(not kernels.available(), reason="kernels not built")
    ),
]


@pytest.mark.parametrize("kernel", KERNEL)
@pytest.mark.parametrize(("moves", "published"), SOLVE_CASES)
def test_a_solve_answers_alike_with_and_without_a_reporter(
    moves: str, published: int, kernel: bool
) -> None:
    heard, infos = run(
        ConnectFour.from_position(moves), Limits(solve=True), AlphaBeta({"Kernel": kernel})
    )
    engine = AlphaBeta({"Kernel": kernel})
    unheard = engine.search(ConnectFour.from_position(moves), Limits(solve=True), SearchContext())
    assert answer(unheard) == answer(heard)
    assert internal(unheard.score) == published_internal(published, len(moves))
    assert unheard.score.bound == Bound.EXACT and unheard.stop_reason == "solved"
    assert infos and infos[-1].score == heard.score


@pytest.mark.parametrize("kernel", KERNEL)
def test_a_solve_cut_after_the_quick_probes_answers_the_estimate(kernel: bool) -> None:
    """The empty board at 30,000 nodes: the quick-win probe has proven "not won within 15
    plies" and the quick-loss probe "not lost within 15 plies", nothing more. The answer
    and both probes' Infos are the static estimate, not "<= win in 16" or ">= loss in 16"."""
    game = ConnectFour.from_position("")
    engine = AlphaBeta({"Kernel": kernel})
    result, infos = run(game, Limits(solve=True, nodes=30_000), engine, info_interval=0)
    assert result.stop_reason == "nodes"
    assert result.score.kind == ScoreKind.HEURISTIC and result.score.bound == Bound.EXACT
    assert result.best_move == 3 and result.score.value == 7  # the centre, +0.07
    assert [(info.score, info.pv) for info in infos] == [(result.score, [3])] * 2
    assert all(root.score.kind == ScoreKind.HEURISTIC for root in result.root_moves)


def test_the_kernel_probes_as_the_python_loop_does() -> None:
    """Cut at node limits that fall inside different probes, both searches answer alike
    and report the same bounds after the same probes."""
    if not kernels.available():
        pytest.skip("kernels not built")
    game = ConnectFour.from_position("2556433363141147")
    for nodes in (40, 1500, 1700, 2040):
        prints = []
        for kernel in (False, True):
            result, infos = run(
                game,
                Limits(solve=True, nodes=nodes),
                AlphaBeta({"Kernel": kernel}, tt_entries=1009),
            )
            stats = {k: v for k, v in result.stats.items() if k not in ("nps", "kernel")}
            prints.append((answer(result)[:-1], stats, [(i.nodes, i.score, i.pv) for i in infos]))
        assert prints[0] == prints[1], nodes


def test_a_multipv_solve_probes_alike() -> None:
    """Three exact lines: the probes, then a full-window final pass, in C and in Python."""
    if not kernels.available():
        pytest.skip("kernels not built")
    game = ConnectFour.from_position("576144672552167723")
    prints = []
    for kernel in (False, True):
        engine = AlphaBeta({"Kernel": kernel}, tt_entries=100_003)
        result, infos = run(game, Limits(solve=True, multipv=3), engine, info_interval=0)
        prints.append((answer(result)[:-1], [(i.nodes, i.score, i.pv, i.multipv) for i in infos]))
    assert prints[0] == prints[1]
    top = [(root.move, str(root.score)) for root in result.root_moves[:3]]
    assert top == [(2, "win in 19"), (3, "loss in 2"), (4, "loss in 2")]
    assert result.nodes == 4657
