"""Phantom (blind) tic-tac-toe: OpenSpiel's `phantom_ttt` with its classical rules and its
default observation, "reveal-nothing" (docs/games.md, "Phantom tic-tac-toe").

Each player sees only their own marks. A move onto a cell the opponent holds is refused:
the mover learns that the opponent holds it and moves again. So a player knows their own
attempts in order and which of them were refused; the number of the opponent's marks
follows from their own (at x's turn o has as many as x, at o's turn one fewer), the
opponent's refused attempts are never known. That is OpenSpiel's information state, and a
view here: ``x:b2 a1 c3*`` (x tried b2, then a1, then c3, which o held). A full state is
every attempt of both players in order, ``b2 b2* a1 c3``; a refused one is starred.

Cells are tic-tac-toe's (kibitz.games.tictactoe): index 3 * row + column, row 0 at the
bottom, named a1..c3. There is no chance: `sample` draws the opponent's hidden marks.
"""

from __future__ import annotations

import copy
import random
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import HiddenInformation, Presentation
from kibitz.games.presentation import Diagram
from kibitz.games.tictactoe import FULL, HAS_LINE, cell_name, grid_diagram

_MARKS = "xo"
_REFUSED = "*"

Attempt = tuple[int, int, bool]
"""(player, cell, placed): one attempt; `placed` False where the opponent held the cell."""


