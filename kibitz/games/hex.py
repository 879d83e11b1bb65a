"""Hex on an n x n rhombus (n = 1..19), one bitboard per colour.

Bit ``r * (n + 1) + c`` is the cell in row r (0 = top, named 1) and column c (0 = left,
named a); bit n of every row is an always-empty sentinel, so that a shift never carries a
stone from the end of one row into the next. The neighbours of (r, c) are (r-1, c),
(r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1) and (r+1, c): bit offsets ±(n+1), ±n and ±1.
Black (player 0, ``b``) moves first and joins the top and bottom rows; White (player 1,
``w``) joins the left and right columns. A move is a cell's bit index, or `SWAP`.

Wins: each colour's stones connected to its first edge (Black: the top row, White: the left
column) are kept as a bitboard, its *reach*; a stone that touches the reach floods its
group into it, and the game is won when the reach touches the far edge. `undo()` restores
the reaches from the history, so a move costs a neighbour test and, sometimes, a small
flood fill.
"""

from __future__ import annotations

import copy
import functools
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, repeat
from operator import itemgetter
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import (
    Evaluation,
    HashKey,
    MoveOrdering,
    MovePriors,
    Playout,
    Presentation,
    SolverHooks,
)
from kibitz.games.presentation import HEX, Diagram, Place, targets_of

MIN_SIZE = 1
MAX_SIZE = 19
DEFAULT_SIZE = 11
SWAP = -1
"""The swap move (White's first move, under the swap rule)."""
SWAP_WORD = "swap"

_MARKS = "bw"
_NAMES = ("Black", "White")
_EDGES = ("top and bottom", "left and right")
_LETTERS = "abcdefghijklmnopqrs"
_CELL = re.compile(r"([a-z])([0-9]{1,2})")
_RUN = re.compile(r"[0-9]+|.")
_NUMBER = re.compile(r"[0-9]+")

STEP_VALUE = 100
"""evaluate(): centi-units per stone of difference in the stones still needed to connect."""

PRIOR_LOGITS = (1.0, 1.0, 0.5, 0.5, 5.0)
"""`move_priors()`: the logit a cell gains by each feature, by its bit in a feature code:
on a shortest connection of the side to move, on one of the opponent's (both: the cells
alpha-beta tries first), next to the last move, making a bridge with a stone of the side to
move, answering an intrusion into its bridge or edge template (the playouts' pattern)."""
PRIOR_CENTRE = 2.0
"""`move_priors()`: the logit a cell loses per board width of distance from the centre."""
_PRIOR_WEIGHTS = tuple(
    math.exp(sum(logit for bit, logit in enumerate(PRIOR_LOGITS) if code >> bit & 1))
    for code in range(1 << len(PRIOR_LOGITS))
)
"""By feature code: exp(the sum of its features' logits)."""

_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
"""bin() digits to bytes 0 and 1, to pick bits out of a bitboard with `compress` (in C)."""

_rng = random.Random(0x4E58)
_SIDE_KEY = _rng.getrandbits(64)
_SWAP_KEY = _rng.getrandbits(64)


@dataclass(frozen=True, eq=False)
class _Geometry:
    """Everything that depends only on the board size."""

    size: int
    cells: tuple[int, ...]
    """The bit index of every cell, row by row from the top."""
    board: int
    width: int
    """Bits a board takes (the sentinels included)."""
    start: tuple[int, int]
    """Per player: the edge its connection starts from (Black: top row, White: left column)."""
    goal: tuple[int, int]
    """Per player: the edge its connection must reach."""
    neighbours: tuple[int, ...]
    """By bit index: the mask of the cell's neighbours."""
    transpose: tuple[int, ...]
    """By bit index: the bit index of the mirrored cell (column and row exchanged)."""
    centre_first: tuple[int, ...]
    """The cells by hex distance from the centre, nearest first."""
    centre_first_flags: Callable[[bytes], tuple[int, ...]]
    """From `_flags(bits)`: the flags of the `centre_first` cells (and one more)."""
    zobrist: tuple[tuple[int, ...], tuple[int, ...]]
    """Per player, by bit index: the random key of a stone there."""
    bridges: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    """Per player, by bit index x: the bridges of that player that a stone at x intrudes
    on, as (the other carrier cell, the bridge's two ends); an end on the player's own edge
    (an edge template) is `width` + player, one off the board elsewhere makes no bridge."""
    bridge_steps: tuple[tuple[int, int, int, int], ...]
    """Per direction, the six bridges of a cell: (the cells whose bridge partner that way is
    on the board, the partner's bit offset, the offsets of the two carrier cells)."""
    centre_weights: tuple[float, ...]
    """By bit index: exp(-`PRIOR_CENTRE` * the cell's hex distance from the centre / size)."""
    size_key: int

    def index(self, row: int, col: int) -> int:
        return row * (self.size + 1) + col

    def name(self, index: int) -> str:
        row, col = divmod(index, self.size + 1)
        return f"{_LETTERS[col]}{row + 1}"


