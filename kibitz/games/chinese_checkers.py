"""Chinese checkers for 2, 3, 4 or 6 players, with the rules of OpenSpiel's
`chinese_checkers` (google-deepmind/open_spiel, open_spiel/games/chinese_checkers/
chinese_checkers.h and chinese_checkers.cc), checked move for move against pyspiel in
tests/games/test_chinese_checkers.py.

The board is OpenSpiel's six-pointed star of 121 cells in 17 rows. Cell i is OpenSpiel's
position i: the cells numbered row by row from the top, left to right. A cell's place is
(row, doubled column): rows 0-16, columns 0-24, neighbours two columns apart in a row and
one column apart in the rows above and below. Here a cell is named by its row letter (a =
the top tip, q = the bottom tip) and its number in the row from the left: ``a1`` is
position 0, ``e1`` the left end of the 13-cell row 4 (position 10), ``q1`` position 120.
The six directions are OpenSpiel's: 0 up-left, 1 up-right, 2 left, 3 right, 4 down-left,
5 down-right.

The triangles (OpenSpiel's `kTriangleCells`): 0 north, 1 north-east, 2 south-east, 3 south,
4 south-west, 5 north-west; `PlayerSlots` gives each player its home triangle (2 players:
0 and 3; 3 players: 0, 2, 4; 4 players: 0, 1, 3, 4; 6 players: all), and a player races its
10 pieces to the opposite triangle, (home + 3) mod 6. Player 1 (index 0) moves first, then
each in turn.

A turn (`DoApplyAction`, `LegalActions`): a piece steps to an empty neighbour, or hops over
an occupied neighbour (anyone's piece) to the empty cell beyond, and may hop on from there,
never landing on a cell the chain has visited (its start included), and may stop after any
hop; the turn ends by itself where no hop goes on. A player with no move at all passes.
OpenSpiel plays a hop chain as one action per hop and a "Pass" action to stop early; here a
turn is one move, the whole chain: `actions()` gives OpenSpiel's actions of a move
(position * 6 + direction per step or hop, 726 for the pass), so that the tests can replay
one in the other.

The end (`AdvanceTurn`, `CheckWinner`, `IsTerminal`, `Returns`): after each turn the mover
wins if its 10 pieces fill its target triangle (another player's pieces left in it block the
win for good: OpenSpiel has no rule against that). A win returns n - 1 to the winner and -1
to every other player; after `MAX_MOVES` (1000) turns by all players together, the game
ends with 0 for everyone.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import Evaluation, HashKey, Playout, Presentation
from kibitz.games.presentation import HEX, Diagram, Place, Target

MAX_MOVES = 1000
"""Turns (all players together) after which the game ends without a winner: OpenSpiel's
`kDefaultMaxMoves`."""
PLAYER_COUNTS = (2, 3, 4, 6)
PIECES = 10
"""Pieces per player, the cells of a triangle."""
PASS_ACTION = 726
"""OpenSpiel's pass (121 cells * 6 directions)."""
PASS_WORD = "pass"

ROWS = 17
COLUMNS = 25
"""Doubled columns."""
_ROW_LETTERS = "abcdefghijklmnopq"
_DIRECTIONS = ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1))
_SLOTS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
"""The home triangle of each player, by the number of players (OpenSpiel's `PlayerSlots`)."""
_COLORS = ("#d32f2f", "#1976d2", "#388e3c", "#fbc02d", "#7b1fa2", "#f57c00")

STEP_VALUE = 10
"""evaluate(): centi-units per step of distance still to travel."""
HOME_VALUE = 10
"""evaluate(): centi-units per piece in the target triangle."""

_CELL = re.compile(r"([a-q])([0-9]{1,2})")
_DIGITS = re.compile(r"[0-9]{1,4}")


