"""The whole game tree of a small game of hidden information, and CFR+ over it.

`GameTree` walks a game from its start (`from_position("")`, the full state before the
deal) with play/undo and keeps every node in flat lists, its decision nodes grouped into
information sets by their player's view (`HiddenInformation.view`). `Solver` runs CFR+
(Tammelin 2014: regret matching+, alternating updates, linear averaging; or plain CFR) on
it, and `Profile` evaluates the average strategies: every node's values, each information
set's move values given what its player knows, and NashConv by best responses.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from kibitz.games import CHANCE, Game, HiddenInformation, Move

TERMINAL = -2
"""`GameTree.player` of a terminal node (CHANCE is -1)."""
MAX_TREE_NODES = 1_000_000
"""The largest tree `GameTree` builds: games beyond are not small enough to enumerate."""
POLL_NODES = 4096
"""Nodes between two calls of the building walk's `poll` (at most)."""


class Interrupted(Exception):
    """A limit ended a walk (raised by its poll)."""


class InfoSet:
    """The decision nodes one player cannot tell apart: same view, same moves."""

    __slots__ = ("key", "moves", "nodes", "player")

    def __init__(self, player: int, key: str, moves: list[Move]) -> None:
        self.player = player
        self.key = key
        self.moves = moves
        self.nodes: list[int] = []


class GameTree:
    """Every node of a game from its start: `player` (an index, CHANCE or TERMINAL),
    `children`, `chances` (outcome probabilities at chance nodes), `infoset` (the
    information set's index at decision nodes, else -1), `payoff` (returns at terminals)."""

    def __init__(
        self, game: type[Game], poll: Callable[[int], None], every: int = POLL_NODES
    ) -> None:
        """Walk `game` from its start; `poll(nodes)` is called every `every` nodes and may
        raise Interrupted. ValueError where the tree is too large or the game's views
        do not make information sets (different moves under one view)."""
        self.game = game
        self.player: list[int] = []
        self.children: list[list[int]] = []
        self.chances: list[list[float]] = []
        self.infoset: list[int] = []
        self.payoff: list[tuple[float, ...]] = []
        self.infosets: list[InfoSet] = []
        self.index: dict[tuple[int, str], int] = {}
        self._poll = poll
        self._every = every
        self.root = self._add(game.from_position(""))

    def __len__(self) -> int:
        return len(self.player)

    def _add(self, state: Game) -> int:
        node = len(self.player)
        if node % self._every == 0:
            if node >= MAX_TREE_NODES:
                raise ValueError(
                    f"the game tree of {self.game.name} has more than {MAX_TREE_NODES} nodes: "
                    "too large to enumerate"
                )
            self._poll(node)
        terminal = state.is_terminal()
        mover = TERMINAL if terminal else state.to_move()
        self.player.append(mover)
        self.children.append([])
        self.chances.append([])
        self.infoset.append(-1)
        self.payoff.append(tuple(state.returns()) if terminal else ())
        if terminal:
            return node
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            moves = [move for move, _ in outcomes]
            self.chances[node] = [probability for _, probability in outcomes]
        else:
            moves = state.legal_moves()
            self.infoset[node] = self._infoset(state, mover, moves, node)
        children = self.children[node]
        for move in moves:
            state.play(move)
            children.append(self._add(state))
            state.undo()
        return node

    def _infoset(self, state: Game, player: int, moves: list[Move], node: int) -> int:
        assert isinstance(state, HiddenInformation)
        key = (player, state.view(player))
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.infosets)
            self.infosets.append(InfoSet(player, key[1], moves))
        elif self.infosets[found].moves != moves:
            raise ValueError(
                f"{self.game.name}: the view {key[1]!r} of player {player + 1} has different "
                "moves in different positions"
            )
        self.infosets[found].nodes.append(node)
        return found


def uniform(count: int) -> list[float]:
    return [1.0 / count] * count


def normalised(weights: list[float]) -> list[float]:
    """`weights` scaled to sum to 1; uniform where they sum to 0."""
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else uniform(len(weights))


class Solver:
    """CFR over a `GameTree`: `plus` for CFR+ (regrets floored at 0 after each iteration,
    the average weighted by the iteration), else vanilla CFR (uniform average); both with
    alternating updates (each iteration updates one player after the other)."""

    def __init__(self, tree: GameTree, plus: bool = True) -> None:
        self.tree = tree
        self.plus = plus
        self.iterations = 0
        self.regrets = [[0.0] * len(info.moves) for info in tree.infosets]
        self.totals = [[0.0] * len(info.moves) for info in tree.infosets]
        self.current = [uniform(len(info.moves)) for info in tree.infosets]

    @property
    def iteration_nodes(self) -> int:
        """Nodes one iteration visits (a walk of the whole tree per player)."""
        return len(self.tree) * self.tree.game.players

    def iterate(self) -> None:
        """One iteration: each player's regrets and average updated in turn."""
        self.iterations += 1
        weight = float(self.iterations) if self.plus else 1.0
        for player in range(self.tree.game.players):
            self._walk(self.tree.root, player, 1.0, 1.0, weight)
            for index, info in enumerate(self.tree.infosets):
                if info.player == player:
                    regrets = self.regrets[index]
                    if self.plus:
                        regrets[:] = [max(r, 0.0) for r in regrets]
                    self.current[index] = normalised([max(r, 0.0) for r in regrets])

    def _walk(self, node: int, player: int, mine: float, others: float, weight: float) -> float:
        """`player`'s value of `node` under the current strategies; `mine` and `others` are
        the node's reach by `player`'s moves and by everything else (chance included)."""
        tree = self.tree
        mover = tree.player[node]
        if mover == TERMINAL:
            return tree.payoff[node][player]
        children = tree.children[node]
        if mover == CHANCE:
            return sum(
                p * self._walk(child, player, mine, others * p, weight)
                for child, p in zip(children, tree.chances[node], strict=True)
            )
        index = tree.infoset[node]
        strategy = self.current[index]
        if mover != player:
            return sum(
                s * self._walk(child, player, mine, others * s, weight)
                for child, s in zip(children, strategy, strict=True)
            )
        values = [
            self._walk(child, player, mine * s, others, weight)
            for child, s in zip(children, strategy, strict=True)
        ]
        value = sum(s * v for s, v in zip(strategy, values, strict=True))
        regrets, totals = self.regrets[index], self.totals[index]
        for a, v in enumerate(values):
            regrets[a] += others * (v - value)
            totals[a] += weight * mine * strategy[a]
        return value

    def average(self) -> list[list[float]]:
        """Every information set's average strategy (uniform where never reached)."""
        return [normalised(totals) for totals in self.totals]


