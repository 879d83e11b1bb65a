"""Map colouring as a constraint puzzle (docs/games.md, "Constraint puzzles").

Regions of a map get colours so that no two regions sharing a border get the same one.
The model: a variable per region (in the order the map names them), its domain the colours
(values 0, 1, ... named ``red``, ``green``, ...), a `NotEqual` per border named ``WA-NT``.
A move colours a region: ``WA=red``.

A position is a map, then after ``;`` any regions already coloured (``australia; WA=red``).
A map is ``australia`` (its states and territories WA, NT, SA, Q, NSW, V and T, coloured
red, green, blue: the textbook example) or written out: its borders ``A-B`` and any region
without a border alone, then ``/`` and the colours, e.g. ``WA-NT WA-SA NT-SA NT-Q SA-Q
SA-NSW SA-V Q-NSW NSW-V T / red green blue``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from kibitz.games.base import Move, NotationError, quoted
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.grid import logic_grid
from kibitz.games.csp.model import Model, NotEqual
from kibitz.games.presentation import Diagram

MAPS = {
    "australia": "WA-NT WA-SA NT-SA NT-Q SA-Q SA-NSW SA-V Q-NSW NSW-V T / red green blue",
}
"""The maps known by name, written out."""
MAX_REGIONS, MAX_COLOURS = 100, 16

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class MapColouring(ConstraintGame, Presentation):
    """A map to colour (see the module docstring)."""

    name: ClassVar[str] = "map-colouring"
    title: ClassVar[str] = "Map colouring"
    default_position: ClassVar[str] = "australia"
    notation_help: ClassVar[str] = (
        "Position: a map, then after ; any regions coloured already: 'australia' or "
        "'australia; WA=red SA=green', or a map written out as its borders (a region "
        "without one alone), / and the colours: 'A-B B-C A-C D / red green blue'. A move "
        "colours a region: 'WA=red'. Regions sharing a border get different colours."
    )

    def __init__(self, map_text: str, model: Model, colours: tuple[str, ...]) -> None:
        super().__init__(model, [None] * len(model.variables))
        self._map, self._colours = map_text, colours

    @classmethod
    def from_position(cls, text: str) -> MapColouring:
        map_text, _, givens = (text.strip() or cls.default_position).partition(";")
        map_text = " ".join(map_text.split())
        if map_text.lower() in MAPS:
            map_text = map_text.lower()
        state = cls(map_text, *_read_map(MAPS.get(map_text, map_text)))
        state.read_givens(givens)
        return state

    def position(self) -> str:
        givens = self.givens_text()
        return f"{self._map}; {givens}" if givens else self._map

    def value_label(self, variable: int, value: int) -> str:
        return self._colours[value]

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row per region, a column per colour, a disc where the region has it."""
        return logic_grid(self, last)


def _read_map(text: str) -> tuple[Model, tuple[str, ...]]:
    """The model and the colours of a map written out (see the module docstring)."""
    regions_text, slash, colours_text = text.partition("/")
    if not slash:
        raise NotationError(
            f"{quoted(text)} is no map: expected australia, or borders such as WA-NT, "
            "then / and the colours"
        )
    colours = tuple(colours_text.split())
    for colour in colours:
        if not _NAME.fullmatch(colour):
            raise NotationError(f"colour {quoted(colour, 20)} is not a name (letters, digits)")
    if not 1 <= len(colours) <= MAX_COLOURS or len(set(colours)) != len(colours):
        raise NotationError(f"a map needs 1 to {MAX_COLOURS} different colours after /")
    index: dict[str, int] = {}
    borders: dict[tuple[int, int], NotEqual] = {}
    for item in regions_text.split():
        names = item.split("-")
        if len(names) > 2 or not all(_NAME.fullmatch(name) for name in names):
            raise NotationError(
                f"{quoted(item, 20)}: a region is a name (letters, digits), a border "
                "two names joined by -"
            )
        for name in names:
            index.setdefault(name, len(index))
        if len(index) > MAX_REGIONS:
            raise NotationError(f"a map has at most {MAX_REGIONS} regions")
        if len(names) == 2:
            if names[0] == names[1]:
                raise NotationError(f"{quoted(item, 20)}: a region has no border with itself")
            pair = (index[names[0]], index[names[1]])
            borders.setdefault(tuple(sorted(pair)), NotEqual(pair, item))  # type: ignore[arg-type]
    if not index:
        raise NotationError("a map needs at least one region before /")
    domain = tuple(range(len(colours)))
    model = Model(tuple(index), (domain,) * len(index), tuple(borders.values()))
    return model, colours