def _star() -> list[tuple[int, int]]:
    """The cells (row, doubled column) in OpenSpiel's order: the union of the triangle with
    its apex at the top (rows 0-12) and the one with its apex at the bottom (rows 4-16)."""
    cells = []
    for row in range(ROWS):
        columns: set[int] = set()
        if row <= 12:
            columns.update(range(12 - row, 13 + row, 2))
        if row >= 4:
            columns.update(range(row - 4, 29 - row, 2))
        cells.extend((row, column) for column in sorted(columns))
    return cells


CELLS: tuple[tuple[int, int], ...] = tuple(_star())
"""(row, doubled column) of each cell, by OpenSpiel position."""
_INDEX = {place: index for index, place in enumerate(CELLS)}
_ROW_START = tuple(next(i for i, (row, _) in enumerate(CELLS) if row == r) for r in range(ROWS))
_ROW_LENGTHS = tuple(sum(1 for row, _ in CELLS if row == r) for r in range(ROWS))


def _name(cell: int) -> str:
    row, _ = CELLS[cell]
    return f"{_ROW_LETTERS[row]}{cell - _ROW_START[row] + 1}"


NAMES = tuple(_name(cell) for cell in range(len(CELLS)))
"""The name of each cell, e.g. ``e1``."""
_BY_NAME = {name: cell for cell, name in enumerate(NAMES)}


def _towards(cell: int, direction: int, steps: int) -> int:
    """The cell `steps` steps from `cell` in `direction`, or -1 off the board."""
    row, column = CELLS[cell]
    dr, dc = _DIRECTIONS[direction]
    return _INDEX.get((row + steps * dr, column + steps * dc), -1)


NEIGHBOUR = tuple(tuple(_towards(c, d, 1) for d in range(6)) for c in range(len(CELLS)))
"""OpenSpiel's `kNeighbor`: by cell and direction, the neighbour or -1."""
HOP = tuple(tuple(_towards(c, d, 2) for d in range(6)) for c in range(len(CELLS)))
"""OpenSpiel's `kHopDest`: by cell and direction, the hop's landing or -1."""
_LINKS = tuple(
    tuple((n, h) for n, h in zip(NEIGHBOUR[c], HOP[c], strict=True) if h >= 0)
    for c in range(len(CELLS))
)
"""By cell: (neighbour, landing) of each hop the board allows."""
_DIRECTION_TO = tuple(
    {target: d for d in range(6) for target in (NEIGHBOUR[c][d], HOP[c][d]) if target >= 0}
    for c in range(len(CELLS))
)
"""By cell: the direction of each neighbour and landing."""


def _triangle(cell: int) -> int:
    """The triangle (0 north, 1 north-east, ... 5 north-west, clockwise) a cell lies in, or
    -1 for the hexagon in the middle."""
    row, column = CELLS[cell]
    if row < 4:
        return 0
    if row > 12:
        return 3
    upper = abs(column - 12) <= row  # in the triangle with its apex at the top
    lower = abs(column - 12) <= 16 - row
    if upper and lower:
        return -1
    if not upper:  # a corner of the lower triangle: rows 4-7
        return 1 if column > 12 else 5
    return 2 if column > 12 else 4


TRIANGLES = tuple(tuple(c for c in range(len(CELLS)) if _triangle(c) == t) for t in range(6))
"""OpenSpiel's `kTriangleCells`: the 10 cells of each triangle."""


