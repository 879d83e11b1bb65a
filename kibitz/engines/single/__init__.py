"""Single-agent search for one-player games with the `Puzzle` capability: `idastar`
(IDA*, IDDFS) and `astar` (A*, Dijkstra, BFS, greedy, weighted A*). docs/engines.md,
"Single-agent search", describes them."""

from kibitz.engines.single.astar import AStar
from kibitz.engines.single.idastar import IDAStar

__all__ = ["AStar", "IDAStar"]
