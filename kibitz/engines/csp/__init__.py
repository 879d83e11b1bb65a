"""Constraint satisfaction: the `csp` engine, backtracking search with propagation over a
game's constraint model (`kibitz.games.csp.model`). docs/engines.md, "Constraint
satisfaction", describes it."""

from kibitz.engines.csp.engine import CSP

__all__ = ["CSP"]
