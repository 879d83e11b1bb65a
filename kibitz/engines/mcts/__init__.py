"""Monte Carlo tree search (docs/engines.md, "mcts")."""

from kibitz.engines.mcts.engine import MCTS

__all__ = ["MCTS"]
