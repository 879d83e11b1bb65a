"""Race to 21: players take turns adding 1, 2 or 3 to a running total; whoever reaches 21 wins.

The first player wins by always leaving a multiple of 4 short of 21 (1, 5, 9, 13, 17),
which `evaluate()` knows. Positions are "TOTAL" or "TOTAL PLAYER" (player 1 or 2 to move),
moves "1", "2" or "3". With `Presentation` the page draws the race as a track of 22 cells
in two rows and plays a move by a click on the cell it reaches.
"""

from __future__ import annotations

import random
from typing import ClassVar

from kibitz.games import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import Evaluation, HashKey, MovePriors, Playout, Presentation
from kibitz.games.presentation import GRID, Diagram, Place, targets_of

TARGET = 21
STEPS = (1, 2, 3)


class RaceTo21(Game, HashKey, Evaluation, MovePriors, Playout, Presentation):
    """The running total and the player to move; moves are the numbers added."""

    name: ClassVar[str] = "race21"
    title: ClassVar[str] = "Race to 21"
    default_position: ClassVar[str] = "0"
    default_engine: ClassVar[str] = "alphabeta"
    notation: ClassVar[str] = "race21-total"
    notation_help: ClassVar[str] = (
        "Position: the running total 0-21, optionally followed by the player to move "
        "(1 or 2, default 1), e.g. '13 2'. A move adds 1, 2 or 3 to the total (never past "
        "21): '1', '2' or '3'. Whoever reaches 21 wins."
    )

    def __init__(self, total: int = 0, side: int = 0) -> None:
        self.total = total
        self.side = side
        self.history: list[int] = []

    @classmethod
    def from_position(cls, text: str) -> RaceTo21:
        parts = (text.strip() or cls.default_position).split()
        if len(parts) > 2 or not parts[0].isdigit() or int(parts[0]) > TARGET:
            raise NotationError(
                f"{quoted(text)} is not 'TOTAL [PLAYER]' with a total of 0-{TARGET}"
            )
        side = 0
        if len(parts) == 2:
            if parts[1] not in ("1", "2"):
                raise NotationError(f"player {quoted(parts[1])} must be 1 or 2")
            side = int(parts[1]) - 1
        return cls(int(parts[0]), side)

    def position(self) -> str:
        return f"{self.total} {self.side + 1}"

    def parse_move(self, text: str) -> Move:
        step = text.strip()
        if step not in ("1", "2", "3"):
            raise NotationError(f"{quoted(text)} is not a move: expected 1, 2 or 3")
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over: {self.terminal_reason()}")
        if self.total + int(step) > TARGET:
            raise IllegalMoveError(f"adding {step} to {self.total} passes {TARGET}")
        return int(step)

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return self.side

    def legal_moves(self) -> list[Move]:
        return [step for step in STEPS if self.total + step <= TARGET]

    def play(self, move: Move) -> None:
        self.total += move
        self.side ^= 1
        self.history.append(move)

    def undo(self) -> None:
        self.total -= self.history.pop()
        self.side ^= 1

    def is_terminal(self) -> bool:
        return self.total == TARGET

    def returns(self) -> tuple[float, ...]:
        winner = self.side ^ 1  # the player who reached the target
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def render(self) -> str:
        return f"total {self.total} of {TARGET}, player {self.side + 1} to move"

    # -- capabilities ------------------------------------------------------------------------

    def key(self) -> int:
        return self.total << 1 | self.side

    def evaluate(self, player: int | None = None) -> int:
        """+100 when the side to move can win by theory (it can leave a multiple of 4)."""
        value = 100 if (TARGET - self.total) % 4 else -100
        return value if player is None or player == self.side else -value

    def move_priors(self) -> list[tuple[Move, float]]:
        moves = self.legal_moves()
        return [(move, 1 / len(moves)) for move in moves]

    def diagram(self, last: Move | None = None) -> Diagram:
        """A track of cells 0 to 21 in two rows, a marker on the total; a click on one of
        the next three cells adds what it takes to get there. The last step's cells are
        highlighted."""
        width = (TARGET + 2) // 2
        cells = tuple(
            Place(
                str(cell),
                *divmod(cell, width),
                piece="marker" if cell == self.total else "",
                label=str(cell),
            )
            for cell in range(TARGET + 1)
        )
        passed = range(self.total - last + 1, self.total + 1) if last else ()
        return Diagram(
            GRID,
            rows=2,
            columns=width,
            places=cells,
            targets=targets_of(self.legal_moves(), lambda step: str(self.total + step)),
            highlights=tuple(map(str, passed)),
        )

    def playout(self, rng: random.Random) -> tuple[float, ...]:
        """Random steps on a copy of the total: no play/undo needed."""
        total, side = self.total, self.side
        while total < TARGET:
            total += rng.randint(1, min(3, TARGET - total))
            side ^= 1
        return (1.0, -1.0) if side == 1 else (-1.0, 1.0)
