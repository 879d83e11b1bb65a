"""Toy game trees of three players and more for the `maxn`, `paranoid` and `brs` tests, and
brute-force references: plain maxⁿ, minimax on the coalition tree, best-reply search."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import ClassVar

from kibitz.engines.multi.common import Values, leaf_values, sum_bounds
from kibitz.games.base import Game, Move
from kibitz.games.capabilities import Evaluation, HashKey, NullMove


class NodeData:
    __slots__ = ("evaluation", "moves", "returns")

    def __init__(self, moves: list[int], evaluation: list[int], returns: Values | None):
        self.moves = moves
        self.evaluation = evaluation
        self.returns = returns


class PlayerTree(Game, HashKey, Evaluation):
    """A seeded random tree of `players` players in turn (player 0 first): branching 2-4
    (moves are small integers), ending at `max_depth` or earlier now and then. A finished
    game's returns are whole numbers from 0 to `total` that add up to `total` (few values:
    many ties), declared as `bounded_sum` when `bounded`; else each a whole number from 0 to
    `total` (general-sum). Inner positions have a random evaluation per player.

    A node is drawn from the seed and its canonical path: the path itself, or with
    `transpose` its length and its moves sorted, so that move orders transpose (the key is
    the canonical path's)."""

    name: ClassVar[str] = "playertree"
    title: ClassVar[str] = "Player tree"
    default_position: ClassVar[str] = "0"
    notation_help: ClassVar[str] = "Position: the seed. Moves: small integers."

    def __init__(
        self,
        seed: int,
        players: int = 3,
        max_depth: int = 5,
        total: int = 6,
        bounded: bool = True,
        transpose: bool = False,
        p_terminal: float = 0.1,
    ) -> None:
        self.seed = seed
        self.players = players
        self.max_depth = max_depth
        self.total = total
        self.bounded_sum = (float(total), 0.0) if bounded else None
        self.transpose = transpose
        self.p_terminal = p_terminal
        self.path: tuple[int, ...] = ()
        self.nodes: dict[tuple, NodeData] = {}

    @classmethod
    def from_position(cls, text: str) -> PlayerTree:
        return cls(int(text or cls.default_position))

    def position(self) -> str:
        return str(self.seed)

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def canonical(self) -> tuple:
        if self.transpose:
            return (len(self.path), tuple(sorted(self.path)))
        return self.path

    def node(self) -> NodeData:
        canonical = self.canonical()
        data = self.nodes.get(canonical)
        if data is None:
            rng = random.Random(f"{self.seed}:{canonical}")
            if len(self.path) >= self.max_depth or (self.path and rng.random() < self.p_terminal):
                data = NodeData([], [], self.draw_returns(rng))
            else:
                moves = rng.sample(range(6), rng.randint(2, 4))
                evaluation = [rng.randint(-300, 300) for _ in range(self.players)]
                data = NodeData(moves, evaluation, None)
            self.nodes[canonical] = data
        return data

    def draw_returns(self, rng: random.Random) -> Values:
        if self.bounded_sum is None:
            return tuple(float(rng.randint(0, self.total)) for _ in range(self.players))
        cuts = sorted(rng.randint(0, self.total) for _ in range(self.players - 1))
        edges = [0, *cuts, self.total]
        return tuple(float(high - low) for low, high in pairwise(edges))

    def to_move(self) -> int:
        return len(self.path) % self.players

    def legal_moves(self) -> list[Move]:
        return list(self.node().moves)

    def play(self, move: Move) -> None:
        self.path = (*self.path, move)

    def undo(self) -> None:
        self.path = self.path[:-1]

    def is_terminal(self) -> bool:
        return self.node().returns is not None

    def returns(self) -> tuple[float, ...]:
        returns = self.node().returns
        assert returns is not None
        return returns

    def key(self) -> int:
        return hash((self.seed, self.canonical()))

    def evaluate(self, player: int | None = None) -> int:
        return self.node().evaluation[self.to_move() if player is None else player]

    def render(self) -> str:
        return " ".join(map(str, self.path))


class PassingTree(PlayerTree, NullMove):
    """A `PlayerTree` where a player may pass (`play_null`), for pure best-reply search: a
    pass is a move 9 on the path, taken back by `undo`."""

    PASS = 9

    def play_null(self) -> None:
        self.play(self.PASS)

    def null_move_allowed(self) -> bool:
        return True


class FixedTree(Game, HashKey):
    """A small tree of three players written out: `moves` by path (a path not there is the
    end of the game), the returns there by its last move (`leaves`); player `first` moves
    first."""

    name: ClassVar[str] = "fixedtree"
    title: ClassVar[str] = "Fixed tree"
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "Moves: small integers."
    players = 3

    def __init__(self, moves: dict[tuple, list[int]], leaves: dict[int, Values], first: int):
        self.moves = moves
        self.leaves = leaves
        self.first = first
        self.path: tuple[int, ...] = ()

    @classmethod
    def from_position(cls, text: str) -> FixedTree:
        raise NotImplementedError

    def position(self) -> str:
        return ""

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return (self.first + len(self.path)) % self.players

    def legal_moves(self) -> list[Move]:
        return list(self.moves.get(self.path, []))

    def play(self, move: Move) -> None:
        self.path = (*self.path, move)

    def undo(self) -> None:
        self.path = self.path[:-1]

    def is_terminal(self) -> bool:
        return self.path not in self.moves

    def returns(self) -> tuple[float, ...]:
        return self.leaves[self.path[-1]]

    def key(self) -> int:
        return hash(self.path)

    def render(self) -> str:
        return " ".join(map(str, self.path))


# -- brute-force references ------------------------------------------------------------------


class Counted:
    """A reference search's node count (a node per move played, as the engines count)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.nodes = 0
        self.bounds = sum_bounds(game)

    def play(self, move: Move) -> None:
        self.nodes += 1
        self.game.play(move)

    def leaf(self) -> Values:
        return leaf_values(self.game, self.bounds)


def maxn(search: Counted, depth: int, root: int, tie_break: str = "first") -> Values:
    """Plain maxⁿ to `depth`: no pruning; ties by `tie_break` as the engine's option says."""
    game = search.game
    if depth <= 0 or game.is_terminal():
        return search.leaf()
    mover = game.to_move()
    best: Values | None = None
    for move in game.legal_moves():
        search.play(move)
        values = maxn(search, depth - 1, root, tie_break)
        game.undo()
        if best is None or values[mover] > best[mover]:
            best = values
        elif values[mover] == best[mover] and mover != root and values[root] != best[root]:
            if tie_break == "paranoid" and values[root] < best[root]:
                best = values
            if tie_break == "altruistic" and values[root] > best[root]:
                best = values
    assert best is not None
    return best


def coalition(search: Counted, depth: int, root: int) -> float:
    """Plain minimax of the root player's value: it maximises, everyone else minimises."""
    game = search.game
    if depth <= 0 or game.is_terminal():
        return search.leaf()[root]
    values = []
    for move in game.legal_moves():
        search.play(move)
        values.append(coalition(search, depth - 1, root))
        game.undo()
    return max(values) if game.to_move() == root else min(values)


def best_reply(search: Counted, depth: int, root: int) -> float:
    """Brute-force best-reply search of the root player's value: at the root player's turn
    its best move; at an opponent's, the minimum over every opponent's every move before
    the root player's next turn, the other opponents passing (where the game can) or
    playing their first legal move."""
    game = search.game
    if depth <= 0 or game.is_terminal():
        return search.leaf()[root]
    values = []
    if game.to_move() == root:
        for move in game.legal_moves():
            search.play(move)
            values.append(best_reply(search, depth - 1, root))
            game.undo()
        return max(values)
    passes = isinstance(game, NullMove)
    aside: list[Move] = []
    while not game.is_terminal() and game.to_move() != root:
        moves = game.legal_moves()
        for move in moves:
            if aside and not passes and move == moves[0]:
                continue  # the earlier opponent's reply with everyone's first move
            search.play(move)
            played = 1
            while not game.is_terminal() and game.to_move() != root:
                search.play(game.PASS if passes else game.legal_moves()[0])
                played += 1
            values.append(best_reply(search, depth - 1, root))
            for _ in range(played):
                game.undo()
        step = game.PASS if passes else moves[0]
        search.play(step)
        aside.append(step)
    for _ in aside:
        game.undo()
    return min(values)
