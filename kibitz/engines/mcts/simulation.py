"""One Monte Carlo simulation after another: selection by the tree policy, expansion, the
leaf's evaluation, the backup of every player's return, and the MCTS-solver's proofs
(docs/engines.md, "mcts"). The policies are in `policies.py`, the evaluations (random
playouts, the game's heuristic, a plugged-in one) in `evaluators.py`.

`Simulations` plays the moves of a simulation on the one mutable position it is given and
takes them back before the next.
"""

from __future__ import annotations

import bisect
import random

from kibitz.engines.mcts.evaluators import EVALUATORS, Evaluator, uniform_priors
from kibitz.engines.mcts.policies import TreePolicy, make_policy
from kibitz.engines.mcts.settings import Settings
from kibitz.engines.mcts.tree import (
    AMAF_ENTRY_BYTES,
    MOVE_BYTES,
    NODE_BYTES,
    TOTAL_BYTES,
    TOTALS_BYTES,
    Node,
    expand,
    node_bytes,
    update_bounds,
)
from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import SolverHooks

NO_PLAYER = -2
"""The root's `mover`: nobody moved into it."""


class Simulations:
    """Runs simulations from `root` (the position `state` is in) and keeps their counts."""

    def __init__(
        self,
        state: Game,
        root: Node,
        settings: Settings,
        rng: random.Random,
        root_moves: list[Move] | None = None,
        evaluator: Evaluator | None = None,
        policy: TreePolicy | None = None,
    ) -> None:
        """`root` may be a reused tree; `root_moves`: the moves a new root may have (None:
        every legal move); `evaluator` and `policy`: those of the options (`Evaluation`,
        `Policy`) when None."""
        self.state = state
        self.root = root
        self.settings = settings
        self.rng = rng
        self.solver = settings.solver and _solvable(state)
        self.hooks = settings.hooks and self.solver and isinstance(state, SolverHooks)
        """Prune with the game's solver hooks below the root (the root keeps every move,
        so that every root move is scored)."""
        self.record: list[tuple[int, Move]] | None = [] if settings.rave else None
        self.players = state.players if state.players > 2 else 0
        """Players whose returns each node totals (`Node.totals`): none in two-player games."""
        if evaluator is None:
            evaluator = EVALUATORS[settings.evaluation](state, settings)
        if policy is None:
            policy = make_policy(settings, evaluator.gives_priors)
        self.evaluator = evaluator
        self.policy = policy
        self._evaluate = evaluator.evaluate
        self._priors = evaluator.priors if policy.uses_priors else None
        self._select = policy.select
        self._grow = self._try
        self.nodes = 0
        self.bytes = 0
        """Nodes in the tree and what the memory bound counts for them."""
        for node in root.walk():
            self.nodes += 1
            self.bytes += node_bytes(node)
        self.full = False
        self.playouts = 0
        self.depth_total = 0
        self.max_depth = 0
        self.outcomes: dict[Move, float] = {}
        """At a chance root (before the roll): the outcomes it samples, by probability."""
        if not state.is_terminal() and state.to_move() == CHANCE:
            wanted = None if root_moves is None else set(root_moves)
            self.outcomes = {
                outcome: probability
                for outcome, probability in state.chance_outcomes()
                if wanted is None or outcome in wanted
            }
        if root.untried is None and not state.is_terminal():
            self._expand(root, state.legal_moves() if root_moves is None else root_moves)

    # -- one simulation ---------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """The simulations run (`poll_steps` counts them)."""
        return self.playouts

    def solved(self) -> bool:
        return self.root.proven is not None

    def run(self) -> None:
        """One simulation: down the tree, the evaluation of its edge (a playout), the
        backup."""
        state = self.state
        root = node = self.root
        path = [node]
        record = self.record
        if record is not None:
            record.clear()
        while True:
            if node.pessimistic == node.optimistic and node is not root:  # proven
                result = _proof_returns(node)
                break
            if node.untried is None:
                if state.is_terminal():
                    result = state.returns()
                    if self.solver:
                        node.prove(_sign(result[node.mover]), 0)
                    break
                if node.visits == 0 or self.full:
                    result = self._evaluate(state, self.rng, record)
                    break
                self._expand(node)
            if node.player == CHANCE:
                child = self._chance_child(node)
            else:
                child = self._select(node, self._grow)
                if child is None:  # the tree is full: evaluate from here
                    result = self._evaluate(state, self.rng, record)
                    break
            move = child.move
            if record is not None:
                record.append((node.player, move))
            state.play(move)
            path.append(child)
            node = child
        depth = len(path) - 1
        undo = state.undo
        for _ in range(depth):
            undo()
        self.playouts += 1
        self.depth_total += depth
        if depth > self.max_depth:
            self.max_depth = depth
        back_up(path, result)
        if record is not None:
            self._count(AMAF_ENTRY_BYTES * _back_up_amaf(path, record, result, not self.full))
        if node.pessimistic == node.optimistic and self.solver:
            for ancestor in reversed(path[:-1]):
                if not update_bounds(ancestor):
                    break

    # -- the tree ---------------------------------------------------------------------------

    def _expand(self, node: Node, moves: list[Move] | None = None) -> None:
        state = self.state
        if moves is None:
            moves = self._decisive_moves() if self.hooks else state.legal_moves()
        priors = None
        if self._priors is not None and state.to_move() != CHANCE:
            priors = self._priors(state)
            if priors is None:
                priors = uniform_priors(state)
        expand(node, state, moves, priors)
        if self.record is not None and node.player != CHANCE:
            node.amaf = {}
        self._count(MOVE_BYTES * len(moves))

    def _decisive_moves(self) -> list[Move]:
        """The moves worth trying below the root, by the game's solver hooks (Teytaud &
        Teytaud 2010, "decisive and anti-decisive moves"): a win on the spot alone, else the
        moves that do not let the opponent win on the spot (all moves when every one does)."""
        state = self.state
        wins = state.winning_moves()
        if wins:
            return wins[:1]
        return state.non_losing_moves() or state.legal_moves()

    def _new_child(self, node: Node, move: Move, prior: float | None = None) -> Node:
        child = Node(move, node.player, prior)
        node.children.append(child)
        self.nodes += 1
        self._count(NODE_BYTES)
        if self.players:
            child.totals = [0.0] * self.players
            self._count(TOTALS_BYTES + TOTAL_BYTES * self.players)
        return child

    def _count(self, size: int) -> None:
        """`size` more bytes in the tree; it is full at the bound."""
        self.bytes += size
        if self.bytes >= self.settings.max_bytes:
            self.full = True

    def _chance_child(self, node: Node) -> Node:
        outcomes, cumulative = node.probabilities
        move = outcomes[bisect.bisect(cumulative, self.rng.random() * cumulative[-1])]
        child = node.child(move)
        return child if child is not None else self._new_child(node, move)

    def _try(self, node: Node, index: int) -> Node | None:
        """A new child for the untried move `node.untried[index]` (None: the tree is full)."""
        if self.full:
            return None
        untried = node.untried
        move = untried[index]
        untried[index] = untried[-1]
        untried.pop()
        prior = node.priors[move] if node.priors is not None else None
        return self._new_child(node, move, prior)


