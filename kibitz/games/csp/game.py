"""A constraint puzzle as a one-player game (docs/games.md, "Constraint puzzles").

A position is the puzzle with what is already assigned (the givens, then the moves
played); a move assigns a value to an unassigned variable, and is the pair ``(variable,
value)`` (indices into the model), written ``name=value`` (``WA=red``; sudoku's variable
names make its moves ``r5c3=7``). `legal_moves()` lists every value of every unassigned
variable that no hard constraint forbids beside the values already assigned; a move that
one forbids is refused naming the constraint and the variable it clashes with.

The game ends when every variable has a value (solved: ``returns() == (1.0,)``) or when an
unassigned variable has no value left (a dead end: ``(0.0,)``). Soft constraints never
forbid a move: what the assignment violates is its `cost()`.

A puzzle subclasses `ConstraintGame`, reads its position text into a `Model` and the
givens (`from_position`), writes it back (`position`), and may name values its own way
(`value_label`, `parse_value`) and draw itself (`render`, the `Presentation` capability).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import ConstraintProblem, Evaluation, HashKey
from kibitz.games.csp.model import AllDifferent, Binary, Constraint, Model, NotEqual

_CENTI = 100
"""evaluate(): centi-units per variable still unassigned."""


class ConstraintGame(Game, ConstraintProblem, HashKey, Evaluation):
    """The game every constraint puzzle is (see the module docstring)."""

    players: ClassVar[int] = 1
    zero_sum: ClassVar[bool] = False
    default_engine: ClassVar[str] = "csp"
    player_names: ClassVar[tuple[str, ...]] = ("solver",)
    move_word: ClassVar[str] = "assignment"
    """What a move is called in outcome labels ("solved in 51 assignments")."""

    def __init__(self, model: Model, givens: Sequence[int | None]) -> None:
        self._model = model
        self._values: list[int | None] = list(givens)
        self._history: list[int] = []
        self._index = {name: index for index, name in enumerate(model.variables)}
        self._on = model.constraints_on()
        self._neighbours, self._binaries, self._others = _split_constraints(model)
        # for each variable: how many of its neighbours hold each value
        self._taken: list[dict[int, int]] = [{} for _ in model.variables]
        for variable, value in enumerate(self._values):
            if value is not None:
                self._count(variable, value, 1)
        self._radix = max((max(domain, default=0) for domain in model.domains), default=0) + 2

    # -- the capability ---------------------------------------------------------------------

    def constraint_model(self) -> Model:
        return self._model

    def assignment(self) -> list[int | None]:
        return self._values.copy()

    def assignment_move(self, variable: int, value: int) -> Move:
        return (variable, value)

    # -- naming values ----------------------------------------------------------------------

    def value_label(self, variable: int, value: int) -> str:
        """How `value` of `variable` is written (this default: the number)."""
        return str(value)

    def parse_value(self, variable: int, text: str) -> int:
        """The value written `text` for `variable`; NotationError if it names none."""
        domain = self._model.domains[variable]
        for value in domain:
            if self.value_label(variable, value) == text:
                return value
        shown = ", ".join(self.value_label(variable, value) for value in domain[:12])
        more = ", ..." if len(domain) > 12 else ""
        name = self._model.variables[variable]
        raise NotationError(f"{quoted(text, 12)} is not a value of {name} ({shown}{more})")

    # -- notation ---------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        name, equals, value_text = text.strip().partition("=")
        name, value_text = name.strip(), value_text.strip()
        if not equals or not name or not value_text:
            raise NotationError(
                f"{quoted(text)} is not an assignment: expected variable=value, e.g. "
                f"{self.format_move(self._example_move())}"
            )
        variable = self._index.get(name)
        if variable is None:
            raise NotationError(f"no variable {quoted(name, 20)} in this puzzle")
        value = self.parse_value(variable, value_text)
        self.check_assignment(variable, value)
        return (variable, value)

    def format_move(self, move: Move) -> str:
        variable, value = move  # type: ignore[misc]
        return f"{self._model.variables[variable]}={self.value_label(variable, value)}"

    def _example_move(self) -> Move:
        variable = next((v for v, value in enumerate(self._values) if value is None), 0)
        return (variable, self._model.domains[variable][0])

    def check_assignment(self, variable: int, value: int) -> None:
        """IllegalMoveError unless `variable` is unassigned and `value` clashes with no
        hard constraint: the message names the clashing variable and the constraint."""
        name = self._model.variables[variable]
        held = self._values[variable]
        if held is not None:
            raise IllegalMoveError(f"{name} already holds {self.value_label(variable, held)}")
        clash = self._clash(variable, value)
        if clash is not None:
            written = self.format_move((variable, value))
            raise IllegalMoveError(f"{written} {self._clash_text(clash, variable, value)}")

    def give(self, variable: int, value: int) -> None:
        """Assign a given (part of the position, not a move that `undo` takes back);
        NotationError where it clashes with the givens so far, naming both variables."""
        try:
            self.check_assignment(variable, value)
        except IllegalMoveError as exc:
            raise NotationError(f"the givens clash: {exc}") from None
        self._assign(variable, value)

    def read_givens(self, text: str) -> None:
        """Assign the givens written as moves (``WA=red NT=green``, by `parse_move`)."""
        for word in self.split_moves(text):
            try:
                variable, value = self.parse_move(word)  # type: ignore[misc]
            except IllegalMoveError as exc:
                raise NotationError(f"the givens clash: {exc}") from None
            self._assign(variable, value)

    def givens_text(self) -> str:
        """Every assigned variable as a move, in variable order (what `read_givens` reads)."""
        return " ".join(
            self.format_move((variable, value))
            for variable, value in enumerate(self._values)
            if value is not None
        )

    def _clash(self, variable: int, value: int) -> Constraint | None:
        """The first hard constraint on `variable` that `value` breaks, or None."""
        values = self._values
        values[variable] = value
        try:
            for index in self._on[variable]:
                constraint = self._model.constraints[index]
                if not constraint.cost and not constraint.consistent(values):
                    return constraint
            return None
        finally:
            values[variable] = None

    def _clash_text(self, constraint: Constraint, variable: int, value: int) -> str:
        """ "clashes with r5c8=7 (row 5)", or "breaks row 5" where no one variable is to
        blame (a constraint of two variables blames the other)."""
        others = [other for other in constraint.scope if other != variable]
        if isinstance(constraint, (AllDifferent, NotEqual)):
            others = [other for other in others if self._values[other] == value]
        if isinstance(constraint, (AllDifferent, NotEqual)) or len(constraint.scope) == 2:
            for other in others:
                held = self._values[other]
                if held is not None:
                    where = f" ({constraint.name})" if constraint.name else ""
                    return f"clashes with {self.format_move((other, held))}{where}"
        return f"breaks {constraint.name or 'a constraint'}"

    def _allowed(self, variable: int) -> list[int]:
        """The values of `variable` that no hard constraint forbids beside those assigned
        (`_clash` for each value, faster: a value that a neighbour by NotEqual or
        AllDifferent holds is out at once, a `Binary` is asked only its relation)."""
        values = self._values
        taken = self._taken[variable]
        allowed = [value for value in self._model.domains[variable] if not taken.get(value)]
        for other, relation, first in self._binaries[variable]:
            held = values[other]
            if held is not None:
                if first:
                    allowed = [value for value in allowed if relation(value, held)]
                else:
                    allowed = [value for value in allowed if relation(held, value)]
        constraints = self._model.constraints
        asked = [
            constraints[index]
            for index in self._others[variable]
            if _decides(constraints[index], variable, values)
        ]
        if not asked or not allowed:
            return allowed
        kept = []
        for value in allowed:
            values[variable] = value
            if all(constraint.consistent(values) for constraint in asked):
                kept.append(value)
        values[variable] = None
        return kept

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        for variable in self.unassigned():
            allowed = self._allowed(variable)
            if not allowed:  # a dead end: the game is over
                return []
            moves.extend((variable, value) for value in allowed)
        return moves

    def play(self, move: Move) -> None:
        variable, value = move  # type: ignore[misc]
        self._assign(variable, value)
        self._history.append(variable)

    def undo(self) -> None:
        variable = self._history.pop()
        self._count(variable, self._values[variable], -1)  # type: ignore[arg-type]
        self._values[variable] = None

    def _assign(self, variable: int, value: int) -> None:
        self._values[variable] = value
        self._count(variable, value, 1)

    def _count(self, variable: int, value: int, step: int) -> None:
        """Count `value` in (step 1) or out (-1) of what `variable`'s neighbours hold."""
        for other in self._neighbours[variable]:
            taken = self._taken[other]
            taken[value] = taken.get(value, 0) + step

    def clone(self) -> ConstraintGame:
        other = copy.copy(self)
        other._values = self._values.copy()
        other._history = self._history.copy()
        other._taken = [taken.copy() for taken in self._taken]
        return other

    def unassigned(self) -> list[int]:
        """The variables without a value, by index."""
        return [variable for variable, value in enumerate(self._values) if value is None]

    def dead_end(self) -> int | None:
        """An unassigned variable that no value is left for, or None."""
        for variable in self.unassigned():
            if not self._allowed(variable):
                return variable
        return None

    def is_terminal(self) -> bool:
        return not self.unassigned() or self.dead_end() is not None

    def returns(self) -> tuple[float, ...]:
        return (0.0,) if self.unassigned() else (1.0,)

    def cost(self) -> int:
        """What the soft constraints the assignment violates cost (0 without any)."""
        return self._model.cost(self._values)

    def terminal_reason(self) -> str:
        if not self.unassigned():
            return "solved"
        variable = self.dead_end()
        return f"{self._model.variables[variable]} has no value left"  # type: ignore[index]

    @classmethod
    def outcome_label(cls, won: bool, plies: int) -> str:
        """A proven result: "solved in 51 assignments", or "no solution"."""
        counted = f"{plies} {cls.move_word}{'' if plies == 1 else 's'}"
        return f"solved in {counted}" if won else "no solution"

    # -- search support ---------------------------------------------------------------------

    def key(self) -> int:
        """Exact: the values as digits of one number (0 for unassigned)."""
        key = 0
        for value in self._values:
            key = key * self._radix + (0 if value is None else value + 1)
        return key

    def evaluate(self, player: int | None = None) -> int:
        """Minus the variables still unassigned, in centi-units (minus the cost too)."""
        return -_CENTI * (len(self.unassigned()) + self.cost())

    def render(self) -> str:
        """One line per variable: its name and value ("?" where unassigned)."""
        width = max((len(name) for name in self._model.variables), default=0)
        return "\n".join(
            f"{name:<{width}} = {'?' if value is None else self.value_label(index, value)}"
            for index, (name, value) in enumerate(
                zip(self._model.variables, self._values, strict=True)
            )
        )