def _distance(first: int, second: int) -> int:
    """Steps between two cells on the hexagonal grid."""
    (r1, c1), (r2, c2) = CELLS[first], CELLS[second]
    dr, dc = abs(r1 - r2), abs(c1 - c2)
    return dr + max(0, (dc - dr) // 2)


_APEX = tuple(max(cells, key=lambda c: _distance(c, _INDEX[(8, 12)])) for cells in TRIANGLES)
"""The tip of each triangle, the cell farthest from the centre."""
_TO_APEX = tuple(tuple(_distance(c, apex) for c in range(len(CELLS))) for apex in _APEX)
"""By triangle, by cell: the distance to the triangle's tip."""
_HOME_DISTANCE = sum(_TO_APEX[0][c] for c in TRIANGLES[0])
"""The least total distance of 10 pieces to a tip: all in its triangle (20)."""

_FORWARD = tuple(
    tuple(
        tuple(d for d, n in enumerate(NEIGHBOUR[c]) if n >= 0 and to_apex[n] < to_apex[c])
        for c in range(len(CELLS))
    )
    for to_apex in _TO_APEX
)
"""By triangle, by cell: the directions whose neighbour is nearer the triangle's tip."""
_TARGETS = tuple(frozenset(TRIANGLES[(home + 3) % 6]) for home in range(6))
"""By home triangle: the cells of the target triangle."""
PLAYOUT_TRIES = 16
"""A playout's turn tries this many random (piece, direction) pairs for a forward move
before it picks among all the single steps and hops."""

_rng = random.Random(0xC4C4)
_ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in CELLS) for _ in range(6))
_SIDE_KEYS = tuple(_rng.getrandbits(64) for _ in range(6))
_PLAYERS_KEYS = {count: _rng.getrandbits(64) for count in PLAYER_COUNTS}


