"""Constraint satisfaction problems as data (docs/games.md, "Constraint puzzles").

A `Model` is variables (indexed 0..n-1, each with a name such as ``r5c3`` or ``WA``), their
finite domains of whole numbers (0 or more), and constraints over them. A constraint is hard (`cost`
0: a solution must satisfy it) or soft (`cost` > 0: an assignment that violates it costs
that much; the problem is then a partial CSP whose best assignment is the cheapest).

Constraints of any arity are `Predicate`s; the kinds that solvers propagate faster have
classes of their own: `NotEqual` and `Binary` (two variables), `AllDifferent` and
`Linear` (a weighted sum equal to a constant). Every constraint answers `satisfied(values)`
for a complete assignment of its scope and `consistent(assignment)` for a partial one
(False where the values assigned so far violate it: at once for `NotEqual` and
`AllDifferent`, once the whole scope is assigned for the others). The games in
`kibitz.games.csp` are written on this model; the `csp` engine searches it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

Assignment = Sequence[int | None]
"""A value for each variable, by index; None where the variable is not assigned."""


@dataclass(frozen=True)
class Constraint(ABC):
    """A restriction on the values of the variables in `scope` (indices into the model)."""

    scope: tuple[int, ...]
    name: str = ""
    """How error messages and explanations name it: ``row 5``, ``box 3``, ``WA-NT``."""
    cost: int = 0
    """0: hard. Above 0: soft, and an assignment violating it costs this much."""

    @abstractmethod
    def satisfied(self, values: Sequence[int]) -> bool:
        """Whether `values` (one per variable of `scope`, in its order) satisfy it."""

    def consistent(self, assignment: Assignment) -> bool:
        """False where the variables of `scope` assigned in `assignment` already violate
        it; this default decides only once the whole scope is assigned."""
        values = [assignment[variable] for variable in self.scope]
        if any(value is None for value in values):
            return True
        return self.satisfied(values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class NotEqual(Constraint):
    """Two variables take different values (a map's border, a sudoku's pair)."""

    def satisfied(self, values: Sequence[int]) -> bool:
        return values[0] != values[1]

    def consistent(self, assignment: Assignment) -> bool:
        first, second = (assignment[variable] for variable in self.scope)
        return first is None or second is None or first != second


@dataclass(frozen=True)
class Binary(Constraint):
    """Two variables whose values (first, second) satisfy `relation`. `supports`, where
    given, says the same faster for solvers: `supports(side, value)` is a bitmask (bit v:
    value v) of the other variable's values that go with `value` of scope[side] (side 0:
    the first), whatever its domain (bits outside it are ignored)."""

    relation: Callable[[int, int], bool] = field(default=lambda first, second: True)
    supports: Callable[[int, int], int] | None = None

    def satisfied(self, values: Sequence[int]) -> bool:
        return self.relation(values[0], values[1])


@dataclass(frozen=True)
class AllDifferent(Constraint):
    """Every variable of the scope takes a different value (a sudoku row, column, box)."""

    def satisfied(self, values: Sequence[int]) -> bool:
        return len(set(values)) == len(values)

    def consistent(self, assignment: Assignment) -> bool:
        seen: set[int] = set()
        for variable in self.scope:
            value = assignment[variable]
            if value is not None:
                if value in seen:
                    return False
                seen.add(value)
        return True


@dataclass(frozen=True)
class Linear(Constraint):
    """sum(coefficients[i] * value of scope[i]) == total (a cryptarithm's columns)."""

    coefficients: tuple[int, ...] = ()
    total: int = 0

    def satisfied(self, values: Sequence[int]) -> bool:
        return sum(c * v for c, v in zip(self.coefficients, values, strict=True)) == self.total


@dataclass(frozen=True)
class Predicate(Constraint):
    """Any relation over the scope: `test` takes the scope's values, in its order."""

    test: Callable[[Sequence[int]], bool] = field(default=lambda values: True)

    def satisfied(self, values: Sequence[int]) -> bool:
        return self.test(values)


@dataclass(frozen=True)
class Model:
    """A constraint satisfaction problem (see the module docstring)."""

    variables: tuple[str, ...]
    """Each variable's name, by index."""
    domains: tuple[tuple[int, ...], ...]
    """Each variable's values, by index, in the order value ordering starts from."""
    constraints: tuple[Constraint, ...]

    def __post_init__(self) -> None:
        if len(self.domains) != len(self.variables):
            raise ValueError("a model needs a domain for every variable")
        if any(value < 0 for domain in self.domains for value in domain):
            raise ValueError("a model's values are whole numbers, 0 or more")

    def constraints_on(self) -> list[list[int]]:
        """For each variable, the indices of the constraints whose scope holds it."""
        on: list[list[int]] = [[] for _ in self.variables]
        for index, constraint in enumerate(self.constraints):
            for variable in constraint.scope:
                on[variable].append(index)
        return on

    @property
    def has_costs(self) -> bool:
        """Whether any constraint is soft (a partial CSP)."""
        return any(constraint.cost for constraint in self.constraints)

    def cost(self, assignment: Assignment) -> int:
        """What the soft constraints violated by `assignment` cost (those whose scope is
        wholly assigned)."""
        total = 0
        for constraint in self.constraints:
            if constraint.cost and not _complete_and_satisfied(constraint, assignment):
                total += constraint.cost
        return total

    def violated(self, assignment: Assignment) -> Constraint | None:
        """The first hard constraint that `assignment` violates, or None."""
        for constraint in self.constraints:
            if not constraint.cost and not constraint.consistent(assignment):
                return constraint
        return None


def _complete_and_satisfied(constraint: Constraint, assignment: Assignment) -> bool:
    """True unless the constraint's scope is wholly assigned and violated."""
    values = [assignment[variable] for variable in constraint.scope]
    if any(value is None for value in values):
        return True
    return constraint.satisfied(values)  # type: ignore[arg-type]
