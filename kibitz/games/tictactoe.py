"""Tic-tac-toe on 9-bit boards (one mask per player).

Cell index = 3 * row + column, row 0 at the bottom, so ``a1`` = 0, ``c1`` = 2, ``c3`` = 8.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import Evaluation, HashKey, MoveOrdering, Presentation
from kibitz.games.presentation import GRID, Diagram, Place, targets_of

FULL = 0x1FF
_MARKS = "xo"
_FILES = "abc"
_PIECES = {"x": ("cross", 0), "o": ("ring", 1)}


def _mask(*cells: int) -> int:
    return sum(1 << cell for cell in cells)


_LINES = (
    _mask(0, 1, 2),
    _mask(3, 4, 5),
    _mask(6, 7, 8),
    _mask(0, 3, 6),
    _mask(1, 4, 7),
    _mask(2, 5, 8),
    _mask(0, 4, 8),
    _mask(2, 4, 6),
)
HAS_LINE = tuple(any(bits & line == line for line in _LINES) for bits in range(FULL + 1))
"""For every 9-bit set of marks: does it contain three in a row?"""

_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)
"""Centre, corners, edges."""

_LINE_VALUE = (10, 30, 100, 1000)
"""Worth of a line no opponent mark blocks, by the number of own marks on it."""

_rng = random.Random(0x7A3)
_ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in range(9)) for _ in range(2))
_ZOBRIST_SIDE = _rng.getrandbits(64)


def cell_name(cell: int) -> str:
    return f"{_FILES[cell % 3]}{cell // 3 + 1}"


class TicTacToe(Game, HashKey, Evaluation, MoveOrdering, Presentation):
    """Tic-tac-toe; player 0 is x and moves first. Moves are cell indices 0..8."""

    name: ClassVar[str] = "tictactoe"
    title: ClassVar[str] = "Tic-tac-toe"
    default_position: ClassVar[str] = ".../.../... x"
    default_engine: ClassVar[str] = "alphabeta"
    notation: ClassVar[str] = "tictactoe-rows"
    player_names: ClassVar[tuple[str, ...]] = ("x", "o")
    board_shape: ClassVar[tuple[int, ...]] = (3, 3)
    notation_help: ClassVar[str] = (
        "Position: the three rows from top to bottom separated by '/', each three cells "
        "of x, o or '.', then optionally a space and the side to move (x or o; inferred "
        "from the counts when omitted, x moves first), e.g. 'x.o/.x./... o'. "
        "Moves are cell names a1..c3: column a-c from left to right, row 1 at the bottom."
    )

    def __init__(self, x_marks: int = 0, o_marks: int = 0) -> None:
        self._marks = [x_marks, o_marks]
        self._side = (x_marks.bit_count() - o_marks.bit_count()) & 1
        self._history: list[int] = []
        self._key = _ZOBRIST_SIDE if self._side else 0
        for player, marks in enumerate(self._marks):
            for cell in range(9):
                if marks >> cell & 1:
                    self._key ^= _ZOBRIST[player][cell]

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> TicTacToe:
        parts = (text.strip().lower() or cls.default_position).split()
        if len(parts) > 2:
            raise NotationError(
                f"unexpected text after the side to move: {quoted(' '.join(parts[2:]))}"
            )
        x_marks, o_marks = _parse_board(parts[0])
        nx, no = x_marks.bit_count(), o_marks.bit_count()
        if nx - no not in (0, 1):
            raise NotationError(
                f"x has {nx} marks and o has {no}: x moves first, "
                "so x must have as many marks as o or one more"
            )
        expected = _MARKS[nx - no]
        if len(parts) == 2 and parts[1] != expected:
            if parts[1] not in _MARKS:
                raise NotationError(f"side to move {quoted(parts[1])} is not x or o")
            raise NotationError(
                f"side to move is {parts[1]} but with {nx} x and {no} o it is {expected}'s turn"
            )
        _check_lines(x_marks, o_marks, last=_MARKS[1 - (nx - no)])
        return cls(x_marks, o_marks)

    def position(self) -> str:
        rows = []
        for row in (2, 1, 0):
            rows.append("".join(self._mark_at(3 * row + col) for col in range(3)))
        return "/".join(rows) + " " + _MARKS[self._side]

    def parse_move(self, text: str) -> Move:
        name = text.strip().lower()
        if len(name) != 2 or name[0] not in _FILES or name[1] not in "123":
            raise NotationError(f"{quoted(text)} is not a cell: expected a1..c3")
        cell = 3 * (int(name[1]) - 1) + _FILES.index(name[0])
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over ({self.terminal_reason()})")
        mark = self._mark_at(cell)
        if mark != ".":
            raise IllegalMoveError(f"{name} is already taken by {mark}")
        return cell

    def format_move(self, move: Move) -> str:
        return cell_name(move)

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._side

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        taken = self._marks[0] | self._marks[1]
        return [cell for cell in range(9) if not taken >> cell & 1]

    def play(self, move: Move) -> None:
        side = self._side
        self._marks[side] |= 1 << move
        self._key ^= _ZOBRIST[side][move] ^ _ZOBRIST_SIDE
        self._side = side ^ 1
        self._history.append(move)

    def undo(self) -> None:
        move = self._history.pop()
        side = self._side ^ 1
        self._marks[side] ^= 1 << move
        self._key ^= _ZOBRIST[side][move] ^ _ZOBRIST_SIDE
        self._side = side

    def clone(self) -> TicTacToe:
        other = copy.copy(self)
        other._marks = self._marks.copy()
        other._history = self._history.copy()
        return other

    def is_terminal(self) -> bool:
        marks = self._marks
        return HAS_LINE[marks[self._side ^ 1]] or marks[0] | marks[1] == FULL

    def returns(self) -> tuple[float, ...]:
        if not HAS_LINE[self._marks[self._side ^ 1]]:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self._side == 0 else (1.0, -1.0)

    def terminal_reason(self) -> str:
        if HAS_LINE[self._marks[self._side ^ 1]]:
            return f"{_MARKS[self._side ^ 1]} has three in a row"
        return "draw: the board is full"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        return self._key

    def evaluate(self, player: int | None = None) -> int:
        """Open lines: each line the opponent does not block, weighted by own marks on it."""
        side = self._side if player is None else player
        mine, theirs = self._marks[side], self._marks[side ^ 1]
        score = 0
        for line in _LINES:
            if not line & theirs:
                score += _LINE_VALUE[(line & mine).bit_count()]
            if not line & mine:
                score -= _LINE_VALUE[(line & theirs).bit_count()]
        return score

    def ordered_moves(self) -> list[Move]:
        """Centre, then corners, then edges."""
        if self.is_terminal():
            return []
        taken = self._marks[0] | self._marks[1]
        return [cell for cell in _ORDER if not taken >> cell & 1]

    def render(self) -> str:
        lines = []
        for row in (2, 1, 0):
            cells = " ".join(self._mark_at(3 * row + col) for col in range(3))
            lines.append(f"{row + 1} {cells}")
        lines.append("  a b c")
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """The 3 x 3 grid, row 3 at the top; a click on an empty cell plays there."""
        return grid_diagram(self._mark_at, self.legal_moves(), last)

    def _mark_at(self, cell: int) -> str:
        if self._marks[0] >> cell & 1:
            return "x"
        if self._marks[1] >> cell & 1:
            return "o"
        return "."


def grid_diagram(mark_at: Callable[[int], str], moves: list[Move], last: Move | None) -> Diagram:
    """The 3 x 3 grid, row 3 at the top, each cell's mark by `mark_at(cell)` ("x", "o" or
    "."); a click on a cell plays the move there where `moves` has one (phantom
    tic-tac-toe draws its views with it too)."""
    places = []
    for top in range(3):
        for col in range(3):
            cell = 3 * (2 - top) + col
            piece, owner = _PIECES.get(mark_at(cell), ("", -1))
            places.append(Place(cell_name(cell), top, col, piece, owner))
    return Diagram(
        GRID,
        rows=3,
        columns=3,
        places=tuple(places),
        targets=targets_of(moves, cell_name),
        highlights=(cell_name(last),) if last is not None else (),
        column_labels=tuple(_FILES),
        row_labels=("3", "2", "1"),
        colors=("#d33f2f", "#2f6f9f"),
    )


def _parse_board(board: str) -> tuple[int, int]:
    """Read ``x.o/.x./...`` into (x marks, o marks)."""
    rows = board.split("/")
    if len(rows) != 3:
        raise NotationError(f"the board has {len(rows)} rows, expected 3 separated by '/'")
    marks = [0, 0]
    for index, row_text in enumerate(rows):
        row = 2 - index
        if len(row_text) != 3:
            raise NotationError(
                f"row {row + 1} ({quoted(row_text)}) has {len(row_text)} cells, expected 3"
            )
        for col, char in enumerate(row_text):
            cell = 3 * row + col
            if char not in "xo.":
                raise NotationError(f"cell {cell_name(cell)}: {char!r} is not x, o or '.'")
            if char != ".":
                marks[_MARKS.index(char)] |= 1 << cell
    return marks[0], marks[1]


def _check_lines(x_marks: int, o_marks: int, last: str) -> None:
    """Only the player who moved last may have three in a row.

    With at most five marks a player's lines always share a cell, so the last move can
    have completed all of them; no further check is needed.
    """
    x_line, o_line = HAS_LINE[x_marks], HAS_LINE[o_marks]
    if x_line and o_line:
        raise NotationError("both x and o have three in a row")
    winner = "x" if x_line else "o" if o_line else None
    if winner is not None and winner != last:
        raise NotationError(
            f"{winner} has three in a row but {last} moved last (the game was already over)"
        )
