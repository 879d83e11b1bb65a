"""Connect Four on bitboards, after Pascal Pons's solver (http://blog.gamesolver.org).

Bit ``7 * column + row`` is a cell (row 0 at the bottom); bit 6 of every column is an
always-empty sentinel so that shifts never carry between columns. The state is two
bitboards: `current` (stones of the side to move) and `mask` (all stones).
"""

from __future__ import annotations

import copy
import random
import re
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import (
    Evaluation,
    HashKey,
    MoveOrdering,
    Playout,
    Presentation,
    SolverHooks,
    Symmetry,
)
from kibitz.games.presentation import GRID, Diagram, Place, Target

WIDTH = 7
HEIGHT = 6
_STRIDE = HEIGHT + 1
_CELLS = WIDTH * HEIGHT
_MARKS = "xo"

_BOTTOM = tuple(1 << (_STRIDE * col) for col in range(WIDTH))
_TOP = tuple(1 << (_STRIDE * col + HEIGHT - 1) for col in range(WIDTH))
_COLUMN = tuple(((1 << HEIGHT) - 1) << (_STRIDE * col) for col in range(WIDTH))
_BOTTOM_ROW = sum(_BOTTOM)
_BOARD = sum(_COLUMN)

CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
"""Centre-first column order."""

CELL_WEIGHTS = (
    (3, 4, 5, 7, 5, 4, 3),
    (4, 6, 8, 10, 8, 6, 4),
    (5, 8, 11, 13, 11, 8, 5),
    (5, 8, 11, 13, 11, 8, 5),
    (4, 6, 8, 10, 8, 6, 4),
    (3, 4, 5, 7, 5, 4, 3),
)
"""Number of possible fours through each cell (rows bottom to top)."""
WEIGHT_PLANES = tuple(
    sum(
        1 << (_STRIDE * col + row)
        for row in range(HEIGHT)
        for col in range(WIDTH)
        if CELL_WEIGHTS[row][col] >> plane & 1
    )
    for plane in range(4)
)
"""The bits of CELL_WEIGHTS (all below 16) as four cell sets: plane k holds the cells whose
weight has bit k set, so the stones' total weight is the sum of popcount(stones & plane k)
shifted left by k."""
_PLANE0, _PLANE1, _PLANE2, _PLANE3 = WEIGHT_PLANES
THREAT_VALUE = 30
CAN_WIN_NOW = 5_000
"""evaluate() when the side to move has an immediate win (search should find it anyway)."""

_SEPARATORS = re.compile(r"[\s,]+")


def _has_four(stones: int) -> bool:
    """Four in a row anywhere among `stones`: horizontal, both diagonals, vertical."""
    m = stones & (stones >> _STRIDE)
    if m & (m >> 2 * _STRIDE):
        return True
    m = stones & (stones >> HEIGHT)
    if m & (m >> 2 * HEIGHT):
        return True
    m = stones & (stones >> (HEIGHT + 2))
    if m & (m >> 2 * (HEIGHT + 2)):
        return True
    m = stones & (stones >> 1)
    return bool(m & (m >> 2))


def _winning_cells(stones: int, mask: int) -> int:
    """Empty cells (playable or not) where `stones` would complete four in a row."""
    cells = _LINE_ENDS.get(stones)
    if cells is None:
        cells = _remember_line_ends(stones)
    return cells & (_BOARD ^ mask)


def _remember_line_ends(stones: int) -> int:
    if len(_LINE_ENDS) >= _LINE_ENDS_LIMIT:
        _LINE_ENDS.clear()
    cells = _LINE_ENDS[stones] = _line_ends(stones)
    return cells


_LINE_ENDS: dict[int, int] = {}
"""Memo of `_line_ends`: a search asks for the same stone sets again and again (a move's
threats when ordering it are the opponent's threats one ply later)."""
_LINE_ENDS_LIMIT = 1 << 18  # about 30 MB