class ChineseCheckers(Game, HashKey, Evaluation, Playout, Presentation):
    """Chinese checkers with OpenSpiel's rules; the number of players (2, 3, 4 or 6) is the
    position's: `players` is each position's own (the class's is the default position's)."""

    name: ClassVar[str] = "chinese-checkers"
    title: ClassVar[str] = "Chinese checkers"
    players: ClassVar[int] = 3
    bounded_sum: ClassVar[tuple[float, ...]] = (0.0, -1.0)
    """Every finished game's returns add up to 0, none below -1 (the winner n - 1, everyone
    else -1; 0 for all at the move cap): what `maxn`'s shallow pruning needs
    (kibitz/engines/multi/common.py, `SumBounds`)."""
    default_position: ClassVar[str] = "3"
    default_engine: ClassVar[str] = "mcts"
    notation: ClassVar[str] = "chinese-checkers"
    board_shape: ClassVar[tuple[int, ...]] = (ROWS, ROWS)
    notation_help: ClassVar[str] = (
        "Position: the number of players alone (2, 3, 4 or 6) for the start ('3', the "
        "default), or the 17 rows of the star from the top separated by '/', each cell "
        "'.' (empty) or the player (1-6) whose piece stands there, then the player to move "
        "(1-6) and the turns played so far (0-1000; the game ends after 1000), e.g. the "
        "start of two players: '1/11/111/1111/............./............/.........../......."
        ".../........./........../.........../............/............./2222/222/22/2 1 0'. "
        "Cells are named by row, a (the top tip) to q "
        "(the bottom tip), and number in the row from the left: the 13-cell row e is e1..e13. "
        "A move is the cells its piece passes through joined by '-': a step to a neighbour "
        "'d1-e6', a hop over a piece to the cell beyond 'c1-e5', or a chain of hops "
        "'c1-e5-g3'; 'pass' where no piece can move."
    )

    def __init__(self, board: list[int], turns: int = 0) -> None:
        """A position from its cells (-1 empty, else the player; not validated: use
        `from_position` for untrusted input) after `turns` turns."""
        count = max(board) + 1
        self.players = count
        self._board = board
        self._turns = turns
        self._side = turns % count
        self._slots = _SLOTS[count]
        self._winner = next((p for p in range(count) if self._fills_target(p)), -1)
        self._history: list[tuple[tuple[int, ...], int]] = []
        self._key = _PLAYERS_KEYS[count] ^ _SIDE_KEYS[self._side]
        for cell, owner in enumerate(board):
            if owner >= 0:
                self._key ^= _ZOBRIST[owner][cell]

    @classmethod
    def start(cls, players: int) -> ChineseCheckers:
        """OpenSpiel's start position for `players` (2, 3, 4 or 6) players."""
        board = [-1] * len(CELLS)
        for player, triangle in enumerate(_SLOTS[players]):
            for cell in TRIANGLES[triangle]:
                board[cell] = player
        return cls(board)

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> ChineseCheckers:
        words = text.split() or [cls.default_position]
        if len(words) == 1 and words[0].isascii() and words[0].isdigit():
            if words[0] not in {str(count) for count in PLAYER_COUNTS}:
                raise NotationError(
                    f"{quoted(words[0])} players: Chinese checkers is for 2, 3, 4 or 6"
                )
            return cls.start(int(words[0]))
        if len(words) != 3:
            raise NotationError(
                f"{quoted(text)} is neither a number of players like '3' nor the 17 rows, the "
                "player to move and the turns played, like '1/11/.../. 2 7'"
            )
        board = _parse_board(words[0])
        count = max(board) + 1
        turns = _parse_turn(words[1], words[2], count)
        game = cls(board, turns)
        game._check_winner()
        return game

    def position(self) -> str:
        rows = [
            "".join(_mark(owner) for owner in self._board[start : start + length])
            for start, length in zip(_ROW_START, _ROW_LENGTHS, strict=True)
        ]
        return f"{'/'.join(rows)} {self._side + 1} {self._turns}"

    def parse_move(self, text: str) -> Move:
        word = text.strip().lower()
        if word == PASS_WORD:
            self._check_not_over()
            if self.legal_moves() != [()]:
                raise IllegalMoveError(f"{PASS_WORD} is allowed only when no piece can move")
            return ()
        parts = word.split("-")
        path = []
        for part in parts:
            match = _CELL.fullmatch(part)
            if match is None:
                raise NotationError(
                    f"{quoted(part)} is not a cell: a move is cells joined by '-', each a row "
                    "letter a-q and a number, e.g. 'd1-e6' or 'c1-e5-g3', or 'pass'"
                )
            if part not in _BY_NAME:
                row = _ROW_LETTERS.index(match[1])
                raise NotationError(
                    f"there is no cell {part}: row {match[1]} has cells "
                    f"{match[1]}1..{match[1]}{_ROW_LENGTHS[row]}"
                )
            path.append(_BY_NAME[part])
        if len(path) < 2:
            raise NotationError(
                f"{quoted(text)} names one cell: a move goes from a cell to another, e.g. 'd1-e6'"
            )
        self._check_not_over()
        move = tuple(path)
        if self._board[path[0]] != self._side or move not in self._moves_of(path[0]):
            raise IllegalMoveError(self._why_illegal(move))
        return move

    def format_move(self, move: Move) -> str:
        return "-".join(NAMES[cell] for cell in move) if move else PASS_WORD

    def actions(self, move: Move) -> list[int]:
        """OpenSpiel's actions that play legal `move` here: a step or hop per link (cell *
        6 + direction), then the pass that ends a hop chain which could go on."""
        if not move:
            return [PASS_ACTION]
        actions = [cell * 6 + _DIRECTION_TO[cell][to] for cell, to in pairwise(move)]
        if move[1] in HOP[move[0]] and self._can_hop_on(move):
            actions.append(PASS_ACTION)
        return actions

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._side

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        moves: list[Move] = []
        side = self._side
        for cell, owner in enumerate(self._board):
            if owner == side:
                moves.extend(self._moves_of(cell))
        return moves or [()]

    def play(self, move: Move) -> None:
        board, side = self._board, self._side
        self._history.append((move, self._winner))
        if move:
            start, end = move[0], move[-1]
            board[start], board[end] = -1, side
            zobrist = _ZOBRIST[side]
            self._key ^= zobrist[start] ^ zobrist[end]
            if self._fills_target(side):
                self._winner = side
        self._turns += 1
        self._side = (side + 1) % self.players
        self._key ^= _SIDE_KEYS[side] ^ _SIDE_KEYS[self._side]

    def undo(self) -> None:
        move, self._winner = self._history.pop()
        after = self._side
        side = (after - 1) % self.players
        self._side = side
        self._turns -= 1
        self._key ^= _SIDE_KEYS[side] ^ _SIDE_KEYS[after]
        if move:
            start, end = move[0], move[-1]
            self._board[start], self._board[end] = side, -1
            zobrist = _ZOBRIST[side]
            self._key ^= zobrist[start] ^ zobrist[end]

    def is_terminal(self) -> bool:
        return self._winner >= 0 or self._turns >= MAX_MOVES

    def returns(self) -> tuple[float, ...]:
        """The winner n - 1 and everyone else -1; 0 for all at the turn cap."""
        if self._winner < 0:
            return (0.0,) * self.players
        return tuple(self.players - 1.0 if p == self._winner else -1.0 for p in range(self.players))

    def terminal_reason(self) -> str:
        if self._winner >= 0:
            return f"player {self._winner + 1} fills the opposite triangle and wins"
        return f"draw: {MAX_MOVES} turns played without a winner"

    def move_number(self) -> int:
        """The turn to be played, from 1."""
        return self._turns + 1

    def clone(self) -> ChineseCheckers:
        other = copy.copy(self)
        other._board = self._board.copy()
        other._history = self._history.copy()
        return other

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        """Zobrist key of the pieces, the number of players and the player to move (not of
        the turns played: the cap is left to the search)."""
        return self._key

    def distance_left(self, player: int) -> int:
        """The steps `player`'s pieces are from their target's tip, beyond the 20 of a full
        target triangle: 0 once every piece is home."""
        to_apex = _TO_APEX[(self._slots[player] + 3) % 6]
        total = sum(to_apex[cell] for cell, owner in enumerate(self._board) if owner == player)
        return total - _HOME_DISTANCE

    def pieces_home(self, player: int) -> int:
        """How many of `player`'s pieces stand in its target triangle."""
        board = self._board
        return sum(board[c] == player for c in TRIANGLES[(self._slots[player] + 3) % 6])

    def evaluate(self, player: int | None = None) -> int:
        """From `player`'s side: `STEP_VALUE` per step that the other players have still to
        travel more than `player` on average (`distance_left`), plus `HOME_VALUE` per piece
        `player` has home more than they have on average. The values of all players sum to
        about 0."""
        me = self._side if player is None else player
        others = [p for p in range(self.players) if p != me]
        distance = sum(map(self.distance_left, others)) / len(others) - self.distance_left(me)
        home = self.pieces_home(me) - sum(map(self.pieces_home, others)) / len(others)
        return round(STEP_VALUE * distance + HOME_VALUE * home)

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Random turns to the end, each a single step or hop that brings its piece nearer
        its target's tip (a random piece and direction, `PLAYOUT_TRIES` times; then any
        single step or hop at random, else the pass): such games end in a win in a few
        hundred turns where uniformly random ones run to the cap."""
        if self.is_terminal():
            return self.returns()
        count, board = self.players, self._board.copy()
        pieces = [[c for c, owner in enumerate(board) if owner == p] for p in range(count)]
        targets = [_TARGETS[slot] for slot in self._slots]
        forward = [_FORWARD[(slot + 3) % 6] for slot in self._slots]
        home = [len(targets[p].intersection(pieces[p])) for p in range(count)]
        side = self._side
        for _ in range(self._turns, MAX_MOVES):
            own = pieces[side]
            move = _forward_move(board, own, forward[side], rng) or _any_move(board, own, rng)
            if record is not None:
                record.append((side, move))
            if move:
                start, end = move
                board[start], board[end] = -1, side
                own[own.index(start)] = end
                home[side] += (end in targets[side]) - (start in targets[side])
                if home[side] == PIECES:
                    return tuple(count - 1.0 if p == side else -1.0 for p in range(count))
            side = (side + 1) % count
        return (0.0,) * count

    # -- display ----------------------------------------------------------------------------

    def render(self) -> str:
        """The star as OpenSpiel draws it (players 1-6, '.' empty), row letters on the left,
        then who is to move and the turns played."""
        lines = []
        for row in range(ROWS):
            line = [" "] * COLUMNS
            start = _ROW_START[row]
            for cell in range(start, start + _ROW_LENGTHS[row]):
                line[CELLS[cell][1]] = _mark(self._board[cell])
            lines.append(f"{_ROW_LETTERS[row]}  {''.join(line).rstrip()}")
        lines.append(f"player {self._side + 1} to move, {self._turns} turns played")
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """The star on the hexagon board, a disc per piece; a click on a piece, then on
        where it goes, plays the move (a choice where several chains end there); the pass
        is a button. The last move's cells are highlighted."""
        places = []
        for cell, (row, column) in enumerate(CELLS):
            owner = self._board[cell]
            place_column = (column - row) // 2 + 6  # the hexagon board's rows lean right
            places.append(
                Place(NAMES[cell], row, place_column, "disc" if owner >= 0 else "", owner)
            )
        targets = tuple(
            Target(move, (NAMES[move[-1]],), NAMES[move[0]]) for move in self.legal_moves() if move
        )
        return Diagram(
            HEX,
            rows=ROWS,
            columns=ROWS,
            places=tuple(places),
            targets=targets,
            highlights=tuple(NAMES[cell] for cell in last or ()),
            colors=_COLORS[: self.players],
        )

    # -- helpers ----------------------------------------------------------------------------

    def _moves_of(self, cell: int) -> list[tuple[int, ...]]:
        """The moves of the piece on `cell`: its steps and every hop chain, each chain's
        every stop, in OpenSpiel's order of directions."""
        board = self._board
        steps = [(cell, n) for n in NEIGHBOUR[cell] if n >= 0 and board[n] < 0]
        owner = board[cell]
        board[cell] = -1  # the piece leaves its cell as it hops
        try:
            return steps + list(self._chains([cell]))
        finally:
            board[cell] = owner

    def _chains(self, path: list[int]) -> Iterator[tuple[int, ...]]:
        board = self._board
        for over, landing in _LINKS[path[-1]]:
            if board[over] >= 0 and board[landing] < 0 and landing not in path:
                path.append(landing)
                yield tuple(path)
                yield from self._chains(path)
                path.pop()

    def _can_hop_on(self, move: tuple[int, ...]) -> bool:
        """Whether the hop chain `move` (legal here) could hop on from where it ends."""
        board = self._board
        owner = board[move[0]]
        board[move[0]] = -1
        try:
            return any(
                board[over] >= 0 and board[landing] < 0 and landing not in move
                for over, landing in _LINKS[move[-1]]
            )
        finally:
            board[move[0]] = owner

    def _why_illegal(self, move: tuple[int, ...]) -> str:
        """Why the path `move` (cells of the board) is no legal move here."""
        board, names = self._board, [NAMES[cell] for cell in move]
        if board[move[0]] != self._side:
            whose = "empty" if board[move[0]] < 0 else f"player {board[move[0]] + 1}'s"
            return f"{names[0]} is {whose}, not a piece of player {self._side + 1} (to move)"
        for index, (here, there) in enumerate(pairwise(move), start=1):
            link = f"{names[index - 1]}-{names[index]}"
            if there in NEIGHBOUR[here]:
                if len(move) > 2:
                    return f"{link} is a step: a step is a whole move, never part of a chain"
                return f"{names[1]} is taken: a step goes to an empty neighbour"
            if there not in HOP[here]:
                return f"{link} is neither a step to a neighbour nor a hop over one"
            over = NEIGHBOUR[here][HOP[here].index(there)]
            if board[over] < 0 or over == move[0]:
                return f"{link} hops over {NAMES[over]}, which is empty"
            if there in move[:index]:
                return f"{link} lands on {names[index]} again: a chain visits a cell once"
            if board[there] >= 0:
                return f"{link} lands on {names[index]}, which is taken"
        raise AssertionError(f"{'-'.join(names)} is legal")  # every other path is a move

    def _fills_target(self, player: int) -> bool:
        board = self._board
        return all(board[c] == player for c in TRIANGLES[(self._slots[player] + 3) % 6])

    def _check_not_over(self) -> None:
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over ({self.terminal_reason()})")

    def _check_winner(self) -> None:
        """A won position must have been won by the player who moved last."""
        winners = [p for p in range(self.players) if self._fills_target(p)]
        if len(winners) > 1:
            raise NotationError(
                f"players {' and '.join(str(p + 1) for p in winners)} both fill their target "
                "triangles: the game ended when the first of them did"
            )
        if winners and (self._turns == 0 or winners[0] != (self._turns - 1) % self.players):
            raise NotationError(
                f"player {winners[0] + 1} fills its target triangle, so the game ended on "
                "its turn: it must be the player who moved last"
            )


