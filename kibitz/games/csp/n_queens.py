"""The n-queens puzzle as a constraint puzzle (docs/games.md, "Constraint puzzles").

n queens on an n x n board, no two on a row, a column or a diagonal. The model: a variable
per file (column), named ``a``, ``b``, ... (after ``z``: ``aa``, ``ab``, ...), its value the
rank (row) 1..n of the file's queen; an `AllDifferent` over every file (``same row``) and a
`Binary` per pair of files (``same diagonal``). A move places a queen: ``c5`` (``c=5`` is
read too). A position is the board size, 1 to 64, with the queens already placed after a
colon: ``8`` or ``8:a1,c5``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import ClassVar

from kibitz.games.base import Move, NotationError, capped_int, quoted
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.model import AllDifferent, Binary, Model
from kibitz.games.presentation import GRID, Diagram, Place, targets_of

MIN_SIZE, MAX_SIZE = 1, 64
QUEEN = "♛"

_POSITION = re.compile(r"\s*([0-9]+)\s*(?::(.*))?", re.DOTALL)
_MOVE = re.compile(r"\s*([A-Za-z]+)\s*=?\s*([0-9]+)\s*")


def file_name(index: int) -> str:
    """The name of file `index` (0-based): a..z, then aa, ab, ..."""
    letters = ""
    index += 1
    while index:
        index, letter = divmod(index - 1, 26)
        letters = chr(ord("a") + letter) + letters
    return letters


def _off_diagonal(distance: int):
    """The relation of two files `distance` apart: their queens share no diagonal."""
    return lambda first, second: abs(first - second) != distance


def _off_diagonal_supports(distance: int):
    """`_off_diagonal`'s supports (`Binary.supports`): every rank but those on a diagonal
    with `value`, `distance` ranks up and down (either side alike)."""

    def supports(side: int, value: int) -> int:
        below = 1 << value - distance if value > distance else 0
        return ~(1 << value + distance | below)

    return supports


@cache
def queens_model(size: int) -> Model:
    """The model of the empty size x size board (see the module docstring)."""
    files = range(size)
    diagonals = tuple(
        Binary(
            (first, second),
            "same diagonal",
            relation=_off_diagonal(second - first),
            supports=_off_diagonal_supports(second - first),
        )
        for first in files
        for second in range(first + 1, size)
    )
    rows = AllDifferent(tuple(files), "same row")
    ranks = tuple(range(1, size + 1))
    return Model(tuple(map(file_name, files)), (ranks,) * size, (rows, *diagonals))


class NQueens(ConstraintGame, Presentation):
    """n queens to place on an n x n board (see the module docstring)."""

    name: ClassVar[str] = "n-queens"
    title: ClassVar[str] = "N queens"
    default_position: ClassVar[str] = "8"
    board_shape: ClassVar[tuple[int, ...]] = (8, 8)
    notation_help: ClassVar[str] = (
        "Position: the board size from 1 to 64, with any queens already placed after a "
        "colon: '8' or '8:a1,c5'. A move places a queen on a file (column a, b, ...; after "
        "z: aa, ab, ...) at a rank (row) from 1: 'c5' (or 'c=5'). No two queens may share "
        "a row, a column or a diagonal."
    )

    def __init__(self, size: int) -> None:
        super().__init__(queens_model(size), [None] * size)
        self._size = size

    @classmethod
    def from_position(cls, text: str) -> NQueens:
        match = _POSITION.fullmatch(text.strip() or cls.default_position)
        if match is None:
            raise NotationError(
                f"{quoted(text)} is not an n-queens position: expected the board size and "
                "any queens placed, e.g. 8 or 8:a1,c5"
            )
        size = capped_int(match[1], MAX_SIZE)
        if not MIN_SIZE <= size <= MAX_SIZE:
            shown = match[1] if len(match[1]) <= 12 else quoted(match[1], 12)
            raise NotationError(f"a board of {shown}: the size is from 1 to {MAX_SIZE}")
        state = cls(size)
        state.read_givens(match[2] or "")
        return state

    def position(self) -> str:
        queens = self.givens_text().replace(" ", ",")
        return f"{self._size}:{queens}" if queens else str(self._size)

    def parse_move(self, text: str) -> Move:
        match = _MOVE.fullmatch(text)
        if match is None:
            raise NotationError(
                f"{quoted(text)} is not a queen's square: expected a file and a rank, e.g. c5"
            )
        file, rank = match[1].lower(), capped_int(match[2], MAX_SIZE)
        variable = self._index.get(file)
        if variable is None:
            raise NotationError(
                f"no file {quoted(file, 4)} on a board of {self._size}: files a to "
                f"{file_name(self._size - 1)}"
            )
        if not 1 <= rank <= self._size:
            raise NotationError(f"rank {quoted(match[2], 12)} is off the board (1 to {self._size})")
        self.check_assignment(variable, rank)
        return (variable, rank)

    def format_move(self, move: Move) -> str:
        variable, rank = move  # type: ignore[misc]
        return f"{file_name(variable)}{rank}"

    def shape(self) -> tuple[int, ...]:
        return (self._size, self._size)

    def render(self) -> str:
        """The board, rank n at the top: Q a queen, . an empty square."""
        size = self._size
        width = len(file_name(size - 1))
        digits = len(str(size))
        lines = [
            f"{rank:>{digits}} "
            + " ".join(
                f"{'Q' if value == rank else '.':<{width}}" for value in self._values
            ).rstrip()
            for rank in range(size, 0, -1)
        ]
        files = " ".join(f"{file_name(file):<{width}}" for file in range(size)).rstrip()
        return "\n".join([*lines, " " * (digits + 1) + files])

    def diagram(self, last: Move | None = None) -> Diagram:
        """The board, rank n at the top, queens as ♛; a click on a square places a queen."""
        size = self._size

        def square(file: int, rank: int) -> str:
            return f"{file_name(file)}{rank}"

        places = tuple(
            Place(
                square(file, rank),
                size - rank,
                file,
                QUEEN if self._values[file] == rank else "",
                0 if self._values[file] == rank else -1,
            )
            for rank in range(size, 0, -1)
            for file in range(size)
        )
        return Diagram(
            GRID,
            rows=size,
            columns=size,
            places=places,
            targets=targets_of(self.legal_moves(), lambda move: square(*move)),  # type: ignore[misc]
            highlights=() if last is None else (square(*last),),  # type: ignore[misc]
            column_labels=tuple(file_name(file) for file in range(size)),
            row_labels=tuple(str(rank) for rank in range(size, 0, -1)),
            checkered=True,
        )
