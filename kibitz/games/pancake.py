"""Pancake sorting as a one-player game with the `Puzzle` capability (docs/games.md,
"Pancake sorting").

A stack of n pancakes of sizes 1..n (2 <= n <= 64), listed from the top; a move flips the
top k pancakes (2 <= k <= n), and is the int k, written ``F k`` (``Fk`` or just ``k`` are
read too). The goal is the stack sorted, the smallest on top. `legal_moves()` lists the
flips from k = 2 up to k = n; a flip is its own inverse.

The gap heuristic (Helmert 2010) counts the neighbouring pancakes whose sizes differ by more
than one, the bottom one against the plate (size n + 1): a flip of k changes only the pair
at depth k, so it removes at most one gap, and the goal has none. It is kept up to date on
every `play` and `undo`.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, capped_int, quoted
from kibitz.games.capabilities import Evaluation, HashKey, Playout, Presentation, Puzzle
from kibitz.games.presentation import HEAPS, Diagram, Place, Target

MIN_PANCAKES, MAX_PANCAKES = 2, 64
HEURISTICS = ("gap", "zero")
"""`heuristic()`'s names, strongest first ("zero": no estimate, breadth-first search)."""
STICKS_UP_TO = 16
"""The diagram draws each pancake as its size in sticks on stacks of up to this many;
on taller stacks, as one stick with the size as its count."""
_CENTI = 100
"""evaluate(): centi-units per gap."""
_PLAYOUT_FLIPS_PER_PANCAKE = 4
"""A playout makes at most this many random flips per pancake before giving up."""
_COLOR = "#c8873a"

_SEPARATORS = re.compile(r"[\s,]+")
_NUMBER = re.compile(r"[0-9]+")
_MOVE = re.compile(r"\s*(?:[Ff]\s*)?([0-9]+)\s*")
_MOVE_WORDS = re.compile(r"[Ff]\s*[0-9]+|[^\s,]+")


def _gap(upper: int, lower: int) -> int:
    """1 where two neighbouring sizes differ by more than one, else 0."""
    return 1 if upper - lower > 1 or lower - upper > 1 else 0


