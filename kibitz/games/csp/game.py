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
from collections.abc import Sequence
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import ConstraintProblem, Evaluation, HashKey
from kibitz.games.csp.model import AllDifferent, Constraint, Model, NotEqual

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
            written = f"{name}={self.value_label(variable, value)}"
            raise IllegalMoveError(f"{written} {self._clash_text(clash, variable, value)}")

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
        """ "clashes with r5c8 (row 5)", or "breaks row 5" where no one variable is to blame."""
        if isinstance(constraint, (AllDifferent, NotEqual)):
            for other in constraint.scope:
                if other != variable and self._values[other] == value:
                    where = f" ({constraint.name})" if constraint.name else ""
                    return f"clashes with {self._model.variables[other]}{where}"
        return f"breaks {constraint.name or 'a constraint'}"

    # -- state ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        return [
            (variable, value)
            for variable, held in enumerate(self._values)
            if held is None
            for value in self._model.domains[variable]
            if self._clash(variable, value) is None
        ]

    def play(self, move: Move) -> None:
        variable, value = move  # type: ignore[misc]
        self._values[variable] = value
        self._history.append(variable)

    def undo(self) -> None:
        self._values[self._history.pop()] = None

    def clone(self) -> ConstraintGame:
        other = copy.copy(self)
        other._values = self._values.copy()
        other._history = self._history.copy()
        return other

    def unassigned(self) -> list[int]:
        """The variables without a value, by index."""
        return [variable for variable, value in enumerate(self._values) if value is None]

    def dead_end(self) -> int | None:
        """An unassigned variable that no value is left for, or None."""
        for variable in self.unassigned():
            domain = self._model.domains[variable]
            if all(self._clash(variable, value) is not None for value in domain):
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
