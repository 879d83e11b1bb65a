"""One backtracking search of a `Network`: the domains, the trail that undoes them, the
propagation of an assignment, variable and value ordering, and the loop that branches,
bounds soft costs and counts solutions (docs/engines.md, "Constraint satisfaction").

**Fixed variables.** A variable is fixed once its one value has been propagated: by a
decision, or (under `mac`, and in the root's `ac3` pass) as soon as propagation leaves it
one value. The fixed variables, in the order they were fixed, are the line (the position's
givens, fixed before the search, are not in it). Under `forward` and `none` a domain cut to
one value by propagation is not fixed: the variable ordering picks it next, a decision with
one value to try.

**Nodes**: the root counts one, and every assignment tried one more (a decision, whether
its propagation fails or not). `backtracks` counts the assignments that failed at once (a
domain emptied, a constraint broken, or, with soft costs, the bound reached);
`propagations` counts the propagator runs (a fixed variable's value elimination among its
peers is one; the trial forward checks of value ordering are not counted).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kibitz.engines.csp.network import Network, all_fixed

Pair = tuple[int, int]
"""(variable, value)."""
INFINITE = float("inf")
FIXED = 1 << 30
"""The size `select` gives a fixed variable's domain: more than any."""


@dataclass(frozen=True)
class Settings:
    """The engine's options, as the search reads them."""

    variable_order: str
    value_order: str
    propagation: str
    preprocess: str
    count: bool


