"""The sliding-tile puzzle (8-puzzle, 15-puzzle, 24-puzzle, rectangles from 2x2 to 8x8) as a
one-player game with the `Puzzle` capability (docs/games.md, "Sliding puzzle").

Cells are numbered row by row from 0 at the top left; the position lists the tile on each
cell, 0 for the blank. The goal is Korf's: the blank first, then 1, 2, ...: tile ``t``
belongs on cell ``t``. A move is the direction the *blank* moves, as an int: `UP` (0),
`LEFT` (1), `RIGHT` (2), `DOWN` (3), written ``U``, ``L``, ``R``, ``D``. `legal_moves()`
lists them in that fixed order, U, L, R, D (a compiled search elsewhere generates children
in the same order, to count the same nodes), and the inverse of a move is ``3 - move``.

The three heuristics of every board (misplaced tiles, Manhattan distance, Manhattan distance
plus linear conflicts) are kept up to date on every `play` and `undo`, so asking one costs
nothing. The 15-puzzle has a fourth, ``pdb``: the additive pattern databases of
`kibitz.games.sliding_pdb`, read from their cache (`pattern_database`), computed when asked.
"""

from __future__ import annotations

import copy
import random
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import ClassVar

from kibitz.games import sliding_pdb
from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, capped_int, quoted
from kibitz.games.capabilities import (
    CompiledDepthFirst,
    Evaluation,
    HashKey,
    Playout,
    Presentation,
    Puzzle,
)
from kibitz.games.presentation import GRID, Diagram, Place, targets_of

UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
"""The moves: the direction the blank moves. `legal_moves()` lists them in this order."""
MOVE_NAMES = "ULRD"
"""Each move's name, indexed by the move."""
_WORDS = {"u": UP, "up": UP, "l": LEFT, "left": LEFT, "r": RIGHT, "right": RIGHT}
_WORDS |= {"d": DOWN, "down": DOWN}

MIN_SIDE, MAX_SIDE = 2, 8
"""The fewest and the most rows (and columns) a board has."""
MAX_TILES = MAX_SIDE * MAX_SIDE

HEURISTICS = ("linear-conflicts", "manhattan", "misplaced")
"""`heuristic()`'s names on every board, strongest first."""
PDB = "pdb"
"""The heuristic of the 15-puzzle's additive pattern databases (`pattern_database`)."""
PDB_SIDE = 4
"""The side of the only board whose pattern databases kibitz builds (the 15-puzzle)."""
PDB_PARTITIONS = ("78", "663")
"""`sliding_pdb.PARTITIONS` that ``pdb`` uses, strongest first: the first whose tables are
all cached."""
BUILD_COMMAND = "python -m kibitz.games.sliding_pdb build"
_CENTI = 100
"""evaluate(): centi-units per move the default heuristic says are left."""
_PLAYOUT_MOVES_PER_CELL = 4
"""A playout walks at most this many random moves per cell before giving up."""
_MEMO_LIMIT = 1 << 17
"""Line-conflict values remembered at most (cleared when full): on boards up to 5x5 every
line fits many times over."""

_SHAPE = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*:(.*)", re.DOTALL)
_SEPARATORS = re.compile(r"[\s,]+")
_NUMBER = re.compile(r"[0-9]+")