def _line_ends(stones: int) -> int:
    """Cells completing four in a row with `stones` (occupied ones too, outside the board).

    Unrolled over the four directions (1 vertical, 7 horizontal, 6 and 8 diagonal): this
    is the hottest function of a Connect Four search.
    """
    r = (stones << 1) & (stones << 2) & (stones << 3)
    p = (stones << 7) & (stones << 14)
    r |= p & ((stones << 21) | (stones >> 7))
    p = (stones >> 7) & (stones >> 14)
    r |= p & ((stones << 7) | (stones >> 21))
    p = (stones << 6) & (stones << 12)
    r |= p & ((stones << 18) | (stones >> 6))
    p = (stones >> 6) & (stones >> 12)
    r |= p & ((stones << 6) | (stones >> 18))
    p = (stones << 8) & (stones << 16)
    r |= p & ((stones << 24) | (stones >> 8))
    p = (stones >> 8) & (stones >> 16)
    r |= p & ((stones << 8) | (stones >> 24))
    return r


def _columns(bits: int) -> list[int]:
    """Columns (in centre-first order) having a bit in `bits`."""
    return [col for col in CENTRE_FIRST if bits & _COLUMN[col]]


def _mirror(bits: int) -> int:
    out = 0
    for col in range(WIDTH):
        out |= ((bits >> (_STRIDE * col)) & 0x7F) << (_STRIDE * (WIDTH - 1 - col))
    return out


_MIRROR_BIT = {
    1 << (_STRIDE * col + row): 1 << (_STRIDE * (WIDTH - 1 - col) + row)
    for col in range(WIDTH)
    for row in range(HEIGHT)
}


_TIEBREAK_COLUMNS = tuple((7 - rank, _COLUMN[col]) for rank, col in enumerate(CENTRE_FIRST))
"""(tiebreak, column mask) in centre-first order; a larger tiebreak sorts first."""
_TIEBREAK_COLUMN = {7 - rank: col for rank, col in enumerate(CENTRE_FIRST)}
_COLUMN_OF_CELL = {1 << (_STRIDE * col + row): col for col in range(WIDTH) for row in range(HEIGHT)}


def _weight(stones: int) -> int:
    """The total CELL_WEIGHTS of `stones` (four popcounts: WEIGHT_PLANES)."""
    return (
        (stones & _PLANE0).bit_count()
        + ((stones & _PLANE1).bit_count() << 1)
        + ((stones & _PLANE2).bit_count() << 2)
        + ((stones & _PLANE3).bit_count() << 3)
    )