class Search:
    """The state of one search and its loop (see the module docstring)."""

    def __init__(
        self, network: Network, settings: Settings, poll: Callable[[Search], None]
    ) -> None:
        self.network = network
        self.settings = settings
        self.poll = poll
        """Called at `next_check` nodes; raises to end the search (a limit, a stop)."""
        self.next_check = 1
        self.domains = list(network.initial)
        self.trail: list[Pair] = []
        """(variable, its domain before a change), to undo the changes."""
        self.fixed = [False] * network.size
        self.line: list[int] = []
        self.fix_queue: list[int] = []
        self.queue: deque[int] = deque()
        self.queued = [False] * len(network.hard)
        self.queueing = False
        """Whether a change queues propagation (during a fixpoint) or not (forward checks)."""
        self.lead: int | None = None
        """The root's decided variable, put first in lines, where the root is restricted."""
        self.nodes = 0
        self.backtracks = 0
        self.propagations = 0
        self.solutions = 0
        self.complete = False
        """Whether the whole tree was searched (or the first solution ends the search)."""
        self.root_bound = 0
        """The soft costs the root already cannot avoid: a lower bound on any solution's."""
        self.best: list[Pair] | None = None
        """The answer's solution: the first found, or with soft costs the cheapest."""
        self.best_cost: float = INFINITE
        self.deepest: list[Pair] = []
        """The longest consistent line reached so far."""

    # -- the domains --------------------------------------------------------------------------

    def narrow(self, variable: int, domain: int) -> bool:
        """Cut the domain of `variable` to `domain` (a proper subset); False where empty."""
        if not domain:
            return False
        self.trail.append((variable, self.domains[variable]))
        self.domains[variable] = domain
        if self.queueing:
            if not domain & (domain - 1):
                self.fix_queue.append(variable)
            queued, queue = self.queued, self.queue
            for index in self.network.watch[variable]:
                if not queued[index]:
                    queued[index] = True
                    queue.append(index)
        return True

    def mark(self) -> Pair:
        """The state to come back to: the lengths of the trail and of the line."""
        return len(self.trail), len(self.line)

    def undo(self, mark: Pair) -> None:
        """Back to the state at `mark`."""
        trail, domains = self.trail, self.domains
        size, fixed_count = mark
        while len(trail) > size:
            variable, domain = trail.pop()
            domains[variable] = domain
        line, fixed = self.line, self.fixed
        while len(line) > fixed_count:
            fixed[line.pop()] = False

    def fixpoint(self) -> bool:
        """Run the queued propagation until nothing changes; False on a wipe-out (the
        queues are emptied either way)."""
        if self.drain():
            return True
        self.clear_queues()
        return False

    def clear_queues(self) -> None:
        """Forget the propagation queued (after a failure)."""
        self.fix_queue.clear()
        for index in self.queue:
            self.queued[index] = False
        self.queue.clear()

    def drain(self) -> bool:
        """`fixpoint`'s loop: fixed variables' values leave their peers first, then the
        queued propagators run, until both queues are empty (True) or a domain empties."""
        domains, fixed, line, trail = self.domains, self.fixed, self.line, self.trail
        peers, watch, hard = self.network.peers, self.network.watch, self.network.hard
        fix_queue, queue, queued = self.fix_queue, self.queue, self.queued
        while True:
            while fix_queue:
                variable = fix_queue.pop()
                if fixed[variable]:
                    continue
                fixed[variable] = True
                line.append(variable)
                self.propagations += 1
                bit = domains[variable]
                for peer in peers[variable]:  # `narrow`, inline: the hot loop of sudoku
                    domain = domains[peer]
                    if domain & bit:
                        domain ^= bit
                        if not domain:
                            return False
                        trail.append((peer, domain | bit))
                        domains[peer] = domain
                        if not domain & (domain - 1):
                            fix_queue.append(peer)
                        for index in watch[peer]:
                            if not queued[index]:
                                queued[index] = True
                                queue.append(index)
            if not queue:
                return True
            index = queue.popleft()
            self.propagations += 1
            consistent = hard[index].propagate(self)
            queued[index] = False  # its own changes did not queue it: it is idempotent
            if not consistent:
                return False

    def forward_check(self, variable: int) -> bool:
        """Forward checking of a fixed variable: its value leaves its peers, and each
        constraint on it filters once; nothing more is propagated."""
        domains, hard = self.domains, self.network.hard
        bit = domains[variable]
        self.propagations += 1
        for peer in self.network.peers[variable]:
            domain = domains[peer]
            if domain & bit:
                if domain == bit:
                    return False
                self.trail.append((peer, domain))
                domains[peer] = domain ^ bit
        for index in self.network.forward[variable]:
            self.propagations += 1
            if not hard[index].propagate(self):
                return False
        return True

    def check(self, variable: int) -> bool:
        """Plain backtracking's test of a fixed variable against the other fixed ones."""
        domains, hard = self.domains, self.network.hard
        bit = domains[variable]
        if any(domains[peer] == bit for peer in self.network.peers[variable]):
            return False
        for index in self.network.watch[variable]:
            propagator = hard[index]
            if all_fixed(domains, propagator.scope) and not propagator.satisfiable(domains):
                return False
        return True

    def assign(self, variable: int, value: int) -> bool:
        """Give `variable` the value and propagate as the `Propagation` option says."""
        bit = 1 << value
        domain = self.domains[variable]
        mode = self.settings.propagation
        if not domain & bit:
            self.clear_queues()  # what the root's exclusions queued
            return False
        if self.fixed[variable]:  # to this value: only the root's exclusions to propagate
            return mode != "mac" or self.fixpoint()
        if domain != bit:
            self.trail.append((variable, domain))
            self.domains[variable] = bit
        if mode == "mac":
            self.fix_queue.append(variable)
            for index in self.network.watch[variable]:
                if not self.queued[index]:
                    self.queued[index] = True
                    self.queue.append(index)
            return self.fixpoint()
        self.fixed[variable] = True
        self.line.append(variable)
        return self.forward_check(variable) if mode == "forward" else self.check(variable)

    def exclude(self, variable: int, value: int) -> bool:
        """Remove a value from a domain (the root's earlier alternatives); under `mac` the
        change is queued for the assignment's fixpoint."""
        domain = self.domains[variable]
        bit = 1 << value
        return not domain & bit or self.narrow(variable, domain ^ bit)

    def cost_bound(self) -> int:
        """The costs of the soft constraints no assignment from the domains satisfies."""
        domains = self.domains
        return sum(cost for soft, cost in self.network.soft if not soft.satisfiable(domains))

    # -- the root -----------------------------------------------------------------------------

    def start(self, givens: Sequence[int | None]) -> bool:
        """Fix the givens and propagate them (with `ac3`, every constraint); False where
        that proves the problem unsatisfiable."""
        domains, network, settings = self.domains, self.network, self.settings
        given = [variable for variable, value in enumerate(givens) if value is not None]
        for variable in given:
            bit = 1 << givens[variable]  # type: ignore[operator]
            if not domains[variable] & bit:
                return False
            domains[variable] = bit
        if settings.preprocess == "ac3" or settings.propagation == "mac":
            consistent = self.root_fixpoint(everything=settings.preprocess == "ac3")
            self.line[:] = [variable for variable in self.line if givens[variable] is None]
        else:
            for variable in given:
                self.fixed[variable] = True
            if settings.propagation == "forward":
                consistent = all(self.forward_check(variable) for variable in given)
            else:
                consistent = all(
                    propagator.satisfiable(domains)
                    for propagator in network.checks
                    if all_fixed(domains, propagator.scope)
                )
        self.queueing = settings.propagation == "mac"
        self.trail.clear()  # the root's changes are never undone
        self.root_bound = self.cost_bound()
        return consistent

    def root_fixpoint(self, everything: bool) -> bool:
        """Propagate every variable with one value left and the constraints on them (with
        `everything`, all constraints: AC-3's queue of every arc) to a fixpoint."""
        self.queueing = True
        watch = self.network.watch
        queued: set[int] = set(range(len(self.network.hard))) if everything else set()
        for variable, domain in enumerate(self.domains):
            if not domain & (domain - 1):
                self.fix_queue.append(variable)
                queued.update(watch[variable])
        for index in sorted(queued):
            self.queued[index] = True
            self.queue.append(index)
        return self.fixpoint()

    # -- ordering -----------------------------------------------------------------------------

    def select(self) -> int | None:
        """The next variable to assign (None: all fixed), by the `VariableOrder` option:
        MRV counts the values of the domains, under `none` those `legal`."""
        fixed = self.fixed
        order = self.settings.variable_order
        if order == "static":
            return next((v for v, done in enumerate(fixed) if not done), None)
        domains = self.legal() if self.settings.propagation == "none" else self.domains
        sizes = [FIXED if done else d.bit_count() for d, done in zip(domains, fixed, strict=True)]
        least = min(sizes, default=FIXED)
        if least == FIXED:
            return None
        if order == "mrv":
            return sizes.index(least)
        ties = [variable for variable, size in enumerate(sizes) if size == least]
        if len(ties) == 1:
            return ties[0]
        neighbours, fixed_of = self.network.neighbours, fixed.__getitem__

        def unfixed_neighbours(variable: int) -> int:
            return len(neighbours[variable]) - sum(map(fixed_of, neighbours[variable]))

        return max(ties, key=lambda variable: (unfixed_neighbours(variable), -variable))

    def legal(self) -> list[int]:
        """Each unfixed variable's values consistent with the fixed ones (textbook MRV's
        legal values): its domain less its fixed peers' values and, for each other hard
        constraint left with it alone unfixed, less the values that break it (those that
        `check` would refuse). Under `forward` and `mac` the domains hold no more than that
        already; under `none` nothing prunes them."""
        domains, fixed, network = self.domains, self.fixed, self.network
        legal = list(domains)
        for variable, peers in enumerate(network.peers):
            if fixed[variable]:
                keep = ~domains[variable]
                for peer in peers:
                    legal[peer] &= keep
        for relation in network.relations:
            allowed = relation.allowed(domains, fixed)
            if allowed is not None:
                variable, values = allowed
                legal[variable] &= values
        return legal

    def order(self, variable: int) -> list[Pair]:
        """The values of `variable` to try, by the `ValueOrder` option."""
        domain = self.domains[variable]
        values = [v for v in self.network.orders[variable] if domain >> v & 1]
        how = self.settings.value_order
        if how != "static" and len(values) > 1:
            removals = {value: self.removals(variable, value) for value in values}
            values.sort(key=removals.__getitem__, reverse=how == "mcv")
        return [(variable, value) for value in values]

    def removals(self, variable: int, value: int) -> float:
        """How many values of other variables a forward check of `variable` = `value`
        removes (infinite where one empties a domain)."""
        mark, counted, queueing = self.mark(), self.propagations, self.queueing
        self.queueing = False
        domain = self.domains[variable]
        self.trail.append((variable, domain))
        self.domains[variable] = 1 << value
        self.fixed[variable] = True
        self.line.append(variable)
        removed: float = INFINITE
        if self.forward_check(variable):
            before: dict[int, int] = {}
            for other, old in self.trail[mark[0] + 1 :]:
                before.setdefault(other, old)
            domains = self.domains
            removed = sum(old.bit_count() - domains[v].bit_count() for v, old in before.items())
        self.undo(mark)
        self.queueing, self.propagations = queueing, counted
        return removed

    # -- the search ---------------------------------------------------------------------------

    def moves(self, variables: Sequence[int]) -> list[Pair]:
        """The assignments of fixed variables, the restricted root's first."""
        lead = self.lead
        if lead is not None and variables and variables[0] != lead and self.fixed[lead]:
            variables = [lead, *(v for v in variables if v != lead)]
        domains = self.domains
        return [(v, domains[v].bit_length() - 1) for v in variables]

    def run(self, givens: Sequence[int | None], root_moves: Sequence[Pair] | None) -> None:
        """Search to the end (`complete`), or until `poll` raises; the answer is left in
        `best`, `best_cost`, `deepest` and the counters. `root_moves`: the assignments
        the root is restricted to (each excluding the ones before it), or None."""
        self.nodes = 1
        if not self.start(givens):
            self.complete = True
            return
        costs = bool(self.network.soft) and not self.settings.count
        frames: list[list] = []
        pairs = list(root_moves) if root_moves is not None else self.reached()
        if pairs is None:
            return
        if pairs:
            frames.append([pairs, 0, self.mark()])
        while frames:
            frame = frames[-1]
            pairs, index, mark = frame
            self.undo(mark)
            if index == len(pairs):
                frames.pop()
                continue
            frame[1] = index + 1
            self.nodes += 1
            if self.nodes >= self.next_check:
                self.poll(self)
            variable, value = pairs[index]
            consistent = True
            if root_moves is not None and len(frames) == 1:
                self.lead = variable
                consistent = all(self.exclude(*pair) for pair in pairs[:index])
                if not consistent:
                    self.clear_queues()
            consistent = consistent and self.assign(variable, value)
            if consistent and costs and self.cost_bound() >= self.best_cost:
                consistent = False
            if not consistent:
                self.backtracks += 1
                continue
            pairs = self.reached()
            if pairs is None:
                return
            if pairs:
                frames.append([pairs, 0, self.mark()])
        self.complete = True

    def reached(self) -> list[Pair] | None:
        """At a consistent node: record its line if the deepest yet; answer the assignments
        to branch on, or [] where the node is a solution and the search goes on, or None
        where it ends (the first solution of a plain search, or one that costs only the
        root's bound)."""
        if len(self.line) > len(self.deepest):
            self.deepest = self.moves(self.line)
        variable = self.select()
        if variable is not None:
            return self.order(variable)
        self.solutions += 1
        cost = self.cost_bound()
        if cost < self.best_cost:
            self.best, self.best_cost = self.moves(self.line), cost
        if self.settings.count or cost > self.root_bound:
            return []
        self.complete = True
        return None