@functools.cache
def _geometry(size: int) -> _Geometry:
    stride = size + 1
    grid = [(row, col) for row in range(size) for col in range(size)]
    cells = tuple(row * stride + col for row, col in grid)
    bits = size * stride
    neighbours = [0] * bits
    transpose = [0] * bits
    for row, col in grid:
        index = row * stride + col
        transpose[index] = col * stride + row
        for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
            if 0 <= row + dr < size and 0 <= col + dc < size:
                neighbours[index] |= 1 << ((row + dr) * stride + col + dc)
    top = sum(1 << col for col in range(size))
    left = sum(1 << (row * stride) for row in range(size))
    centre_first = tuple(sorted(cells, key=lambda cell: (_centre_distance(cell, size), cell)))
    rng = random.Random(f"kibitz-hex-{size}")
    return _Geometry(
        size=size,
        cells=cells,
        board=sum(1 << cell for cell in cells),
        width=bits,
        start=(top, left),
        goal=(top << (stride * (size - 1)), left << (size - 1)),
        neighbours=tuple(neighbours),
        transpose=tuple(transpose),
        centre_first=centre_first,
        centre_first_flags=itemgetter(*centre_first, centre_first[0]),  # a tuple even for 1x1
        zobrist=(
            tuple(rng.getrandbits(64) for _ in range(bits)),
            tuple(rng.getrandbits(64) for _ in range(bits)),
        ),
        size_key=rng.getrandbits(64),
        bridges=tuple(_bridges(size, player) for player in (0, 1)),
        bridge_steps=_bridge_steps(size),
        centre_weights=tuple(
            math.exp(-PRIOR_CENTRE * _centre_distance(index, size) / (2 * size))
            for index in range(bits)
        ),
    )


_RING = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))
"""The neighbours' offsets (row, column) around a cell, each next to the one before."""