def _forward_move(
    board: list[int], own: list[int], forward: tuple[tuple[int, ...], ...], rng: random.Random
) -> tuple[int, int] | None:
    """A random single step or hop of a piece of `own` in one of its `forward` directions
    (by cell), found in `PLAYOUT_TRIES` tries, or None."""
    rand = rng.random  # two calls in C: faster than rng.choice
    for _ in range(PLAYOUT_TRIES):
        cell = own[int(rand() * PIECES)]
        directions = forward[cell]
        if not directions:
            continue
        direction = directions[int(rand() * len(directions))]
        end = NEIGHBOUR[cell][direction]
        if board[end] >= 0:
            end = HOP[cell][direction]
        if end >= 0 and board[end] < 0:
            return cell, end
    return None


def _any_move(board: list[int], own: list[int], rng: random.Random) -> tuple[int, ...]:
    """A random single step or hop of a piece of `own`, or the pass where none has one."""
    moves = [
        (cell, end)
        for cell in own
        for neighbour, hop in zip(NEIGHBOUR[cell], HOP[cell], strict=True)
        if neighbour >= 0
        for end in (neighbour if board[neighbour] < 0 else hop,)
        if end >= 0 and board[end] < 0
    ]
    return rng.choice(moves) if moves else ()


def _mark(owner: int) -> str:
    return "." if owner < 0 else str(owner + 1)