def _decides(constraint: Constraint, variable: int, values: Sequence[int | None]) -> bool:
    """Whether `constraint` may forbid a value of `variable` now: not where it decides only
    on a whole scope (`Constraint.consistent`) and another variable of it is unassigned."""
    if type(constraint).consistent is not Constraint.consistent:
        return True
    return all(values[other] is not None for other in constraint.scope if other != variable)


def _split_constraints(
    model: Model,
) -> tuple[
    list[tuple[int, ...]],
    list[list[tuple[int, Callable[[int, int], bool], bool]]],
    list[list[int]],
]:
    """For each variable, its hard constraints by kind: the variables it must differ from
    (NotEqual, AllDifferent); for each `Binary`, the other variable, the relation and
    whether this one comes first; the indices of the others."""
    neighbours: list[set[int]] = [set() for _ in model.variables]
    binaries: list[list[tuple[int, Callable[[int, int], bool], bool]]] = [
        [] for _ in model.variables
    ]
    others: list[list[int]] = [[] for _ in model.variables]
    for index, constraint in enumerate(model.constraints):
        if constraint.cost:
            continue
        if isinstance(constraint, (AllDifferent, NotEqual)):
            for variable in constraint.scope:
                neighbours[variable].update(constraint.scope)
                neighbours[variable].discard(variable)
        elif isinstance(constraint, Binary) and len(set(constraint.scope)) == 2:
            first, second = constraint.scope
            binaries[first].append((second, constraint.relation, True))
            binaries[second].append((first, constraint.relation, False))
        else:
            for variable in constraint.scope:
                others[variable].append(index)
    return [tuple(sorted(group)) for group in neighbours], binaries, others
