"""Tic-tac-toe rules, checked against a naive string-board reference and known totals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.tictactoe import TicTacToe

# Nodes at each ply of the full game tree, games stopping at a win (255168 games in all).
KNOWN_PERFT = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]

# -- naive reference: a 9-character string in reading order (top-left first) ------------------

REF_LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]  # fmt: skip


def ref_winner(board: str) -> str | None:
    for a, b, c in REF_LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def ref_tree(board: str, turn: str, ply: int, nodes: Counter, ends: Counter) -> None:
    """Count nodes per ply and finished games by result, by brute force on strings."""
    winner = ref_winner(board)
    if winner or "." not in board:
        ends[winner or "draw"] += 1
        return
    for i, cell in enumerate(board):
        if cell == ".":
            nodes[ply + 1] += 1
            ref_tree(
                board[:i] + turn + board[i + 1 :], "o" if turn == "x" else "x", ply + 1, nodes, ends
            )


def game_tree(game: TicTacToe, ply: int, nodes: Counter, ends: Counter) -> None:
    if game.is_terminal():
        ends[game.returns()] += 1
        return
    for move in game.legal_moves():
        nodes[ply + 1] += 1
        game.play(move)
        game_tree(game, ply + 1, nodes, ends)
        game.undo()


def negamax(game: TicTacToe, ply: int = 0) -> int:
    """Exact value for the side to move; quicker wins score higher."""
    if game.is_terminal():
        return int(game.returns()[game.to_move()]) * (10 - ply)
    best = -10
    for move in game.legal_moves():
        game.play(move)
        best = max(best, -negamax(game, ply + 1))
        game.undo()
    return best


def best_moves(game: TicTacToe) -> set[str]:
    scores = {}
    for move in game.legal_moves():
        game.play(move)
        scores[move] = -negamax(game, 1)
        game.undo()
    top = max(scores.values())
    return {game.format_move(m) for m, s in scores.items() if s == top}


# -- perft ------------------------------------------------------------------------------------


def test_perft_matches_reference_and_known_totals() -> None:
    ref_nodes, ref_ends = Counter(), Counter()
    ref_tree("." * 9, "x", 0, ref_nodes, ref_ends)
    nodes, ends = Counter(), Counter()
    game_tree(TicTacToe.from_position(""), 0, nodes, ends)

    assert [ref_nodes[p] for p in range(1, 10)] == KNOWN_PERFT
    assert [nodes[p] for p in range(1, 10)] == KNOWN_PERFT
    assert sum(ends.values()) == sum(ref_ends.values()) == 255168
    assert ends[(1.0, -1.0)] == ref_ends["x"] == 131184
    assert ends[(-1.0, 1.0)] == ref_ends["o"] == 77904
    assert ends[(0.0, 0.0)] == ref_ends["draw"] == 46080


def test_keys_identify_positions() -> None:
    """Over every reachable position: equal keys exactly for equal positions."""
    seen: dict[str, int] = {}

    def walk(game: TicTacToe) -> None:
        position = game.position()
        if position in seen:
            return
        seen[position] = game.key()
        assert TicTacToe.from_position(position).key() == game.key()
        for move in game.legal_moves():
            game.play(move)
            walk(game)
            game.undo()

    walk(TicTacToe.from_position(""))
    assert len(seen) == 5478
    assert len(set(seen.values())) == len(seen)


# -- notation ---------------------------------------------------------------------------------


def test_default_position_and_render() -> None:
    game = TicTacToe.from_position("")
    assert game.position() == TicTacToe.default_position == ".../.../... x"
    assert game.to_move() == 0
    game.play_line(["b2", "a3"])
    assert game.position() == "o../.x./... x"
    assert game.render() == "3 o . .\n2 . x .\n1 . . .\n  a b c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x.o/.x./... o", "x.o/.x./... o"),
        ("x.o/.x./...", "x.o/.x./... o"),
        ("X.O/.X./... ", "x.o/.x./... o"),
        ("xo./.../...", "xo./.../... x"),
        ("xxx/oo./... o", "xxx/oo./... o"),
        ("xox/xoo/oxx", "xox/xoo/oxx o"),
    ],
)
def test_position_round_trip(text: str, expected: str) -> None:
    game = TicTacToe.from_position(text)
    assert game.position() == expected
    assert TicTacToe.from_position(expected).position() == expected


def test_cell_names() -> None:
    game = TicTacToe.from_position("")
    assert [game.format_move(m) for m in game.legal_moves()] == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3",
    ]  # fmt: skip
    game.play_text("a3")
    assert game.position() == "x../.../... o"
    game.play_text("C1")
    assert game.position() == "x../.../..o x"


@pytest.mark.parametrize(
    ("text", "culprit"),
    [
        ("x.o/.x.", "2 rows"),
        ("x.o/.x./.../...", "4 rows"),
        ("x.o/.x../... o", "row 2 ('.x..')"),
        ("x.o/.z./...", "cell b2: 'z'"),
        ("xx./.../...", "x has 2 marks and o has 0"),
        ("oo./x../...", "x has 1 marks and o has 2"),
        ("x../.../... x", "it is o's turn"),
        ("x../.../... y", "'y' is not x or o"),
        ("xxx/ooo/x.. o", "both x and o"),
        ("xxx/oo./o.. x", "x has three in a row but o moved last"),
        ("ooo/xx./x.x o", "o has three in a row but x moved last"),
        ("x../.../... o extra", "'extra'"),
    ],
)
def test_position_errors(text: str, culprit: str) -> None:
    with pytest.raises(NotationError) as info:
        TicTacToe.from_position(text)
    assert culprit in str(info.value)


@pytest.mark.parametrize(
    ("position", "move", "error", "culprit"),
    [
        ("", "d1", NotationError, "'d1'"),
        ("", "a4", NotationError, "'a4'"),
        ("", "", NotationError, "''"),
        ("", "b", NotationError, "'b'"),
        (".../.x./... o", "b2", IllegalMoveError, "b2 is already taken by x"),
        ("xxx/oo./... o", "c2", IllegalMoveError, "the game is over (x has three in a row)"),
    ],
)
def test_move_errors(position: str, move: str, error: type, culprit: str) -> None:
    game = TicTacToe.from_position(position)
    with pytest.raises(error) as info:
        game.parse_move(move)
    assert culprit in str(info.value)


def test_play_line_names_the_bad_move_and_leaves_position() -> None:
    game = TicTacToe.from_position("")
    with pytest.raises(IllegalMoveError, match=r"move 3 \('b2'\): b2 is already taken"):
        game.play_line(["b2", "a1", "b2"])
    assert game.position() == TicTacToe.default_position


# -- state ------------------------------------------------------------------------------------


def test_undo_restores_key_and_position() -> None:
    rng = random.Random(1)
    game = TicTacToe.from_position("")
    for _ in range(200):
        before = (game.position(), game.key(), game.to_move())
        moves = []
        while not game.is_terminal():
            move = rng.choice(game.legal_moves())
            moves.append(move)
            game.play(move)
            assert TicTacToe.from_position(game.position()).key() == game.key()
        for _ in moves:
            game.undo()
        assert (game.position(), game.key(), game.to_move()) == before


@pytest.mark.parametrize(
    ("position", "returns", "reason"),
    [
        ("xxx/oo./... o", (1.0, -1.0), "x has three in a row"),  # row
        ("o.x/o.x/..x o", (1.0, -1.0), "x has three in a row"),  # column
        ("x.o/.xo/..x o", (1.0, -1.0), "x has three in a row"),  # diagonal
        ("x.o/xo./o.x x", (-1.0, 1.0), "o has three in a row"),  # anti-diagonal
        ("xox/xoo/oxx o", (0.0, 0.0), "draw: the board is full"),
    ],
)
def test_terminal_positions(position: str, returns: tuple, reason: str) -> None:
    game = TicTacToe.from_position(position)
    assert game.is_terminal()
    assert game.legal_moves() == []
    assert game.ordered_moves() == []
    assert game.returns() == returns
    assert game.terminal_reason() == reason


def test_ordered_moves_centre_corners_edges() -> None:
    game = TicTacToe.from_position("")
    assert game.format_line(game.ordered_moves()) == [
        "b2", "a1", "c1", "a3", "c3", "b1", "a2", "c2", "b3",
    ]  # fmt: skip
    game.play_text("b2")
    assert sorted(game.ordered_moves()) == game.legal_moves()
    assert game.ordered_moves()[0] == game.parse_move("a1")


# -- play strength helpers ---------------------------------------------------------------------


def test_known_best_moves() -> None:
    # x to move wins at once on c3 (o threatens c2).
    assert best_moves(TicTacToe.from_position("xx./oo./... x")) == {"c3"}
    # o to move must block the diagonal a3-b2-c1.
    assert best_moves(TicTacToe.from_position("xo./.x./... o")) == {"c1"}


def test_evaluate_is_symmetric_and_bounded() -> None:
    assert TicTacToe.from_position("").evaluate() == 0
    centre = TicTacToe.from_position(".../.x./... o")
    assert centre.evaluate() < 0  # o to move, x holds the centre
    rng = random.Random(2)
    for _ in range(100):
        game = TicTacToe.from_position("")
        while not game.is_terminal():
            assert abs(game.evaluate()) < 100_000
            game.play(rng.choice(game.legal_moves()))


def test_the_diagram_labels_name_each_cell_as_its_move_reads():
    game = TicTacToe()
    diagram = game.diagram()
    assert diagram.column_labels == ("a", "b", "c")
    assert diagram.row_labels == ("3", "2", "1")  # row 0 of the diagram is drawn at the top
    names = {game.format_move(move) for move in game.legal_moves()}
    for place in diagram.places:
        assert place.id == diagram.column_labels[place.column] + diagram.row_labels[place.row]
    assert {place.id for place in diagram.places} == names