@dataclass(eq=False)
class Board:
    """What every position of one board shape shares: neighbours, distances, goal."""

    rows: int
    columns: int
    offsets: tuple[int, int, int, int] = (0, 0, 0, 0)
    """The cell step of each move (UP, LEFT, RIGHT, DOWN)."""
    moves_from: tuple[tuple[int, ...], ...] = ()
    """The legal moves of the blank on each cell, in the order U, L, R, D."""
    distance: tuple[tuple[int, ...], ...] = ()
    """distance[tile][cell]: the Manhattan distance of `tile` on `cell` from its goal."""
    goal: list[int] = field(default_factory=list)
    row_tables: list[bytes] = field(default_factory=list)
    """For each row, a `bytes.translate` table: a tile whose goal is in the row -> its goal
    column, any other (and the blank) -> `_ELSEWHERE`."""
    column_tables: list[bytes] = field(default_factory=list)
    """For each column likewise: a tile whose goal is in the column -> its goal row."""

    def __post_init__(self) -> None:
        rows, columns = self.rows, self.columns
        cells = rows * columns
        self.offsets = (-columns, -1, 1, columns)
        self.moves_from = tuple(
            tuple(
                move
                for move, allowed in (
                    (UP, cell >= columns),
                    (LEFT, cell % columns > 0),
                    (RIGHT, cell % columns < columns - 1),
                    (DOWN, cell < cells - columns),
                )
                if allowed
            )
            for cell in range(cells)
        )
        self.distance = tuple(
            tuple(
                0
                if tile == 0
                else abs(tile // columns - cell // columns) + abs(tile % columns - cell % columns)
                for cell in range(cells)
            )
            for tile in range(cells)
        )
        self.goal = list(range(cells))
        self.row_tables = [
            _table({tile: tile % columns for tile in range(1, cells) if tile // columns == row})
            for row in range(rows)
        ]
        self.column_tables = [
            _table({tile: tile // columns for tile in range(1, cells) if tile % columns == column})
            for column in range(columns)
        ]

    def cell_name(self, cell: int) -> str:
        """A cell as the diagram names it: row and column from 1, ``r2c3``."""
        return f"r{cell // self.columns + 1}c{cell % self.columns + 1}"

    def row_conflicts(self, tiles: Sequence[int], row: int) -> int:
        """The linear-conflict value of a row (see `line_conflicts`)."""
        start = row * self.columns
        return _conflicts(
            bytes(tiles[start : start + self.columns]).translate(self.row_tables[row])
        )

    def column_conflicts(self, tiles: Sequence[int], column: int) -> int:
        """The linear-conflict value of a column (see `line_conflicts`)."""
        return _conflicts(
            bytes(tiles[column :: self.columns]).translate(self.column_tables[column])
        )


_ELSEWHERE = 255
"""A line's tiles whose goal is in another line, for `_conflicts` (and the blank)."""
_CONFLICTS: dict[bytes, int] = {}
"""A line's goal positions (`Board.row_tables`) -> its linear-conflict value, as met: the
same for every line of every board."""


def _table(goals: dict[int, int]) -> bytes:
    """A `bytes.translate` table: each tile to its goal position in `goals`, else
    `_ELSEWHERE`."""
    return bytes(goals.get(tile, _ELSEWHERE) for tile in range(256))


def _conflicts(line: bytes) -> int:
    """`line_conflicts` of a line written by `Board.row_tables` or `column_tables`,
    remembered (the memory emptied when it holds `_MEMO_LIMIT`)."""
    value = _CONFLICTS.get(line)
    if value is None:
        if len(_CONFLICTS) >= _MEMO_LIMIT:
            _CONFLICTS.clear()
        value = _CONFLICTS[line] = line_conflicts([goal for goal in line if goal != _ELSEWHERE])
    return value


@cache
def board(rows: int, columns: int) -> Board:
    """The shared `Board` of a shape."""
    return Board(rows, columns)


def line_conflicts(goals: Sequence[int]) -> int:
    """Linear conflicts of one line (Hansson, Mayer and Yung 1985): `goals` are the goal
    positions, along the line, of the tiles that are in their goal line, in the order they
    stand. Tiles out of order must leave the line and come back, two moves each beyond their
    Manhattan distance; the fewest that must leave are those outside a longest increasing
    subsequence, so the value is 2 * (len(goals) - that length)."""
    tails: list[int] = []
    for goal in goals:
        at = bisect_left(tails, goal)
        if at == len(tails):
            tails.append(goal)
        else:
            tails[at] = goal
    return 2 * (len(goals) - len(tails))


class SlidingPuzzle(Game, Puzzle, HashKey, Evaluation, Playout, Presentation):
    """The sliding-tile puzzle; one player slides tiles into the blank until the tiles are
    in order, blank first (see the module docstring for moves and their order)."""

    name: ClassVar[str] = "sliding-puzzle"
    title: ClassVar[str] = "Sliding puzzle"
    players: ClassVar[int] = 1
    zero_sum: ClassVar[bool] = False
    default_engine: ClassVar[str] = "idastar"
    default_position: ClassVar[str] = "1,5,3,4,0,2,7,6,8"
    notation: ClassVar[str] = "sliding-tiles"
    player_names: ClassVar[tuple[str, ...]] = ("solver",)
    board_shape: ClassVar[tuple[int, ...]] = (3, 3)
    heuristic_names: ClassVar[tuple[str, ...]] = HEURISTICS
    optional_heuristics: ClassVar[tuple[str, ...]] = (PDB,)
    """Heuristics `heuristic()` also takes, on some positions only (``pdb``: the 4x4 board,
    once its databases are built), so not in `heuristic_names`, which every position takes;
    the single-agent engines accept them and check them on the position to search."""
    notation_help: ClassVar[str] = (
        "Position: the tiles row by row from the top left, separated by commas, 0 for the "
        "blank, e.g. '1,2,5,3,4,0,6,7,8' (9 tiles: 3x3, 16: 4x4, ... up to 8x8); a "
        "rectangle is 'ROWSxCOLS:tiles', e.g. '2x3:1,2,0,3,4,5'. The goal is the blank "
        "first, then 1, 2, 3, ... Moves are the direction the blank moves: U, D, L or R "
        "(a line may run them together: 'RDLU')."
    )

    def __init__(self, tiles: Sequence[int], rows: int, columns: int) -> None:
        self._board = board(rows, columns)
        self._tiles = list(tiles)
        self._blank = self._tiles.index(0)
        self._history: list[int] = []
        self._database: sliding_pdb.PatternDatabase | None = None
        """The pattern databases of ``pdb``, loaded when first asked."""
        self._recount()

    def _recount(self) -> None:
        """Every heuristic's parts from scratch (play and undo keep them up to date)."""
        tiles, geometry = self._tiles, self._board
        distance = geometry.distance
        self._manhattan = sum(distance[tile][cell] for cell, tile in enumerate(tiles))
        self._misplaced = sum(1 for cell, tile in enumerate(tiles) if tile and tile != cell)
        # the linear-conflict value of each row, then of each column
        self._line_values = [
            *(geometry.row_conflicts(tiles, row) for row in range(geometry.rows)),
            *(geometry.column_conflicts(tiles, column) for column in range(geometry.columns)),
        ]
        self._conflicts = sum(self._line_values)

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> SlidingPuzzle:
        text = text.strip() or cls.default_position
        shape = _SHAPE.fullmatch(text)
        if shape is not None:
            rows, columns = _side(shape[1], "rows"), _side(shape[2], "columns")
            items = _items(shape[3])
        else:
            items = _items(text)
            rows = columns = _square_side(len(items))
        tiles = _parse_tiles(items, rows * columns)
        _check_solvable(tiles, columns)
        return cls(tiles, rows, columns)

    def position(self) -> str:
        tiles = ",".join(map(str, self._tiles))
        rows, columns = self._board.rows, self._board.columns
        return tiles if rows == columns else f"{rows}x{columns}:{tiles}"

    def parse_move(self, text: str) -> Move:
        move = _WORDS.get(text.strip().lower())
        if move is None:
            raise NotationError(
                f"{quoted(text)} is not a move: expected U, D, L or R (where the blank moves)"
            )
        if self.is_terminal():
            raise IllegalMoveError("the puzzle is solved: no move is left")
        if move not in self._board.moves_from[self._blank]:
            raise IllegalMoveError(f"the blank is on the {_EDGES[move]} edge: it cannot move there")
        return move

    def format_move(self, move: Move) -> str:
        return MOVE_NAMES[move]

    def split_moves(self, text: str) -> list[str]:
        """Moves separated by spaces or commas; a run of letters U, D, L, R ("RDLU") is
        one move per letter."""
        moves: list[str] = []
        for word in text.replace(",", " ").split():
            if len(word) > 1 and all(letter in "UDLRudlr" for letter in word):
                moves.extend(word)
            else:
                moves.append(word)
        return moves

    # -- state ------------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self._board.rows

    @property
    def columns(self) -> int:
        return self._board.columns

    def tiles(self) -> tuple[int, ...]:
        """The tile on each cell, row by row (0: the blank)."""
        return tuple(self._tiles)

    def blank(self) -> int:
        """The blank's cell."""
        return self._blank

    def shape(self) -> tuple[int, ...]:
        return (self._board.rows, self._board.columns)

    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[Move]:
        if not self._misplaced:
            return []
        return list(self._board.moves_from[self._blank])

    def play(self, move: Move) -> None:
        self._slide(move)
        self._history.append(move)

    def undo(self) -> None:
        self._slide(3 - self._history.pop())

    def _slide(self, move: int) -> None:
        """Move the blank one cell in direction `move`, keeping the heuristics' parts."""
        geometry, tiles = self._board, self._tiles
        blank = self._blank
        cell = blank + geometry.offsets[move]
        tile = tiles[cell]
        tiles[blank] = tile
        tiles[cell] = 0
        self._blank = cell
        distance = geometry.distance[tile]
        self._manhattan += distance[blank] - distance[cell]
        self._misplaced += (blank != tile) - (cell != tile)
        # the tile left one line (`source`) for another (`target`) across the move: only
        # those two lines change their linear conflicts, the tile's own line keeps its order
        columns = geometry.columns
        values = self._line_values
        if move in (LEFT, RIGHT):  # two columns
            target, source = blank % columns, cell % columns
            target_value = geometry.column_conflicts(tiles, target)
            source_value = geometry.column_conflicts(tiles, source)
            target += geometry.rows
            source += geometry.rows
        else:  # two rows
            target, source = blank // columns, cell // columns
            target_value = geometry.row_conflicts(tiles, target)
            source_value = geometry.row_conflicts(tiles, source)
        self._conflicts += target_value + source_value - values[target] - values[source]
        values[target] = target_value
        values[source] = source_value

    def clone(self) -> SlidingPuzzle:
        other = copy.copy(self)
        other._tiles = self._tiles.copy()
        other._history = self._history.copy()
        other._line_values = self._line_values.copy()
        return other

    def is_terminal(self) -> bool:
        return not self._misplaced

    def returns(self) -> tuple[float, ...]:
        return (1.0,)

    def terminal_reason(self) -> str:
        return "the puzzle is solved"

    @classmethod
    def outcome_label(cls, won: bool, plies: int) -> str:
        """A proven result: "solved in 20 moves" (a search reports the goal as a win)."""
        counted = f"{plies} move{'' if plies == 1 else 's'}"
        return f"solved in {counted}" if won else f"no solution in {counted}"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        """Exact: the tiles as bytes, read as one number (cell 0 lowest)."""
        return int.from_bytes(bytes(self._tiles), "little")

    def move_cost(self, move: Move) -> int:
        return 1

    def heuristic(self, name: str = "") -> int:
        """Moves still needed at least: "linear-conflicts" (the default), "manhattan",
        "misplaced" (tiles off their goal cell, the blank not counted) or, on the 4x4 board,
        "pdb" (`pattern_database`: ValueError on another board, FileNotFoundError naming
        the build command where the databases are not built)."""
        if name == "" or name == "linear-conflicts":
            return self._manhattan + self._conflicts
        if name == "manhattan":
            return self._manhattan
        if name == "misplaced":
            return self._misplaced
        if name == PDB:
            return self.pattern_database().value(self._tiles)
        named = ", ".join((*HEURISTICS, PDB))
        raise ValueError(f"no heuristic {name!r}: expected one of {named}")

    def pattern_database(self) -> sliding_pdb.PatternDatabase:
        """The heuristic ``pdb`` of this board: the strongest partition of `PDB_PARTITIONS`
        whose tables are cached in `sliding_pdb.pdb_dir()` (``$KIBITZ_PDB_DIR``), mapped
        read-only once per process. ValueError on a board other than 4x4;
        FileNotFoundError, naming `BUILD_COMMAND`, where none is cached."""
        if self._database is None:
            rows, columns = self.shape()
            if rows != PDB_SIDE or columns != PDB_SIDE:
                raise ValueError(
                    f"heuristic {PDB!r} is the 15-puzzle's pattern databases: it needs the "
                    f"{PDB_SIDE}x{PDB_SIDE} board, not {rows}x{columns}"
                )
            self._database = cached_database(sliding_pdb.pdb_dir())
        return self._database

    def inverse(self, move: Move) -> Move | None:
        """U and D, L and R undo each other."""
        return 3 - move

    def compiled_depth_first(self, heuristic: str) -> CompiledDepthFirst | None:
        """The compiled IDA* of `kibitz.games.sliding_pdb` (Manhattan, with linear
        conflicts, or ``pdb``; boards up to its `KERNEL_CELLS`), where it was built."""
        name = heuristic or HEURISTICS[0]
        if not sliding_pdb.kernel_available() or len(self._tiles) > sliding_pdb.KERNEL_CELLS:
            return None
        if name not in (*sliding_pdb.HEURISTICS, PDB):
            return None
        tiles, columns = tuple(self._tiles), self.columns
        kind = self.pattern_database() if name == PDB else name

        def search(node_limit: int | None) -> tuple[list[Move] | None, int, list[int]]:
            line, nodes, thresholds = sliding_pdb.solve(tiles, columns, kind, node_limit)
            moves = None if line is None else [MOVE_NAMES.index(step) for step in line]
            return moves, nodes, thresholds

        return search

    def evaluate(self, player: int | None = None) -> int:
        """Minus the default heuristic, in centi-units: closer to the goal is better."""
        return -_CENTI * (self._manhattan + self._conflicts)

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Random moves, never straight back, until the goal ((1.0,)) or, after 4 moves per
        cell without reaching it, (0.0,): a random walk would need ages to find the goal."""
        if not self._misplaced:
            return (1.0,)
        geometry = self._board
        tiles, blank, last = self._tiles.copy(), self._blank, -1
        moves_from, offsets, goal = geometry.moves_from, geometry.offsets, geometry.goal
        for _ in range(_PLAYOUT_MOVES_PER_CELL * len(tiles)):
            moves = [move for move in moves_from[blank] if move != 3 - last]
            last = rng.choice(moves)
            cell = blank + offsets[last]
            tiles[blank], tiles[cell], blank = tiles[cell], 0, cell
            if record is not None:
                record.append((0, last))
            if blank == 0 and tiles == goal:
                return (1.0,)
        return (0.0,)

    # -- presentation -----------------------------------------------------------------------

    def render(self) -> str:
        width = len(str(len(self._tiles) - 1))
        columns = self._board.columns
        cells = [f"{tile:>{width}}" if tile else "." * width for tile in self._tiles]
        return "\n".join(
            " ".join(cells[row : row + columns]) for row in range(0, len(cells), columns)
        )

    def diagram(self, last: Move | None = None) -> Diagram:
        """The board, tiles labelled with their numbers; a click on a tile next to the blank
        slides it there (plays the move of the blank towards it). The tile that moved last
        is highlighted."""
        geometry = self._board
        columns = geometry.columns
        places = tuple(
            Place(
                geometry.cell_name(cell),
                cell // columns,
                cell % columns,
                str(tile) if tile else "",
                0 if tile else -1,
            )
            for cell, tile in enumerate(self._tiles)
        )
        blank = self._blank
        highlights: tuple[str, ...] = ()
        if last is not None:
            moved = blank - geometry.offsets[last]
            if 0 <= moved < len(self._tiles):
                highlights = (geometry.cell_name(moved),)
        return Diagram(
            GRID,
            rows=geometry.rows,
            columns=columns,
            places=places,
            targets=targets_of(
                self.legal_moves(), lambda move: geometry.cell_name(blank + geometry.offsets[move])
            ),
            highlights=highlights,
        )


_EDGES = {UP: "top", LEFT: "left", RIGHT: "right", DOWN: "bottom"}


def cached_database(directory: Path) -> sliding_pdb.PatternDatabase:
    """The strongest partition of `PDB_PARTITIONS` whose tables are all in `directory`;
    FileNotFoundError naming `BUILD_COMMAND` where none is."""
    for partition in PDB_PARTITIONS:
        try:
            return _loaded(directory, partition)
        except FileNotFoundError:
            continue
    raise FileNotFoundError(
        f"heuristic {PDB!r}: the 15-puzzle's pattern databases are not built in {directory} "
        f"($KIBITZ_PDB_DIR): build them once with `{BUILD_COMMAND}` (the 6-6-3 partition, "
        "11.5 MB; add `--partition 78` for the stronger 7-8, 577 MB)"
    )


@cache
def _loaded(directory: Path, partition: str) -> sliding_pdb.PatternDatabase:
    """A partition's cached tables, mapped once per process (a missing one is not
    remembered: it is looked for again, so tables built later are found)."""
    return sliding_pdb.PatternDatabase.load(partition, PDB_SIDE, directory)


def _side(digits: str, what: str) -> int:
    """The number of rows or columns of the ``ROWSxCOLS:`` form, checked."""
    size = capped_int(digits, MAX_SIDE)
    if not MIN_SIDE <= size <= MAX_SIDE:
        shown = digits if len(digits) <= 12 else quoted(digits, 12)
        raise NotationError(f"{shown} {what}: a board has {MIN_SIDE} to {MAX_SIDE}")
    return size


def _square_side(count: int) -> int:
    """The side of a square board of `count` cells."""
    side = round(count**0.5)
    if side * side != count or not MIN_SIDE <= side <= MAX_SIDE:
        raise NotationError(
            f"{count} tiles is no square board from 2x2 to 8x8 (4, 9, 16, 25, 36, 49 or 64 "
            "tiles); write a rectangle as ROWSxCOLS:tiles, e.g. 2x3:1,2,0,3,4,5"
        )
    return side


def _items(text: str) -> list[str]:
    """The tiles of a position as written, at most 64 of them."""
    items = [item for item in _SEPARATORS.split(text.strip()) if item]
    if len(items) > MAX_TILES:
        raise NotationError(f"{len(items)} tiles: a board has at most {MAX_TILES}")
    return items


def _parse_tiles(items: Sequence[str], count: int) -> list[int]:
    """The tiles of a board of `count` cells, each a number from 0 to count - 1 once."""
    if len(items) != count:
        raise NotationError(f"{len(items)} tiles: the board needs {count}")
    tiles = []
    for index, item in enumerate(items, start=1):
        if not _NUMBER.fullmatch(item):
            raise NotationError(f"tile {index} ({quoted(item, 12)}) is not a number")
        tile = capped_int(item, MAX_TILES)
        if tile >= count:
            shown = item if len(item) <= 12 else quoted(item, 12)
            raise NotationError(
                f"tile {index} ({shown}) is not a number from 0 to {len(items) - 1}"
            )
        tiles.append(tile)
    seen: set[int] = set()
    for tile in tiles:
        if tile in seen:
            raise NotationError(f"tile {tile} appears twice (each of 0 to {count - 1} once)")
        seen.add(tile)
    return tiles


def _check_solvable(tiles: Sequence[int], columns: int) -> None:
    """NotationError where the goal cannot be reached: a move swaps the blank with a tile,
    so it changes the parity of the arrangement (as a permutation of the cells) and the
    parity of the blank's distance from its goal cell (cell 0) together; the goal has both
    even. (On every board of 2x2 or more, every arrangement with equal parities is
    solvable.)"""
    blank = tiles.index(0)
    if _permutation_parity(tiles) != (blank // columns + blank % columns) % 2:
        raise NotationError(
            "this arrangement cannot reach the goal: it is an odd number of swaps away from "
            "the arrangements that can (swap two tiles to make it solvable)"
        )


def _permutation_parity(tiles: Sequence[int]) -> int:
    """0 for an even permutation, 1 for an odd one (by its cycles)."""
    seen = [False] * len(tiles)
    parity = 0
    for start in range(len(tiles)):
        length = 0
        cell = start
        while not seen[cell]:
            seen[cell] = True
            cell = tiles[cell]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity
