"""A `Model` compiled for search: domains as bitmasks and a propagator per constraint.

A domain is an int whose bit v is set where value v is still possible. Every constraint
becomes a `Propagator` that filters the domains of its scope (`propagate`, through
`Search.narrow`) and tells whether the current domains could still satisfy it
(`satisfiable`: False only where no assignment from them does; exact once the scope is
fixed) and, where one variable of its scope is left unfixed, which of its values go with
the fixed ones (`allowed`: what MRV counts without propagation). Hard `NotEqual` and
`AllDifferent` constraints also give each variable its `peers`: the variables that must
take a different value, whose domains lose a variable's value as soon as it is fixed
(value elimination, the fast path of sudoku). What each propagator achieves is in
docs/engines.md, "Constraint satisfaction".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from math import prod
from typing import TYPE_CHECKING

from kibitz.games.csp.model import AllDifferent, Binary, Constraint, Linear, Model, NotEqual

if TYPE_CHECKING:
    from kibitz.engines.csp.search import Search

SUPPORT_LIMIT = 4096
"""The most tuples a generic (`Predicate`) propagator enumerates to find supports; with
more it waits until at most one variable of its scope is unfixed."""


def values_of(domain: int) -> list[int]:
    """The values of a domain bitmask, smallest first."""
    values = []
    while domain:
        low = domain & -domain
        values.append(low.bit_length() - 1)
        domain ^= low
    return values


def range_mask(low: int, high: int) -> int:
    """The bitmask of the values low..high (empty where high < max(low, 0))."""
    low = max(low, 0)
    if high < low:
        return 0
    return ((1 << (high + 1)) - 1) >> low << low


def all_fixed(domains: Sequence[int], scope: Sequence[int]) -> bool:
    """Whether every variable of `scope` has one value left."""
    return all(not domains[v] & (domains[v] - 1) for v in scope)


class Propagator:
    """One constraint's filtering and test (see the module docstring)."""

    __slots__ = ("scope",)
    forward: bool = True
    """Whether forward checking runs it on an assignment to a variable of its scope."""

    def __init__(self, constraint: Constraint) -> None:
        self.scope = constraint.scope

    def propagate(self, search: Search) -> bool:
        """Filter the domains of the scope through `Search.narrow`; False where a domain
        empties. Idempotent: a second call changes nothing (what fixing a variable implies
        comes back through its peers). Nothing by default."""
        return True

    def satisfiable(self, domains: Sequence[int]) -> bool:
        """False only where no assignment from `domains` satisfies the constraint."""
        raise NotImplementedError

    def allowed(self, domains: Sequence[int], fixed: Sequence[bool]) -> tuple[int, int] | None:
        """Where one variable of the scope is unfixed and the others fixed: that variable
        and the values of its domain that satisfy the constraint with them (a bitmask);
        None otherwise. Not asked of `NotEqual` and `AllDifferent` (their peers say it)."""
        raise NotImplementedError


class NotEqualPropagator(Propagator):
    """x != y: filtering is value elimination through `peers`."""

    __slots__ = ()

    def satisfiable(self, domains: Sequence[int]) -> bool:
        first, second = (domains[v] for v in self.scope)
        return first != second or bool(first & (first - 1))


