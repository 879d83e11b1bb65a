"""Chess: perft on the published positions, moves/keys/values against python-chess and from
scratch, FEN and move notation with their errors, and every draw rule."""

from __future__ import annotations

import random

import chess
import chess.polyglot
import pytest

from kibitz.games import IllegalMoveError, NotationError
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board, to_64
from kibitz.games.chess.game import CompiledBoard

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFT = [  # the Chess Programming Wiki's "Perft Results" positions and node counts
    ("", (20, 400, 8902, 197281)),
    (KIWIPETE, (48, 2039, 97862)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379)),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        (46, 2079, 89890),
    ),
]


def perft(state: Chess, depth: int) -> int:
    if depth == 1:
        return len(state.board.legal_moves())
    total = 0
    for move in state.board.legal_moves():
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


@pytest.mark.parametrize(("fen", "counts"), PERFT, ids=range(1, 7))
def test_perft_matches_the_published_counts(fen, counts):
    state = Chess.on_board(fen, Board)
    before = state.position()
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == list(counts)
    assert state.position() == before


def random_positions(games: int = 40, seed: int = 7):
    """(kibitz state, python-chess board) after every move of seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = Chess.from_position("")
        reference = chess.Board()
        while not state.is_terminal():
            yield state, reference
            move = rng.choice(state.legal_moves())
            reference.push_uci(state.format_move(move))
            state.play(move)
        yield state, reference


def test_legal_moves_keys_and_outcomes_agree_with_python_chess():
    positions = 0
    for state, reference in random_positions():
        positions += 1
        assert (
            sorted(state.format_move(m) for m in state.legal_moves())
            == sorted(m.uci() for m in reference.legal_moves)
            or state.is_terminal()
        )
        if reference.has_pseudo_legal_en_passant() == reference.has_legal_en_passant():
            assert state.key() == chess.polyglot.zobrist_hash(reference)
        assert state.in_check() == reference.is_check()
        over = (
            reference.is_checkmate()
            or reference.is_stalemate()
            or reference.is_insufficient_material()
            or reference.halfmove_clock >= 100
            or reference.is_repetition(3)
        )
        assert state.is_terminal() == over
        if reference.is_checkmate():
            assert state.returns() == ((-1.0, 1.0) if reference.turn else (1.0, -1.0))
    assert positions > 2000


def test_the_incremental_key_and_values_equal_a_fresh_computation_and_undo_restores_them():
    for state, _ in random_positions(games=10, seed=3):
        board = state.board
        assert (board.key, board.mg, board.eg, board.phase) == board._computed_sums()
        fresh = Chess.from_position(state.position()).board
        assert (fresh.key, fresh.mg, fresh.eg, fresh.phase) == (
            board.key,
            board.mg,
            board.eg,
            board.phase,
        )


def test_undo_restores_the_position_after_every_kind_of_move():
    state = Chess.from_position("r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    before = (state.position(), state.key(), state.board.history)
    moves = {state.format_move(m) for m in state.legal_moves()}
    assert {"e1g1", "e1c1", "e5d6", "b7a8q", "b7b8n", "g7h8r"} <= moves
    for move in state.legal_moves():
        state.play(move)
        state.undo()
        assert (state.position(), state.key(), state.board.history) == before


def test_fen_round_trip_and_startpos():
    assert Chess.from_position("startpos").position() == chess.STARTING_FEN
    assert Chess.from_position("").position() == chess.STARTING_FEN
    assert Chess.from_position(f"fen {KIWIPETE}").position() == KIWIPETE
    short = "8/8/8/4k3/8/8/8/4K2R w K -"
    assert Chess.from_position(short).position() == short + " 0 1"


def test_the_en_passant_square_is_kept_only_where_a_pawn_can_take():
    state = Chess.from_position("")
    state.play_line(["e2e4"])
    assert state.position().split()[3] == "-"
    state.play_line(["d7d5", "e4e5", "f7f5"])
    assert state.position().split()[3] == "f6"
    assert "e5f6" in [state.format_move(m) for m in state.legal_moves()]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rnbqkbnr/pppppppp/8/8", "not a FEN"),
        ("hello", "not a FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
        ("4k3/8/8/8/8/8/8/4K2R w Kk - 0 1", "castling rights"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side not to move is in check"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text, message):
    with pytest.raises(NotationError, match=message):
        Chess.from_position(text)


def test_moves_in_uci_and_san_and_their_errors():
    state = Chess.from_position("")
    assert state.format_move(state.parse_move("e2e4")) == "e2e4"
    assert state.format_move(state.parse_move("Nf3")) == "g1f3"
    with pytest.raises(IllegalMoveError, match="e2e5 is not a legal move"):
        state.parse_move("e2e5")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.parse_move("Ke2")
    with pytest.raises(NotationError, match="write it as UCI"):
        state.parse_move("hello")
    castle = Chess.from_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle.format_move(castle.parse_move("O-O-O")) == "e1c1"
    promote = Chess.from_position("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    assert promote.format_move(promote.parse_move("e8=N")) == "e7e8n"
    with pytest.raises(IllegalMoveError):
        promote.parse_move("e7e8")  # a promotion needs its piece


BOARDS = pytest.mark.parametrize(
    "board", [Board, CompiledBoard] if CompiledBoard else [Board], ids=lambda b: b.__name__
)


@BOARDS
@pytest.mark.parametrize("null", ["0000", "--", "Z0", "@@@@"])
def test_a_null_move_is_illegal_not_a_recursion(board, null):
    state = Chess.on_board("", board)  # python-chess reads each as the null move, "0000"
    with pytest.raises(IllegalMoveError, match="is a null move"):
        state.parse_move(null)
    with pytest.raises(IllegalMoveError, match=r"move 2 \('0000'\): '0000' is a null move"):
        state.play_line(["e2e4", "0000"])
    assert state.position() == Chess.default_position  # left unchanged


def test_san_errors_do_not_quote_the_whole_input():
    state = Chess.from_position("r3k2r/8/8/8/8/8/8/RN1NK2R w KQkq - 0 1")
    with pytest.raises(NotationError, match="ambiguous here"):
        state.parse_move("Nc3")
    for text in ("x" * 5000, "Q@e4", "N" * 20):
        with pytest.raises(NotationError, match="not a move") as error:
            state.parse_move(text)
        assert len(str(error.value)) < 150


@BOARDS
@pytest.mark.parametrize(
    ("counters", "complaint"),
    [
        ("2147483648 1", "the halfmove clock must be at most 1000000"),
        ("0 2147483648", "the fullmove number must be at most 1000000"),
        ("1000001 1", "the halfmove clock must be at most"),
        ("0 " + "9" * 4000, "the fullmove number must be at most"),
        ("0 " + "9" * 5000, "not a FEN: invalid fullmove number in fen"),
        ("-1 1", "not a FEN: half-move clock cannot be negative"),
    ],
)
def test_move_counters_must_fit_the_boards(board, counters, complaint):
    with pytest.raises(NotationError, match=complaint) as error:
        Chess.on_board(f"4k3/8/8/8/8/8/8/4K3 w - - {counters}", board)
    assert len(str(error.value)) < 150


@BOARDS
def test_the_largest_counters_are_kept_and_played_on(board):
    state = Chess.on_board("4k3/8/8/8/8/8/8/4K2R b - - 1000000 1000000", board)
    assert state.is_terminal() and state.terminal_reason() == "draw by the fifty-move rule"
    state = Chess.on_board("4k3/8/8/8/8/8/8/4K2R b - - 0 1000000", board)
    state.play_line(["e8d8", "h1h2"])
    assert state.position().endswith(" 2 1000001")


def test_checkmate_and_stalemate():
    mate = Chess.from_position("")
    mate.play_line(["f2f3", "e7e5", "g2g4", "d8h4"])
    assert mate.is_terminal() and mate.returns() == (-1.0, 1.0)
    assert mate.terminal_reason() == "checkmate, Black wins"
    stalemate = Chess.from_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_terminal() and stalemate.returns() == (0.0, 0.0)
    assert stalemate.terminal_reason() == "draw by stalemate"


@pytest.mark.parametrize(
    ("fen", "draw"),
    [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", True),
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", True),
        ("8/8/5b2/4k3/8/8/8/4KB2 w - - 0 1", False),  # bishops on squares of both colours
        ("8/8/6b1/4k3/8/8/8/4KB2 w - - 0 1", True),  # both on light squares
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", False),
        ("8/8/8/4k3/8/8/7P/4K3 w - - 0 1", False),
    ],
)
def test_insufficient_material(fen, draw):
    state = Chess.from_position(fen)
    assert state.is_terminal() == draw
    assert draw == chess.Board(fen).is_insufficient_material()
    if draw:
        assert state.terminal_reason() == "draw by insufficient material"


def test_the_fifty_move_rule_ends_the_game_but_not_a_mate():
    state = Chess.from_position("8/8/8/4k3/8/8/R7/4K3 w - - 99 80")
    assert not state.is_terminal()
    state.play_line(["a2a3"])
    assert state.is_terminal() and state.terminal_reason() == "draw by the fifty-move rule"
    mate = Chess.from_position("7k/R7/6K1/8/8/8/8/8 w - - 99 80")
    mate.play_line(["a7a8"])
    assert mate.is_terminal() and mate.returns() == (1.0, -1.0)


def test_threefold_repetition_counts_the_game_before_the_position():
    state = Chess.from_position("")
    knights = ["g1f3", "g8f6", "f3g1", "f6g8"]
    state.play_line(knights)
    assert not state.is_terminal()
    state.play_line(knights)
    assert state.is_terminal() and state.terminal_reason() == "draw by threefold repetition"


def test_a_repetition_inside_a_search_is_a_draw_but_one_before_its_root_is_not():
    state = Chess.from_position("")
    state.play_line(["g1f3", "g8f6", "f3g1", "f6g8"])  # the start position, a second time
    assert not state.history_draw(root_ply=state.ply())  # once before the root: play on
    assert state.history_draw(root_ply=0)  # a search begun before it: a draw
    state.play_line(["b1c3", "b8c6", "c3b1", "c6b8"])  # the third time
    assert state.history_draw(root_ply=state.ply())


def test_the_evaluation_is_symmetric_and_zero_at_the_start():
    assert Chess.from_position("").evaluate() == 0
    for state, reference in random_positions(games=5, seed=11):
        if state.is_terminal():
            continue
        mirrored = Chess.from_position(reference.mirror().fen())
        assert mirrored.evaluate() == state.evaluate()


def test_noisy_moves_are_captures_and_queen_promotions_most_valuable_victim_first():
    state = Chess.from_position("3q3k/4P3/8/3r4/2N1P3/8/8/K7 w - - 0 1")
    noisy = [state.format_move(m) for m in state.noisy_moves()]
    assert noisy == ["e7d8q", "e7d8r", "e7d8n", "e7d8b", "e7e8q", "e4d5"]
    ordered = state.ordered_moves()
    assert ordered[: len(noisy)] == state.noisy_moves()


def test_square_conversions():
    assert to_64(0x00) == chess.A1 and to_64(0x77) == chess.H8 and to_64(0x34) == chess.E4


@pytest.mark.skipif(CompiledBoard is None, reason="the compiled board was not built")
def test_the_compiled_board_repeats_the_reference_move_for_move():
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        fast = Chess.on_board("", CompiledBoard)
        slow = Chess.on_board("", Board)
        while True:
            for name in ("key", "mg", "eg", "phase", "turn", "castling", "ep", "halfmove"):
                assert getattr(fast.board, name) == getattr(slow.board, name), name
            assert fast.board.squares == slow.board.squares
            assert fast.board.history == slow.board.history
            assert fast.board.legal_moves() == slow.board.legal_moves()
            assert fast.board.pseudo_moves() == slow.board.pseudo_moves()
            assert fast.noisy_moves() == slow.noisy_moves()
            assert fast.ordered_moves() == slow.ordered_moves()
            assert fast.evaluate() == slow.evaluate()
            assert fast.in_check() == slow.in_check()
            assert fast.null_move_allowed() == slow.null_move_allowed()
            assert fast.is_terminal() == slow.is_terminal()
            for root in (0, fast.ply() // 2, fast.ply()):
                assert fast.history_draw(root) == slow.history_draw(root)
            checked += 1
            if fast.is_terminal():
                break
            if rng.random() < 0.05 and fast.null_move_allowed() and not fast.in_check():
                fast.play_null()
                slow.play_null()
                continue
            move = rng.choice(fast.legal_moves())
            fast.play(move)
            slow.play(move)
        for _ in range(fast.ply()):
            fast.undo()
            slow.undo()
            assert fast.board.squares == slow.board.squares and fast.key() == slow.key()
    assert checked > 3000


@pytest.mark.skipif(CompiledBoard is None, reason="the compiled board was not built")
@pytest.mark.parametrize(("fen", "counts"), PERFT[:2], ids=range(1, 3))
def test_perft_on_the_compiled_board(fen, counts):
    state = Chess.on_board(fen, CompiledBoard)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == list(counts)


# -- presentation ------------------------------------------------------------------------------

MORPHY = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"


def test_moves_are_labelled_in_san_from_the_position():
    game = Chess.from_position(MORPHY)
    line = [game.parse_move("a1a6")]
    game.play(line[0])
    line += [game.parse_move("b7a6")]
    game.play(line[1])
    line.append(game.parse_move("b6b7"))
    game.undo(), game.undo()
    assert game.label_line(line) == ["Ra6", "bxa6", "b7#"]
    assert game.position() == Chess.from_position(MORPHY).position()  # left unchanged
    start = Chess.from_position("")
    assert start.move_labels([start.parse_move("g1f3"), start.parse_move("e2e4")]) == ["Nf3", "e4"]


def test_a_move_that_does_not_fit_the_line_ends_it_in_uci():
    game = Chess.from_position("")
    e4 = game.parse_move("e2e4")
    assert game.label_line([e4, e4, game.parse_move("d2d4")]) == ["e4", "e2e4"]


def test_wins_and_losses_are_mates_in_moves():
    assert Chess.outcome_label(True, 3) == "mate in 2"
    assert Chess.outcome_label(False, 4) == "mated in 2"
    assert Chess.outcome_label(True, 1) == "mate in 1"


def test_epd_lines_are_read_as_their_position():
    game = Chess.from_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;")
    assert game.position() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_the_diagram_is_the_board_with_a_target_per_move_and_the_last_move_marked():
    game = Chess.from_position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    move = game.parse_move("a1a8")
    game.play(move)
    diagram = game.diagram(move)
    pieces = {place.id: (place.piece, place.owner) for place in diagram.places if place.piece}
    assert pieces["a8"] == ("♜", 0) and pieces["g8"] == ("♚", 1)
    assert diagram.places[0].id == "a8" and diagram.checkered
    assert set(diagram.highlights) == {"a1", "a8", "g8"}  # the move and the king in check
    assert diagram.targets == ()  # mate
    promotion = Chess.from_position("8/4P3/8/8/8/8/k7/7K w - - 0 1").diagram()
    to_e8 = [t for t in promotion.targets if t.from_place == "e7" and t.to_places == ("e8",)]
    assert len(to_e8) == 4  # one per piece: the page offers them by their labels


def test_the_record_is_pgn_with_the_result_and_the_headers_given():
    game = Chess.from_position("")
    record = game.export_record(
        ["f2f3", "e7e5", "g2g4 Qh4"], ["you", "engine"], {"Event": "test"}, ["a", "b"]
    )
    assert (record.format, record.media_type) == ("pgn", "application/x-chess-pgn")
    assert "1. f3 { a } 1... e5 { b } 2. g4 Qh4# 0-1" in record.text
    assert '[White "you"]' in record.text and '[Result "0-1"]' in record.text
    assert '[Event "test"]' in record.text and "FEN" not in record.text
    later = Chess.from_position(MORPHY).export_record(["a1a6"], headers={"Result": "*"})
    assert '[FEN "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"]' in later.text
    assert '[Result "*"]' in later.text
    with pytest.raises(IllegalMoveError):
        game.export_record(["e2e5"])
