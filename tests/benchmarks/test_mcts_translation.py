"""The move translation the Monte Carlo benchmark relies on, between kibitz and OpenSpiel.

kibitz's Hex names a cell by its column letter and row number (`a1` top left, rows shifted
right going down) and Black, the first player, joins the top and bottom rows; Connect Four
moves are the column digits 1-7. The benchmark plays OpenSpiel's `hex` and `connect_four`
against kibitz, so it needs OpenSpiel to agree: Hex action = row * columns + column, named
like kibitz's cells, player 0 (`x`) joining top and bottom; Connect Four action = column - 1.
Seeded random games played in both libraries at once must agree on every legal move list,
on when the game ends and on who won.

Needs OpenSpiel (the `bench` extra): skipped without it.
"""

from __future__ import annotations

import random

import pytest

from kibitz.games import GAMES

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install -e .[bench]); skipping"
)

LETTERS = "abcdefghijklmnopqrs"


def hex_action(name: str, size: int) -> int:
    """OpenSpiel's Hex action for a kibitz cell name (`c5` -> row 4, column 2)."""
    return (int(name[1:]) - 1) * size + LETTERS.index(name[0])


def openspiel_state(game: str, size: int):
    if game == "hex":
        return pyspiel.load_game("hex", {"num_rows": size, "num_cols": size}).new_initial_state()
    return pyspiel.load_game("connect_four").new_initial_state()


def to_openspiel(game: str, size: int, text: str) -> int:
    return hex_action(text, size) if game == "hex" else int(text) - 1


def connect4_text(action: int) -> str:
    """kibitz's Connect Four move for OpenSpiel's action (column index 0-6)."""
    return str(action + 1)


@pytest.mark.parametrize("size", [1, 2, 5, 7, 11, 13])
def test_hex_cell_names_and_actions(size: int) -> None:
    theirs = openspiel_state("hex", size)
    ours = GAMES["hex"].from_position(str(size))
    names = {ours.format_move(move) for move in ours.legal_moves()}
    assert len(names) == size * size
    for name in names:
        action = hex_action(name, size)
        assert theirs.action_to_string(0, action) == name
    assert sorted(theirs.legal_actions()) == list(range(size * size))


def test_hex_black_and_x_join_top_and_bottom() -> None:
    """A column of Black stones from row 1 to row 7 wins for the first player in both; the
    same shape along a row does not end the game (it is the second player's direction)."""
    for column_line in (True, False):
        theirs = openspiel_state("hex", 7)
        ours = GAMES["hex"].from_position("7")
        firsts = [f"a{row}" if column_line else f"{LETTERS[row - 1]}1" for row in range(1, 8)]
        seconds = [f"c{row}" if column_line else f"{LETTERS[row - 1]}3" for row in range(1, 7)]
        for index, first in enumerate(firsts):
            for name in [first, *seconds[index : index + 1]]:
                theirs.apply_action(hex_action(name, 7))
                ours.play(ours.parse_move(name))
        assert theirs.is_terminal() == ours.is_terminal() == column_line
        if column_line:
            assert list(theirs.returns()) == list(ours.returns()) == [1.0, -1.0]


def test_hex_diagonal_adjacency() -> None:
    """Neighbours run along the short diagonal (row + 1, column - 1) in both: Black's chain
    g1 f2 e3 d4 c5 b6 a7 joins top and bottom, a1 b2 c3 d4 e5 f6 g7 does not (White meanwhile
    fills an edge column, which joins nothing)."""
    for short in (True, False):
        theirs = openspiel_state("hex", 7)
        ours = GAMES["hex"].from_position("7")
        black = [f"{LETTERS[6 - i if short else i]}{i + 1}" for i in range(7)]
        white = [f"{'a' if short else 'g'}{i + 1}" for i in range(6)]
        for index, name in enumerate(black):
            for move in [name, *white[index : index + 1]]:
                assert not ours.is_terminal() and not theirs.is_terminal()
                theirs.apply_action(hex_action(move, 7))
                ours.play(ours.parse_move(move))
        assert theirs.is_terminal() == ours.is_terminal() == short
        if short:
            assert list(theirs.returns()) == list(ours.returns()) == [1.0, -1.0]


@pytest.mark.parametrize(
    ("game", "size", "games"),
    [("hex", 5, 40), ("hex", 7, 30), ("hex", 11, 10), ("connect4", 0, 200)],
)
def test_random_games_agree(game: str, size: int, games: int) -> None:
    """Random games played in both at once: the same legal moves at every ply, the end at the
    same ply, the same returns."""
    for seed in range(games):
        rng = random.Random(seed)
        ours = GAMES[game].from_position(str(size) if game == "hex" else "")
        theirs = openspiel_state(game, size)
        while not ours.is_terminal():
            assert not theirs.is_terminal()
            legal = {ours.format_move(move) for move in ours.legal_moves()}
            if game == "hex":
                player = theirs.current_player()
                names = {theirs.action_to_string(player, a) for a in theirs.legal_actions()}
                assert names == legal
            else:
                assert {connect4_text(a) for a in theirs.legal_actions()} == legal
            assert theirs.current_player() == ours.to_move()
            move = rng.choice(ours.legal_moves())
            theirs.apply_action(to_openspiel(game, size, ours.format_move(move)))
            ours.play(move)
        assert theirs.is_terminal()
        assert list(theirs.returns()) == list(ours.returns())


def test_connect4_draw_agrees() -> None:
    """A full board without four in a row (the random game of seed 344) is a draw in both."""
    rng = random.Random(344)
    ours = GAMES["connect4"].from_position("")
    theirs = openspiel_state("connect4", 0)
    while not ours.is_terminal():
        move = rng.choice(ours.legal_moves())
        theirs.apply_action(to_openspiel("connect4", 0, ours.format_move(move)))
        ours.play(move)
    assert theirs.is_terminal()
    assert list(ours.returns()) == list(theirs.returns()) == [0.0, 0.0]
