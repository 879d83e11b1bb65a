"""Sudoku as a constraint puzzle (docs/games.md, "Constraint puzzles").

The grid is n x n cells (4x4, 9x9 or 16x16) in boxes of b x b (n = b * b); each row,
column and box holds every digit 1..n once. The model: a variable per cell, named
``r<row>c<col>`` (1-based), its domain the digits 1..n, and an `AllDifferent` per row,
column and box, named ``row 5``, ``column 3``, ``box 4`` (boxes counted row by row from
the top left). A move places a digit: ``r5c3=7``; on 16x16 the digits are written
``1-9A-G`` (``r12c16=C``).

A position is the line every published collection uses: the cells row by row, a digit
each, ``.`` or ``0`` for a blank, whitespace ignored (81 characters for 9x9, 16 for 4x4,
256 for 16x16). Givens that clash are refused naming both cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import ClassVar

from kibitz.games.base import Move, NotationError, quoted
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.model import AllDifferent, Model
from kibitz.games.presentation import GRID, NOBODY, Diagram, Place, targets_of

DIGITS = "123456789ABCDEFG"
"""Digit d (1-based) is written DIGITS[d - 1]."""
BOXES = {16: 2, 81: 3, 256: 4}
"""The box side b of each grid, by its number of cells (b ** 4)."""
BLANKS = ".0"
PROJECT_EULER_96_FIRST = (
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
)
"""Grid 01 of Project Euler problem 96 (projecteuler.net/problem=96)."""


@cache
def sudoku_model(box: int) -> Model:
    """The model of the empty (box * box)-square grid (see the module docstring)."""
    size = box * box
    variables = tuple(f"r{row + 1}c{column + 1}" for row in range(size) for column in range(size))
    cells = range(size)
    rows = [
        AllDifferent(tuple(row * size + column for column in cells), f"row {row + 1}")
        for row in cells
    ]
    columns = [
        AllDifferent(tuple(row * size + column for row in cells), f"column {column + 1}")
        for column in cells
    ]
    boxes = [
        AllDifferent(
            tuple(
                (top + row) * size + left + column for row in range(box) for column in range(box)
            ),
            f"box {number + 1}",
        )
        for number, (top, left) in enumerate(
            (top, left) for top in range(0, size, box) for left in range(0, size, box)
        )
    ]
    domain = tuple(range(1, size + 1))
    return Model(variables, (domain,) * (size * size), (*rows, *columns, *boxes))


class Sudoku(ConstraintGame, Presentation):
    """A sudoku grid (see the module docstring)."""

    name: ClassVar[str] = "sudoku"
    title: ClassVar[str] = "Sudoku"
    default_position: ClassVar[str] = PROJECT_EULER_96_FIRST
    notation: ClassVar[str] = "sudoku-line"
    board_shape: ClassVar[tuple[int, ...]] = (9, 9)
    notation_help: ClassVar[str] = (
        "Position: the grid row by row in one line, a digit per cell and . or 0 for a "
        "blank (whitespace ignored): 81 characters for 9x9, 16 for 4x4, 256 for 16x16 "
        "(digits 1-9A-G), e.g. '..3.2.6..9..3.5..1...'. A move places a digit in a cell "
        "named by row and column from 1: 'r5c3=7'."
    )

    def __init__(self, box: int, grid: Sequence[int | None]) -> None:
        size = box * box
        super().__init__(sudoku_model(box), [None] * (size * size))
        self._box, self._size = box, size
        for cell, digit in enumerate(grid):
            if digit is not None:
                self.give(cell, digit)
        self._givens = frozenset(cell for cell, digit in enumerate(grid) if digit is not None)

    @classmethod
    def from_position(cls, text: str) -> Sudoku:
        line = "".join(text.split()) or cls.default_position
        box = BOXES.get(len(line))
        if box is None:
            raise NotationError(
                f"{len(line)} cells: a sudoku line has 81 (9x9), 16 (4x4) or 256 (16x16), "
                "a digit or . per cell"
            )
        size = box * box
        grid: list[int | None] = []
        for cell, char in enumerate(line.upper()):
            digit = DIGITS.find(char) + 1
            if char in BLANKS:
                grid.append(None)
            elif 1 <= digit <= size:
                grid.append(digit)
            else:
                name = f"r{cell // size + 1}c{cell % size + 1}"
                raise NotationError(
                    f"cell {name} ({quoted(line[cell])}) is not a digit from 1 to "
                    f"{DIGITS[size - 1]} nor . for a blank"
                )
        return cls(box, grid)

    def position(self) -> str:
        return "".join("." if value is None else DIGITS[value - 1] for value in self._values)

    def value_label(self, variable: int, value: int) -> str:
        return DIGITS[value - 1]

    def parse_value(self, variable: int, text: str) -> int:
        digit = DIGITS.find(text.upper()) + 1
        if len(text) == 1 and 1 <= digit <= self._size:
            return digit
        raise NotationError(
            f"{quoted(text, 12)} is not a digit of this sudoku (1 to {DIGITS[self._size - 1]})"
        )

    def shape(self) -> tuple[int, ...]:
        return (self._size, self._size)

    def givens(self) -> frozenset[int]:
        """The cells the position gave (not placed by moves), by index."""
        return self._givens

    def render(self) -> str:
        """The grid, boxes parted by lines, . for a blank."""
        box, size = self._box, self._size
        rule = "+".join("-" * (2 * box + 1) for _ in range(box))[1:-1]
        lines = []
        for row in range(size):
            if row and not row % box:
                lines.append(rule)
            cells = [
                "." if value is None else DIGITS[value - 1]
                for value in self._values[row * size : (row + 1) * size]
            ]
            lines.append(
                " | ".join(" ".join(cells[left : left + box]) for left in range(0, size, box))
            )
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """The grid, its boxes marked: digits as text, the givens neutral and the placed
        digits the solver's; a click on a blank cell, then on a digit's label, places it."""
        size = self._size
        places = tuple(
            Place(
                self._model.variables[cell],
                cell // size,
                cell % size,
                "" if value is None else DIGITS[value - 1],
                NOBODY if value is None or cell in self._givens else 0,
            )
            for cell, value in enumerate(self._values)
        )
        names = self._model.variables
        return Diagram(
            GRID,
            rows=size,
            columns=size,
            places=places,
            targets=targets_of(self.legal_moves(), lambda move: names[move[0]]),  # type: ignore[index]
            highlights=() if last is None else (names[last[0]],),  # type: ignore[index]
            column_labels=tuple(str(column + 1) for column in range(size)),
            row_labels=tuple(str(row + 1) for row in range(size)),
            block_rows=self._box,
            block_columns=self._box,
        )
