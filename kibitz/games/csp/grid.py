"""The diagram of a constraint puzzle without a board of its own (map colouring, zebra,
cryptarithm letters, timetable): a logic grid, a row per variable and a column per value,
a mark where the variable holds the value (docs/games.md, "Constraint puzzles")."""

from __future__ import annotations

from kibitz.games.base import Move
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.presentation import GRID, Diagram, Place, targets_of


def logic_grid(game: ConstraintGame, last: Move | None = None, piece: str = "disc") -> Diagram:
    """Rows: the variables (labelled by name); columns: every value of any domain, in
    order (labelled as the first variable having it writes it); `piece` where a variable
    holds a value; a click on a cell assigns that value (a legal move)."""
    model = game.constraint_model()
    labels: dict[int, str] = {}
    for variable, domain in enumerate(model.domains):
        for value in domain:
            labels.setdefault(value, game.value_label(variable, value))
    columns = sorted(labels)
    column_of = {value: column for column, value in enumerate(columns)}
    assignment = game.assignment()
    places = [
        Place(
            f"{row}/{column}",
            row,
            column,
            piece if assignment[row] == value else "",
            0 if assignment[row] == value else -1,
        )
        for row in range(len(model.variables))
        for column, value in enumerate(columns)
    ]
    highlights = ()
    if last is not None:
        variable, value = last  # type: ignore[misc]
        highlights = (f"{variable}/{column_of[value]}",)
    return Diagram(
        GRID,
        rows=len(model.variables),
        columns=len(columns),
        places=tuple(places),
        targets=targets_of(
            game.legal_moves(),
            lambda move: f"{move[0]}/{column_of[move[1]]}",  # type: ignore[index]
        ),
        highlights=highlights,
        column_labels=tuple(labels[value] for value in columns),
        row_labels=model.variables,
    )