def _bridges(size: int, player: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """`_Geometry.bridges` of `player`: a stone at x intrudes on a bridge whose carrier is
    x and a neighbour y; its ends are the two cells next to both, the neighbours of x
    before and after y around x."""
    stride = size + 1
    edge = size * stride + player
    bridges: list[tuple[tuple[int, int, int], ...]] = [()] * (size * stride)
    for row in range(size):
        for col in range(size):
            found = []
            ring = [(row + dr, col + dc) for dr, dc in _RING]
            for k, (y_row, y_col) in enumerate(ring):
                if not (0 <= y_row < size and 0 <= y_col < size):
                    continue
                ends = []
                for end_row, end_col in (ring[k - 1], ring[(k + 1) % 6]):
                    rows_in, cols_in = 0 <= end_row < size, 0 <= end_col < size
                    if rows_in and cols_in:
                        ends.append(end_row * stride + end_col)
                    elif (rows_in, cols_in) == ((False, True), (True, False))[player]:
                        ends.append(edge)
                if len(ends) == 2:  # else an end off the board, not on the player's edge
                    found.append((y_row * stride + y_col, ends[0], ends[1]))
            bridges[row * stride + col] = tuple(found)
    return tuple(bridges)


def _bridge_steps(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """`_Geometry.bridge_steps`: a cell's bridge partners are the sums of two neighbours
    next to each other around it, which are the bridge's carrier cells."""
    stride = size + 1
    steps = []
    for k, (row_a, col_a) in enumerate(_RING):
        row_b, col_b = _RING[(k + 1) % 6]
        d_row, d_col = row_a + row_b, col_a + col_b
        sources = sum(
            1 << (row * stride + col)
            for row in range(size)
            for col in range(size)
            if 0 <= row + d_row < size and 0 <= col + d_col < size
        )
        offsets = (d_row * stride + d_col, row_a * stride + col_a, row_b * stride + col_b)
        steps.append((sources, *offsets))
    return tuple(steps)


def _shift(bits: int, offset: int) -> int:
    """`bits` moved by `offset` bits: bit i to bit i + offset."""
    return bits << offset if offset >= 0 else bits >> -offset


def _bridge_cells(stones: int, empty: int, geometry: _Geometry) -> int:
    """The empty cells that make a bridge with one of `stones` (both carriers empty)."""
    cells = 0
    for sources, step, carrier, other in geometry.bridge_steps:
        ends = stones & sources & _shift(empty, -carrier) & _shift(empty, -other)
        cells |= _shift(ends, step)
    return cells & empty


def _centre_distance(index: int, size: int) -> int:
    """Twice the hex distance of a cell from the board's centre (a cell or a point between)."""
    row, col = divmod(index, size + 1)
    dr, dc = 2 * row - (size - 1), 2 * col - (size - 1)
    return (abs(dr) + abs(dc) + abs(dr + dc)) // 2


def _flags(bits: int, width: int) -> bytes:
    """Byte i (i < `width`) is 1 where bit i of `bits` is set, else 0."""
    return bin(bits | 1 << width)[:1:-1].encode().translate(_FLAGS)


def _cells_of(bits: int, width: int) -> list[int]:
    """The bit indices set in `bits` (all below `width`), ascending."""
    return list(compress(range(width), _flags(bits, width)))


def _spread(cells: int, size: int) -> int:
    """`cells` and their neighbours (and bits outside the board: mask the result)."""
    stride = size + 1
    return (
        cells
        | cells << 1
        | cells >> 1
        | cells << size
        | cells >> size
        | cells << stride
        | cells >> stride
    )


def _flood(seed: int, stones: int, size: int) -> int:
    """The stones of `stones` connected to `seed` (a subset of `stones`)."""
    reached = seed
    while True:
        grown = _spread(reached, size) & stones
        if grown == reached:
            return reached
        reached = grown


def _joins_left_to_right(white: int, geometry: _Geometry) -> bool:
    """Whether `white` has a chain from the left column to the right one.

    A flood fill from the left column that also runs along each row in one step: adding
    the reached stones to all stones carries through every run of stones to its right end.
    """
    size = geometry.size
    goal = geometry.goal[1]
    reached = white & geometry.start[1]
    while reached:
        reached |= ((white + reached) ^ white) & white
        if reached & goal:
            return True
        grown = _spread(reached, size) & white
        if grown == reached:
            return False
        reached = grown
    return False


def _layers(
    reached: int, own: int, empty: int, start: int, goal: int, size: int
) -> list[int] | None:
    """The empty cells `own` needs on the way from `start` to `goal`, by distance: layer k
    holds those that k + 1 stones (theirs included) join to `start`, up to the first layer
    that touches `goal`; empty when `reached` (the stones joined to `start`) touches it
    already. None when `goal` is out of reach (the opponent has joined their edges).

    A 0-1 breadth-first search on bitboards: the reached cells grow by their empty
    neighbours (and the empty cells of `start`) per step, then by the own stones those
    touch, at no cost.
    """
    layers = []
    while not reached & goal:
        step = (_spread(reached, size) | start) & empty & ~reached
        if not step:
            return None
        layers.append(step)
        reached = _flood(reached | step, own | reached | step, size)
    return layers


def _on_shortest_paths(own: int, empty: int, start: int, goal: int, size: int) -> int:
    """The empty cells on some shortest connection of `own` from `start` to `goal`: those
    k + 1 stones from `start` and the rest of the distance from `goal`."""
    forward = _layers(_flood(own & start, own, size), own, empty, start, goal, size)
    backward = _layers(_flood(own & goal, own, size), own, empty, goal, start, size)
    cells = 0
    for index, layer in enumerate(forward or ()):
        cells |= layer & backward[len(forward) - 1 - index]
    return cells


@functools.lru_cache(maxsize=1 << 16)
def _shortest_paths(size: int, black: int, white: int) -> tuple[int, int]:
    """Per player, the empty cells on their shortest connections (`_on_shortest_paths`;
    remembered: searches ask again and again)."""
    geometry = _geometry(size)
    empty = geometry.board & ~(black | white)
    black_paths, white_paths = (
        _on_shortest_paths(stones, empty, geometry.start[p], geometry.goal[p], size)
        for p, stones in enumerate((black, white))
    )
    return black_paths, white_paths


@functools.lru_cache(maxsize=1 << 16)
def _cell_order(size: int, black: int, white: int) -> tuple[int, ...]:
    """The empty cells in `Hex.ordered_moves` order (remembered: searches ask again and again)."""
    geometry = _geometry(size)
    empty = geometry.board & ~(black | white)
    paths = _shortest_paths(size, black, white)
    both = paths[0] & paths[1]
    groups = (both, (paths[0] | paths[1]) ^ both, empty & ~(paths[0] | paths[1]))
    flags = [geometry.centre_first_flags(_flags(cells, geometry.width)) for cells in groups]
    return tuple(cell for group in flags for cell in compress(geometry.centre_first, group))


class Hex(Game, HashKey, Evaluation, MoveOrdering, SolverHooks, Playout, MovePriors, Presentation):
    """Hex on an n x n board; player 0 is Black (b), moves first and joins top and bottom."""

    name: ClassVar[str] = "hex"
    title: ClassVar[str] = "Hex"
    default_position: ClassVar[str] = "/".join([str(DEFAULT_SIZE)] * DEFAULT_SIZE) + " b"
    default_engine: ClassVar[str] = "mcts"
    notation: ClassVar[str] = "hex-rows"
    player_names: ClassVar[tuple[str, ...]] = ("Black", "White")
    board_shape: ClassVar[tuple[int, ...]] = (DEFAULT_SIZE, DEFAULT_SIZE)
    all_moves_as_first: ClassVar[bool] = True
    """A cell is worth much the same later in a game: RAVE pays (`Playout`)."""
    strong_move_order: ClassVar[bool] = True
    priors_by_default: ClassVar[bool] = False
    """`move_priors()` need PUCT, which only the Python search has: the compiled UCT walk
    beats it at equal time (benchmarks/README.md, "Runs: Hex move priors for PUCT")."""
    notation_help: ClassVar[str] = (
        "Position: a board size 1-19 alone for the empty board with Black to move ('7' is "
        "the empty 7x7 board, empty text the 11x11 one), or the rows from top (row 1) to "
        "bottom separated by '/', each of b (Black), w (White) and '.', a number standing "
        "for that many empty cells, then a space and the side to move, b or w, e.g. "
        "'b2/1w1/3 b' (3x3). Black moves first and joins the top and bottom edges, White "
        "left and right. A final word 'swap' ('7 swap', 'b2/3/3 w swap') plays with the "
        "swap rule: White's first move may be 'swap', which turns Black's stone at column "
        "c, row r into a White stone at column r, row c, and Black moves again. A move is a "
        "cell, column letter (a = left) and row number (1 = top), e.g. 'd4', or 'swap'."
    )

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        black: int = 0,
        white: int = 0,
        side: int = 0,
        swap_rule: bool = False,
    ) -> None:
        """A position from bitboards in the module's layout (not validated: use
        `from_position` for untrusted input)."""
        geometry = _geometry(size)
        self._geometry = geometry
        self._stones = [black, white]
        self._side = side
        self._swap_rule = swap_rule
        self._reach = [
            _flood(stones & geometry.start[p], stones, size)
            for p, stones in enumerate(self._stones)
        ]
        self._winner = next((p for p in (0, 1) if self._reach[p] & geometry.goal[p]), -1)
        self._history: list[tuple[Move, int, int]] = []
        self._key = geometry.size_key ^ (_SIDE_KEY if side else 0)
        for player, stones in enumerate(self._stones):
            for cell in _cells_of(stones, geometry.width):
                self._key ^= geometry.zobrist[player][cell]

    def shape(self) -> tuple[int, ...]:
        """An n x n board: (n, n)."""
        size = self._geometry.size
        return (size, size)

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Hex:
        words = text.lower().split()
        swap_rule = bool(words) and words[-1] == SWAP_WORD
        if swap_rule:
            words.pop()
        if not words:
            if swap_rule:
                raise NotationError("'swap' needs a board before it, e.g. '7 swap'")
            return cls(DEFAULT_SIZE)
        if len(words) == 1 and _NUMBER.fullmatch(words[0]):
            return cls(_parse_size(words[0]), swap_rule=swap_rule)
        if len(words) != 2:
            raise NotationError(
                f"{quoted(text)} is neither a board size like '7' nor a board and the side to "
                "move like 'b2/1w1/3 b' (either optionally followed by 'swap')"
            )
        size, black, white = _parse_board(words[0])
        side = _parse_side(words[1])
        swapped = _check_counts(black.bit_count(), white.bit_count(), side, swap_rule)
        if swapped and size == 1:
            raise NotationError("on a 1x1 board Black's first stone wins at once: no swap follows")
        game = cls(size, black, white, side, swap_rule)
        game._check_winner()
        return game

    def position(self) -> str:
        size = self._geometry.size
        rows = [_row_text(self._row_marks(row)) for row in range(size)]
        text = "/".join(rows) + " " + _MARKS[self._side]
        return text + " " + SWAP_WORD if self._swap_rule else text

    def parse_move(self, text: str) -> Move:
        word = text.strip().lower()
        if word == SWAP_WORD:
            self._check_not_over()
            self._check_swap()
            return SWAP
        match = _CELL.fullmatch(word)
        if match is None:
            raise NotationError(
                f"{quoted(text)} is not a cell: expected a column letter and a row number "
                f"like 'd4' (a1..{self._last_cell()}), or 'swap'"
            )
        self._check_not_over()
        col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
        size = self._geometry.size
        if not (0 <= col < size and 0 <= row < size):
            raise IllegalMoveError(
                f"{word} is off the {size}x{size} board (a1..{self._last_cell()})"
            )
        index = self._geometry.index(row, col)
        for player in (0, 1):
            if self._stones[player] >> index & 1:
                raise IllegalMoveError(f"{word} is already taken by {_MARKS[player]}")
        return index

    def format_move(self, move: Move) -> str:
        return SWAP_WORD if move == SWAP else self._geometry.name(move)

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._side

    def legal_moves(self) -> list[Move]:
        if self._winner >= 0:
            return []
        geometry = self._geometry
        empty = geometry.board & ~(self._stones[0] | self._stones[1])
        moves: list[Move] = _cells_of(empty, geometry.width)
        if self._swap_allowed():
            moves.append(SWAP)
        return moves

    def play(self, move: Move) -> None:
        side, reach = self._side, self._reach
        self._history.append((move, reach[0], reach[1]))
        if move == SWAP:
            self._swap()
            return
        geometry = self._geometry
        stones = self._stones[side] | 1 << move
        self._stones[side] = stones
        self._key ^= geometry.zobrist[side][move] ^ _SIDE_KEY
        self._side = side ^ 1
        connected = reach[side]
        if geometry.neighbours[move] & connected or geometry.start[side] >> move & 1:
            connected |= _flood(1 << move, stones & ~connected, geometry.size)
            reach[side] = connected
            if connected & geometry.goal[side]:
                self._winner = side

    def undo(self) -> None:
        """Take back the last move (legal play never continues after a win)."""
        move, self._reach[0], self._reach[1] = self._history.pop()
        self._winner = -1
        side = self._side ^ 1
        if move == SWAP:
            self._unswap()
            return
        self._side = side
        self._stones[side] ^= 1 << move
        self._key ^= self._geometry.zobrist[side][move] ^ _SIDE_KEY

    def is_terminal(self) -> bool:
        return self._winner >= 0

    def returns(self) -> tuple[float, ...]:
        return (1.0, -1.0) if self._winner == 0 else (-1.0, 1.0)

    def terminal_reason(self) -> str:
        winner = self._winner
        return f"{_NAMES[winner]} ({_MARKS[winner]}) joins {_EDGES[winner]}"

    def clone(self) -> Hex:
        other = copy.copy(self)
        other._stones = self._stones.copy()
        other._reach = self._reach.copy()
        other._history = self._history.copy()
        return other

    # -- search support ---------------------------------------------------------------------

    @property
    def swap_rule(self) -> bool:
        """Whether the game is played with the swap rule."""
        return self._swap_rule

    def bitboards(self) -> tuple[int, int]:
        """(Black's stones, White's stones) in the module's layout (for compiled kernels)."""
        return self._stones[0], self._stones[1]

    def key(self) -> int:
        """Zobrist key of the stones, the board size, the side to move and whether White may
        swap now."""
        return self._key ^ _SWAP_KEY if self._swap_allowed() else self._key

    def stones_needed(self, player: int) -> int | None:
        """The fewest stones `player` must still place to join their edges: 0 once joined,
        None when the opponent has joined theirs."""
        geometry = self._geometry
        layers = _layers(
            self._reach[player],
            self._stones[player],
            geometry.board & ~(self._stones[0] | self._stones[1]),
            geometry.start[player],
            geometry.goal[player],
            geometry.size,
        )
        return None if layers is None else len(layers)

    def evaluate(self, player: int | None = None) -> int:
        """`STEP_VALUE` per stone the opponent still needs more than `player` to connect
        (`stones_needed()`: both are numbers while the game is on)."""
        me = self._side if player is None else player
        return STEP_VALUE * (self.stones_needed(me ^ 1) - self.stones_needed(me))

    def winning_moves(self) -> list[Move]:
        """The empty cells that join the side to move's edges at once, nearest the centre
        first."""
        if self._winner >= 0:
            return []
        return self._centre_first(self._winning_cells(self._side))

    def non_losing_moves(self) -> list[Move]:
        """Without a win at once: the block when the opponent threatens to join at one cell,
        nothing when at two or more (no single stone stops both), else every move in
        `ordered_moves()` order. The swap is always safe where allowed: it leaves Black
        without stones."""
        if self._winner >= 0:
            return []
        threats = self._winning_cells(self._side ^ 1)
        safe: list[Move] = [SWAP] if self._swap_allowed() else []
        if not threats:
            return self.ordered_moves()
        if threats & (threats - 1) == 0:
            safe.append(threats.bit_length() - 1)
        return safe

    def ordered_moves(self) -> list[Move]:
        """The swap first when allowed, then the empty cells on both players' shortest
        connections, then on either's, then the others, each group nearest the centre first."""
        if self._winner >= 0:
            return []
        moves: list[Move] = [SWAP] if self._swap_allowed() else []
        moves.extend(_cell_order(self._geometry.size, self._stones[0], self._stones[1]))
        return moves

    def move_priors(self) -> list[tuple[Move, float]]:
        """A softmax over features of each legal move: `PRIOR_LOGITS` (the shortest
        connections `ordered_moves()` puts first, the last move's neighbours, bridges made
        and bridges saved) and `PRIOR_CENTRE` (nearer the centre is likelier). The swap
        weighs as much as a move on both players' shortest connections at the swapped
        stone's cell."""
        if self._winner >= 0:
            return []
        geometry = self._geometry
        width = geometry.width
        side = self._side
        stones = self._stones
        empty = geometry.board & ~(stones[0] | stones[1])
        paths = _shortest_paths(geometry.size, stones[0], stones[1])
        near = saves = 0
        last = self.last_move()
        if last is not None and last != SWAP:
            near = geometry.neighbours[last] & empty
            mine = stones[side] | 1 << (width + side)  # the edge's stand-in in `bridges`
            for carrier, end, other_end in geometry.bridges[side][last]:
                if empty >> carrier & 1 and mine >> end & 1 and mine >> other_end & 1:
                    saves |= 1 << carrier
        bridges = _bridge_cells(stones[side], empty, geometry)
        features = (paths[side], paths[side ^ 1], near, bridges, saves)  # `PRIOR_LOGITS` order
        code = sum(
            int.from_bytes(_flags(cells, width)[:width], "little") << bit
            for bit, cells in enumerate(features)
        ).to_bytes(width, "little")
        centre = geometry.centre_weights
        moves = _cells_of(empty, width)
        weights = [_PRIOR_WEIGHTS[code[cell]] * centre[cell] for cell in moves]
        if self._swap_allowed():
            moves.append(SWAP)
            both_paths = _PRIOR_WEIGHTS[0b11]
            weights.append(both_paths * centre[stones[0].bit_length() - 1])
        total = sum(weights)
        return [(move, weight / total) for move, weight in zip(moves, weights, strict=True)]

    def last_move(self) -> Move | None:
        """The move played last on this object (None before any: a position read from
        text has no history)."""
        return self._history[-1][0] if self._history else None

    def playout(
        self,
        rng: random.Random,
        record: list[tuple[int, Move]] | None = None,
        patterns: bool = False,
    ) -> tuple[float, ...]:
        """Fill every empty cell at once: a uniformly random ceil(empty / 2) of them for the
        side to move, the rest for the other; then a single flood fill names the winner (a
        full Hex board has exactly one). Never swaps. `record` gets the cells as if played
        alternately. About 4 µs a playout on an empty 7x7 board and 5-8 µs on 11x11
        (CPython 3.11; `record` adds some 10-30 µs).

        The random half: random bits over the empty cells until exactly that many are set
        (or exactly that many are clear, then the complement), which is uniform among the
        subsets of that size and, unlike shuffling, all in C.

        `patterns`: a playout that answers bridge intrusions instead (`_bridge_playout`).
        """
        if self._winner >= 0:
            return self.returns()
        if patterns:
            return self._bridge_playout(rng, record)
        geometry = self._geometry
        black, white = self._stones
        empty = geometry.board & ~(black | white)
        count = empty.bit_count()
        wanted = (count + 1) // 2
        width = geometry.width
        getrandbits = rng.getrandbits
        while True:
            mine = getrandbits(width) & empty
            drawn = mine.bit_count()
            if drawn == wanted:
                break
            if drawn == count - wanted:
                mine ^= empty
                break
        side = self._side
        if record is not None:
            _record_fill(record, side, mine, empty ^ mine, geometry.width)
        white_full = white | (mine if side else empty ^ mine)
        return (-1.0, 1.0) if _joins_left_to_right(white_full, geometry) else (1.0, -1.0)

    def _bridge_playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None
    ) -> tuple[float, ...]:
        """MoHex's playout: the empty cells in a random order, played in turn, except that a
        player whose bridge the opponent's last move (the game's last move, at first)
        intruded on answers in the bridge's other carrier cell (the first such bridge in
        `_Geometry.bridges` order); then a single flood fill names the winner. Never swaps.
        The stones are a colour a cell (0 empty, player + 1; past the board each player's
        edge, in that player's colour), as in the compiled walk.

        The order: a Fisher-Yates shuffle of the empty cells (ascending), the cell for place
        i picked among the n - i left as (word * (n - i)) >> 32, the words the high then
        the low halves of SplitMix64's outputs from one `rng.getrandbits(64)` (one call to
        `rng`, as cheap in C as the fill's).
        """
        geometry = self._geometry
        width = geometry.width
        colour = bytearray(width + 2)
        colour[width], colour[width + 1] = 1, 2
        for player, stones in enumerate(self._stones):
            for cell in _cells_of(stones, width):
                colour[cell] = player + 1
        order = _cells_of(geometry.board & ~(self._stones[0] | self._stones[1]), width)
        count = len(order)
        mixer = rng.getrandbits(64)
        mixed = 0
        for place in range(count - 1):
            if place & 1:
                word = mixed & 0xFFFFFFFF
            else:
                mixer = (mixer + _GOLDEN) & _MASK64
                mixed = _split_mix(mixer)
                word = mixed >> 32
            pick = place + (word * (count - place) >> 32)
            order[place], order[pick] = order[pick], order[place]
        bridges = geometry.bridges
        last = self.last_move()
        side = self._side
        next_place = 0
        for _ in range(count):
            move = -1
            if last is not None and last != SWAP:
                mine = side + 1
                for carrier, end, other_end in bridges[side][last]:
                    if not colour[carrier] and colour[end] == mine and colour[other_end] == mine:
                        move = carrier
                        break
            if move < 0:
                while colour[order[next_place]]:
                    next_place += 1
                move = order[next_place]
                next_place += 1
            colour[move] = side + 1
            if record is not None:
                record.append((side, move))
            last = move
            side ^= 1
        white = int(colour[width - 1 :: -1].translate(_WHITE_DIGITS), 2)
        return (-1.0, 1.0) if _joins_left_to_right(white, geometry) else (1.0, -1.0)

    # -- display ----------------------------------------------------------------------------

    def render(self) -> str:
        """The rhombus, each row half a cell further right; Black's edges are the rows of
        '-' above and below, White's the '\\' at both ends of every row."""
        size = self._geometry.size
        width = len(str(size))
        letters = " ".join(_LETTERS[:size])
        margin = width + 3  # the first cell's column in the top row
        lines = [" " * margin + letters, " " * (margin - 1) + "-" * (2 * size + 1)]
        for row in range(size):
            cells = " ".join(mark.upper() for mark in self._row_marks(row))
            label = str(row + 1)
            lines.append(f"{' ' * row}{label:>{width}} \\ {cells} \\ {label}")
        lines.append(" " * (margin + size - 2) + "-" * (2 * size + 1))
        lines.append(" " * (margin + size - 1) + letters)
        lines.append("B joins the - edges (top, bottom), W the \\ edges (left, right)")
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """The rhombus of cells, row 1 at the top; Black joins the top and bottom edges,
        White left and right. A click on an empty cell plays there; the swap is a button."""
        geometry = self._geometry
        size = geometry.size
        places = []
        for row in range(size):
            for col, mark in enumerate(self._row_marks(row)):
                owner = _MARKS.find(mark)
                name = geometry.name(geometry.index(row, col))
                places.append(Place(name, row, col, "stone" if owner >= 0 else "", owner))
        if last == SWAP:  # the stone that changed colour
            last = next(iter(_cells_of(self._stones[1], geometry.width)), None)
        return Diagram(
            HEX,
            rows=size,
            columns=size,
            places=tuple(places),
            targets=targets_of(
                self.legal_moves(), lambda move: "" if move == SWAP else geometry.name(move)
            ),
            highlights=(geometry.name(last),) if last is not None else (),
            column_labels=tuple(_LETTERS[:size]),
            row_labels=tuple(str(row + 1) for row in range(size)),
            colors=("#222222", "#ffffff"),
            edges=(0, 1, 0, 1),
        )

    # -- helpers ----------------------------------------------------------------------------

    def _centre_first(self, cells: int) -> list[Move]:
        """The bit indices of `cells`, nearest the centre first."""
        geometry = self._geometry
        flags = geometry.centre_first_flags(_flags(cells, geometry.width))
        return list(compress(geometry.centre_first, flags))

    def _winning_cells(self, player: int) -> int:
        """The empty cells where a stone of `player` would join their edges."""
        geometry = self._geometry
        size = geometry.size
        own = self._stones[player]
        from_goal = _flood(own & geometry.goal[player], own, size)
        touches_start = _spread(self._reach[player], size) | geometry.start[player]
        touches_goal = _spread(from_goal, size) | geometry.goal[player]
        empty = geometry.board & ~(self._stones[0] | self._stones[1])
        return touches_start & touches_goal & empty

    def _row_marks(self, row: int) -> list[str]:
        geometry = self._geometry
        black, white = self._stones
        marks = []
        for col in range(geometry.size):
            index = geometry.index(row, col)
            marks.append("b" if black >> index & 1 else "w" if white >> index & 1 else ".")
        return marks

    def _last_cell(self) -> str:
        size = self._geometry.size
        return f"{_LETTERS[size - 1]}{size}"

    def _swap_allowed(self) -> bool:
        """White's first move, right after Black's first stone, under the swap rule."""
        black, white = self._stones
        return (
            self._swap_rule
            and self._side == 1
            and not white
            and black.bit_count() == 1
            and self._winner < 0
        )

    def _swap(self) -> None:
        """Black's only stone becomes White's on the mirrored cell; Black moves again."""
        geometry = self._geometry
        cell = self._stones[0].bit_length() - 1
        mirrored = geometry.transpose[cell]
        self._stones[0], self._stones[1] = 0, 1 << mirrored
        self._key ^= geometry.zobrist[0][cell] ^ geometry.zobrist[1][mirrored] ^ _SIDE_KEY
        self._side = 0
        self._reach[0], self._reach[1] = 0, self._stones[1] & geometry.start[1]

    def _unswap(self) -> None:
        geometry = self._geometry
        mirrored = self._stones[1].bit_length() - 1
        cell = geometry.transpose[mirrored]
        self._stones[0], self._stones[1] = 1 << cell, 0
        self._key ^= geometry.zobrist[0][cell] ^ geometry.zobrist[1][mirrored] ^ _SIDE_KEY
        self._side = 1

    def _check_not_over(self) -> None:
        if self._winner >= 0:
            raise IllegalMoveError(f"the game is over ({self.terminal_reason()})")

    def _check_swap(self) -> None:
        if not self._swap_rule:
            raise IllegalMoveError(
                "swap is not allowed: this game has no swap rule (end the position with "
                "' swap' to play with it)"
            )
        if not self._swap_allowed():
            raise IllegalMoveError(
                "swap is allowed only as White's first move, right after Black's first stone"
            )

    def _check_winner(self) -> None:
        """A finished game must have been won by the last stone of the player who moved last."""
        winner = self._winner
        if winner < 0:
            return
        who = f"{_NAMES[winner]} ({_MARKS[winner]})"
        if winner == self._side:
            raise NotationError(
                f"{who} has already joined {_EDGES[winner]}, so the game ended before "
                f"{_MARKS[winner]} could be to move"
            )
        geometry = self._geometry
        stones = self._stones[winner]
        start, goal = geometry.start[winner], geometry.goal[winner]
        for cell in geometry.cells:
            if stones >> cell & 1:
                rest = stones ^ 1 << cell
                if not _flood(rest & start, rest, geometry.size) & goal:
                    return
        raise NotationError(
            f"{who} joins {_EDGES[winner]} with no single stone that completed the chain "
            "(the game was already over)"
        )


