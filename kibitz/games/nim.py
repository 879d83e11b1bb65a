"""Nim, normal play and misère, with Sprague-Grundy knowledge for ordering and evaluation.

A move is the int ``heap << 10 | count``: take `count` objects from heap `heap` (0-based).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, capped_int, quoted
from kibitz.games.capabilities import Evaluation, HashKey, MoveOrdering, Presentation
from kibitz.games.presentation import HEAPS, Diagram, Place, Target

MAX_HEAPS = 16
MAX_HEAP_SIZE = 1000
_COUNT_BITS = 10
_COUNT_MASK = (1 << _COUNT_BITS) - 1
_RENDER_WIDTH = 40
_VERDICT = 50
"""evaluate(): +/- this for a won/lost position by Sprague-Grundy theory."""

_rng = random.Random(0x4E1)
_ZOBRIST = tuple(
    tuple(_rng.getrandbits(64) for _ in range(MAX_HEAP_SIZE + 1)) for _ in range(MAX_HEAPS)
)
_ZOBRIST_SIDE = _rng.getrandbits(64)

_MOVE_RE = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*", re.ASCII)
_HEAP_RE = re.compile(r"[0-9]+")


def encode_move(heap: int, count: int) -> int:
    """The move taking `count` objects from heap `heap` (0-based)."""
    return heap << _COUNT_BITS | count


def decode_move(move: int) -> tuple[int, int]:
    """(heap, count) of a move, heap 0-based."""
    return move >> _COUNT_BITS, move & _COUNT_MASK


class Nim(Game, HashKey, Evaluation, MoveOrdering, Presentation):
    """Normal-play Nim: whoever takes the last object wins."""

    name: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    default_position: ClassVar[str] = "3,4,5"
    default_engine: ClassVar[str] = "alphabeta"
    notation: ClassVar[str] = "nim-heaps"
    player_names: ClassVar[tuple[str, ...]] = ("player 1", "player 2")
    notation_help: ClassVar[str] = (
        "Position: heap sizes separated by commas (1 to 16 heaps of 0 to 1000 objects), "
        "optionally followed by a space and the player to move (1 or 2, default 1), "
        "e.g. '3,4,5 2'. A move H:N takes N objects from heap H (heaps count from 1), "
        "e.g. '2:3'."
    )
    last_object_wins: ClassVar[bool] = True

    def __init__(self, heaps: Sequence[int], side: int = 0) -> None:
        self._heaps = list(heaps)
        self._side = side
        self._total = sum(self._heaps)
        self._history: list[int] = []
        self._key = _ZOBRIST_SIDE if side else 0
        for index, size in enumerate(self._heaps):
            self._key ^= _ZOBRIST[index][size]

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Nim:
        text = re.sub(r"\s*,\s*", ",", text.strip()) or cls.default_position
        parts = text.split()
        if len(parts) > 2:
            raise NotationError(f"unexpected text after the player: {quoted(' '.join(parts[2:]))}")
        heaps = _parse_heaps(parts[0])
        side = 0
        if len(parts) == 2:
            if parts[1] not in ("1", "2"):
                raise NotationError(f"player to move {quoted(parts[1])} must be 1 or 2")
            side = int(parts[1]) - 1
        return cls(heaps, side)

    def position(self) -> str:
        heaps = ",".join(map(str, self._heaps))
        return f"{heaps} 2" if self._side else heaps

    def parse_move(self, text: str) -> Move:
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise NotationError(f"{quoted(text)} is not a move: expected H:N, e.g. 2:3")
        heap, count = capped_int(match[1], MAX_HEAPS), capped_int(match[2], MAX_HEAP_SIZE)
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over: {self.terminal_reason()}")
        if not 1 <= heap <= len(self._heaps):
            raise IllegalMoveError(
                f"there is no heap {_shown(match[1])} (heaps are 1 to {len(self._heaps)})"
            )
        if count == 0:
            raise IllegalMoveError("a move must take at least one object")
        size = self._heaps[heap - 1]
        if size == 0:
            raise IllegalMoveError(f"heap {heap} is empty")
        if count > size:
            raise IllegalMoveError(
                f"heap {heap} has only {size} objects, cannot take {_shown(match[2])}"
            )
        return encode_move(heap - 1, count)

    def format_move(self, move: Move) -> str:
        heap, count = decode_move(move)
        return f"{heap + 1}:{count}"

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._side

    def legal_moves(self) -> list[Move]:
        return [
            encode_move(heap, count)
            for heap, size in enumerate(self._heaps)
            for count in range(1, size + 1)
        ]

    def play(self, move: Move) -> None:
        heap, count = move >> _COUNT_BITS, move & _COUNT_MASK
        old = self._heaps[heap]
        self._heaps[heap] = old - count
        self._key ^= _ZOBRIST[heap][old] ^ _ZOBRIST[heap][old - count] ^ _ZOBRIST_SIDE
        self._total -= count
        self._side ^= 1
        self._history.append(move)

    def undo(self) -> None:
        move = self._history.pop()
        heap, count = move >> _COUNT_BITS, move & _COUNT_MASK
        old = self._heaps[heap]
        self._heaps[heap] = old + count
        self._key ^= _ZOBRIST[heap][old] ^ _ZOBRIST[heap][old + count] ^ _ZOBRIST_SIDE
        self._total += count
        self._side ^= 1

    def clone(self) -> Nim:
        other = copy.copy(self)
        other._heaps = self._heaps.copy()
        other._history = self._history.copy()
        return other

    def is_terminal(self) -> bool:
        return self._total == 0

    def returns(self) -> tuple[float, ...]:
        winner = self._side ^ 1 if self.last_object_wins else self._side
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def terminal_reason(self) -> str:
        taker = self._side ^ 1
        verdict = "wins" if self.last_object_wins else "loses"
        return f"player {taker + 1} took the last object and {verdict}"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        return self._key

    def evaluate(self, player: int | None = None) -> int:
        """The exact Sprague-Grundy verdict, scaled: +50 won, -50 lost for the side to move."""
        value = _VERDICT if self._mover_wins(*_summary(self._heaps)) else -_VERDICT
        return value if player is None or player == self._side else -value

    def ordered_moves(self) -> list[Move]:
        """Winning moves (to a lost position for the opponent) first, then the rest."""
        nimsum, big, ones = _summary(self._heaps)
        winning: list[Move] = []
        others: list[Move] = []
        for heap, size in enumerate(self._heaps):
            for count in range(1, size + 1):
                left = size - count
                after = (
                    nimsum ^ size ^ left,
                    big - (size > 1) + (left > 1),
                    ones - (size == 1) + (left == 1),
                )
                target = others if self._mover_wins(*after) else winning
                target.append(encode_move(heap, count))
        return winning + others

    @staticmethod
    def _mover_wins(nimsum: int, big: int, ones: int) -> bool:
        """Does the side to move win, given the nim-sum and counts of heaps > 1 and == 1?"""
        return nimsum != 0

    def render(self) -> str:
        """One row per heap: number, size, and up to 40 bars."""
        width = len(str(len(self._heaps)))
        size_width = len(str(max(self._heaps)))
        lines = []
        for index, size in enumerate(self._heaps, start=1):
            bars = "|" * min(size, _RENDER_WIDTH) + ("..." if size > _RENDER_WIDTH else "")
            lines.append(f"{index:>{width}}: {size:>{size_width}} {bars}".rstrip())
        return "\n".join(lines)

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row of sticks per heap; a click on a stick takes it and every stick after it.
        A heap of more than 40 is one stick with its count (its moves are typed)."""
        places, targets = [], []
        for heap, size in enumerate(self._heaps):
            if size > _RENDER_WIDTH:
                places.append(Place(f"{heap + 1}", heap, 0, "stick", count=size))
                continue
            for index in range(size):
                place = f"{heap + 1}.{index + 1}"
                places.append(Place(place, heap, index, "stick"))
                targets.append(Target(encode_move(heap, size - index), (place,)))
        return Diagram(
            HEAPS,
            rows=len(self._heaps),
            columns=max(min(size, _RENDER_WIDTH) for size in self._heaps),
            places=tuple(places),
            targets=tuple(targets),
            row_labels=tuple(str(heap + 1) for heap in range(len(self._heaps))),
        )