class Profile:
    """The values of a strategy profile (one strategy per information set) on a tree."""

    def __init__(self, tree: GameTree, strategies: list[list[float]]) -> None:
        self.tree = tree
        self.strategies = strategies
        count = len(tree)
        players = tree.game.players
        self.values: list[tuple[float, ...]] = [()] * count
        """Every player's expected return at each node."""
        self.reach: list[list[float]] = [[]] * count
        """Each node's reach probability: chance's part, then each player's."""
        self._evaluate(tree.root, [1.0] * (players + 1))

    def _evaluate(self, node: int, reach: list[float]) -> tuple[float, ...]:
        tree = self.tree
        self.reach[node] = reach
        mover = tree.player[node]
        if mover == TERMINAL:
            self.values[node] = tree.payoff[node]
            return tree.payoff[node]
        if mover == CHANCE:
            probabilities, slot = tree.chances[node], 0
        else:
            probabilities, slot = self.strategies[tree.infoset[node]], mover + 1
        total = [0.0] * tree.game.players
        for child, p in zip(tree.children[node], probabilities, strict=True):
            below = list(reach)
            below[slot] *= p
            for player, value in enumerate(self._evaluate(child, below)):
                total[player] += p * value
        self.values[node] = tuple(total)
        return self.values[node]

    def weights(self, index: int) -> list[float]:
        """How likely each node of information set `index` is to its player given what they
        know: reached by chance and the others' strategies (by chance alone where the
        others never reach it), not normalised."""
        info = self.tree.infosets[index]
        own = info.player + 1
        weights = []
        for node in info.nodes:
            reach = self.reach[node]
            weights.append(
                reach[0] * math.prod(r for slot, r in enumerate(reach[1:], 1) if slot != own)
            )
        if sum(weights) > 0:
            return weights
        return [self.reach[node][0] for node in info.nodes]

    def move_values(self, index: int) -> list[float]:
        """The expected return of each move of information set `index` to its player, given
        what they know (`weights`)."""
        tree = self.tree
        info = tree.infosets[index]
        weights = self.weights(index)
        total = sum(weights)
        return [
            sum(
                w * self.values[tree.children[node][a]][info.player]
                for w, node in zip(weights, info.nodes, strict=True)
            )
            / total
            for a in range(len(info.moves))
        ]

    def best_response_value(self, player: int) -> float:
        """`player`'s expected return when answering the others' strategies best."""
        return _BestResponse(self, player).value(self.tree.root)

    @functools.cached_property
    def nash_conv(self) -> float:
        """Sum over the players of what a best response gains over the profile (0 at a Nash
        equilibrium; twice the exploitability in a two-player zero-sum game)."""
        root = self.values[self.tree.root]
        players = range(self.tree.game.players)
        return sum(self.best_response_value(p) - root[p] for p in players)


class _BestResponse:
    """One player's best response to the others' strategies of a `Profile`."""

    def __init__(self, profile: Profile, player: int) -> None:
        self.profile = profile
        self.player = player
        self.memo: dict[int, float] = {}
        self.choice: dict[int, int] = {}

    def value(self, node: int) -> float:
        found = self.memo.get(node)
        if found is not None:
            return found
        tree = self.profile.tree
        mover = tree.player[node]
        children = tree.children[node]
        if mover == TERMINAL:
            result = tree.payoff[node][self.player]
        elif mover == CHANCE:
            result = sum(
                p * self.value(c) for c, p in zip(children, tree.chances[node], strict=True)
            )
        elif mover != self.player:
            strategy = self.profile.strategies[tree.infoset[node]]
            result = sum(s * self.value(c) for c, s in zip(children, strategy, strict=True))
        else:
            result = self.value(children[self._action(tree.infoset[node])])
        self.memo[node] = result
        return result

    def _action(self, index: int) -> int:
        found = self.choice.get(index)
        if found is not None:
            return found
        tree = self.profile.tree
        info = tree.infosets[index]
        weights = self.profile.weights(index)
        totals = [
            sum(
                w * self.value(tree.children[node][a])
                for w, node in zip(weights, info.nodes, strict=True)
            )
            for a in range(len(info.moves))
        ]
        best = max(range(len(totals)), key=totals.__getitem__)
        self.choice[index] = best
        return best
