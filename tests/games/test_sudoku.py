"""Sudoku (kibitz/games/csp/sudoku.py): the line notation and its errors, clashes named
by both cells, move counts against a plain candidate count, Project Euler 96's first grid
and its unique solution (checked by a plain backtracking search here, not the engine),
the 288 grids of the empty 4x4, the grid as text and as a diagram."""

from __future__ import annotations

from dataclasses import replace

import pytest
from perft import perft

from kibitz.games import GAMES, IllegalMoveError, NotationError
from kibitz.games.csp.sudoku import Sudoku
from kibitz.games.presentation import GRID, NOBODY, problems

EULER_1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EULER_1_SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
"""Grid 01 of Project Euler problem 96 and its solution (whose first three digits, 483,
are the grid's part of the problem's published answer)."""

# -- an independent plain implementation: strings and lists, no game code ---------------------


def units(size: int) -> list[list[int]]:
    """Every row, column and box of a size x size grid, as cell indices."""
    box = int(size**0.5)
    rows = [[r * size + c for c in range(size)] for r in range(size)]
    columns = [[r * size + c for r in range(size)] for c in range(size)]
    boxes = [
        [(top + r) * size + left + c for r in range(box) for c in range(box)]
        for top in range(0, size, box)
        for left in range(0, size, box)
    ]
    return rows + columns + boxes


def candidates(grid: list[int], size: int) -> dict[int, list[int]]:
    """Each blank cell (0) and the digits none of its units holds."""
    peers = units(size)
    found = {}
    for cell, digit in enumerate(grid):
        if digit == 0:
            seen = {grid[other] for unit in peers if cell in unit for other in unit}
            found[cell] = [d for d in range(1, size + 1) if d not in seen]
    return found


def plain_moves(grid: list[int], size: int) -> int:
    """Legal placements: none once a blank cell has no digit left (a dead end)."""
    found = candidates(grid, size)
    return 0 if any(not digits for digits in found.values()) else sum(map(len, found.values()))


def plain_perft(grid: list[int], size: int, depth: int) -> int:
    if depth == 0:
        return 1
    found = candidates(grid, size)
    if any(not digits for digits in found.values()):
        return 0
    total = 0
    for cell, digits in found.items():
        for digit in digits:
            grid[cell] = digit
            total += plain_perft(grid, size, depth - 1)
            grid[cell] = 0
    return total


def solutions(grid: list[int], size: int, limit: int = 2) -> list[str]:
    """Up to `limit` completions of the grid, by plain backtracking on the first blank."""
    found: list[str] = []

    def search() -> None:
        options = candidates(grid, size)
        if not options:
            found.append("".join("123456789ABCDEFG"[d - 1] for d in grid))
            return
        cell = min(options, key=lambda c: len(options[c]))
        for digit in options[cell]:
            grid[cell] = digit
            search()
            grid[cell] = 0
            if len(found) >= limit:
                return

    search()
    return found


def digits(line: str) -> list[int]:
    return [0 if c in ".0" else "123456789ABCDEFG".index(c) + 1 for c in line]


# -- notation -----------------------------------------------------------------------------------


def test_the_default_is_project_eulers_first_grid_written_with_dots():
    state = Sudoku.from_position("")
    assert GAMES["sudoku"] is Sudoku and Sudoku.default_position == EULER_1
    assert state.position() == EULER_1.replace("0", ".")
    assert state.shape() == (9, 9) and len(state.givens()) == 32
    spaced = "\n".join(EULER_1[row * 9 : row * 9 + 9] for row in range(9))
    assert Sudoku.from_position(spaced).position() == state.position()


def test_four_by_four_and_sixteen_by_sixteen_lines():
    small = Sudoku.from_position("1..." + "." * 12)
    assert small.shape() == (4, 4) and small.position() == "1" + "." * 15
    assert len(small.constraint_model().variables) == 16
    big = Sudoku.from_position("g" + "." * 254 + "A")
    assert big.shape() == (16, 16) and big.position() == "G" + "." * 254 + "A"
    big.play_text("r1c2=b")
    assert big.position().startswith("GB.") and big.format_move((1, 11)) == "r1c2=B"
    assert big.parse_move("r16c1=1") == (240, 1)


