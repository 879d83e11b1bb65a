"""The `alphabeta` engine family: iterative-deepening negamax with alpha-beta pruning."""

from kibitz.engines.alphabeta.engine import AlphaBeta

__all__ = ["AlphaBeta"]
