"""One Monte Carlo simulation after another: selection (UCT, PUCT, RAVE), expansion, the
playout, the backup of every player's return, and the MCTS-solver's proofs
(docs/engines.md, "mcts").

`Simulations` plays the moves of a simulation on the one mutable position it is given and
takes them back before the next.
"""

from __future__ import annotations

import bisect
import inspect
import math
import random
from dataclasses import dataclass

from kibitz.engines.mcts import kernels
from kibitz.engines.mcts.tree import (
    AMAF_ENTRY_BYTES,
    MOVE_BYTES,
    NODE_BYTES,
    Node,
    expand,
    node_bytes,
    update_bounds,
)
from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import MovePriors, Playout, SolverHooks

NO_PLAYER = -2
"""The root's `mover`: nobody moved into it."""
UNTRIED_FIRST = 10.0
"""An FPU this high (the option's maximum) beats every child: untried moves go first."""


@dataclass(frozen=True)
class Settings:
    """The options of one search, typed (see `MCTS.option_specs`)."""

    exploration: float
    fpu: float
    priors: bool
    """PUCT with the game's move priors, where it has them (else UCT)."""
    solver: bool
    rave: int
    """The RAVE equivalence parameter k (0: no RAVE)."""
    max_bytes: int
    """The tree's memory bound (`tree.node_bytes` counts)."""
    kernel: bool
    """Compiled playouts where the game has them (`kernels.playout_for`)."""
    hooks: bool
    """Decisive and anti-decisive moves from the game's solver hooks (with the solver)."""


