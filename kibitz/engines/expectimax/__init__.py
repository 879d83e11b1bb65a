"""The `expectimax` engine: expectiminimax with Star1/Star2 pruning for games with chance."""

from kibitz.engines.expectimax.engine import Expectimax

__all__ = ["Expectimax"]
