"""Tree reuse: finding, in the tree of the previous search, the node of the position the
next search starts from (the previous root, or a few moves after it)."""

from __future__ import annotations

from kibitz.engines.mcts.tree import Node
from kibitz.games import Game
from kibitz.games.capabilities import HashKey

REUSE_PLIES = 4
"""How many moves after the previous root a reused subtree may start."""
REUSE_CHECKS = 20_000
"""At most this many nodes are compared with the new position (a bound on the cost)."""


def find_subtree(previous: Game, root: Node, state: Game) -> Node | None:
    """The node of `root`'s tree (searched from position `previous`) whose position is
    `state`'s, at most REUSE_PLIES moves down; None if there is none. `previous` is played
    through and left as it was."""
    key = state.key() if isinstance(state, HashKey) else None
    text = state.position()
    checks = 0
    stack: list[tuple[Node, int]] = [(root, 0)]
    path: list[Node] = []
    # depth-first, with play/undo on `previous` following the stack
    while stack:
        node, depth = stack.pop()
        while path and len(path) >= depth:  # back up to this node's parent
            path.pop()
            previous.undo()
        if depth:
            previous.play(node.move)
            path.append(node)
        checks += 1
        if _same(previous, key, text):
            for _ in path:
                previous.undo()
            return node
        if checks >= REUSE_CHECKS:
            break
        if depth < REUSE_PLIES:
            stack.extend((child, depth + 1) for child in node.children if child.visits)
    for _ in path:
        previous.undo()
    return None


def _same(state: Game, key: int | None, text: str) -> bool:
    """Whether `state` is the position with this key (None: no keys) and notation: the key
    rules most nodes out cheaply, the notation makes sure."""
    if key is not None and state.key() != key:
        return False
    return state.position() == text
