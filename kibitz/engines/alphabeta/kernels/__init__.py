"""Compiled search kernels: one game's node search in C, behind `NodeSearch`'s interface.

A kernel performs exactly the search of `NodeSearch.search` and `quiesce` (same nodes, same
values, same lines) for one game's state layout, over a `NativeTable` (the table of `table.py`
in C). `KernelNodeSearch` searches each root move's subtree with it, and the root's passes,
when the option Kernel is on and the game has one (Connect Four, `kernel_for`); chess's kernel
searches the subtrees below a Python root (`ChessSearch`, `subtree_kernel_for`, bridged by
`kernel.SubtreeKernelSearch`). The pure-Python search stays the reference the kernels are
tested against.

The extensions are built at install time (`setup.py`); where they could not be built
`available()` is False and every search is pure Python. On x86 the Connect Four kernel is
built with the POPCNT instruction (about 20% faster); on a processor without it (a wheel
carried to an older machine) the kernel is left unloaded and the search is pure Python.
"""

from __future__ import annotations

import contextlib
from typing import Any

from kibitz.games.base import Game

try:
    from kibitz.engines.alphabeta.kernels._table import ENTRY_BYTES, NativeTable, cpu_has_popcnt
except ImportError:  # pragma: no cover - only without a C compiler at install time
    NativeTable = None  # type: ignore[assignment,misc]
    ENTRY_BYTES = 0
Connect4Search = None
if NativeTable is not None and cpu_has_popcnt():  # the kernel is built with -mpopcnt
    with contextlib.suppress(ImportError):  # a partial build: pure Python for Connect Four
        from kibitz.engines.alphabeta.kernels._connect4 import Connect4Search

_KERNELS: dict[str, Any] = {"connect4": Connect4Search} if Connect4Search is not None else {}

ChessSearch = None
with contextlib.suppress(ImportError):  # a partial build: chess's search stays Python
    from kibitz.engines.alphabeta.kernels._chess import ChessSearch
    from kibitz.games.chess._board import CompiledBoard


def available() -> bool:
    """Whether the compiled kernels were built."""
    return bool(_KERNELS)


def kernel_for(game: type[Game]) -> Any | None:
    """The kernel class searching `game` (a class with `search` and `line`), or None."""
    return _KERNELS.get(game.name)


def subtree_kernel_for(state: Game) -> Any | None:
    """The kernel class searching `state`'s subtrees below a Python root (a class with
    `subtree` and `quiesce`, `kernel.SubtreeKernelSearch`), or None: chess on the compiled
    board (`CompiledBoard`) only."""
    if ChessSearch is None or NativeTable is None or state.name != "chess":
        return None
    return ChessSearch if isinstance(getattr(state, "board", None), CompiledBoard) else None


__all__ = [
    "ENTRY_BYTES",
    "NativeTable",
    "available",
    "kernel_for",
    "subtree_kernel_for",
]