class PhantomTicTacToe(Game, HiddenInformation, Presentation):
    """Phantom tic-tac-toe; player 0 is x and moves first. Moves are cell indices 0..8.

    An object is a full state (the referee's, a sampled world) or one player's view (see
    the module docstring). A view is read as its observer's turn: the opponent, if it was
    theirs, has placed a mark since. Its `sample` draws uniformly among the sequences of
    the opponent's placements (which cell at each of their turns) consistent with it: no
    placement on the observer's marks, every refused cell held before it was tried, no
    three in a row for the opponent; in a drawn world the opponent's attempts all
    succeeded (what they bumped into is not drawn). A view has at most a few hundred such
    worlds, and `worlds` lists them all. Where the opponent's mark since the observer's
    last one ends the game in every world (o's view with four marks: x's fifth fills the
    board), the view is over, unseen, and its `returns` are what the observer expects
    over its worlds."""

    name: ClassVar[str] = "phantom-tictactoe"
    title: ClassVar[str] = "Phantom tic-tac-toe"
    default_position: ClassVar[str] = ""
    default_engine: ClassVar[str] = "ismcts"
    notation: ClassVar[str] = "phantom-tictactoe"
    player_names: ClassVar[tuple[str, ...]] = ("x", "o")
    board_shape: ClassVar[tuple[int, ...]] = (3, 3)
    notation_help: ClassVar[str] = (
        "Blind tic-tac-toe (OpenSpiel's phantom_ttt): a move onto the opponent's hidden mark "
        "is refused and the same player moves again. A view (what one player knows): their "
        "mark, a colon, their attempts in order, a refused one starred, e.g. 'x:b2 a1 c3*'; "
        "read as that player's turn. A full state: every attempt of both players in order, "
        "e.g. 'b2 b2* a1' (empty: the start). Moves are cell names a1..c3: column a-c from "
        "left to right, row 1 at the bottom."
    )

    def __init__(self, observer: int | None = None) -> None:
        self._observer = observer
        """None for a full state; the viewing player for a view."""
        self._marks = [0, 0]
        """Each player's marks (a view: the observer's only)."""
        self._known = [0, 0]
        """The opponent's marks each player has bumped into."""
        self._side = 0 if observer is None else observer
        self._attempts: list[Attempt] = []
        """Every attempt in order (a view: the observer's)."""
        self._placements: list[tuple[int, ...]] = []
        """A view's consistent opponent placement sequences (listed on reading)."""
        self._unseen_end = False
        """Whether the opponent's mark since the view's last attempt has surely ended the
        game (three in a row, or the full board), unseen."""

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> PhantomTicTacToe:
        text = text.strip().lower()
        head, colon, rest = text.partition(":")
        if colon:
            if head.strip() not in _MARKS:
                raise NotationError(f"{quoted(head)} before ':' is not x or o")
            return cls._read_view(_MARKS.index(head.strip()), rest.split())
        state = cls()
        for index, token in enumerate(text.split(), start=1):
            cell, refused = _read_attempt(token, index)
            state._check_attempt(cell, state._side, index)
            taken = state._marks[1 - state._side] >> cell & 1
            if refused and not taken:
                raise NotationError(
                    f"attempt {index} ({token}): {cell_name(cell)} is free there, not refused"
                )
            state.play(cell)
        return state

    @classmethod
    def _read_view(cls, observer: int, tokens: list[str]) -> PhantomTicTacToe:
        view = cls(observer)
        for index, token in enumerate(tokens, start=1):
            cell, refused = _read_attempt(token, index)
            view._check_attempt(cell, observer, index)
            if refused:
                view._known[observer] |= 1 << cell
            else:
                view._marks[observer] |= 1 << cell
            view._attempts.append((observer, cell, not refused))
        if not view._list_placements():
            raise NotationError(
                f"no placement of {_MARKS[1 - observer]}'s marks fits this view (the marks "
                "it counts, the refused cells, no earlier three in a row)"
            )
        return view

    def _check_attempt(self, cell: int, player: int, index: int) -> None:
        """Whether `player` may try `cell` as attempt `index` of a text being read."""
        where = f"attempt {index} ({cell_name(cell)})"
        if self.is_terminal():
            raise NotationError(f"{where}: the game is over ({self.terminal_reason()})")
        if self._marks[player] >> cell & 1:
            raise NotationError(f"{where}: {_MARKS[player]} already holds it")
        if self._known[player] >> cell & 1:
            raise NotationError(f"{where}: {_MARKS[player]} already knows it is taken")

    def position(self) -> str:
        if self._observer is not None:
            return self.view(self._observer)
        return " ".join(_attempt_text(cell, placed) for _, cell, placed in self._attempts)

    def parse_move(self, text: str) -> Move:
        name = text.strip().lower()
        cell = _cell_of(name)
        if cell is None:
            raise NotationError(f"{quoted(text)} is not a cell: expected a1..c3")
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over ({self.terminal_reason()})")
        side = self._side
        if self._marks[side] >> cell & 1:
            raise IllegalMoveError(f"{name} is already {_MARKS[side]}'s")
        if self._known[side] >> cell & 1:
            raise IllegalMoveError(f"{_MARKS[side]} already knows {name} is taken")
        return cell

    def format_move(self, move: Move) -> str:
        return cell_name(move)

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._side

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        seen = self._marks[self._side] | self._known[self._side]
        return [cell for cell in range(9) if not seen >> cell & 1]

    def play(self, move: Move) -> None:
        self._full_state_only("play")
        side = self._side
        bit = 1 << move
        placed = not self._marks[1 - side] & bit
        if placed:
            self._marks[side] |= bit
            self._side = 1 - side
        else:
            self._known[side] |= bit
        self._attempts.append((side, move, placed))

    def undo(self) -> None:
        self._full_state_only("undo")
        side, cell, placed = self._attempts.pop()
        if placed:
            self._marks[side] ^= 1 << cell
        else:
            self._known[side] ^= 1 << cell
        self._side = side

    def clone(self) -> PhantomTicTacToe:
        other = copy.copy(self)
        other._marks = self._marks.copy()
        other._known = self._known.copy()
        other._attempts = self._attempts.copy()
        return other

    def is_terminal(self) -> bool:
        x_marks, o_marks = self._marks
        if self._observer is not None and (self._unseen_end or self._filled_by_observer()):
            return True
        return HAS_LINE[x_marks] or HAS_LINE[o_marks] or x_marks | o_marks == FULL

    def returns(self) -> tuple[float, ...]:
        if self._unseen_end:  # what the observer expects over its (equally likely) worlds
            ends = [self._world(cells).returns() for cells in self._placements]
            return tuple(sum(end[i] for end in ends) / len(ends) for i in (0, 1))
        if HAS_LINE[self._marks[0]]:
            return (1.0, -1.0)
        if HAS_LINE[self._marks[1]]:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def terminal_reason(self) -> str:
        for player in (0, 1):
            if HAS_LINE[self._marks[player]]:
                return f"{_MARKS[player]} has three in a row"
        if self._unseen_end:
            opponent = _MARKS[1 - self._observer]
            return f"{opponent}'s last mark ended the game, unseen: three in a row or a full board"
        return "draw: the board is full"

    def _filled_by_observer(self) -> bool:
        """Whether a view's observer is x and their fifth mark filled the board."""
        return self._observer == 0 and self._marks[0].bit_count() == 5

    def render(self) -> str:
        lines = []
        if self._observer is not None:
            lines.append(f"{_MARKS[self._observer]}'s view")
        for row in (2, 1, 0):
            cells = " ".join(self._mark_at(3 * row + col) for col in range(3))
            lines.append(f"{row + 1} {cells}")
        lines.append("  a b c")
        if not self.is_terminal():
            lines.append(f"{_MARKS[self._side]} to move")
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """Tic-tac-toe's grid with the marks this object knows (a view: the observer's own
        and the opponent's it bumped into); a click on a cell plays there."""
        return grid_diagram(self._mark_at, self.legal_moves(), last)

    def _mark_at(self, cell: int) -> str:
        marks = self._marks.copy()
        if self._observer is not None:  # the cells the observer bumped into
            marks[1 - self._observer] |= self._known[self._observer]
        for player in (0, 1):
            if marks[player] >> cell & 1:
                return _MARKS[player]
        return "."

    def _full_state_only(self, what: str) -> None:
        if self._observer is not None:
            raise IllegalMoveError(
                f"a view cannot {what} moves: whether a move is refused depends on the "
                "opponent's hidden marks (search a sampled world)"
            )

    # -- hidden information -----------------------------------------------------------------

    def is_view(self) -> bool:
        return self._observer is not None

    def observer(self) -> int:
        return self._side if self._observer is None else self._observer

    def view(self, player: int) -> str:
        if self._observer is not None and player != self._observer:
            raise ValueError(
                f"{_MARKS[self._observer]}'s view cannot tell what {_MARKS[player]} knows"
            )
        attempts = [
            _attempt_text(cell, placed) for who, cell, placed in self._attempts if who == player
        ]
        return f"{_MARKS[player]}:" + " ".join(attempts)

    def sample(self, rng: random.Random) -> PhantomTicTacToe:
        if self._observer is None:
            return self.clone()
        return self._world(rng.choice(self._placements))

    def worlds(self) -> list[tuple[Game, float]]:
        if self._observer is None:
            return [(self.clone(), 1.0)]
        placements = self._placements
        return [(self._world(cells), 1 / len(placements)) for cells in placements]

    def _turns(self) -> list[list[Attempt]]:
        """The observer's attempts by turn (each turn ends with a placement; the last may
        be under way)."""
        turns: list[list[Attempt]] = [[]]
        for attempt in self._attempts:
            turns[-1].append(attempt)
            if attempt[2]:
                turns.append([])
        if not turns[-1]:
            turns.pop()
        return turns

    def _placed_before(self, turn: int) -> int:
        """How many marks the opponent has placed before the observer's `turn` (0-based)."""
        return turn + self._observer

    def _list_placements(self) -> list[tuple[int, ...]]:
        """List the sequences of the opponent's placements consistent with this view (read
        as the observer's turn, or the end of the game where it surely came first), and
        whether they end the game unseen; returns them."""
        observer = self._observer
        mine = self._marks[observer]
        turns = self._turns()
        completed = sum(1 for turn in turns if turn[-1][2])
        ended = HAS_LINE[mine] or self._filled_by_observer()  # by the observer's last mark
        count = completed + observer - ended
        # the opponent's last placement, after the observer's last attempt, may end the game
        last_may_end = not ended and (not turns or turns[-1][-1][2])
        deadlines = {
            cell: self._placed_before(index)
            for index, turn in enumerate(turns)
            for _, cell, placed in turn
            if not placed
        }
        free = [cell for cell in range(9) if not mine >> cell & 1]
        going_on: list[tuple[int, ...]] = []
        over: list[tuple[int, ...]] = []

        def extend(cells: tuple[int, ...], mask: int) -> None:
            placed = len(cells)
            if any(due <= placed and not mask >> cell & 1 for cell, due in deadlines.items()):
                return  # a refused cell the opponent had not taken in time
            if placed == count:
                ends = last_may_end and (HAS_LINE[mask] or mask | mine == FULL)
                (over if ends else going_on).append(cells)
                return
            last = placed + 1 == count and last_may_end
            for cell in free:
                bit = 1 << cell
                if not mask & bit and (last or not HAS_LINE[mask | bit]):
                    extend((*cells, cell), mask | bit)

        extend((), 0)
        self._placements = going_on or over
        self._unseen_end = not going_on and bool(over)
        return self._placements

    def _world(self, cells: tuple[int, ...]) -> PhantomTicTacToe:
        """The full state where the opponent placed `cells` in order, each at once, between
        the observer's turns."""
        world = PhantomTicTacToe()
        placed = 0
        for index, turn in enumerate(self._turns()):
            before = self._placed_before(index)
            for cell in cells[placed:before]:
                world.play(cell)
            placed = max(placed, before)
            for _, cell, _ in turn:
                world.play(cell)
        for cell in cells[placed:]:
            world.play(cell)
        return world


def _read_attempt(token: str, index: int) -> tuple[int, bool]:
    """A cell name, starred where the attempt was refused."""
    refused = token.endswith(_REFUSED)
    cell = _cell_of(token[:-1] if refused else token)
    if cell is None:
        raise NotationError(f"attempt {index} ({quoted(token)}) is not a cell a1..c3")
    return cell, refused


def _cell_of(name: str) -> int | None:
    """The cell named `name` (a1..c3), or None."""
    if len(name) != 2 or name[0] not in "abc" or name[1] not in "123":
        return None
    return 3 * (int(name[1]) - 1) + "abc".index(name[0])


def _attempt_text(cell: int, placed: bool) -> str:
    return cell_name(cell) + ("" if placed else _REFUSED)