def _solvable(state: Game) -> bool:
    """Whether the MCTS-solver's proofs hold for this game."""
    return state.players == 2 and state.zero_sum and not state.has_chance


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _proof_returns(node: Node) -> tuple[float, ...]:
    """The returns a proven node stands for (two players: the mover's proof, the other's
    opposite)."""
    value = float(node.proven)
    return (value, -value) if node.mover == 0 else (-value, value)


def back_up(path: list[Node], result: tuple[float, ...]) -> None:
    for node in path:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            value = result[mover]
            node.total += value
            if value > 0:
                node.wins += 1
            elif value == 0:
                node.draws += 1
        totals = node.totals
        if totals is not None:
            for player, value in enumerate(result):
                totals[player] += value


def _back_up_amaf(
    path: list[Node], record: list[tuple[int, Move]], result: tuple[float, ...], grow: bool
) -> int:
    """RAVE: credit every move the player to move at a node played later in the simulation
    (its first time from there only) with that player's return; new entries only if
    `grow`. Returns the number of new entries.

    One pass backwards over the simulation's moves: when it reaches a node's position,
    `later[player]` holds each move that player made from there on, once."""
    later: dict[int, dict[Move, None]] = {}
    added = 0
    position = len(record)
    for index in range(len(path) - 1, -1, -1):
        node = path[index]
        while position > index:
            position -= 1
            mover, move = record[position]
            later.setdefault(mover, {})[move] = None
        amaf = node.amaf
        if amaf is None:
            continue
        player = node.player
        value = result[player]
        for move in later.get(player, ()):
            entry = amaf.get(move)
            if entry is not None:
                entry[0] += 1
                entry[1] += value
            elif grow:
                amaf[move] = [1, value]
                added += 1
    return added
