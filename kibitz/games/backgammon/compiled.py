"""Backgammon's compiled kernel (`_kernel.pyx`), imported once, for every module that takes
it where it was built: the game's search calls, the network's contact features, the
training's games."""

from __future__ import annotations

import functools
from types import ModuleType


@functools.cache
def compiled_kernel() -> ModuleType | None:
    """The compiled kernel, or None where it was not built (a pure-Python install; a machine
    with numpy alone: `scripts/train_td.py`)."""
    try:
        from kibitz.games.backgammon import _kernel
    except ImportError:  # pragma: no cover - only without a C compiler at install time
        return None
    return _kernel
