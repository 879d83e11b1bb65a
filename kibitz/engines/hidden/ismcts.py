"""The `ismcts` engine: single-observer information-set Monte Carlo tree search (Cowling,
Powley & Whitehouse 2012, SO-ISMCTS with partially observable moves; docs/engines.md,
"ismcts").

One tree of the observer's information sets: a node is what the observer knows (their
`view`) with the player to move. Each iteration samples a world consistent with the root
(`sample`, a determinization) and walks the tree in it:

- at the observer's turn, each move legal in the world is an edge, chosen by ISUCT: a
  move's mean + c * sqrt(ln(availability) / visits), where its availability counts the
  visits of the node in which it was legal (here every move the observer may try, as the
  observer knows its own legal moves);
- at another player's turn, the moves are grouped by what the observer sees of them (the
  observer's view after each), ISUCT from that player's point of view chooses a group and
  the move within it is drawn at random: the opponent of a poker hand bets or checks as
  the tree learns, the opponent of phantom tic-tac-toe (whose moves the observer never
  sees) plays at random; a move the observer does not notice at all (a refused attempt)
  stays in the same node;
- chance draws an outcome by its probability.

The walk leaves the tree at a new node, which it adds, and plays out at random in the
world (the game's `playout` where it has one, `mcts`'s `random_playout` else). Every edge
walked gets the returns of its mover (mcts's nodes and backup). The answer lists every root
move with its visits and mean value, the most visited first, each line one move long: what
follows it happens in worlds the view does not know.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from kibitz.engines.base import OptionSpec, SearchContext
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.engines.hidden import common
from kibitz.engines.mcts.engine import child_score, poll_steps
from kibitz.engines.mcts.evaluators import random_playout
from kibitz.engines.mcts.simulation import back_up
from kibitz.engines.mcts.tree import NODE_BYTES, Node
from kibitz.engines.types import Limits, Result, RootMove, Score
from kibitz.games import CHANCE, Game, HiddenInformation, Move
from kibitz.games.capabilities import Playout
from kibitz.vocabulary import ScoreKind, StopReason

Key = tuple[str, int]
"""An information-set node's key: the observer's view and the player to move."""


class Edge(Node):
    """A move (the observer's), a group of moves (another player's, keyed by the observer's
    view after them) or a chance outcome at the root: mcts's node statistics for its mover,
    and how often it was available."""

    __slots__ = ("availability",)

    def __init__(self, move: Hashable, mover: int) -> None:
        super().__init__(move, mover)
        self.availability = 0


class InfoSet:
    """A node of the tree: one information set of the observer, with the player to move."""

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[Hashable, Edge] = {}
        self.children: dict[Key, InfoSet] = {}


class ISMCTS(common.HiddenEngine):
    """Single-observer information-set MCTS; see the module docstring."""

    name: ClassVar[str] = "ismcts"
    description: ClassVar[str] = (
        "Information-set Monte Carlo tree search (single observer, Cowling, Powley & "
        "Whitehouse 2012) for games of hidden information: each iteration samples a world "
        "consistent with the view, descends one tree of the observer's information sets by "
        "ISUCT with availability counts (the opponent's moves grouped by what the observer "
        "sees of them) and plays out at random. Every root move with its visits and mean "
        "value, one-move lines. Nodes are iterations."
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Exploration",
            "spin",
            70,
            "The exploration constant c of ISUCT (mean + c*sqrt(ln availability / visits)), "
            "in hundredths (70 = 0.7, Cowling et al.'s); returns count from -1 to +1.",
            min=0,
            max=10_000,
        ),
        OptionSpec(
            "TreeMemory",
            "spin",
            128,
            "Megabytes the tree may take; when it is full the iterations go on with "
            "playouts from its leaves without adding nodes (stats: tree_full).",
            min=1,
            max=4096,
        ),
        OptionSpec(
            "Seed",
            "spin",
            1,
            "Seed of the random numbers (worlds, moves, playouts), set at the start of every "
            "search: the same seed, position and node limit give the same result. 0 = a "
            "fresh random seed for each search.",
            min=0,
            max=2**31 - 1,
        ),
    )

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["TreeMemory"])

    def new_game(self) -> None:
        """Nothing is kept between searches."""

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        seed = self.options["Seed"]
        iterations = Iterations(
            state,
            root_candidates(state.legal_moves(), limits.search_moves),
            self.options["Exploration"] / 100,
            self.options["TreeMemory"] * 2**20,
            random.Random(seed) if seed else random.Random(),
        )
        reason = self._iterate(iterations, driver, limits)
        root_moves = iterations.root_moves()
        best = root_moves[0]
        self._report(iterations, driver, root_moves)
        return Result(
            best_move=best.move,
            score=best.score,
            pv=[best.move],
            root_moves=root_moves,
            nodes=iterations.count,
            time=driver.elapsed(),
            depth=round(iterations.average_depth()),
            seldepth=iterations.max_depth,
            stop_reason=reason,
            stats={
                "iterations": float(iterations.count),
                "tree_nodes": float(iterations.nodes),
                "tree_full": 1.0 if iterations.full else 0.0,
                "average_depth": iterations.average_depth(),
            },
        )

    def _iterate(self, iterations: Iterations, driver: SearchDriver, limits: Limits) -> StopReason:
        """Iterations until a limit is reached (MCTS's polling); why it ended."""
        return poll_steps(
            iterations,
            driver,
            limits,
            lambda elapsed: self._report(iterations, driver, iterations.root_moves()),
        )

    def _report(
        self, iterations: Iterations, driver: SearchDriver, root_moves: list[RootMove]
    ) -> None:
        best = root_moves[0]
        driver.report(
            driver.info(
                round(iterations.average_depth()),
                iterations.max_depth,
                best.score,
                iterations.count,
                [best.move],
                driver.elapsed(),
                root_moves=root_moves,
            )
        )


class Iterations:
    """The tree of one search from `state` (a view or a full state) and its iterations."""

    def __init__(
        self,
        state: Game,
        candidates: list[Move],
        exploration: float,
        max_bytes: int,
        rng: random.Random,
    ) -> None:
        assert isinstance(state, HiddenInformation)
        self.state = state
        self.player = common.answered_player(state)
        """Whose values the answer gives (the observer, or at a chance root the next to
        act)."""
        self.observer = state.observer()
        self.exploration = exploration
        self.max_bytes = max_bytes
        self.rng = rng
        self.root = InfoSet()
        self.root_key = (state.view(self.observer), state.to_move())
        self.candidates = candidates
        self.odds: dict[Move, float] = {}
        """At a chance root (a full state before a deal): the outcomes' probabilities."""
        if state.to_move() == CHANCE:
            odds = dict(state.chance_outcomes())
            self.odds = {move: odds[move] for move in candidates}
        for move in candidates:
            self.root.edges[move] = Edge(move, self.player)
        self.nodes = 1
        self.bytes = NODE_BYTES * (1 + len(candidates))
        self.full = self.bytes >= max_bytes
        self.count = 0
        self.depth_total = 0
        self.max_depth = 0

    @property
    def steps(self) -> int:
        """The iterations run (`poll_steps` counts them)."""
        return self.count

    def solved(self) -> bool:
        return False  # a view's value is an estimate over sampled worlds, never proven

    def run(self) -> None:
        """One iteration: a world, the walk down the tree, a playout, the backup."""
        world = self.state.sample(self.rng)
        node, key = self.root, self.root_key
        path: list[Edge] = []
        depth = 0
        counted: InfoSet | None = None
        while not world.is_terminal():
            mover = world.to_move()
            if mover == CHANCE and node is not self.root:
                world.play(self._draw(world))
            else:
                edge, move = self._choose(node, world, mover, counted is not node)
                counted = node
                world.play(move)
                if not path or path[-1] is not edge:
                    path.append(edge)
            after = (world.view(self.observer), world.to_move())
            if after == key:
                continue  # a move the observer does not notice: the same information set
            child = node.children.get(after)
            depth += 1
            if child is None:
                if not self.full:
                    node.children[after] = InfoSet()
                    self.nodes += 1
                    self._count(NODE_BYTES)
                break
            node, key = child, after
        result = world.returns() if world.is_terminal() else self._playout(world)
        back_up(path, result)
        self.count += 1
        self.depth_total += depth
        self.max_depth = max(self.max_depth, depth)

    def _choose(self, node: InfoSet, world: Game, mover: int, count: bool) -> tuple[Edge, Move]:
        """The edge a walk takes at `node` in `world` and the move it plays; `count`: add
        to the availability of the edges available here."""
        if mover == CHANCE:  # at the root only: its outcomes are the answer's moves
            outcome = self._draw(world, self.odds)
            return node.edges[outcome], outcome
        groups = self._groups(node, world, mover)
        edges = node.edges
        available = []
        for group in groups:
            edge = edges.get(group)
            if edge is None:
                edge = edges[group] = Edge(group, mover)
                self._count(NODE_BYTES)
            if count:
                edge.availability += 1
            available.append(edge)
        untried = [edge for edge in available if not edge.visits]
        if untried:
            edge = self.rng.choice(untried)
        else:
            c = self.exploration
            edge = max(
                available,
                key=lambda e: (
                    e.total / e.visits + c * math.sqrt(math.log(e.availability) / e.visits)
                ),
            )
        moves = groups[edge.move]
        return edge, moves[0] if len(moves) == 1 else self.rng.choice(moves)

    def _groups(self, node: InfoSet, world: Game, mover: int) -> dict[Hashable, list[Move]]:
        """The edges of `node` available in `world`, each with its moves: the observer's
        moves one by one (at the root the candidates), another player's by the observer's
        view after them."""
        if node is self.root:
            return {move: [move] for move in self.candidates}
        if mover == self.observer:
            return {move: [move] for move in world.legal_moves()}
        groups: dict[Hashable, list[Move]] = {}
        for move in world.legal_moves():
            world.play(move)
            groups.setdefault(world.view(self.observer), []).append(move)
            world.undo()
        return groups

    def _draw(self, world: Game, allowed: Mapping[Move, float] | None = None) -> Move:
        """A chance outcome of `world` by its probability (among `allowed` where given)."""
        outcomes = world.chance_outcomes()
        if allowed:
            outcomes = [(move, p) for move, p in outcomes if move in allowed]
        cumulative = list(itertools.accumulate(p for _, p in outcomes))
        index = bisect.bisect(cumulative, self.rng.random() * cumulative[-1])
        return outcomes[min(index, len(outcomes) - 1)][0]

    def _playout(self, world: Game) -> tuple[float, ...]:
        if isinstance(world, Playout):
            return world.playout(self.rng)
        return random_playout(world, self.rng)

    def _count(self, size: int) -> None:
        self.bytes += size
        if self.bytes >= self.max_bytes:
            self.full = True

    def average_depth(self) -> float:
        return self.depth_total / self.count if self.count else 0.0

    def root_moves(self) -> list[RootMove]:
        """Every root move, the most visited first (ties by mean), each with its visits and
        mean value; those not tried yet last (at a chance root, most likely first)."""
        edges = sorted(
            self.root.edges.values(),
            key=lambda e: (e.visits, e.mean, self.odds.get(e.move, 0.0)),
            reverse=True,
        )
        return [
            RootMove(
                edge.move,
                child_score(edge) if edge.visits else Score(ScoreKind.HEURISTIC, visits=0),
                [edge.move],
                probability=self.odds.get(edge.move),
            )
            for edge in edges
        ]