class MisereNim(Nim):
    """Misère Nim: whoever takes the last object loses."""

    name: ClassVar[str] = "misere-nim"
    title: ClassVar[str] = "Misère Nim"
    notation_help: ClassVar[str] = Nim.notation_help + " Whoever takes the last object loses."
    last_object_wins: ClassVar[bool] = False

    @staticmethod
    def _mover_wins(nimsum: int, big: int, ones: int) -> bool:
        # Bouton: play as in normal Nim until only heaps of one object would be left.
        if big == 0:
            return ones % 2 == 0
        return nimsum != 0


def _summary(heaps: Sequence[int]) -> tuple[int, int, int]:
    """(nim-sum, number of heaps > 1, number of heaps == 1)."""
    nimsum = big = ones = 0
    for size in heaps:
        nimsum ^= size
        big += size > 1
        ones += size == 1
    return nimsum, big, ones


def _parse_heaps(text: str) -> list[int]:
    items = text.split(",")
    if len(items) > MAX_HEAPS:
        raise NotationError(f"{len(items)} heaps: at most {MAX_HEAPS} are allowed")
    heaps = []
    for index, item in enumerate(items, start=1):
        if not _HEAP_RE.fullmatch(item):
            raise NotationError(f"heap {index}: {quoted(item)} is not a non-negative integer")
        size = capped_int(item, MAX_HEAP_SIZE)
        if size > MAX_HEAP_SIZE:
            raise NotationError(
                f"heap {index}: {_shown(item)} is more than {MAX_HEAP_SIZE} objects"
            )
        heaps.append(size)
    return heaps


def _shown(digits: str) -> str:
    """A number as typed, for a message: quoted in part where it is long."""
    return digits if len(digits) <= 12 else quoted(digits, 12)
