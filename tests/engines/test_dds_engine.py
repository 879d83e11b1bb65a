"""The `dds` engine on the `bridge` game: exact values of every card, the best card, refusals
(views, other games), stops and limits, and through the real server and client."""

from __future__ import annotations

import threading

import pytest

from kibitz.clients import Client, InvalidArgument
from kibitz.clients.values import Limits as ClientLimits
from kibitz.engines import ENGINES
from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.dds import KernelSolver, solver
from kibitz.engines.dds.engine import DoubleDummy
from kibitz.engines.types import Limits
from kibitz.games import GAMES
from kibitz.vocabulary import Bound, StopReason

FULL_DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def bridge(text: str):
    return GAMES["bridge"].from_position(text)


def test_dds_is_registered_for_bridge_only() -> None:
    assert ENGINES["dds"] is DoubleDummy
    assert DoubleDummy.supports(GAMES["bridge"])
    assert not DoubleDummy.supports(GAMES["connect4"])
    assert "double-dummy accessors" in " ".join(DoubleDummy.requires.unmet(GAMES["pig"]))


def test_every_card_gets_its_exact_return_in_an_ending() -> None:
    # East to lead at notrump, three tricks left.
    state = bridge("N:AQ.2.. 65.3.. 32.4.. K4.5.. NT E")
    result = DoubleDummy().search(state, Limits(), SearchContext())
    hands = state.hand_masks()
    tricks = solver.solve_cards(hands, 4, 1)
    assert result.stop_reason == StopReason.SOLVED
    assert result.stats["tricks"] == max(tricks.values())
    assert {move.move for move in result.root_moves} == set(state.legal_moves())
    for move in result.root_moves:  # EW's tricks minus NS's over the three tricks left
        assert move.score.expected == 2 * tricks[move.move] - 3
        assert move.score.bound == Bound.EXACT
    assert result.best_move == result.root_moves[0].move
    assert result.score == result.root_moves[0].score
    assert [m.score.expected for m in result.root_moves] == sorted(
        (m.score.expected for m in result.root_moves), reverse=True
    )
    assert state.position() == "N:AQ.2.. 65.3.. 32.4.. K4.5.. NT E"  # unchanged


def test_the_score_counts_tricks_already_taken_and_the_current_trick() -> None:
    state = bridge("N:AK2.Q3.. QJ.42.5. T9.K.A3. 87.A5.4. S N")  # spades trump, N leads
    for card in ("SA", "SJ", "S9", "S7", "HQ"):  # N wins the first trick and leads a heart
        state.play(state.parse_move(card))
    assert state.tricks_taken() == (1, 0)
    assert state.seat_to_play() == 1
    result = DoubleDummy().search(state, Limits(), SearchContext())
    values = solver.solve_cards(state.hand_masks(), 0, 1, state.current_trick())
    best = max(values.values())
    assert result.stats["tricks"] == best
    # EW's return: their tricks (of the 4 left) minus NS's, less the trick NS already won
    assert result.score.expected == 2 * best - 4 - 1
    assert sorted(m.move for m in result.root_moves) == sorted(values)


@pytest.mark.skipif(KernelSolver is None, reason="the dds kernel was not built")
def test_the_kernel_and_the_python_solver_answer_alike() -> None:
    state = bridge("N:AK2.Q3.. QJ.42.5. T9.K.A3. 87.A5.4. S N")
    with_kernel = DoubleDummy({"Kernel": True}).search(state, Limits(), SearchContext())
    python = DoubleDummy({"Kernel": False}).search(state, Limits(), SearchContext())
    assert with_kernel.nodes == python.nodes > 0
    assert with_kernel.root_moves == python.root_moves
    assert with_kernel.stats["kernel"] == 1.0 and python.stats["kernel"] == 0.0


def test_search_moves_restrict_the_root() -> None:
    state = bridge("N:AQ.2.. 65.3.. 32.4.. K4.5.. NT E")
    chosen = [state.parse_move("H3")]
    result = DoubleDummy().search(state, Limits(search_moves=chosen), SearchContext())
    assert [move.move for move in result.root_moves] == chosen


def test_a_view_is_refused_with_the_reason() -> None:
    state = bridge(FULL_DEAL + " NT E")
    view = GAMES["bridge"].from_position(state.view(0))
    with pytest.raises(OptionError, match="one seat's view"):
        DoubleDummy.check_options_at(view, DoubleDummy.default_options())
    with pytest.raises(OptionError, match="pimc"):
        DoubleDummy().search(view, Limits(), SearchContext())


def test_a_stop_before_the_start_answers_a_legal_card_unsearched() -> None:
    state = bridge(FULL_DEAL + " NT E")
    stop = threading.Event()
    stop.set()
    result = DoubleDummy().search(state, Limits(), SearchContext(stop=stop))
    assert result.stop_reason == StopReason.STOPPED
    assert result.nodes == 0
    assert result.best_move in state.legal_moves()


def test_the_node_limit_ends_a_full_deal() -> None:
    state = bridge(FULL_DEAL + " NT E")
    result = DoubleDummy().search(state, Limits(nodes=1000), SearchContext())
    assert result.stop_reason == StopReason.NODES
    # the poll comes at the limit; unwinding the search enters a few more nodes
    assert 1000 <= result.nodes < 2000
    assert result.best_move in state.legal_moves()
    assert result.score.bound == Bound.EXACT and result.score.expected is None


async def test_through_the_server_every_card_comes_with_its_value(server) -> None:
    position = "N:AQ.2.. 65.3.. 32.4.. K4.5.. NT E"
    tricks = solver.solve_cards(bridge(position).hand_masks(), 4, 1)
    async with Client(server.address) as client:
        # a generous move time: the server's default (1 s) also holds a fresh worker's
        # start, which a loaded machine can stretch past it
        limits = ClientLimits(root_moves=True, movetime=60)
        result = await client.analyze("bridge", position, engine="dds", limits=limits)
        assert result.stop_reason == "solved"
        by_card = {root.move: root.score.expected_value for root in result.root_moves}
        assert by_card == {solver.card_text(c): 2 * t - 3 for c, t in tricks.items()}
        view = bridge(FULL_DEAL + " NT E").view(1)
        with pytest.raises(InvalidArgument, match="one seat's view"):
            await client.analyze("bridge", view, engine="dds")
