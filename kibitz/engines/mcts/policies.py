"""Tree policies for `mcts`: which child a simulation descends into, and when an untried
move goes first (docs/engines.md, "mcts").

`POLICIES` maps the option `Policy` to a class; `make_policy` builds one search's policy,
blended with RAVE's all-moves-as-first values when that is on.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from kibitz.engines.mcts.settings import Settings
from kibitz.engines.mcts.tree import Node

UNTRIED_FIRST = 10.0
"""An FPU this high (the option's maximum) beats every child: untried moves go first."""


Grow = Callable[[Node, int], Node | None]
"""Makes the child of an untried move (`node`, its index in `node.untried`); None when the
tree is full."""


class TreePolicy(Protocol):
    """Selection at the tree's decision nodes (chance nodes are sampled)."""

    uses_priors: bool
    """Whether new nodes need move priors (`Node.priors`, `Node.prior`)."""

    def select(self, node: Node, grow: Grow) -> Node | None:
        """The child of `node` (expanded, with children or untried moves) to descend into,
        or `grow(node, index)` for an untried move. With the solver, a child whose
        `optimistic` bound cannot beat what the player to move is sure of already
        (`-node.optimistic`) needs no more simulations and is passed over."""
        ...


class Policy:
    """The shared skeleton: the best child by `best_child`, unless the most urgent untried
    move's value (FPU) is at least as high; with FPU at its maximum, every move is tried
    once before any twice."""

    uses_priors = False

    def __init__(self, exploration: float, fpu: float) -> None:
        self.exploration = exploration
        self.fpu = fpu
        self.untried_first = fpu >= UNTRIED_FIRST

    def select(self, node: Node, grow: Grow) -> Node | None:
        untried = node.untried
        if untried and self.untried_first:
            return grow(node, self.most_urgent(node)[0])
        best, best_value = self.best_child(node, -node.optimistic)
        if untried:
            index, urgency = self.most_urgent(node)
            if urgency >= best_value:
                return grow(node, index)
        return best if best is not None else node.children[0]  # None: the node is proven

    def best_child(self, node: Node, floor: int) -> tuple[Node | None, float]:
        """The best child whose `optimistic` bound beats `floor`, and its value; (None,
        -inf) when there is none."""
        raise NotImplementedError

    def most_urgent(self, node: Node) -> tuple[int, float]:
        """The untried move to try next (its index in `node.untried`) and its value: the
        likeliest by prior where the node has priors (the last of `untried`: they are
        sorted), with the prior's exploration term; else the next in order, at FPU."""
        untried = node.untried
        last = len(untried) - 1
        if node.priors is not None:
            prior = node.priors[untried[last]]
            return last, self.fpu + self.exploration * math.sqrt(node.visits) * prior
        return last, self.fpu


class UCT(Policy):
    """UCT (Kocsis & Szepesvári 2006): mean + c*sqrt(ln N / n)."""

    def __init__(self, exploration: float, fpu: float) -> None:
        super().__init__(exploration, fpu)
        self.c_squared = exploration**2

    def select(self, node: Node, grow: Grow) -> Node | None:
        # the hot path: `Policy.select` with `best_child` inlined
        untried = node.untried
        if untried and self.untried_first:
            return grow(node, self.most_urgent(node)[0])
        floor = -node.optimistic
        sqrt = math.sqrt
        weight = self.c_squared * math.log(node.visits) if node.visits > 1 else 0.0
        best = None
        best_value = -math.inf
        for child in node.children:
            if child.optimistic > floor:
                n = child.visits
                value = child.total / n + sqrt(weight / n)  # mean + sqrt(c^2 ln N / n)
                if value > best_value:
                    best, best_value = child, value
        if untried:
            index, urgency = self.most_urgent(node)
            if urgency >= best_value:
                return grow(node, index)
        return best if best is not None else node.children[0]


class PUCT(Policy):
    """PUCT (Rosin 2011, as AlphaZero): mean + c*prior*sqrt(N)/(1+n); the likeliest untried
    move first, at FPU plus its prior's exploration term."""

    uses_priors = True

    def best_child(self, node: Node, floor: int) -> tuple[Node | None, float]:
        scale = self.exploration * math.sqrt(node.visits)
        best = None
        best_value = -math.inf
        for child in node.children:
            if child.optimistic <= floor:
                continue
            n = child.visits
            value = child.total / n + scale * child.prior / (1 + n)
            if value > best_value:
                best, best_value = child, value
        return best, best_value


class RAVE(Policy):
    """`base`'s selection (UCT or PUCT) with each child's mean blended with its AMAF value,
    weight sqrt(k / (3n + k)) (Gelly & Silver 2007); an untried move without a prior
    competes with its AMAF value (FPU without one)."""

    def __init__(self, base: UCT | PUCT, equivalence: int) -> None:
        super().__init__(base.exploration, base.fpu)
        self.base = base
        self.equivalence = equivalence
        self.uses_priors = base.uses_priors

    def best_child(self, node: Node, floor: int) -> tuple[Node | None, float]:
        c = self.exploration
        rave = self.equivalence
        amaf = node.amaf
        puct = self.uses_priors
        if puct:
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
            entry = amaf.get(child.move)
            if entry is not None:
                beta = math.sqrt(rave / (3 * n + rave))
                q = (1 - beta) * q + beta * entry[1] / entry[0]
            value = q + scale * child.prior / (1 + n) if puct else q + c * math.sqrt(log_visits / n)
            if value > best_value:
                best, best_value = child, value
        return best, best_value

    def most_urgent(self, node: Node) -> tuple[int, float]:
        amaf = node.amaf
        if node.priors is not None or not amaf:
            return Policy.most_urgent(self, node)
        untried = node.untried
        best_index, best_value = len(untried) - 1, -math.inf
        fpu = self.fpu
        for index, move in enumerate(untried):
            entry = amaf.get(move)
            value = entry[1] / entry[0] if entry is not None else fpu
            if value > best_value:
                best_index, best_value = index, value
        return best_index, best_value


POLICIES: dict[str, type[UCT] | type[PUCT] | None] = {"auto": None, "uct": UCT, "puct": PUCT}
"""The option `Policy`'s choices (auto: PUCT where the evaluator gives priors, else UCT)."""


def make_policy(settings: Settings, gives_priors: bool) -> TreePolicy:
    """The tree policy of a search with `settings` and an evaluator that gives priors
    (`gives_priors`) or not."""
    kind = POLICIES[settings.policy] or (PUCT if gives_priors else UCT)
    policy = kind(settings.exploration, settings.fpu)
    return RAVE(policy, settings.rave) if settings.rave else policy