class Simulations:
    """Runs simulations from `root` (the position `state` is in) and keeps their counts."""

    def __init__(
        self,
        state: Game,
        root: Node,
        settings: Settings,
        rng: random.Random,
        root_moves: list[Move] | None = None,
    ) -> None:
        """`root` may be a reused tree; `root_moves`: the moves a new root may have (None:
        every legal move)."""
        self.state = state
        self.root = root
        self.settings = settings
        self.rng = rng
        self.solver = settings.solver and _solvable(state)
        self.hooks = settings.hooks and self.solver and isinstance(state, SolverHooks)
        """Prune with the game's solver hooks below the root (the root keeps every move,
        so that every root move is scored)."""
        self.priors = settings.priors and isinstance(state, MovePriors)
        self.record: list[tuple[int, Move]] | None = [] if settings.rave else None
        self.fast_playout = isinstance(state, Playout) and (
            self.record is None or _records_playouts(state)
        )
        self.kernel = kernels.playout_for(type(state)) if settings.kernel else None
        self.c_squared = settings.exploration**2
        self.untried_first = settings.fpu >= UNTRIED_FIRST
        """Classic UCT: every move is tried once before any is tried twice."""
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

    def run(self) -> None:
        """One simulation: down the tree, a playout from its edge, the backup."""
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
                    result = self._playout()
                    break
                self._expand(node)
            if node.player == CHANCE:
                child = self._chance_child(node)
            else:
                child = self._select(node)
                if child is None:  # the tree is full: play out from here
                    result = self._playout()
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
        _back_up(path, result)
        if record is not None:
            self._count(AMAF_ENTRY_BYTES * _back_up_amaf(path, record, result, not self.full))
        if node.pessimistic == node.optimistic and self.solver:
            for ancestor in reversed(path[:-1]):
                if not update_bounds(ancestor):
                    break

    def _playout(self) -> tuple[float, ...]:
        if self.kernel is not None:
            return self.kernel(self.state, self.rng, self.record)
        if not self.fast_playout:
            return random_playout(self.state, self.rng, self.record)
        if self.record is None:
            return self.state.playout(self.rng)
        return self.state.playout(self.rng, self.record)

    # -- the tree ---------------------------------------------------------------------------

    def _expand(self, node: Node, moves: list[Move] | None = None) -> None:
        state = self.state
        if moves is None:
            moves = self._decisive_moves() if self.hooks else state.legal_moves()
        priors = dict(state.move_priors()) if self.priors else None
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

    def _select(self, node: Node) -> Node | None:
        """The child to descend into: the best by UCT (PUCT with priors, blended with RAVE's
        all-moves-as-first values when on), or an untried move when its urgency (FPU) beats
        them; None when that would make a node the full tree has no room for.

        With the solver, a child that cannot beat what the player to move is sure of
        already (`-node.optimistic`) needs no more simulations and is passed over."""
        untried = node.untried
        if untried and self.untried_first:
            return self._try(node, self._most_urgent(node)[0])
        floor = -node.optimistic
        if self.priors or self.settings.rave:
            best, best_value = self._best_child(node, floor)
        else:  # plain UCT, the hot path: mean + sqrt(c^2 ln N / n)
            sqrt = math.sqrt
            weight = self.c_squared * math.log(node.visits) if node.visits > 1 else 0.0
            best = None
            best_value = -math.inf
            for child in node.children:
                if child.optimistic > floor:
                    n = child.visits
                    value = child.total / n + sqrt(weight / n)
                    if value > best_value:
                        best, best_value = child, value
        if untried:
            index, urgency = self._most_urgent(node)
            if urgency >= best_value:
                return self._try(node, index)
        if best is None:  # no child can do better than the bounds say (the node is proven)
            best = node.children[0]
        return best

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

    def _best_child(self, node: Node, floor: int) -> tuple[Node | None, float]:
        """`_select`'s best child with PUCT or RAVE (see there)."""
        c = self.settings.exploration
        rave = self.settings.rave
        amaf = node.amaf
        if self.priors:
            scale = c * math.sqrt(node.visits)
        else:
            log_visits = math.log(node.visits) if node.visits > 1 else 0.0
        best = None
        best_value = -math.inf
        for child in node.children:
            if child.optimistic <= floor:
                continue
            n = child.visits
            q = child.total / n
            if rave:
                entry = amaf.get(child.move)
                if entry is not None:
                    beta = math.sqrt(rave / (3 * n + rave))
                    q = (1 - beta) * q + beta * entry[1] / entry[0]
            if self.priors:
                value = q + scale * child.prior / (1 + n)
            else:
                value = q + c * math.sqrt(log_visits / n)
            if value > best_value:
                best, best_value = child, value
        return best, best_value

    def _most_urgent(self, node: Node) -> tuple[int, float]:
        """The untried move to try next (its index in `node.untried`) and its urgency: the
        likeliest by prior, or with RAVE the best by its AMAF value (FPU without one), else
        the next in order."""
        settings = self.settings
        untried = node.untried
        last = len(untried) - 1
        if node.priors is not None:  # sorted by prior: the last is the likeliest
            prior = node.priors[untried[last]]
            return last, settings.fpu + settings.exploration * math.sqrt(node.visits) * prior
        amaf = node.amaf
        if not amaf:
            return last, settings.fpu
        best_index, best_value = last, -math.inf
        fpu = settings.fpu
        for index, move in enumerate(untried):
            entry = amaf.get(move)
            value = entry[1] / entry[0] if entry is not None else fpu
            if value > best_value:
                best_index, best_value = index, value
        return best_index, best_value


def _records_playouts(state: Playout) -> bool:
    """Whether the game's `playout` takes a `record` (games written before it existed
    do not: RAVE then plays out move by move)."""
    return "record" in inspect.signature(state.playout).parameters


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


def _back_up(path: list[Node], result: tuple[float, ...]) -> None:
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


def random_playout(
    state: Game, rng: random.Random, record: list[tuple[int, Move]] | None = None
) -> tuple[float, ...]:
    """Uniformly random moves (chance outcomes by their probabilities) to the end of the
    game; returns `returns()` there and leaves `state` as it was. `record` (when given)
    gets every (player, move)."""
    played = 0
    choice = rng.choice
    while not state.is_terminal():
        player = state.to_move()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            weights = [probability for _, probability in outcomes]
            move = rng.choices([outcome for outcome, _ in outcomes], weights)[0]
        else:
            move = choice(state.legal_moves())
        if record is not None:
            record.append((player, move))
        state.play(move)
        played += 1
    result = state.returns()
    for _ in range(played):
        state.undo()
    return result
