"""Chess's compiled node search (`kernels/_chess.pyx`) against the Python one.

With the option Kernel on and the compiled board, the root (Python) searches each root
move's subtree with the kernel; it must be the same search node for node: on every position
and option set below the two engines (with tables of the same number of slots) agree on the
node count, every root move's score and line, the principal variation, the Info stream and
the statistics, also over consecutive searches (the history carried between them). A stop
raised by the poll inside the kernel must leave the board to the root's undoing
(`Abort.ply`), as the Python search does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from search_answers import answer
from test_alphabeta import CountingStop, run

from kibitz.engines.alphabeta import AlphaBeta, kernels
from kibitz.engines.alphabeta.kernel import SubtreeKernelSearch
from kibitz.engines.alphabeta.nodes import INF, Abort, NodeSearch
from kibitz.engines.alphabeta.ordering import QuietMoveOrdering
from kibitz.engines.alphabeta.table import ENTRY_BYTES, TranspositionTable
from kibitz.engines.types import Limits
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.games.chess.game import CompiledBoard
from kibitz.vocabulary import StopReason

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
WAC_3 = "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1"
ENDGAME = "8/8/4k3/3p4/3P1K2/8/5P2/8 w - - 0 1"
IN_CHECK = "rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 3"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
REPEATED = ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1")
"""Played from the start: the position after them (Black to move) has been seen before, and
the knights' dance repeats it again inside the search (`history_draw`)."""

pytestmark = pytest.mark.skipif(
    kernels.ChessSearch is None or CompiledBoard is None,
    reason="compiled kernels not built (no C compiler at install)",
)


def position(fen: str, moves: tuple[str, ...] = ()) -> Chess:
    state = Chess.on_board(fen, CompiledBoard)
    for move in moves:
        state.play(state.parse_move(move))
    return state


def both(
    fen: str, limits: Limits, moves: tuple[str, ...] = (), slots: int = 100_003, **options
) -> tuple[tuple, tuple]:
    """(Python fingerprint, kernel fingerprint) of one search each."""
    prints = []
    for kernel in (False, True):
        engine = AlphaBeta({"Kernel": kernel, **options}, tt_entries=slots)
        result, infos = run(position(fen, moves), limits, engine, info_interval=0)
        assert result.stats["kernel"] == (1.0 if kernel else 0.0)
        prints.append(answer(result, infos))
    return prints[0], prints[1]


def learnt(ordering: QuietMoveOrdering) -> dict[int, int]:
    """The history's scores (the Python ordering also holds the zeros it read)."""
    return {move: value for move, value in ordering.history.items() if value}


def node_search(
    kernel: bool, state: Chess, **switches: Any
) -> tuple[NodeSearch, QuietMoveOrdering]:
    """A node search of `state` with chess's pruning on, the kernel's or the Python one, over a
    small table of its kind, with a fresh ordering (killers and history on)."""
    table = kernels.NativeTable(1009) if kernel else TranspositionTable(1009)
    switches = {"pvs": True, "etc": True, "quiescence": True, "hooks": True, **switches}
    switches.update(symmetry=True, see=True, null_move=True, lmr=True)
    switches.update(check_extension=True, futility=True)
    ordering = QuietMoveOrdering()
    ordering.new_search(True, True)
    if kernel:
        search = SubtreeKernelSearch(kernels.ChessSearch, state, table, ordering, **switches)
    else:
        search = NodeSearch(state, table, ordering, **switches)
    return search, ordering


def test_the_kernel_is_chosen_for_the_compiled_board_only() -> None:
    assert kernels.subtree_kernel_for(position(START)) is kernels.ChessSearch
    assert kernels.subtree_kernel_for(Chess.on_board(START, Board)) is None
    engine = AlphaBeta()
    result, _ = run(Chess.on_board(START, Board), Limits(depth=2), engine)
    assert result.stats["kernel"] == 0.0