def _row_text(marks: list[str]) -> str:
    """A row in the notation: runs of empty cells as numbers."""
    return re.sub(r"\.+", lambda run: str(len(run[0])), "".join(marks))


def _record_fill(
    record: list[tuple[int, Move]], side: int, mine: int, theirs: int, width: int
) -> None:
    """Append a playout's cells to `record` as if `side` (`mine`, the one more when odd) and
    the other (`theirs`) had played them in turn."""
    first, second = _cells_of(mine, width), _cells_of(theirs, width)
    turns: list[tuple[int, Move]] = [(side, SWAP)] * (len(first) + len(second))
    turns[0::2] = zip(repeat(side), first)
    turns[1::2] = zip(repeat(side ^ 1), second)
    record.extend(turns)


_WHITE_DIGITS = bytes.maketrans(b"\x00\x01\x02", b"001")
"""Colours (`Hex._bridge_playout`) to the binary digits of White's stones."""
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


def _split_mix(state: int) -> int:
    """SplitMix64's output for its (already advanced) `state`."""
    state = (state ^ state >> 30) * 0xBF58476D1CE4E5B9 & _MASK64
    state = (state ^ state >> 27) * 0x94D049BB133111EB & _MASK64
    return state ^ state >> 31


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def _parse_size(word: str) -> int:
    size = int(word) if len(word) <= 2 else MAX_SIZE + 1
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise NotationError(
            f"board size {quoted(word)} is out of range: Hex boards here are "
            f"{MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}"
        )
    return size


