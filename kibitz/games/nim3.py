"""Three-player Nim: a small N-player game whose exact values are known, for the tests of
searches that back up a value per player (max^n, paranoid).

Players 1, 2 and 3 take in turn, each at least one object from one heap, Nim's notation and
moves (`kibitz.games.nim`). Whoever takes the last object scores +1, the player after them
(left without a move) -1, the third 0: zero-sum, and every result is different for every
player, so the max^n value is unique (no ties to break: a mover's own score names the whole
outcome). Positions are small, at most `MAX_HEAPS` heaps of at most `MAX_HEAP_SIZE`, so that
`evaluate` is the exact max^n value, solved once per multiset of heaps and remembered.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import ClassVar

from kibitz.games.base import Move, NotationError, quoted
from kibitz.games.nim import Nim, _parse_heaps, decode_move

MAX_HEAPS = 5
MAX_HEAP_SIZE = 7
PLAYERS = 3
WIN, LOSS, THIRD = 1.0, -1.0, 0.0
"""The scores of the last taker, of the player after them and of the third player."""
VALUE_SCALE = 100
"""evaluate(): centi-units per point of the exact value."""


@functools.cache
def solve(heaps: tuple[int, ...]) -> tuple[float, float, float]:
    """The max^n value of `heaps` (sorted, no empty heaps) for the player to move, the next
    and the one after: each mover takes the move best for itself."""
    if not heaps:
        return (LOSS, THIRD, WIN)  # the player before the mover took the last object
    best = None
    for index, size in enumerate(heaps):
        for left in range(size):
            rest = sorted((*heaps[:index], *heaps[index + 1 :], left))
            after = solve(tuple(size for size in rest if size))
            mine = (after[2], after[0], after[1])  # the next mover's values, turned back
            if best is None or mine[0] > best[0]:
                best = mine
    return best


class Nim3(Nim):
    """Three-player Nim: the last taker +1, the player after them -1, the third 0."""

    name: ClassVar[str] = "nim3"
    title: ClassVar[str] = "Three-player Nim"
    players: ClassVar[int] = PLAYERS
    bounded_sum: ClassVar[tuple[float, ...]] = (0.0, -1.0, 1.0)
    """Every finished game's returns add up to 0, none below -1 (the last taker +1, the next
    player -1, the third 0): what `maxn`'s shallow pruning needs
    (kibitz/engines/multi/common.py, `SumBounds`)."""
    default_position: ClassVar[str] = "3,4,5"
    default_engine: ClassVar[str] = "mcts"
    notation: ClassVar[str] = "nim3-heaps"
    player_names: ClassVar[tuple[str, ...]] = ()
    notation_help: ClassVar[str] = (
        "Position: heap sizes separated by commas (1 to 5 heaps of 0 to 7 objects), "
        "optionally followed by a space and the player to move (1, 2 or 3, default 1), "
        "e.g. '3,4,5 2'. A move H:N takes N objects from heap H (heaps count from 1), "
        "e.g. '2:3'. Players 1, 2, 3 move in turn; whoever takes the last object scores "
        "+1, the player after them -1, the third 0."
    )

    def __init__(self, heaps: Sequence[int], side: int = 0) -> None:
        super().__init__(heaps)
        self._side = side

    @classmethod
    def from_position(cls, text: str) -> Nim3:
        text = re.sub(r"\s*,\s*", ",", text.strip()) or cls.default_position
        parts = text.split()
        if len(parts) > 2:
            raise NotationError(f"unexpected text after the player: {quoted(' '.join(parts[2:]))}")
        heaps = _parse_heaps(parts[0])
        if len(heaps) > MAX_HEAPS or max(heaps) > MAX_HEAP_SIZE:
            raise NotationError(
                f"{quoted(parts[0])}: three-player Nim has at most {MAX_HEAPS} heaps of at "
                f"most {MAX_HEAP_SIZE} objects"
            )
        side = 0
        if len(parts) == 2:
            if parts[1] not in ("1", "2", "3"):
                raise NotationError(f"player to move {quoted(parts[1])} must be 1, 2 or 3")
            side = int(parts[1]) - 1
        return cls(heaps, side)

    def position(self) -> str:
        heaps = ",".join(map(str, self._heaps))
        return f"{heaps} {self._side + 1}" if self._side else heaps

    def play(self, move: Move) -> None:
        self._shift(*decode_move(move), 1)
        self._history.append(move)

    def undo(self) -> None:
        self._shift(*decode_move(self._history.pop()), -1)

    def returns(self) -> tuple[float, ...]:
        """The last taker (the player before the one to move) +1, the player to move -1."""
        scores = [THIRD] * PLAYERS
        scores[(self._side - 1) % PLAYERS], scores[self._side] = WIN, LOSS
        return tuple(scores)

    def terminal_reason(self) -> str:
        taker = (self._side - 1) % PLAYERS
        return f"player {taker + 1} took the last object and wins"

    def key(self) -> int:
        """Exact: three bits per heap, then the player to move."""
        key = self._side
        for size in self._heaps:
            key = key << 3 | size
        return key << 3 | len(self._heaps)

    def values(self) -> tuple[float, ...]:
        """The exact max^n value of the position: every player's return, index 0 = player 1."""
        relative = solve(tuple(sorted(size for size in self._heaps if size)))
        return tuple(relative[(player - self._side) % PLAYERS] for player in range(PLAYERS))

    def evaluate(self, player: int | None = None) -> int:
        """The exact max^n value (`values()`) of `player` (None: the side to move), times 100."""
        return round(VALUE_SCALE * self.values()[self._side if player is None else player])

    def ordered_moves(self) -> list[Move]:
        """The moves by the exact value they leave the mover, best first."""
        mover = self._side

        def value_after(move: Move) -> float:
            self.play(move)
            value = self.values()[mover]
            self.undo()
            return value

        return sorted(self.legal_moves(), key=value_after, reverse=True)

    def _shift(self, heap: int, count: int, sign: int) -> None:
        """Take `count` from heap `heap` and pass the turn on (`sign` 1), or take it back (-1)."""
        self._heaps[heap] -= sign * count
        self._total -= sign * count
        self._side = (self._side + sign) % PLAYERS