class ConnectFour(
    Game, HashKey, Evaluation, MoveOrdering, SolverHooks, Symmetry, Playout, Presentation
):
    """Connect Four, 7 columns by 6 rows; player 0 is x and moves first. Moves are columns 0..6."""

    name: ClassVar[str] = "connect4"
    title: ClassVar[str] = "Connect Four"
    default_position: ClassVar[str] = "/".join(["." * WIDTH] * HEIGHT)
    default_engine: ClassVar[str] = "alphabeta"
    notation: ClassVar[str] = "connect4-rows"
    player_names: ClassVar[tuple[str, ...]] = ("x", "o")
    board_shape: ClassVar[tuple[int, ...]] = (HEIGHT, WIDTH)
    strong_move_order: ClassVar[bool] = True  # threat counting beats history and killers
    notation_help: ClassVar[str] = (
        "Position: either the moves played so far as column digits 1-7, first player "
        "first (e.g. '4453'; empty for the start), or the board as 6 rows from top to "
        "bottom separated by '/', each 7 cells of x (first player), o or '.', e.g. "
        "'......./......./......./......./...o.../...xx..'. The side to move follows "
        "from the counts. A move is a column digit 1-7; a move list may be written "
        "without separators, e.g. '4453'."
    )

    def __init__(self, current: int = 0, mask: int = 0) -> None:
        self._current = current
        self._mask = mask
        self._mirror_current = _mirror(current)  # the mirror image, kept in step for
        self._mirror_mask = _mirror(mask)  # symmetric transposition-table keys
        self._moves = mask.bit_count()
        self._history: list[int] = []
        self._won = _has_four(current ^ mask)

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> ConnectFour:
        text = text.strip()
        if "/" in text:
            return _parse_board(cls, text)
        if _SEPARATORS.sub("", text).isdigit() or not text:
            game = cls()
            game.play_line(game.split_moves(text))
            return game
        raise NotationError(
            f"{quoted(text)} is neither a move sequence like '4453' "
            "nor a board of 6 rows separated by '/'"
        )

    def position(self) -> str:
        rows = []
        for row in reversed(range(HEIGHT)):
            rows.append("".join(self._mark_at(col, row) for col in range(WIDTH)))
        return "/".join(rows)

    def parse_move(self, text: str) -> Move:
        digit = text.strip()
        if len(digit) != 1 or digit not in "1234567":
            raise NotationError(f"{quoted(text)} is not a column: expected a digit 1-7")
        col = int(digit) - 1
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over: {self.terminal_reason()}")
        if self._mask & _TOP[col]:
            raise IllegalMoveError(f"column {digit} is full")
        return col

    def format_move(self, move: Move) -> str:
        return str(move + 1)

    def split_moves(self, text: str) -> list[str]:
        """Whitespace/comma separated moves; a run of digits is one move per digit."""
        out: list[str] = []
        for token in super().split_moves(text):
            out.extend(list(token) if token.isdigit() else [token])
        return out

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._moves & 1

    def legal_moves(self) -> list[Move]:
        if self._won:
            return []
        mask = self._mask
        return [col for col in range(WIDTH) if not mask & _TOP[col]]

    def play(self, move: Move) -> None:
        mask = self._mask
        bit = (mask + _BOTTOM[move]) & _COLUMN[move]
        ends = _LINE_ENDS.get(self._current)
        if ends is None:
            ends = _remember_line_ends(self._current)
        self._won = bool(bit & ends)
        self._current ^= mask
        self._mask = mask | bit
        self._mirror_current ^= self._mirror_mask
        self._mirror_mask |= _MIRROR_BIT[bit]
        self._moves += 1
        self._history.append(bit)

    def undo(self) -> None:
        """Take back the last move (legal play never continues after a win)."""
        bit = self._history.pop()
        self._mask ^= bit
        self._current ^= self._mask
        self._mirror_mask ^= _MIRROR_BIT[bit]
        self._mirror_current ^= self._mirror_mask
        self._moves -= 1
        self._won = False

    def is_terminal(self) -> bool:
        return self._won or self._moves == _CELLS

    def clone(self) -> ConnectFour:
        other = copy.copy(self)
        other._history = self._history.copy()
        return other

    def returns(self) -> tuple[float, ...]:
        if not self._won:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self._moves & 1 == 0 else (1.0, -1.0)

    def terminal_reason(self) -> str:
        if self._won:
            return f"{_MARKS[(self._moves - 1) & 1]} has four in a row"
        return "draw: the board is full"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        """Pons's unique key ``current + mask`` (the side to move follows from the count)."""
        return self._current + self._mask

    def mirror_key(self) -> int:
        """`key()` of the left-right mirrored position."""
        return self._mirror_current + self._mirror_mask

    def symmetric_key(self) -> tuple[int, bool]:
        """The smaller of `key()` and `mirror_key()`, and whether it is the mirror's."""
        key = self._current + self._mask
        mirrored = self._mirror_current + self._mirror_mask
        return (mirrored, True) if mirrored < key else (key, False)

    def bitboards(self) -> tuple[int, int]:
        """(`current`, `mask`): the stones of the side to move and all stones (module docstring)."""
        return self._current, self._mask

    def mirror_move(self, move: Move) -> Move:
        """The column's mirror image."""
        return WIDTH - 1 - move

    def moves_played(self) -> int:
        """Number of stones on the board."""
        return self._moves

    def winning_moves(self) -> list[int]:
        """Columns where the side to move completes four in a row now (centre first)."""
        if self._won or self._moves == _CELLS:
            return []
        mask = self._mask
        wins = (mask + _BOTTOM_ROW) & _BOARD & _winning_cells(self._current, mask)
        return _columns(wins) if wins else []

    def can_win_next(self) -> bool:
        """Whether the side to move has a move that wins at once."""
        if self.is_terminal():
            return False
        return bool(self._possible() & _winning_cells(self._current, self._mask))

    def non_losing_moves(self) -> list[int]:
        """Columns after which the opponent cannot win at once (Pons's possibleNonLosingMoves).

        Call it when `can_win_next()` is false, as Pons does: a move that wins at once is
        left out if the opponent also threatens somewhere. If the opponent has two or more
        immediate threats, every move loses and the list is empty. Same order as
        `ordered_moves()`.
        """
        if self._won or self._moves == _CELLS:
            return []
        mask = self._mask
        possible = (mask + _BOTTOM_ROW) & _BOARD
        threats = _winning_cells(self._current ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return []
            possible = forced
        return self._by_threats(possible & ~(threats >> 1))

    def evaluate(self, player: int | None = None) -> int:
        """Threat cells (each player's empty cells completing a four) and central stones."""
        mask = self._mask
        mine, theirs = self._current, self._current ^ mask
        my_threats = _winning_cells(mine, mask)
        if my_threats & self._possible() and not self._won:
            value = CAN_WIN_NOW
        else:
            threat_diff = my_threats.bit_count() - _winning_cells(theirs, mask).bit_count()
            value = THREAT_VALUE * threat_diff + _weight(mine) - _weight(theirs)
        return value if player is None or player == self._moves & 1 else -value

    def ordered_moves(self) -> list[Move]:
        """Centre first, then stably by the number of cells the move lets the mover win at."""
        if self.is_terminal():
            return []
        return self._by_threats(self._possible())

    def _by_threats(self, cells: int) -> list[int]:
        """Columns of the playable `cells`, most new threats for the mover first, centre-first.

        Sorts plain ints ``threats << 3 | tiebreak`` (hot path: no key function, no tuples).
        """
        if not cells & (cells - 1):  # zero or one cell: nothing to order
            return [_COLUMN_OF_CELL[cells]] if cells else []
        current, mask = self._current, self._mask
        ranked = [
            _winning_cells(current | bit, mask).bit_count() << 3 | tiebreak
            for tiebreak, column in _TIEBREAK_COLUMNS
            if (bit := cells & column)
        ]
        ranked.sort(reverse=True)
        return [_TIEBREAK_COLUMN[entry & 7] for entry in ranked]

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Uniformly random columns to the end, on local bitboards (about 4x `play`)."""
        if self._won:
            return self.returns()
        current, mask, moves = self._current, self._mask, self._moves
        free = [col for col in range(WIDTH) if not mask & _TOP[col]]
        draw = rng.random
        while moves < _CELLS:
            index = int(draw() * len(free))
            col = free[index]
            bit = (mask + _BOTTOM[col]) & _COLUMN[col]
            if record is not None:
                record.append((moves & 1, col))
            if _has_four(current | bit):
                return (1.0, -1.0) if moves & 1 == 0 else (-1.0, 1.0)
            current ^= mask
            mask |= bit
            moves += 1
            if bit & _TOP[col]:
                free[index] = free[-1]
                free.pop()
        return (0.0, 0.0)

    def render(self) -> str:
        lines = []
        for row in reversed(range(HEIGHT)):
            lines.append(" ".join(self._mark_at(col, row) for col in range(WIDTH)))
        lines.append(" ".join(str(col + 1) for col in range(WIDTH)))
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """Six rows of seven cells, the top row first; a click anywhere in a column that is
        not full drops a disc there. The last disc dropped is highlighted."""
        places = []
        for top in range(HEIGHT):
            for col in range(WIDTH):
                mark = self._mark_at(col, HEIGHT - 1 - top)
                owner = _MARKS.find(mark)
                places.append(
                    Place(_place(col, top), top, col, "disc" if owner >= 0 else "", owner)
                )
        highlights = ()
        if last is not None:
            height = (self._mask & _COLUMN[last]).bit_count()
            highlights = (_place(last, HEIGHT - height),) if height else ()
        return Diagram(
            GRID,
            rows=HEIGHT,
            columns=WIDTH,
            places=tuple(places),
            targets=tuple(
                Target(col, tuple(_place(col, top) for top in range(HEIGHT)))
                for col in self.legal_moves()
            ),
            highlights=highlights,
            column_labels=tuple(str(col + 1) for col in range(WIDTH)),
            colors=("#d33f2f", "#e8b923"),
        )

    def _possible(self) -> int:
        """The playable cell of every column that is not full."""
        return (self._mask + _BOTTOM_ROW) & _BOARD

    def _mark_at(self, col: int, row: int) -> str:
        bit = 1 << (_STRIDE * col + row)
        if not self._mask & bit:
            return "."
        mover_is_x = self._moves & 1 == 0
        return "x" if bool(self._current & bit) == mover_is_x else "o"


def _place(col: int, top: int) -> str:
    """A cell's place id in the diagram: column 1-7, then row 1-6 from the top."""
    return f"{col + 1}.{top + 1}"


def _parse_board(cls: type[ConnectFour], text: str) -> ConnectFour:
    """Read a board of 6 rows (top first) and check that it can arise in a game."""
    stones = _read_rows(text)
    x, o = stones
    nx, no = x.bit_count(), o.bit_count()
    _check_gravity(x | o)
    if nx - no not in (0, 1):
        raise NotationError(
            f"x has {nx} stones and o has {no}: x moves first, "
            "so x must have as many stones as o or one more"
        )
    last = 1 if nx == no else 0
    _check_fours(stones, last)
    return cls(stones[last ^ 1], x | o)


def _read_rows(text: str) -> list[int]:
    rows = text.split("/")
    if len(rows) != HEIGHT:
        raise NotationError(f"the board has {len(rows)} rows, expected {HEIGHT} separated by '/'")
    stones = [0, 0]
    for index, row_text in enumerate(rows, start=1):
        if len(row_text) != WIDTH:
            raise NotationError(
                f"row {index} from the top ({quoted(row_text)}) has {len(row_text)} cells, "
                f"expected {WIDTH}"
            )
        for col, char in enumerate(row_text):
            if char not in "xo.":
                raise NotationError(
                    f"row {index} from the top, column {col + 1}: {char!r} is not x, o or '.'"
                )
            if char != ".":
                stones[_MARKS.index(char)] |= 1 << (_STRIDE * col + HEIGHT - index)
    return stones


def _check_gravity(mask: int) -> None:
    for col in range(WIDTH):
        column = mask & _COLUMN[col]
        if column & (column + _BOTTOM[col]):
            gap = (column + _BOTTOM[col]) & ~column & _COLUMN[col]
            row = HEIGHT - (gap.bit_length() - 1 - _STRIDE * col)
            raise NotationError(
                f"column {col + 1}: the cell in row {row} from the top is empty "
                "but has a stone above it"
            )


def _check_fours(stones: list[int], last: int) -> None:
    """Only the player who moved last may have four in a row, made by that last move."""
    fours = [_has_four(s) for s in stones]
    if all(fours):
        raise NotationError("both x and o have four in a row")
    if fours[last ^ 1]:
        raise NotationError(
            f"{_MARKS[last ^ 1]} has four in a row but {_MARKS[last]} moved last "
            "(the game was already over)"
        )
    if fours[last] and not _last_stone_can_complete(stones[last], stones[0] | stones[1]):
        raise NotationError(
            f"{_MARKS[last]} has four in a row that no single last move completed "
            "(the game was already over)"
        )


def _last_stone_can_complete(winner: int, mask: int) -> bool:
    """Is there a top stone of `winner` without which `winner` has no four?"""
    for col in range(WIDTH):
        column = mask & _COLUMN[col]
        top = (column + _BOTTOM[col]) >> 1 & column
        if top & winner and not _has_four(winner ^ top):
            return True
    return False


def solver_score(outcome: int, plies: int, stones: int) -> int:
    """A proven result in the published solver convention (Pons's test sets).

    `outcome` is +1/0/-1 for the side to move, `plies` the distance to the end, `stones`
    the number of stones on the board now. A win scores 22 minus the winner's stone count
    when it wins (the winning stone included); a loss is minus the opponent's winning score.
    """
    if outcome == 0:
        return 0
    mover_stones, opponent_stones = stones // 2, (stones + 1) // 2
    if outcome > 0:
        return 22 - (mover_stones + (plies + 1) // 2)
    return -(22 - (opponent_stones + plies // 2))