def _parse_board(board: str) -> tuple[int, int, int]:
    """Read ``b2/1w1/3`` into (size, Black's stones, White's stones)."""
    rows = board.split("/")
    size = len(rows)
    if size > MAX_SIZE:
        raise NotationError(
            f"the board has {size} rows: Hex boards here are {MIN_SIZE}x{MIN_SIZE} to "
            f"{MAX_SIZE}x{MAX_SIZE}"
        )
    stride = size + 1
    stones = [0, 0]
    for row, text in enumerate(rows):
        marks = _read_row(text, row)
        if len(marks) != size:
            bare = size == 1 and _NUMBER.fullmatch(text)
            hint = f" (the empty {text}x{text} board is just '{text}')" if bare else ""
            raise NotationError(
                f"row {row + 1} ({quoted(text)}) has {_count(len(marks), 'cell')}, but the "
                f"board has {_count(size, 'row')} and must be square{hint}"
            )
        for col, mark in enumerate(marks):
            if mark != ".":
                stones[_MARKS.index(mark)] |= 1 << (row * stride + col)
    return size, stones[0], stones[1]


def _read_row(text: str, row: int) -> list[str]:
    """The cells of one row: b, w, '.' and numbers of empty cells."""
    marks: list[str] = []
    for run in _RUN.finditer(text):
        token = run[0]
        if _NUMBER.fullmatch(token):
            if len(token) > 2 or int(token) == 0:  # never int() of thousands of digits
                raise NotationError(
                    f"row {row + 1} ({quoted(text)}): {quoted(token)} is not a number of "
                    f"empty cells (1 to {MAX_SIZE})"
                )
            marks.extend("." * int(token))
        elif token in "bw.":
            marks.append(token)
        else:
            raise NotationError(
                f"row {row + 1} ({quoted(text)}): {token!r} is not b, w, '.' or a number"
            )
        if len(marks) > MAX_SIZE:
            break
    return marks


def _parse_side(word: str) -> int:
    if word not in ("b", "w"):
        raise NotationError(f"side to move {quoted(word)} is not b or w")
    return _MARKS.index(word)


def _check_counts(black: int, white: int, side: int, swap_rule: bool) -> bool:
    """Check the stone counts against the side to move; True when they show a swap was made.

    Black moves first, so with b to move both have as many stones, with w to move Black has
    one more. A swap turned Black's first stone into White's: after it White has one more
    with b to move, as many as Black (at least one) with w to move.
    """
    if black == white + side:
        return False
    swapped = white == black + 1 - side and white >= 1
    if swap_rule and swapped:
        return True
    rule = "both have as many stones" if side == 0 else "b has one stone more than w"
    after_swap = "w has one more" if side == 0 else "both have as many, at least one"
    raise NotationError(
        f"b has {_count(black, 'stone')} and w has {white}, which cannot be with {_MARKS[side]} to "
        f"move: Black moves first, so with {_MARKS[side]} to move {rule}"
        + (f" (or, after a swap, {after_swap})" if swap_rule else "")
    )