def _parse_board(text: str) -> list[int]:
    """The cells of the 17 rows of `text`: -1 empty, else the player (0-based); every player
    1..n with 10 pieces, n 2, 3, 4 or 6."""
    rows = text.split("/")
    if len(rows) != ROWS:
        raise NotationError(f"the board has {len(rows)} rows separated by '/', not {ROWS}")
    board: list[int] = []
    for row, (cells, length) in enumerate(zip(rows, _ROW_LENGTHS, strict=True)):
        if len(cells) != length:
            raise NotationError(
                f"row {_ROW_LETTERS[row]} ({quoted(cells)}) has {len(cells)} cells, not {length}"
            )
        for mark in cells:
            if mark not in ".123456":
                raise NotationError(
                    f"row {_ROW_LETTERS[row]}: {mark!r} is neither '.' nor a player 1-6"
                )
            board.append(-1 if mark == "." else int(mark) - 1)
    count = max(board) + 1
    if count == 0:
        raise NotationError("the board has no pieces: Chinese checkers is for 2, 3, 4 or 6")
    if count not in PLAYER_COUNTS:
        raise NotationError(
            f"the pieces are of players 1 to {count}: Chinese checkers is for 2, 3, 4 or 6"
        )
    for player in range(count):
        pieces = board.count(player)
        if pieces != PIECES:
            raise NotationError(f"player {player + 1} has {pieces} pieces, not {PIECES}")
    return board


def _parse_turn(side_text: str, turns_text: str, count: int) -> int:
    """The turns played, checked against the player to move (player 1 moves first and the
    turn passes round)."""
    if not (_DIGITS.fullmatch(side_text) and 1 <= int(side_text) <= count):
        raise NotationError(f"the player to move {quoted(side_text)} is not one of 1-{count}")
    if not (_DIGITS.fullmatch(turns_text) and int(turns_text) <= MAX_MOVES):
        raise NotationError(
            f"the turns played {quoted(turns_text)} are not a number from 0 to {MAX_MOVES}"
        )
    side, turns = int(side_text) - 1, int(turns_text)
    if turns % count != side:
        raise NotationError(
            f"after {turns} turns player {turns % count + 1} is to move, not {side + 1}: "
            "player 1 moves first and the turn passes round"
        )
    return turns
