"""Toy games for engine tests, plus a brute-force reference search over any Game."""

from __future__ import annotations

import random
from typing import ClassVar

from kibitz.engines.types import WIN, WIN_THRESHOLD
from kibitz.games.base import Game, Move
from kibitz.games.capabilities import Evaluation, HashKey, MoveOrdering, NoisyMoves

CLAMP = WIN_THRESHOLD - 1


class _Node:
    __slots__ = ("evaluation", "moves", "noisy", "result")

    def __init__(self, moves, evaluation, noisy, result):
        self.moves: list[int] = moves
        self.evaluation: int = evaluation
        self.noisy: list[int] = noisy
        self.result: int | None = result
        """At a terminal: +1/0/-1 for player 0."""


class SeededTree(Game):
    """A game tree drawn from a seed: the position is the seed, moves are small integers,
    and the position walks the tree along `path` (a tuple of moves)."""

    default_position: ClassVar[str] = "0"
    notation_help: ClassVar[str] = "Position: the seed. Moves: small integers."
    seed: int
    path: tuple[int, ...]

    @classmethod
    def from_position(cls, text: str) -> SeededTree:
        return cls(int(text or cls.default_position))  # type: ignore[call-arg]

    def position(self) -> str:
        return str(self.seed)

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def play(self, move: Move) -> None:
        self.path = (*self.path, move)

    def undo(self) -> None:
        self.path = self.path[:-1]

    def key(self) -> int:
        return hash((self.seed, self.path))

    def render(self) -> str:
        return " ".join(map(str, self.path))


class RandomTreeGame(SeededTree, HashKey, Evaluation, MoveOrdering, NoisyMoves):
    """A seeded random game tree: branching 2-4, depth <= `max_depth`.

    Leaves (at `max_depth`, or earlier with probability `p_terminal`) are wins, losses or
    draws; interior nodes have a random heuristic evaluation (now and then far outside the
    heuristic range, to exercise clamping) and, with `noisy_rate`, some noisy moves.
    Moves are small ints shared between nodes, so killers and history see collisions.
    The key hashes the path: there are no transpositions.
    """

    name: ClassVar[str] = "randomtree"
    title: ClassVar[str] = "Random tree"

    def __init__(
        self, seed: int, max_depth: int = 6, p_terminal: float = 0.15, noisy_rate: float = 0.0
    ) -> None:
        self.seed = seed
        rng = random.Random(seed)
        self.tree: dict[tuple[int, ...], _Node] = {}
        self._build((), rng, max_depth, p_terminal, noisy_rate)
        self.path: tuple[int, ...] = ()

    def _build(self, path, rng, max_depth, p_terminal, noisy_rate) -> None:
        if len(path) == max_depth or (path and rng.random() < p_terminal):
            self.tree[path] = _Node([], 0, [], rng.choice((1, 0, -1)))
            return
        moves = rng.sample(range(8), rng.randint(2, 4))
        evaluation = rng.randint(-400, 400)
        if rng.random() < 0.05:
            evaluation = rng.choice((-1, 1)) * 10 * WIN
        noisy = [move for move in moves if rng.random() < noisy_rate]
        self.tree[path] = _Node(moves, evaluation, noisy, None)
        for move in moves:
            self._build((*path, move), rng, max_depth, p_terminal, noisy_rate)

    def to_move(self) -> int:
        return len(self.path) & 1

    def legal_moves(self) -> list[Move]:
        return sorted(self.tree[self.path].moves)

    def ordered_moves(self) -> list[Move]:
        return list(self.tree[self.path].moves)

    def noisy_moves(self) -> list[Move]:
        return list(self.tree[self.path].noisy)

    def is_terminal(self) -> bool:
        return self.tree[self.path].result is not None

    def returns(self) -> tuple[float, ...]:
        result = self.tree[self.path].result
        assert result is not None
        return (float(result), float(-result))

    def evaluate(self, player: int | None = None) -> int:
        evaluation = self.tree[self.path].evaluation
        side = self.to_move() if player is None else player
        return evaluation if side == 0 else -evaluation


class ChanceToy(RandomTreeGame):
    has_chance: ClassVar[bool] = True


# -- brute-force references ------------------------------------------------------------------


def terminal_value(game: Game, ply: int) -> int:
    result = game.returns()[game.to_move()]
    return WIN - ply if result > 0 else ply - WIN if result < 0 else 0


def quiescence(game: Game, ply: int) -> int:
    """Stand pat or any noisy move, recursively (no pruning)."""
    if game.is_terminal():
        return terminal_value(game, ply)
    best = max(-CLAMP, min(CLAMP, game.evaluate()))
    for move in game.noisy_moves():
        game.play(move)
        best = max(best, -quiescence(game, ply + 1))
        game.undo()
    return best


def negamax(game: Game, depth: int, ply: int = 0) -> int:
    """Plain depth-limited negamax with win-distance scores and quiescence at depth 0."""
    if game.is_terminal():
        return terminal_value(game, ply)
    if depth <= 0:
        return quiescence(game, ply)
    best = -WIN - 1
    for move in game.legal_moves():
        game.play(move)
        best = max(best, -negamax(game, depth - 1, ply + 1))
        game.undo()
    return best


