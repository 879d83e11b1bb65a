"""The options of one `mcts` search, typed (see `MCTS.option_specs`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """The options of one search, typed (see `MCTS.option_specs`)."""

    exploration: float
    fpu: float
    priors: bool
    """The game's move priors where it has them (PUCT under policy auto; else UCT): the
    option Priors, under policy auto only where the game's `priors_by_default`."""
    solver: bool
    rave: int
    """The RAVE equivalence parameter k (0: no RAVE)."""
    max_bytes: int
    """The tree's memory bound (`tree.node_bytes` counts)."""
    kernel: bool
    """The compiled tree walk (`kernels.walk_for`) or playouts (`kernels.playout_for`) where
    the game has them."""
    hooks: bool
    """Decisive and anti-decisive moves from the game's solver hooks (with the solver)."""
    patterns: bool = False
    """Playouts that answer the game's local patterns where its `playout` takes `patterns`
    (Hex: bridge intrusions); off = uniformly random playouts."""
    evaluation: str = "playout"
    """The leaf evaluation, a name in `evaluators.EVALUATORS`."""
    policy: str = "auto"
    """The tree policy, a name in `policies.POLICIES`."""
    heuristic_scale: float = 300.0
    """Centi-units of `evaluate()` that `tanh` maps to a return of 0.76 (heuristic)."""