class AllDifferentPropagator(Propagator):
    """Beyond value elimination (through `peers`): Hall sets and hidden singles.

    Where k variables' domains all lie within one of them holding k values (a naked pair,
    triple, ... in sudoku's words), those k take those values: the other variables lose
    them, and more than k such variables fail (the pigeonhole). Where there are exactly as
    many values left as variables, a value left in one domain only is that variable's (a
    hidden single). Only Hall sets whose values are one variable's domain are found: a
    pass over the scope per unfixed variable."""

    __slots__ = ("size",)
    forward = False  # forward checking of all-different is value elimination alone

    def __init__(self, constraint: Constraint) -> None:
        super().__init__(constraint)
        self.size = len(self.scope)

    def propagate(self, search: Search) -> bool:
        return self.hall_sets(search) and self.hidden_singles(search)

    def hall_sets(self, search: Search) -> bool:
        """Each unfixed variable's domain as a candidate Hall set (see the class)."""
        domains, scope = search.domains, self.scope
        seen = set()
        for v in scope:
            hall = domains[v]
            if not hall & (hall - 1) or hall in seen:
                continue  # a fixed variable's value has left its peers already
            seen.add(hall)
            inside = sum(1 for u in scope if not domains[u] & ~hall)
            values = hall.bit_count()
            if inside > values:
                return False
            if inside == values:
                for u in scope:
                    domain = domains[u]
                    if domain & hall and domain & ~hall and not search.narrow(u, domain & ~hall):
                        return False
        return True

    def hidden_singles(self, search: Search) -> bool:
        """The pigeonhole on the whole scope, then hidden singles (see the class)."""
        domains = search.domains
        once = twice = 0
        for v in self.scope:
            domain = domains[v]
            twice |= once & domain
            once |= domain
        left = once.bit_count()
        if left < self.size:
            return False
        hidden = once & ~twice
        if left > self.size or not hidden:
            return True
        for v in self.scope:
            domain = domains[v]
            single = domain & hidden
            if single and domain != single:
                if single & (single - 1):
                    return False  # two values only this variable can take
                if not search.narrow(v, single):
                    return False
        return True

    def satisfiable(self, domains: Sequence[int]) -> bool:
        once = fixed = 0
        for v in self.scope:
            domain = domains[v]
            once |= domain
            if not domain & (domain - 1):
                if domain & fixed:
                    return False
                fixed |= domain
        return once.bit_count() >= self.size


