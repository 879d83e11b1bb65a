"""The search tree of `mcts`: nodes, their statistics, and the MCTS-solver's proofs.

A node stands for the position after its `move`; its statistics are from the point of view
of its `mover`, the player who made that move (CHANCE for a chance outcome), so that games
with any number of players back up each player's own return. Children are made one at a
time: `untried` holds the moves not yet tried, in the order they will be (the last first).

Proofs (MCTS-solver, Winands, Björnsson & Saito 2008, with the score bounds of Cazenave &
Saffidine 2010 so that draws are proven too; two-player zero-sum games without chance):
`pessimistic` and `optimistic` bound the mover's result from here (+1 win, 0 draw, -1
loss; a game's returns count by their sign). They meet when the result is proven, and
`plies` is then the distance to the end of the game the proof found (not always the
shortest).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from kibitz.games import CHANCE, Game, Move

NODE_BYTES = 330
"""What the tree's memory bound counts per node, ..."""
MOVE_BYTES = 8
"""... per move listed when a node is expanded, ..."""
AMAF_ENTRY_BYTES = 140
"""... and per RAVE entry: more than tracemalloc measures on Connect Four and Hex
(tests/engines/test_mcts.py holds the sum to the measurement; 300 bytes a node came within
1% of it on Hex 11x11 and below it in one clean-clone run, hence 330)..."""
TOTALS_BYTES = 64
"""... and in games of three players and more, per node's list of every player's total
return, ..."""
TOTAL_BYTES = 32
"""... and per player in it."""


def node_bytes(node: Node) -> int:
    """What the memory bound counts for `node`."""
    listed = len(node.untried) + len(node.children) if node.untried is not None else 0
    size = NODE_BYTES + MOVE_BYTES * listed + AMAF_ENTRY_BYTES * len(node.amaf or ())
    if node.totals is not None:
        size += TOTALS_BYTES + TOTAL_BYTES * len(node.totals)
    return size


class Node:
    """One position of the tree; see the module docstring."""

    __slots__ = (
        "amaf",
        "children",
        "draws",
        "move",
        "mover",
        "optimistic",
        "pessimistic",
        "player",
        "plies",
        "prior",
        "priors",
        "probabilities",
        "total",
        "totals",
        "untried",
        "visits",
        "wins",
    )

    def __init__(self, move: Move | None, mover: int, prior: float | None = None) -> None:
        self.move = move
        self.mover = mover
        self.prior = prior
        self.player: int | None = None
        """The player to move here, once expanded."""
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        """None until the node is expanded."""
        self.probabilities: tuple[list[Move], list[float]] | None = None
        """At a chance node: the outcomes and their cumulative probabilities."""
        self.priors: dict[Move, float] | None = None
        """The moves' priors, where the game gives them (PUCT)."""
        self.amaf: dict[Move, list[float]] | None = None
        """RAVE: per move of this position, [playouts, total return] of the simulations in
        which the player to move here played it later (all moves as first)."""
        self.visits = 0
        self.total = 0.0
        self.totals: list[float] | None = None
        """Every player's total return, by player index (games of three players and more:
        what a root move's `Score.values` reports)."""
        self.wins = 0
        self.draws = 0
        self.pessimistic = -1
        self.optimistic = 1
        self.plies = 0

    @property
    def proven(self) -> int | None:
        """The mover's proven result (+1, 0, -1), or None."""
        return self.pessimistic if self.pessimistic == self.optimistic else None

    def prove(self, result: int, plies: int) -> None:
        self.pessimistic = self.optimistic = result
        self.plies = plies

    @property
    def mean(self) -> float:
        """The mover's mean return (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    def child(self, move: Move) -> Node | None:
        for child in self.children:
            if child.move == move:
                return child
        return None

    def walk(self) -> Iterator[Node]:
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)


def expand(node: Node, state: Game, moves: list[Move], priors: dict[Move, float] | None) -> None:
    """Make `node` an inner node of `state` (not terminal): `moves` are tried in order (at
    a chance node: the outcomes sampled, by their probabilities; a root's `search_moves`)."""
    player = state.to_move()
    node.player = player
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if len(moves) < len(outcomes):
            wanted = set(moves)
            outcomes = [outcome for outcome in outcomes if outcome[0] in wanted]
        cumulative = list(itertools.accumulate(probability for _, probability in outcomes))
        node.probabilities = ([outcome for outcome, _ in outcomes], cumulative)
        node.untried = []
        return
    if priors is not None:  # the likeliest is tried first (the last of `untried`)
        node.priors = priors
        moves = sorted(moves, key=priors.__getitem__)
    else:
        moves = moves[::-1]
    node.untried = moves


def update_bounds(node: Node) -> bool:
    """Recompute `node`'s bounds from its children's (the player to move at `node` is their
    mover: negamax); True if they changed. An untried move may still win or lose."""
    best_pessimistic = best_optimistic = -1
    if node.untried:
        best_optimistic = 1
    for child in node.children:
        if child.pessimistic > best_pessimistic:
            best_pessimistic = child.pessimistic
        if child.optimistic > best_optimistic:
            best_optimistic = child.optimistic
    pessimistic, optimistic = -best_optimistic, -best_pessimistic
    if pessimistic == node.pessimistic and optimistic == node.optimistic:
        return False
    node.pessimistic, node.optimistic = pessimistic, optimistic
    if pessimistic == optimistic:
        node.plies = 1 + _proof_plies(node, -pessimistic)
    return True


def _proof_plies(node: Node, result: int) -> int:
    """The distance of the proof of `result` for the player to move at `node`: the shortest
    win, the longest loss or draw among the children that prove it."""
    plies = [child.plies for child in node.children if child.proven == result]
    return min(plies) if result == 1 else max(plies)