@pytest.mark.parametrize(
    ("fen", "moves", "depth"),
    [
        (START, (), 5),
        (WAC_3, (), 5),
        (ENDGAME, (), 8),
        (IN_CHECK, (), 5),
        (KIWIPETE, (), 4),
        (START, REPEATED, 5),
    ],
    ids=["start", "wac3", "endgame", "in-check", "kiwipete", "repetition"],
)
def test_depth_limited_searches_are_identical(fen: str, moves: tuple, depth: int) -> None:
    python, kernel = both(fen, Limits(depth=depth), moves)
    assert kernel == python


PROMOTIONS = "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1"
"""Promotions on both sides, an en-passant capture and castling, one ply apart."""


def random_positions(count: int, seed: int) -> list[tuple[str, tuple[str, ...]]]:
    """`count` positions reached by random games from the start and from PROMOTIONS (as
    (fen, moves played)), none of them over."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        fen = rng.choice((START, KIWIPETE, PROMOTIONS))
        state = position(fen)
        moves: list[str] = []
        for _ in range(rng.randrange(0, 40)):
            legal = state.legal_moves()
            if not legal or state.is_terminal():
                break
            move = rng.choice(legal)
            moves.append(state.format_move(move))
            state.play(move)
        if not state.is_terminal():
            positions.append((fen, tuple(moves)))
    return positions


@pytest.mark.parametrize(("fen", "moves"), random_positions(16, seed=2026))
def test_positions_of_random_games_are_searched_identically(fen: str, moves: tuple) -> None:
    python, kernel = both(fen, Limits(depth=5), moves, slots=1009)
    assert kernel == python


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"SingularExtension": True}, id="SingularExtension"),
        pytest.param({"SEE": False}, id="SEE=false"),
        pytest.param({"Quiescence": False}, id="Quiescence=false"),
        pytest.param({"Futility": False, "LateMovePruning": False}, id="pruning=false"),
        pytest.param({"PVS": False, "ETC": False, "NullMove": False}, id="plain"),
        pytest.param({"CheckExtension": False, "LMR": False}, id="no-extension"),
    ],
)
def test_every_option_is_honoured_identically(options: dict) -> None:
    python, kernel = both(WAC_3, Limits(depth=5), slots=1009, **options)
    assert kernel == python


def test_without_a_table_and_in_solve_mode_it_is_identical() -> None:
    python, kernel = both(WAC_3, Limits(depth=4), slots=0)
    assert kernel == python
    mate_in_one = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    python, kernel = both(mate_in_one, Limits(solve=True, nodes=3_000))
    assert kernel == python


def test_multipv_is_identical() -> None:
    python, kernel = both(KIWIPETE, Limits(depth=3, multipv=3))
    assert kernel == python


@pytest.mark.parametrize("nodes", [1, 700, 2_345, 6_000])
def test_a_node_limit_cuts_both_at_the_same_node(nodes: int) -> None:
    python, kernel = both(WAC_3, Limits(depth=30, nodes=nodes))  # `run` checks the board
    assert kernel == python


def test_a_stop_request_inside_the_kernel_leaves_the_board() -> None:
    engine = AlphaBeta({"Kernel": True})
    state = position(KIWIPETE)
    result, _ = run(state, Limits(depth=30), engine, stop=CountingStop(3))
    assert result.stop_reason == StopReason.STOPPED and result.stats["kernel"] == 1.0
    again, _ = run(state, Limits(depth=3), engine)  # the engine goes on
    assert again.stop_reason == "depth"


def test_consecutive_searches_carry_the_same_history() -> None:
    """One engine for three searches: the history learnt in each orders the next."""
    prints = []
    for kernel in (False, True):
        engine = AlphaBeta({"Kernel": kernel}, tt_entries=100_003)
        answers = []
        for fen in (WAC_3, KIWIPETE, WAC_3):
            result, infos = run(position(fen), Limits(depth=5), engine, info_interval=0)
            answers.append(answer(result, infos))
        prints.append((answers, learnt(engine._ordering)))
    assert prints[1] == prints[0] and prints[0][1]


def test_singular_extensions_are_identical() -> None:
    python, kernel = both(WAC_3, Limits(depth=7), SingularExtension=True)
    assert kernel == python
    assert kernel[8]["singular_extensions"] >= 1


def test_at_the_default_hash_the_tables_have_as_many_slots() -> None:
    """The kernel's table keeps the Python table's count of slots (not the 24-byte slots'
    count): the same search at every Hash."""
    for fen in (WAC_3, KIWIPETE):
        prints = []
        for kernel in (False, True):
            engine = AlphaBeta({"Kernel": kernel, "Hash": 1})
            result, infos = run(position(fen), Limits(depth=5), engine, info_interval=0)
            prints.append(answer(result, infos))
            assert engine.kept_table.table.size == 1024 * 1024 // ENTRY_BYTES
        assert prints[1] == prints[0]


@pytest.mark.parametrize("stop_at", [2, 7, 40, 900])
def test_an_abort_in_the_kernel_unwinds_as_the_python_search(stop_at: int) -> None:
    """The poll raises inside the kernel: the same ply, the same counters, and the board
    back where it was once the root undoes `Abort.ply` moves."""
    outcomes = []
    for kernel in (False, True):
        state = position(KIWIPETE)
        before = (state.position(), state.key())
        nodes, ordering = node_search(kernel, state, max_ply=60, late_move_pruning=True)

        def check(ply: int) -> None:
            raise Abort(ply, StopReason.NODES)

        nodes.check = check
        nodes.next_check = stop_at
        with pytest.raises(Abort) as abort:
            nodes.subtree(5, -INF, INF, 0)
        assert abort.value.ply > 0 and (state.position(), state.key()) != before
        for _ in range(abort.value.ply):
            state.undo()
        assert (state.position(), state.key()) == before
        counters = (nodes.nodes, nodes.horizon, nodes.seldepth, nodes.cutoffs, nodes.pruned)
        outcomes.append((abort.value.ply, counters, learnt(ordering)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1][0] == stop_at


def test_the_native_table_holds_every_chess_move() -> None:
    """A slot's move is a 24-bit field (the slot stays 24 bytes): a chess move takes 17 bits
    (promotion << 14 | to << 7 | from); beyond the field a store is refused."""
    table = kernels.NativeTable(101)
    largest = 5 << 14 | 127 << 7 | 127
    for key, move in ((1, largest), (2, (1 << 23) - 1), (3, None), (4, 0)):
        table.store(key, 3, 7, 1, move, 0)
        assert table.probe(key).move == move and table.best_move(key) == move
    with pytest.raises(ValueError, match="within"):
        table.store(5, 3, 7, 1, 1 << 23, 0)
    assert kernels.ENTRY_BYTES == 24


def test_the_exchange_holds_where_the_exchange_is_not_negative() -> None:
    """The kernel's sign test of the static exchange (`exchange_holds`, which skips the
    exchange where the piece taken outweighs the piece taking it) against the exchange, on
    every legal move along random games."""
    rng = random.Random(37)
    checked = 0
    for fen in (START, WAC_3, KIWIPETE, ENDGAME, "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1"):
        board = position(fen).board
        for _ in range(60):
            moves = board.legal_moves()
            if not moves:
                break
            for move in moves:
                assert board.exchange_holds(move) == (board.exchange(move) >= 0)
                checked += 1
            board.play(rng.choice(moves))
    assert checked > 5_000


@pytest.mark.parametrize("max_ply", [1, 3, 6])
def test_the_ply_limit_is_the_python_search_s(max_ply: int) -> None:
    """A search deeper than `max_ply`: the horizon there is the Python search's."""
    outcomes = []
    for kernel in (False, True):
        state = position(KIWIPETE)
        nodes, ordering = node_search(kernel, state, max_ply=max_ply, singular_extension=True)
        nodes.next_check = 10**9
        value = nodes.subtree(7, -INF, INF, 0)
        counters = (nodes.nodes, nodes.horizon, nodes.seldepth, nodes.cutoffs, nodes.pruned)
        outcomes.append((value, nodes.pv[0], counters, learnt(ordering)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][2][2] == max_ply
