"""How a game presents a position to people: a `Diagram` in a small vocabulary that a page
draws without knowing the game (docs/games.md, "How a game presents itself").

A diagram is one of five kinds, each drawn by one renderer:

- `GRID`: `rows` x `columns` square cells (row 0 at the top): chess, Connect Four,
  tic-tac-toe; `checkered` shades every other cell, `block_rows` and `block_columns` draw
  heavier lines between blocks of cells (sudoku's boxes).
- `HEX`: a rhombus of hexagons, each row half a cell further right (Hex); `edges` colours
  the board's sides by the player who joins them.
- `POINTS`: two rows of `columns` points (row 0 at the top), a bar between their halves, each
  point a stack of `count` pieces growing from the board's edge (backgammon).
- `HEAPS`: rows of pieces (Nim's heaps), a row per heap.
- `PANEL`: no board, only `gauges` and `dice` (Pig).

Every kind also shows `gauges` (labelled numbers, a bar where they have a maximum) and
`dice`. A `Place` is a cell, point or piece: a piece code from `SHAPES` is drawn as that
shape, any other code as its text (a letter or a symbol such as "♞"), in the colour of
its owner (`colors`). A `Target` says which clicks play a legal move: a click on one of its
`to_places` (after a click on `from_place`, where it has one). Moves without a target are
offered as buttons labelled as people read them (`Game.move_labels`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kibitz.games.base import Move

GRID = "grid"
HEX = "hex"
POINTS = "points"
HEAPS = "heaps"
PANEL = "panel"
KINDS = (GRID, HEX, POINTS, HEAPS, PANEL)
"""Every kind of diagram."""

SHAPES = frozenset({"disc", "stone", "cross", "ring", "checker", "stick", "marker"})
"""Piece codes drawn as shapes; any other code is drawn as its text (at most 2 characters)."""

NOBODY = -1
"""`owner` of a neutral piece or gauge."""


@dataclass(frozen=True)
class Place:
    """A cell, point or piece of the diagram."""

    id: str
    """Unique among the diagram's places: what targets and highlights name."""
    row: int = 0
    column: int = 0
    piece: str = ""
    """What stands there: a code from `SHAPES` or a text of 1-2 characters; "" for none."""
    owner: int = NOBODY
    """The player the piece belongs to (its colour), or NOBODY."""
    count: int = 0
    """How many pieces stand there: a stack (POINTS) or a number; 0 or 1 is one piece."""
    label: str = ""
    """A short text drawn by the place (a backgammon point's number)."""


@dataclass(frozen=True)
class Target:
    """The clicks that play `move`: one on `from_place` (where given), then one on any of
    `to_places`."""

    move: Move
    to_places: tuple[str, ...]
    from_place: str = ""


@dataclass(frozen=True)
class Gauge:
    """A labelled number: a score, a count; drawn as a bar where it has a maximum."""

    label: str
    value: int
    maximum: int = 0
    """The value that fills the bar; 0: no bar."""
    owner: int = NOBODY
    """The player it belongs to (its colour), or NOBODY."""


@dataclass(frozen=True)
class Diagram:
    """A position drawn in the generic vocabulary (see the module docstring)."""

    kind: str
    rows: int = 0
    columns: int = 0
    places: tuple[Place, ...] = ()
    targets: tuple[Target, ...] = ()
    highlights: tuple[str, ...] = ()
    """Places to mark: those the last move touched (and a king in check)."""
    dice: tuple[int, ...] = ()
    """The dice showing, each 1-6."""
    gauges: tuple[Gauge, ...] = ()
    column_labels: tuple[str, ...] = ()
    """Text under each column (GRID, HEX: chess's files)."""
    row_labels: tuple[str, ...] = ()
    """Text beside each row (GRID, HEX, HEAPS)."""
    colors: tuple[str, ...] = ()
    """Each player's colour (a CSS colour), index 0 = first player; empty: the page's own."""
    edges: tuple[int, ...] = ()
    """HEX: the player joining the top, right, bottom and left edges (NOBODY for none)."""
    checkered: bool = False
    """GRID: shade the cells like a chessboard."""
    block_rows: int = 0
    """GRID: a heavier line after every this many rows (sudoku's boxes); 0: none."""
    block_columns: int = 0
    """GRID: a heavier line after every this many columns; 0: none."""


def targets_of(moves: Iterable[Move], place_of: Callable[[Move], str]) -> tuple[Target, ...]:
    """A one-click target per move whose place `place_of(move)` names ("" or None: none)."""
    found = []
    for move in moves:
        place = place_of(move)
        if place:
            found.append(Target(move, (place,)))
    return tuple(found)


def problems(diagram: Diagram, players: int) -> list[str]:
    """What is wrong with a diagram (an empty list for a well-formed one): the checks of
    the conformance tests, for game authors too."""
    found = []
    if diagram.kind not in KINDS:
        found.append(f"kind {diagram.kind!r} is not one of {', '.join(KINDS)}")
    ids = [place.id for place in diagram.places]
    if len(set(ids)) != len(ids) or not all(ids):
        found.append("place ids must be unique and non-empty")
    known = set(ids)
    for place in diagram.places:
        if diagram.kind in (GRID, HEX) and not (
            0 <= place.row < diagram.rows and 0 <= place.column < diagram.columns
        ):
            found.append(f"place {place.id} lies outside the {diagram.rows}x{diagram.columns}")
        if place.piece and place.piece not in SHAPES and len(place.piece) > 2:
            found.append(f"place {place.id}: piece {place.piece!r} is no shape nor 1-2 letters")
        if not NOBODY <= place.owner < players or place.count < 0:
            found.append(f"place {place.id}: owner {place.owner} or count {place.count}")
    for target in diagram.targets:
        if not target.to_places or not set(target.to_places) <= known:
            found.append(f"target of {target.move!r} names unknown places {target.to_places}")
        if target.from_place and target.from_place not in known:
            found.append(f"target of {target.move!r} starts at unknown {target.from_place}")
    if not set(diagram.highlights) <= known:
        found.append(f"highlights name unknown places {set(diagram.highlights) - known}")
    if not all(1 <= die <= 6 for die in diagram.dice):
        found.append(f"dice {diagram.dice} are not 1-6")
    if diagram.colors and len(diagram.colors) != players:
        found.append(f"{len(diagram.colors)} colours for {players} players")
    for gauge in diagram.gauges:
        if not NOBODY <= gauge.owner < players or gauge.maximum < 0:
            found.append(f"gauge {gauge.label!r}: owner {gauge.owner} or maximum {gauge.maximum}")
    for labels, size in (
        (diagram.column_labels, diagram.columns),
        (diagram.row_labels, diagram.rows),
    ):
        if labels and len(labels) != size:
            found.append(f"{len(labels)} labels for {size} rows or columns")
    for block, size in (
        (diagram.block_rows, diagram.rows),
        (diagram.block_columns, diagram.columns),
    ):
        if block and (diagram.kind != GRID or block < 0 or size % block):
            found.append(f"blocks of {block} do not divide a grid's {size} rows or columns")
    return found
