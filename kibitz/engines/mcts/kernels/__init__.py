"""Compiled kernels for `mcts`: a game's `playout` in C, the same playout move for move
(`_playouts`), and the whole tree walk, simulation for simulation (`_walk`).

Built at install time by `setup.py` (Cython); where they could not be built `playout_for()`
and `walk_for()` find none and the search is the Python one, which stays the reference the
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
try:
    from kibitz.engines.mcts.kernels._walk import KernelNode, Walk, board_for
except ImportError:  # pragma: no cover - only without a C compiler at install time
    KernelNode = Walk = board_for = None

_PLAYOUTS: dict[str, Callable[..., tuple[float, ...]]] = (
    {"connect4": connect4_playout} if connect4_playout is not None else {}
)


def playout_for(game: type[Game]) -> Callable[[Game, Any, list | None], tuple[float, ...]] | None:
    """The compiled `playout(state, rng, record)` of `game`, or None."""
    return _PLAYOUTS.get(game.name)


def walk_for(state: Game) -> Any | None:
    """The compiled walk's `Board` of `state` (Connect Four, Hex without the swap rule), or
    None: `Walk(board, root, settings, rng, root_moves)` then runs the simulations of
    `simulation.Simulations` on a tree of `KernelNode`s."""
    return board_for(state) if board_for is not None else None
