"""A seeded random game tree with chance nodes, and exhaustive expectimax over any game: the
references the `expectimax` engine is tested against."""

from __future__ import annotations

import random
from typing import ClassVar

from toys import SeededTree

from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import ExpectedReturn, HashKey


class _Node:
    __slots__ = ("estimate", "outcomes", "player", "result")

    def __init__(self, player: int, estimate: float, outcomes, result: float | None) -> None:
        self.player = player
        """0 or 1 at a decision node, CHANCE at a chance node."""
        self.estimate = estimate
        """Player 0's estimated value (the value the node's subtree was drawn around)."""
        self.outcomes: list[tuple[int, float]] = outcomes
        """Moves, with probabilities at a chance node (1.0 at a decision node)."""
        self.result = result
        """Player 0's return at a terminal node."""


class RandomChanceTree(SeededTree, HashKey, ExpectedReturn):
    """A *-minimax tree as in backgammon: decision nodes of alternating players (2 to
    `max_moves` moves), each move leading to a chance node (2 to 6 outcomes, random
    probabilities) whose outcomes are the other player's decision nodes; `decisions` deep.

    Values are correlated as in real games: every node draws its children's values around
    its own (plus noise), its estimate is that value, and the leaves' returns are
    the values there; so the previous iteration's best move tends to stay best. With
    `chance_root` the root is a chance node before player 0's decision.
    """

    name: ClassVar[str] = "randomchance"
    title: ClassVar[str] = "Random chance tree"
    has_chance: ClassVar[bool] = True
    return_bounds: ClassVar[tuple[float, float]] = (-1.0, 1.0)

    def __init__(
        self,
        seed: int,
        decisions: int = 4,
        max_moves: int = 4,
        chance_root: bool = False,
        p_terminal: float = 0.1,
    ) -> None:
        self.seed = seed
        rng = random.Random(seed)
        self.tree: dict[tuple[int, ...], _Node] = {}
        if chance_root:
            self._chance((), rng, 0, decisions, max_moves, p_terminal, rng.uniform(-0.5, 0.5))
        else:
            self._decision((), rng, 0, decisions, max_moves, p_terminal, rng.uniform(-0.5, 0.5))
        self.path: tuple[int, ...] = ()

    @staticmethod
    def _near(rng: random.Random, value: float, spread: float) -> float:
        return max(-1.0, min(1.0, value + rng.uniform(-spread, spread)))

    def _decision(self, path, rng, player, left, max_moves, p_terminal, value) -> None:
        if left == 0 or (path and rng.random() < p_terminal):
            self.tree[path] = _Node(player, value, [], value)
            return
        count = rng.randint(2, max_moves)
        moves = rng.sample(range(10), count)
        self.tree[path] = _Node(player, value, [(move, 1.0) for move in moves], None)
        for move in moves:
            self._chance(
                (*path, move), rng, 1 - player, left - 1, max_moves, p_terminal,
                self._near(rng, value, 0.4),
            )  # fmt: skip

    def _chance(self, path, rng, next_player, left, max_moves, p_terminal, value) -> None:
        count = rng.randint(2, 6)
        weights = [rng.random() + 0.05 for _ in range(count)]
        total = sum(weights)
        outcomes = [(outcome, weight / total) for outcome, weight in enumerate(weights)]
        self.tree[path] = _Node(CHANCE, value, outcomes, None)
        for outcome, _ in outcomes:
            self._decision(
                (*path, outcome), rng, next_player, left, max_moves, p_terminal,
                self._near(rng, value, 0.4),
            )  # fmt: skip

    def node(self) -> _Node:
        return self.tree[self.path]

    def to_move(self) -> int:
        return self.node().player

    def perspective(self) -> int:
        node = self.node()
        if node.player != CHANCE:
            return node.player
        return self.tree[(*self.path, node.outcomes[0][0])].player

    def legal_moves(self) -> list[Move]:
        return [move for move, _ in self.node().outcomes]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return list(self.node().outcomes)

    def is_terminal(self) -> bool:
        return self.node().result is not None

    def returns(self) -> tuple[float, ...]:
        result = self.node().result
        assert result is not None
        return (result, -result)

    def expected_return(self, player: int) -> float:
        estimate = self.node().estimate
        return estimate if player == 0 else -estimate


def expectimax(game: Game, depth: int) -> float:
    """Player 0's exhaustive expectiminimax value, `depth` decisions deep (no pruning)."""
    if game.is_terminal():
        return float(game.returns()[0])
    if depth <= 0:
        return game.expected_return(0)
    player = game.to_move()
    values = []
    for move in game.legal_moves():
        game.play(move)
        values.append(expectimax(game, depth if player == CHANCE else depth - 1))
        game.undo()
    if player == CHANCE:
        probabilities = dict(game.chance_outcomes())
        return sum(
            probabilities[move] * value
            for move, value in zip(game.legal_moves(), values, strict=True)
        )
    return max(values) if player == 0 else min(values)