def test_the_model_names_its_variables_and_constraints():
    model = Sudoku.from_position("").constraint_model()
    assert model.variables[0] == "r1c1" and model.variables[42] == "r5c7"
    names = [constraint.name for constraint in model.constraints]
    assert names[:2] == ["row 1", "row 2"] and "column 3" in names and names[-1] == "box 9"
    assert model.constraints[names.index("box 4")].scope == (27, 28, 29, 36, 37, 38, 45, 46, 47)
    assert set(model.domains) == {tuple(range(1, 10))}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * 80, r"80 cells: a sudoku line has 81 \(9x9\), 16 \(4x4\) or 256 \(16x16\)"),
        ("5" + "x" + "." * 79, r"cell r1c2 \('x'\) is not a digit from 1 to 9 nor \. for a blank"),
        ("12" + "5" + "." * 13, r"cell r1c3 \('5'\) is not a digit from 1 to 4"),
        ("3" + "." * 8 + "3" + "." * 71, r"r2c1=3 clashes with r1c1=3 \(column 1\)"),
        ("1.1" + "." * 78, r"the givens clash: r1c3=1 clashes with r1c1=1 \(row 1\)"),
        ("1" + "." * 9 + "1" + "." * 70, r"r2c2=1 clashes with r1c1=1 \(box 1\)"),
        # the line as the brief gave it: row 7 garbled, two 3s in box 9
        (
            "003020600900305001001806400008102900700000008006708200200609003800203009005010300",
            r"r9c7=3 clashes with r7c9=3 \(box 9\)",
        ),
    ],
)
def test_bad_positions_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError, match=message):
        Sudoku.read_position(text)


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("r1c1=3", IllegalMoveError, r"^r1c1=3 clashes with r1c3=3 \(row 1\)$"),
        ("r1c1=9", IllegalMoveError, r"^r1c1=9 clashes with r2c1=9 \(column 1\)$"),
        ("r1c2=1", IllegalMoveError, r"^r1c2=1 clashes with r3c3=1 \(box 1\)$"),
        ("r1c3=4", IllegalMoveError, r"^r1c3 already holds 3$"),
        ("r10c1=1", NotationError, r"^no variable 'r10c1' in this puzzle$"),
        ("r1c1=A", NotationError, r"'A' is not a digit of this sudoku \(1 to 9\)"),
        ("r1c1", NotationError, r"is not an assignment: expected variable=value, e\.g\."),
    ],
)
def test_bad_moves_are_refused_naming_the_culprit(move, error, message):
    state = Sudoku.from_position("")
    with pytest.raises(error, match=message):
        state.read_move(move)


def test_moves_read_write_and_undo():
    state = Sudoku.from_position("")
    move = state.parse_move("r1c1=4")
    assert move == (0, 4) and state.format_move(move) == "r1c1=4"
    state.play(move)
    assert state.position().startswith("4.3") and state.assignment()[0] == 4
    again = Sudoku.from_position(state.position())
    assert again.key() == state.key() and 0 in again.givens() and 0 not in state.givens()
    state.undo()
    assert state.position() == Sudoku.from_position("").position()


# -- move counts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "count"),
    [
        (EULER_1, 159),
        ("." * 16, 64),
        ("." * 81, 729),
        ("1..." + "..2." + "." * 8, 42),
        ("12.." + "34.." + "." * 8, 32),
        (EULER_1_SOLVED[:-1] + ".", 1),
        # r1c3 can hold nothing: a dead end, no move
        ("12.." + "...4" + "..3." + "." * 4, 0),
    ],
)
def test_legal_move_counts_match_a_plain_count(line, count):
    state = Sudoku.from_position(line)
    size = state.shape()[0]
    assert len(state.legal_moves()) == count == plain_moves(digits(line), size)
    assert state.is_terminal() == (count == 0)


@pytest.mark.parametrize(
    ("line", "depth", "count"),
    [("." * 16, 2, 3392), ("1..." + "..2." + "." * 8, 3, 33544), (EULER_1, 2, 20634)],
)
def test_perft_matches_a_plain_implementation(line, depth, count):
    state = Sudoku.from_position(line)
    assert perft(state, depth) == count == plain_perft(digits(line), state.shape()[0], depth)


