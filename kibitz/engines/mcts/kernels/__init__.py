"""Compiled playouts for `mcts`: a game's `playout` in C, the same playout move for move.

Built at install time by `setup.py` (Cython); where they could not be built `playout_for()`
finds none and every playout is the game's own Python one, which stays the reference the
kernels are tested against (option Kernel).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kibitz.games.base import Game

try:
    from kibitz.engines.mcts.kernels._playouts import connect4_playout
except ImportError:  # pragma: no cover - only without a C compiler at install time
    connect4_playout = None

_PLAYOUTS: dict[str, Callable[..., tuple[float, ...]]] = (
    {"connect4": connect4_playout} if connect4_playout is not None else {}
)


def playout_for(game: type[Game]) -> Callable[[Game, Any, list | None], tuple[float, ...]] | None:
    """The compiled `playout(state, rng, record)` of `game`, or None."""
    return _PLAYOUTS.get(game.name)
