"""Move ordering learnt during a search: killer moves and the history heuristic.

Both apply to quiet moves (not the game's noisy ones). The transposition-table move and the
game's own `ordered_moves()` hint are applied by the engine around this.
"""

from __future__ import annotations

from collections import defaultdict

from kibitz.engines.types import MAX_PLY
from kibitz.games.base import Move


class QuietMoveOrdering:
    """Two killer moves per ply and a history score per move; either can be switched off."""

    def __init__(self) -> None:
        self.history: defaultdict[Move, int] = defaultdict(int)
        self.killers: list[Move | None] = []
        """Two per ply, flat: ply p's newest at 2p, the one before at 2p + 1 (one list is
        made far faster than a thousand: this is per search)."""
        self.use_killers = self.use_history = False
        self.active = False
        """Either is used (read at every node: an attribute, not a property)."""

    def new_search(self, use_killers: bool, use_history: bool) -> None:
        """Halve the history (old knowledge fades), forget the killers."""
        self.use_killers, self.use_history = use_killers, use_history
        self.active = use_killers or use_history
        for move in list(self.history):
            self.history[move] //= 2
        self.killers = [None] * (2 * (MAX_PLY + 2))

    def clear(self) -> None:
        self.history.clear()
        self.killers = []

    def order(self, moves: list[Move], ply: int, tt_move: Move | None, quiet_from: int = 0) -> None:
        """Reorder the quiet moves, `moves[quiet_from:]`, in place: by history (stable),
        then this ply's killers first. The moves before `quiet_from` (noisy ones the game
        ordered) stay in front."""
        if self.use_history:
            if quiet_from:
                moves[quiet_from:] = sorted(
                    moves[quiet_from:], key=self.history.__getitem__, reverse=True
                )
            else:
                moves.sort(key=self.history.__getitem__, reverse=True)
        if self.use_killers:
            killers = self.killers
            for killer in (killers[2 * ply + 1], killers[2 * ply]):
                if killer is not None and killer != tt_move and killer in moves:
                    index = moves.index(killer)
                    if index >= quiet_from:
                        del moves[index]
                        moves.insert(quiet_from, killer)

    def record_cutoff(self, move: Move, ply: int, depth: int) -> None:
        """A quiet `move` refuted the position at `ply` with `depth` plies left."""
        self.history[move] += depth * depth
        killers = self.killers
        newest = 2 * ply
        if killers[newest] != move:
            killers[newest + 1] = killers[newest]
            killers[newest] = move