class Pancake(Game, Puzzle, HashKey, Evaluation, Playout, Presentation):
    """A stack of pancakes to sort by flips (see the module docstring)."""

    name: ClassVar[str] = "pancake"
    title: ClassVar[str] = "Pancake sorting"
    players: ClassVar[int] = 1
    zero_sum: ClassVar[bool] = False
    default_engine: ClassVar[str] = "idastar"
    default_position: ClassVar[str] = "3,6,1,8,4,7,2,5"
    notation: ClassVar[str] = "pancake-stack"
    player_names: ClassVar[tuple[str, ...]] = ("solver",)
    heuristic_names: ClassVar[tuple[str, ...]] = HEURISTICS
    notation_help: ClassVar[str] = (
        "Position: the pancakes' sizes from the top of the stack down, separated by "
        "commas, each of 1 to n once (2 to 64 pancakes), e.g. '3,1,4,2'. The goal is the "
        "stack sorted, 1 on top. A move F k flips the top k pancakes (k from 2 to n), "
        "written 'F3', 'F 3' or '3'."
    )

    def __init__(self, stack: Sequence[int]) -> None:
        self._stack = list(stack)
        self._history: list[int] = []
        self._moves = list(range(2, len(self._stack) + 1))
        below = [*self._stack[1:], len(self._stack) + 1]
        self._gaps = sum(
            _gap(upper, lower) for upper, lower in zip(self._stack, below, strict=True)
        )

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Pancake:
        return cls(_parse_stack(text.strip() or cls.default_position))

    def position(self) -> str:
        return ",".join(map(str, self._stack))

    def parse_move(self, text: str) -> Move:
        match = _MOVE.fullmatch(text)
        if match is None:
            raise NotationError(
                f"{quoted(text)} is not a flip: expected F k or k, the number of pancakes "
                "to turn over, e.g. F3"
            )
        count = capped_int(match[1], MAX_PANCAKES)
        if self.is_terminal():
            raise IllegalMoveError("the stack is sorted: no flip is left")
        if count < MIN_PANCAKES:
            raise IllegalMoveError("a flip turns over at least the top 2 pancakes")
        if count > len(self._stack):
            shown = match[1] if len(match[1]) <= 12 else quoted(match[1], 12)
            raise IllegalMoveError(
                f"cannot flip {shown}: the stack has only {len(self._stack)} pancakes"
            )
        return count

    def format_move(self, move: Move) -> str:
        return f"F{move}"

    def split_moves(self, text: str) -> list[str]:
        """Flips separated by spaces or commas; ``F 3`` is one flip."""
        return [re.sub(r"\s+", "", word) for word in _MOVE_WORDS.findall(text)]

    # -- state ------------------------------------------------------------------------------

    def stack(self) -> tuple[int, ...]:
        """The sizes from the top down."""
        return tuple(self._stack)

    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[Move]:
        return self._moves.copy() if self._gaps else []

    def play(self, move: Move) -> None:
        self._flip(move)
        self._history.append(move)

    def undo(self) -> None:
        self._flip(self._history.pop())

    def _flip(self, count: int) -> None:
        """Turn the top `count` over; only the pair at depth `count` changes neighbours."""
        stack = self._stack
        lower = stack[count] if count < len(stack) else len(stack) + 1
        self._gaps += _gap(stack[0], lower) - _gap(stack[count - 1], lower)
        stack[:count] = stack[count - 1 :: -1]

    def clone(self) -> Pancake:
        other = copy.copy(self)
        other._stack = self._stack.copy()
        other._history = self._history.copy()
        return other

    def is_terminal(self) -> bool:
        return not self._gaps

    def returns(self) -> tuple[float, ...]:
        return (1.0,)

    def terminal_reason(self) -> str:
        return "the stack is sorted"

    @classmethod
    def outcome_label(cls, won: bool, plies: int) -> str:
        """A proven result: "solved in 20 flips" (a search reports the goal as a win)."""
        counted = f"{plies} flip{'' if plies == 1 else 's'}"
        return f"solved in {counted}" if won else f"no solution in {counted}"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        """Exact: the sizes as bytes, read as one number (the top lowest)."""
        return int.from_bytes(bytes(self._stack), "little")

    def move_cost(self, move: Move) -> int:
        return 1

    def heuristic(self, name: str = "") -> int:
        """Flips still needed at least: "gap" (the default) or "zero"."""
        if name == "" or name == "gap":
            return self._gaps
        if name == "zero":
            return 0
        raise ValueError(f"no heuristic {name!r}: expected one of {', '.join(HEURISTICS)}")

    def inverse(self, move: Move) -> Move | None:
        """A flip undoes itself."""
        return move

    def evaluate(self, player: int | None = None) -> int:
        """Minus the gaps, in centi-units: fewer gaps is better."""
        return -_CENTI * self._gaps

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Random flips, never the same twice in a row, until the stack is sorted ((1.0,))
        or, after 4 flips per pancake without sorting it, (0.0,)."""
        if not self._gaps:
            return (1.0,)
        stack = self._stack.copy()
        goal = sorted(stack)
        moves, last = self._moves, 0
        for _ in range(_PLAYOUT_FLIPS_PER_PANCAKE * len(stack)):
            count = rng.choice(moves)
            while count == last:
                count = rng.choice(moves)
            last = count
            stack[:count] = stack[count - 1 :: -1]
            if record is not None:
                record.append((0, count))
            if stack == goal:
                return (1.0,)
        return (0.0,)

    # -- presentation -----------------------------------------------------------------------

    def render(self) -> str:
        """The stack, top first: each pancake's size and a bar as wide as it, centred."""
        size = len(self._stack)
        width = len(str(size))
        return "\n".join(
            f"{pancake:>{width}} {' ' * (size - pancake)}{'=' * (2 * pancake - 1)}".rstrip()
            for pancake in self._stack
        )

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row per pancake, top first, labelled with its depth; a click on a pancake at
        depth k flips the top k. On stacks of up to 16 a pancake is its size in sticks,
        above that one stick with the size as its count. The flipped pancakes are
        highlighted."""
        sticks = len(self._stack) <= STICKS_UP_TO
        rows: list[list[str]] = []
        places = []
        for depth, size in enumerate(self._stack):
            if sticks:
                ids = [f"{depth + 1}.{index + 1}" for index in range(size)]
                places.extend(
                    Place(place, depth, index, "stick", 0) for index, place in enumerate(ids)
                )
            else:
                ids = [f"{depth + 1}"]
                places.append(Place(ids[0], depth, 0, "stick", 0, count=size))
            rows.append(ids)
        targets = tuple(Target(count, tuple(rows[count - 1])) for count in self.legal_moves())
        flipped = rows[:last] if last is not None else []
        return Diagram(
            HEAPS,
            rows=len(self._stack),
            columns=len(self._stack) if sticks else 1,
            places=tuple(places),
            targets=targets,
            highlights=tuple(place for row in flipped for place in row),
            row_labels=tuple(str(depth) for depth in range(1, len(self._stack) + 1)),
            colors=(_COLOR,),
        )


def _parse_stack(text: str) -> list[int]:
    """The sizes of a stack, top first: each of 1..n once, 2 <= n <= 64."""
    items = [item for item in _SEPARATORS.split(text) if item]
    if not MIN_PANCAKES <= len(items) <= MAX_PANCAKES:
        raise NotationError(f"{len(items)} pancakes: a stack has {MIN_PANCAKES} to {MAX_PANCAKES}")
    count = len(items)
    stack = []
    for depth, item in enumerate(items, start=1):
        if not _NUMBER.fullmatch(item):
            raise NotationError(f"pancake {depth} ({quoted(item, 12)}) is not a number")
        size = capped_int(item, MAX_PANCAKES)
        if not 1 <= size <= count:
            shown = item if len(item) <= 12 else quoted(item, 12)
            raise NotationError(
                f"pancake {depth} ({shown}): sizes go from 1 to {count}, the number of pancakes"
            )
        stack.append(size)
    seen: set[int] = set()
    for size in stack:
        if size in seen:
            raise NotationError(f"size {size} appears twice (each of 1 to {count} once)")
        seen.add(size)
    return stack
