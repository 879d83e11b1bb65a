"""The zebra puzzle (Einstein's riddle) as a constraint puzzle (docs/games.md, "Constraint
puzzles").

Five houses in a row, numbered 1 to 5 from the left, each of another colour, with a man of
another nationality, drink, brand of cigarettes and pet. The model: a variable per
attribute (25: ``Englishman``, ``red``, ``coffee``, ``Kools``, ``dog``, ...), its value the
house it belongs to, an `AllDifferent` per kind of attribute and a constraint per clue of
the classic puzzle (the version Life International printed in 1962), named ``clue 2`` to
``clue 15`` (clue 1 says there are five houses). A move puts an attribute in a house:
``zebra=5``. A position lists the attributes placed already (``Norwegian=1 milk=3``), or
is ``-`` for none: the puzzle itself. Who drinks water? Who owns the zebra?
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import ClassVar

from kibitz.games.base import Move
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.grid import logic_grid
from kibitz.games.csp.model import AllDifferent, Binary, Constraint, Model, Predicate
from kibitz.games.presentation import Diagram

KINDS = (
    ("nationality", ("Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese")),
    ("colour", ("red", "green", "ivory", "yellow", "blue")),
    ("drink", ("coffee", "tea", "milk", "orange-juice", "water")),
    ("smoke", ("Old-Gold", "Kools", "Chesterfields", "Lucky-Strike", "Parliaments")),
    ("pet", ("dog", "snails", "fox", "horse", "zebra")),
)
"""Each kind of attribute and its five attributes: the model's variables, in this order."""
HOUSES = tuple(range(1, 6))

_same = operator.eq


def _next_to(first: int, second: int) -> bool:
    return abs(first - second) == 1


def _right_of(first: int, second: int) -> bool:
    """The second is immediately to the right of the first."""
    return second == first + 1


def _in(house: int) -> Callable[[Sequence[int]], bool]:
    return lambda values: values[0] == house


CLUES: tuple[tuple[int, str, str, Callable[[int, int], bool]], ...] = (
    (2, "Englishman", "red", _same),  # The Englishman lives in the red house.
    (3, "Spaniard", "dog", _same),  # The Spaniard owns the dog.
    (4, "coffee", "green", _same),  # Coffee is drunk in the green house.
    (5, "Ukrainian", "tea", _same),  # The Ukrainian drinks tea.
    (6, "ivory", "green", _right_of),  # The green house is just right of the ivory house.
    (7, "Old-Gold", "snails", _same),  # The Old Gold smoker owns snails.
    (8, "Kools", "yellow", _same),  # Kools are smoked in the yellow house.
    (11, "Chesterfields", "fox", _next_to),  # Chesterfields next to the fox.
    (12, "Kools", "horse", _next_to),  # Kools next to the house where the horse is kept.
    (13, "Lucky-Strike", "orange-juice", _same),  # The Lucky Strike smoker drinks orange juice.
    (14, "Japanese", "Parliaments", _same),  # The Japanese smokes Parliaments.
    (15, "Norwegian", "blue", _next_to),  # The Norwegian lives next to the blue house.
)
"""The clues on two attributes: number, attributes, relation of their houses."""
PLACED = ((9, "milk", 3), (10, "Norwegian", 1))
"""The clues that place one attribute: milk in the middle house, the Norwegian in the first."""


def zebra_model() -> Model:
    """The classic puzzle (see the module docstring)."""
    names = tuple(name for _, group in KINDS for name in group)
    index = {name: variable for variable, name in enumerate(names)}
    differ = [
        AllDifferent(tuple(index[name] for name in group), f"one {kind} a house")
        for kind, group in KINDS
    ]
    clues: list[tuple[int, Constraint]] = [
        (number, Binary((index[first], index[second]), f"clue {number}", relation=relation))
        for number, first, second, relation in CLUES
    ]
    clues += [
        (number, Predicate((index[name],), f"clue {number}", test=_in(house)))
        for number, name, house in PLACED
    ]
    by_number = [clue for _, clue in sorted(clues, key=lambda numbered: numbered[0])]
    return Model(names, (HOUSES,) * len(names), (*differ, *by_number))


MODEL = zebra_model()


class Zebra(ConstraintGame, Presentation):
    """The zebra puzzle (see the module docstring)."""

    name: ClassVar[str] = "zebra"
    title: ClassVar[str] = "Zebra puzzle"
    default_position: ClassVar[str] = "-"
    notation_help: ClassVar[str] = (
        "Position: the attributes placed in houses already, e.g. 'Norwegian=1 milk=3', or "
        "'-' for none (the puzzle). A move puts an attribute (Englishman, red, coffee, "
        "Kools, dog, orange-juice, Old-Gold, ...) in a house from 1 (left) to 5: "
        "'zebra=5'. The fifteen clues of the classic puzzle must hold."
    )

    def __init__(self) -> None:
        super().__init__(MODEL, [None] * len(MODEL.variables))

    @classmethod
    def from_position(cls, text: str) -> Zebra:
        text = text.strip() or cls.default_position
        state = cls()
        if text != "-":
            state.read_givens(text)
        return state

    def position(self) -> str:
        return self.givens_text() or "-"

    def render(self) -> str:
        """A row per kind of attribute, a column per house, . where nothing is placed."""
        table = [["house", *map(str, HOUSES)]]
        variable = 0
        for kind, group in KINDS:
            row = [kind] + ["."] * len(HOUSES)
            for name in group:
                house = self._values[variable]
                if house is not None:
                    row[house] = name
                variable += 1
            table.append(row)
        widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
        return "\n".join(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in table
        )

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row per attribute, a column per house, a marker where it is placed."""
        return logic_grid(self, last, "marker")