class LinearPropagator(Propagator):
    """sum(c·x) == total by bounds: each term within what the others' bounds leave."""

    __slots__ = ("terms", "total")

    def __init__(self, constraint: Linear) -> None:
        super().__init__(constraint)
        self.terms = [(c, v) for c, v in zip(constraint.coefficients, self.scope, strict=True) if c]
        self.total = constraint.total

    def bounds(self, domains: Sequence[int]) -> tuple[list[tuple[int, int]], int, int]:
        """Each term's (least, most) and their sums."""
        ranges = []
        for c, v in self.terms:
            domain = domains[v]
            low, high = (domain & -domain).bit_length() - 1, domain.bit_length() - 1
            ranges.append((c * low, c * high) if c > 0 else (c * high, c * low))
        return ranges, sum(r[0] for r in ranges), sum(r[1] for r in ranges)

    def propagate(self, search: Search) -> bool:
        domains, total = search.domains, self.total
        changed = True
        while changed:
            changed = False
            ranges, least, most = self.bounds(domains)
            if least > total or most < total:
                return False
            for (c, v), (low, high) in zip(self.terms, ranges, strict=True):
                # c·x lies within [total - (most - high), total - (least - low)]
                top, bottom = total - (least - low), total - (most - high)
                if c < 0:
                    top, bottom = bottom, top
                mask = range_mask(-(-bottom // c), top // c)  # ceil, floor
                domain = domains[v]
                if domain & mask != domain:
                    if not search.narrow(v, domain & mask):
                        return False
                    changed = True
        return True

    def satisfiable(self, domains: Sequence[int]) -> bool:
        _, least, most = self.bounds(domains)
        return least <= self.total <= most

    def allowed(self, domains: Sequence[int], fixed: Sequence[bool]) -> tuple[int, int] | None:
        rest, lone, coefficient = self.total, None, 0
        for c, v in self.terms:
            if fixed[v]:
                rest -= c * (domains[v].bit_length() - 1)
            elif lone is None or lone == v:
                lone, coefficient = v, coefficient + c
            else:
                return None
        if lone is None:
            return None
        domain = domains[lone]
        if not coefficient:  # its terms cancel out
            return lone, 0 if rest else domain
        value, remainder = divmod(rest, coefficient)
        if remainder or not 0 <= value < domain.bit_length():
            return lone, 0
        return lone, domain & 1 << value


class BinaryPropagator(Propagator):
    """A relation on (x, y), arc consistent: each value keeps a support in the other
    domain. A value's supports are a bitmask, computed on first use (from the constraint's
    own `supports` where it has them: testing the relation on every pair costs n^2 calls,
    seconds for 64 queens' 2,016 diagonal pairs); a revision ORs the supports of one
    domain's values until they cover the other domain (a few values usually do), and cuts
    the other domain to them."""

    __slots__ = ("given", "initial", "relation", "supports")

    def __init__(self, constraint: Binary, initial: Sequence[int]) -> None:
        super().__init__(constraint)
        self.relation = constraint.relation
        self.given = constraint.supports
        self.initial = initial
        self.supports: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def support(self, side: int, value: int) -> int:
        """The values of the other variable that go with `value` of scope[side]."""
        known = self.supports[side]
        mask = known.get(value)
        if mask is None:
            other = self.initial[self.scope[1 - side]]
            if self.given is not None:
                mask = self.given(side, value) & other
            else:
                mask = 0
                for partner in values_of(other):
                    pair = (value, partner) if side == 0 else (partner, value)
                    if self.relation(*pair):
                        mask |= 1 << partner
            known[value] = mask
        return mask

    def revise(self, side: int, domain: int, other: int) -> int:
        """The values of `other` (the other variable's domain) that some value of
        `domain` (scope[side]'s) goes with."""
        covered = 0
        while domain:
            low = domain & -domain
            domain ^= low
            covered |= self.support(side, low.bit_length() - 1)
            if covered & other == other:
                return other
        return covered & other

    def propagate(self, search: Search) -> bool:
        domains = search.domains
        x, y = self.scope
        first, second = domains[x], domains[y]
        kept = self.revise(0, first, second)
        if kept != second and not search.narrow(y, kept):
            return False
        # a value of x that lost its support supported none of the values of y kept
        kept = self.revise(1, kept, first)
        return kept == first or search.narrow(x, kept)

    def satisfiable(self, domains: Sequence[int]) -> bool:
        x, y = self.scope
        return bool(self.revise(0, domains[x], domains[y]))

    def allowed(self, domains: Sequence[int], fixed: Sequence[bool]) -> tuple[int, int] | None:
        x, y = self.scope
        if fixed[x] == fixed[y]:  # both fixed, both unfixed, or x is y
            return None
        if fixed[x]:
            return y, domains[y] & self.support(0, domains[x].bit_length() - 1)
        return x, domains[x] & self.support(1, domains[y].bit_length() - 1)


class GenericPropagator(Propagator):
    """Any relation: supports by enumerating the tuples of the current domains (generalised
    arc consistency) where there are at most `SUPPORT_LIMIT` of them."""

    __slots__ = ("test",)

    def __init__(self, constraint: Constraint) -> None:
        super().__init__(constraint)
        self.test: Callable[[Sequence[int]], bool] = constraint.satisfied

    def supports(self, domains: Sequence[int]) -> list[int] | None:
        """For each scope variable, its values in some satisfying tuple; None where the
        tuples are too many to enumerate."""
        scope = self.scope
        lists = [values_of(domains[v]) for v in scope]
        if prod(len(values) for values in lists) > SUPPORT_LIMIT:
            unfixed = sum(1 for values in lists if len(values) > 1)
            if unfixed > 1:
                return None
        found = [0] * len(scope)
        test = self.test
        for values in product(*lists):
            if test(values):
                for index, value in enumerate(values):
                    found[index] |= 1 << value
        return found

    def propagate(self, search: Search) -> bool:
        domains = search.domains
        found = self.supports(domains)
        if found is None:
            return True
        for v, kept in zip(self.scope, found, strict=True):
            if kept != domains[v] and not search.narrow(v, kept):
                return False
        return True

    def satisfiable(self, domains: Sequence[int]) -> bool:
        found = self.supports(domains)
        return found is None or all(found)

    def allowed(self, domains: Sequence[int], fixed: Sequence[bool]) -> tuple[int, int] | None:
        scope = self.scope
        unfixed = {v for v in scope if not fixed[v]}
        if len(unfixed) != 1:
            return None
        (lone,) = unfixed
        values = [domains[v].bit_length() - 1 for v in scope]
        places = [index for index, v in enumerate(scope) if v == lone]
        kept = 0
        for value in values_of(domains[lone]):
            for index in places:
                values[index] = value
            if self.test(values):
                kept |= 1 << value
        return lone, kept


class Network:
    """A model compiled for search (see the module docstring)."""

    def __init__(self, model: Model) -> None:
        self.size = len(model.variables)
        self.initial = [sum(1 << value for value in domain) for domain in model.domains]
        """Each variable's whole domain as a bitmask."""
        self.orders = [tuple(dict.fromkeys(domain)) for domain in model.domains]
        """Each variable's values in the model's order (static value ordering)."""
        peers: list[set[int]] = [set() for _ in range(self.size)]
        neighbours: list[set[int]] = [set() for _ in range(self.size)]
        self.hard: list[Propagator] = []
        """The hard constraints' propagators that filter beyond value elimination."""
        self.checks: list[Propagator] = []
        """Every hard constraint's propagator (for a check of the root)."""
        self.relations: list[Propagator] = []
        """Those of `checks` beyond the peers' (not `NotEqual` or `AllDifferent`): the
        ones `Search.legal` asks what they allow."""
        self.soft: list[tuple[Propagator, int]] = []
        """Each soft constraint's propagator and cost."""
        for constraint in model.constraints:
            propagator = self.propagator(constraint)
            for v in constraint.scope:
                neighbours[v].update(constraint.scope)
            if constraint.cost:
                self.soft.append((propagator, constraint.cost))
                continue
            self.checks.append(propagator)
            if isinstance(constraint, (NotEqual, AllDifferent)):
                for v in constraint.scope:
                    peers[v].update(constraint.scope)
            else:
                self.relations.append(propagator)
            if not isinstance(constraint, NotEqual):
                self.hard.append(propagator)
        self.peers = [tuple(sorted(p - {v})) for v, p in enumerate(peers)]
        """Per variable: those that must differ from it (hard NotEqual, AllDifferent)."""
        self.neighbours = [tuple(sorted(n - {v})) for v, n in enumerate(neighbours)]
        """Per variable: those sharing a constraint with it (the degree heuristic)."""
        self.watch: list[list[int]] = [[] for _ in range(self.size)]
        """Per variable: the indices in `hard` of the propagators to run when it changes."""
        self.forward: list[list[int]] = [[] for _ in range(self.size)]
        """Per variable: those of `watch` that forward checking runs."""
        for index, propagator in enumerate(self.hard):
            for v in dict.fromkeys(propagator.scope):
                self.watch[v].append(index)
                if propagator.forward:
                    self.forward[v].append(index)

    def propagator(self, constraint: Constraint) -> Propagator:
        """The propagator of one constraint, by its kind."""
        if isinstance(constraint, NotEqual):
            return NotEqualPropagator(constraint)
        if isinstance(constraint, AllDifferent):
            return AllDifferentPropagator(constraint)
        if isinstance(constraint, Linear):
            return LinearPropagator(constraint)
        if isinstance(constraint, Binary):
            return BinaryPropagator(constraint, self.initial)
        return GenericPropagator(constraint)


@lru_cache(maxsize=16)
def _compiled(model: Model) -> Network:
    return Network(model)


def network_of(model: Model) -> Network:
    """The model's network, compiled once for the recent models (a network is never
    changed by a search; a Binary propagator's supports are the model's own)."""
    try:
        return _compiled(model)
    except TypeError:  # a model holding something unhashable: compiled each time
        return Network(model)