def solve(game: Game, memo: dict[int, int] | None = None) -> int:
    """Exact game value (win-distance scores relative to this node), memoised by key."""
    memo = {} if memo is None else memo
    key = game.key()
    if key in memo:
        return memo[key]
    if game.is_terminal():
        value = terminal_value(game, 0)
    else:
        value = -WIN - 1
        for move in game.legal_moves():
            game.play(move)
            child = -solve(game, memo)
            game.undo()
            # one ply further from the end of the game
            if child >= WIN_THRESHOLD:
                child -= 1
            elif child <= -WIN_THRESHOLD:
                child += 1
            value = max(value, child)
    memo[key] = value
    return value


class ExchangeGame(Game, HashKey, Evaluation, NoisyMoves):
    """Captures on one contested square: the horizon effect in a nutshell.

    Player 1 has a piece worth `target` on the square; each player has a queue of attackers
    (values, cheapest first by convention). The side to move may wait (move 0, quiet) or,
    when the square holds an enemy piece and it has an attacker left, capture with its next
    attacker (move 1, noisy): the enemy piece is lost and the attacker now stands on the
    square. After `length` plies the game ends; more material wins. `evaluate()` is the
    material balance for the side to move, so a capture looks good one ply deep even when
    a recapture follows. The position is (ply, captures made): there are transpositions.
    """

    name: ClassVar[str] = "exchange"
    title: ClassVar[str] = "Exchange on one square"
    default_position: ClassVar[str] = "100;900;300;6"
    notation_help: ClassVar[str] = (
        "Position: target;attackers of player 0;attackers of player 1;length, e.g. "
        "'100;900;300;6' (attackers comma-separated). Moves: 0 = wait, 1 = capture."
    )
    WAIT, CAPTURE = 0, 1

    def __init__(
        self, target: int, attackers: tuple[list[int], list[int]], length: int = 6
    ) -> None:
        self.target = target
        self.attackers = (list(attackers[0]), list(attackers[1]))
        self.length = length
        self.captures = 0
        self.history: list[Move] = []

    @classmethod
    def from_position(cls, text: str) -> ExchangeGame:
        target, first, second, length = (text or cls.default_position).split(";")

        def values(part: str) -> list[int]:
            return [int(v) for v in part.split(",") if v]

        return cls(int(target), (values(first), values(second)), int(length))

    def position(self) -> str:
        first, second = (",".join(map(str, a)) for a in self.attackers)
        return f"{self.target};{first};{second};{self.length}"

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return "capture" if move == self.CAPTURE else "wait"

    # The k-th capture is made by the player who does not own the square: player 0 first.
    def _capturer(self) -> int:
        return self.captures & 1

    def _square(self) -> tuple[int, int]:
        """(owner, value) of the piece on the square."""
        if self.captures == 0:
            return 1, self.target
        capturer = (self.captures - 1) & 1
        return capturer, self.attackers[capturer][(self.captures - 1) // 2]

    def _next_attacker(self, player: int) -> int | None:
        used = (self.captures + (1 - player)) // 2  # captures player has made so far
        queue = self.attackers[player]
        return queue[used] if used < len(queue) else None

    def material(self, player: int) -> int:
        """Everything `player` still has: unused attackers plus the piece on the square."""
        owner, value = self._square()
        used = (self.captures + (1 - player)) // 2
        alive = sum(self.attackers[player][used:])
        return alive + (value if owner == player else 0)

    def to_move(self) -> int:
        return len(self.history) & 1

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        return [self.WAIT, *self.noisy_moves()]

    def noisy_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        mover = self.to_move()
        if self._capturer() == mover and self._next_attacker(mover) is not None:
            return [self.CAPTURE]
        return []

    def play(self, move: Move) -> None:
        self.history.append(move)
        if move == self.CAPTURE:
            self.captures += 1

    def undo(self) -> None:
        if self.history.pop() == self.CAPTURE:
            self.captures -= 1

    def is_terminal(self) -> bool:
        return len(self.history) >= self.length

    def returns(self) -> tuple[float, ...]:
        diff = self.material(0) - self.material(1)
        sign = (diff > 0) - (diff < 0)
        return (float(sign), float(-sign))

    def key(self) -> int:
        return hash((self.position(), len(self.history), self.captures))

    def evaluate(self, player: int | None = None) -> int:
        side = self.to_move() if player is None else player
        return self.material(side) - self.material(1 - side)

    def render(self) -> str:
        owner, value = self._square()
        return f"ply {len(self.history)}: square holds {value} of player {owner}"


def published_internal(score: int, stones: int) -> int:
    """A published Connect Four score (Pons's convention) as the engine's negamax integer
    for the side to move: the inverse of `kibitz.games.connect4.solver_score`."""
    if score == 0:
        return 0
    if score > 0:  # 22 - (own stones + (plies + 1) // 2) == score, the winner's stone last
        return WIN - (2 * (22 - score - stones // 2) - 1)
    return -(WIN - 2 * (22 + score - (stones + 1) // 2))