# -- known answers ------------------------------------------------------------------------------


def test_project_euler_s_first_grid_has_its_one_published_solution():
    assert solutions(digits(EULER_1), 9) == [EULER_1_SOLVED]
    assert all(g in ".0" or g == s for g, s in zip(EULER_1, EULER_1_SOLVED, strict=True))
    state = Sudoku.from_position("")
    model = state.constraint_model()
    solved = digits(EULER_1_SOLVED)
    assert all(c.satisfied([solved[v] for v in c.scope]) for c in model.constraints)
    for cell in state.unassigned():
        state.play_text(f"{model.variables[cell]}={EULER_1_SOLVED[cell]}")
    assert state.is_terminal() and state.returns() == (1.0,)
    assert state.terminal_reason() == "solved" and state.position() == EULER_1_SOLVED
    assert state.legal_moves() == []


def count_by_moves(state: Sudoku) -> int:
    """Completed grids reached by the game's own moves, filling the first blank each time."""
    if state.is_terminal():
        return 1 if state.returns() == (1.0,) else 0
    first = state.unassigned()[0]
    total = 0
    for move in [move for move in state.legal_moves() if move[0] == first]:
        state.play(move)
        total += count_by_moves(state)
        state.undo()
    return total


def test_the_empty_four_by_four_has_288_grids():
    assert len(solutions(digits("." * 16), 4, limit=1000)) == 288
    assert count_by_moves(Sudoku.from_position("." * 16)) == 288


def test_a_dead_end_is_over_and_says_which_cell_is_stuck():
    state = Sudoku.from_position("12.." + "...4" + "..3." + "." * 4)
    assert state.is_terminal() and state.returns() == (0.0,)
    assert state.terminal_reason() == "r1c3 has no value left"


# -- drawing ------------------------------------------------------------------------------------


def test_the_grid_is_drawn_with_its_boxes():
    assert Sudoku.from_position("").render() == "\n".join(
        [
            ". . 3 | . 2 . | 6 . .",
            "9 . . | 3 . 5 | . . 1",
            ". . 1 | 8 . 6 | 4 . .",
            "------+-------+------",
            ". . 8 | 1 . 2 | 9 . .",
            "7 . . | . . . | . . 8",
            ". . 6 | 7 . 8 | 2 . .",
            "------+-------+------",
            ". . 2 | 6 . 9 | 5 . .",
            "8 . . | 2 . 3 | . . 9",
            ". . 5 | . 1 . | 3 . .",
        ]
    )
    assert Sudoku.from_position("1234" + "." * 12).render() == (
        "1 2 | 3 4\n. . | . .\n----+----\n. . | . .\n. . | . ."
    )


def test_the_diagram_tells_givens_from_placed_digits():
    state = Sudoku.from_position("")
    state.play_text("r1c1=4")
    diagram = state.diagram((0, 4))
    assert (diagram.kind, diagram.rows, diagram.columns) == (GRID, 9, 9)
    by_id = {place.id: place for place in diagram.places}
    assert (by_id["r1c1"].piece, by_id["r1c1"].owner) == ("4", 0)
    assert (by_id["r1c3"].piece, by_id["r1c3"].owner) == ("3", NOBODY)
    assert (by_id["r1c2"].piece, by_id["r9c9"].row, by_id["r9c9"].column) == ("", 8, 8)
    assert diagram.highlights == ("r1c1",)
    targets = {target.move: target.to_places for target in diagram.targets}
    assert set(targets) == set(state.legal_moves())
    assert targets[state.parse_move("r1c2=8")] == ("r1c2",)
    assert diagram.row_labels[0] == "1" and diagram.column_labels[8] == "9"
    assert (diagram.block_rows, diagram.block_columns) == (3, 3)  # the boxes
    small = Sudoku.from_position("12.4341.2143432.").diagram()
    assert (small.rows, small.block_rows, small.block_columns) == (4, 2, 2)
    assert problems(diagram, 1) == [] and problems(replace(diagram, block_rows=4), 1) == [
        "blocks of 4 do not divide a grid's 9 rows or columns"
    ]
