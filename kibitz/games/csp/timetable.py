"""A school timetable as a partial constraint puzzle (docs/games.md, "Constraint puzzles").

Lessons (a class, a teacher, a subject) go into a slot (a day's period) and a room. Hard:
a room, a teacher and a class are in one lesson at a time. Soft, with weights: a teacher
would rather not teach in some slots (``avoid``), and a class would rather not have one
subject twice on a day (``spread``). The best timetable breaks the fewest wishes by weight:
the game's `cost()`, which the `csp` engine's branch and bound minimises.

The model: a variable per lesson, named ``<class>-<subject>`` (numbered where a class has
a subject more than once: ``7a-maths1``, ``7a-maths2``), its value a slot and a room,
written ``Mon1/R2`` (value ``slot * rooms + room``); an `AllDifferent` over the lessons
(``one lesson a room``: a slot and room is one value), a `Binary` per pair of lessons of
one teacher (``teacher Ann``) or one class (``class 7a``) keeping their slots apart, a soft
`Predicate` per avoided slot and lesson (``Ann avoids Mon1``) and a soft `Binary` per pair
of a class's lessons of one subject (``7a maths twice a day``). A move places a lesson:
``7a-maths1=Mon1/R2``.

A position is sections separated by ``;``, each a keyword and its items: ``days Mon Tue``
(slot names are the day and the period: ``Mon1``, ``Mon2``, ...), ``periods 2`` (a day's),
``rooms R1 R2``, ``lessons 7a/Ann/maths 7b/Bob/art ...``, then optionally ``avoid
Ann@Mon1:3 ...`` (teacher, slot, weight), ``spread 2`` (the weight of a subject twice on a
day; 0, the default, for none) and ``placed 7a-maths1=Mon1/R1 ...`` (lessons placed
already). The default is a small school whose best timetable costs 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from kibitz.games.base import Move, NotationError, capped_int, quoted
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.grid import logic_grid
from kibitz.games.csp.model import AllDifferent, Binary, Constraint, Model, Predicate
from kibitz.games.presentation import Diagram

DEFAULT = (
    "days Mon Tue; periods 2; rooms R1 R2; "
    "lessons 7a/Ann/maths 7a/Ann/maths 7a/Bob/english 7b/Ann/maths 7b/Bob/english "
    "7b/Bob/english 7b/Cy/art; avoid Ann@Mon1:3 Ann@Tue1:2 Bob@Tue2:2 Cy@Mon2:1; spread 2"
)
SECTIONS = ("days", "periods", "rooms", "lessons", "avoid", "spread", "placed")
"""The sections of a position, in the order `position()` writes them."""
REQUIRED = SECTIONS[:4]
MAX_DAYS, MAX_PERIODS, MAX_ROOMS, MAX_LESSONS, MAX_WEIGHT = 7, 12, 20, 60, 1000

_NAME = re.compile(r"[A-Za-z0-9_]+")
_LESSON = re.compile(r"([A-Za-z0-9_]+)/([A-Za-z0-9_]+)/([A-Za-z0-9_]+)")
_WISH = re.compile(r"([A-Za-z0-9_]+)@([A-Za-z0-9_]+):([0-9]+)")


@dataclass(frozen=True)
class School:
    """A timetabling problem: what a position's sections say, checked."""

    days: tuple[str, ...]
    periods: int
    rooms: tuple[str, ...]
    lessons: tuple[tuple[str, str, str], ...]
    """Each lesson's class, teacher and subject."""
    avoid: tuple[tuple[str, str, int], ...] = ()
    """Each wish: a teacher, a slot avoided, its weight."""
    spread: int = 0

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(f"{day}{period}" for day in self.days for period in range(1, self.periods + 1))

    def lesson_names(self) -> tuple[str, ...]:
        """``<class>-<subject>``, numbered where the pair comes more than once."""
        pairs = [(group, subject) for group, _, subject in self.lessons]
        seen: dict[tuple[str, str], int] = {}
        names = []
        for pair in pairs:
            seen[pair] = seen.get(pair, 0) + 1
            number = str(seen[pair]) if pairs.count(pair) > 1 else ""
            names.append(f"{pair[0]}-{pair[1]}{number}")
        return tuple(names)

    def text(self) -> str:
        """The sections as a position writes them (without ``placed``)."""
        sections = [
            f"days {' '.join(self.days)}",
            f"periods {self.periods}",
            f"rooms {' '.join(self.rooms)}",
            "lessons " + " ".join("/".join(lesson) for lesson in self.lessons),
        ]
        if self.avoid:
            sections.append(
                "avoid " + " ".join(f"{who}@{slot}:{weight}" for who, slot, weight in self.avoid)
            )
        if self.spread:
            sections.append(f"spread {self.spread}")
        return "; ".join(sections)

    def model(self) -> Model:
        """The constraint model (see the module docstring)."""
        rooms, periods = len(self.rooms), self.periods
        lessons = range(len(self.lessons))
        constraints: list[Constraint] = [AllDifferent(tuple(lessons), "one lesson a room")]
        for first in lessons:
            for second in range(first + 1, len(self.lessons)):
                (group, teacher, subject), other = self.lessons[first], self.lessons[second]
                pair = (first, second)
                if teacher == other[1]:
                    constraints.append(Binary(pair, f"teacher {teacher}", relation=_apart(rooms)))
                if group == other[0]:
                    constraints.append(Binary(pair, f"class {group}", relation=_apart(rooms)))
                if self.spread and (group, subject) == (other[0], other[2]):
                    name = f"{group} {subject} twice a day"
                    relation = _apart(rooms * periods)
                    constraints.append(Binary(pair, name, self.spread, relation))
        slots = self.slots
        for teacher, slot, weight in self.avoid:
            for lesson in lessons:
                if self.lessons[lesson][1] == teacher:
                    name = f"{teacher} avoids {slot}"
                    test = _not_in(slots.index(slot), rooms)
                    constraints.append(Predicate((lesson,), name, weight, test))
        domain = tuple(range(len(slots) * rooms))
        return Model(self.lesson_names(), (domain,) * len(self.lessons), tuple(constraints))


def _apart(width: int) -> Callable[[int, int], bool]:
    """Two values in different blocks of `width` (slots: a slot's rooms; days: a day's)."""
    return lambda first, second: first // width != second // width


def _not_in(slot: int, rooms: int) -> Callable[[Sequence[int]], bool]:
    return lambda values: values[0] // rooms != slot


class Timetable(ConstraintGame, Presentation):
    """A timetable to fill (see the module docstring)."""

    name: ClassVar[str] = "timetable"
    title: ClassVar[str] = "Timetable"
    default_position: ClassVar[str] = DEFAULT
    notation_help: ClassVar[str] = (
        "Position: sections separated by ;: 'days Mon Tue; periods 2; rooms R1 R2; lessons "
        "7a/Ann/maths 7b/Bob/art' (class/teacher/subject), optionally 'avoid Ann@Mon1:3' "
        "(a teacher's slot to avoid, its weight), 'spread 2' (the weight of a subject "
        "twice on a day) and 'placed 7a-maths=Mon1/R1'. A move places a lesson, named "
        "class-subject (numbered where a class has the subject twice: 7a-maths1) in a "
        "slot and room: '7a-maths=Mon1/R1'. The best timetable costs least."
    )

    def __init__(self, school: School) -> None:
        super().__init__(school.model(), [None] * len(school.lessons))
        self._school = school
        slots = school.slots
        self._labels = tuple(f"{slot}/{room}" for slot in slots for room in school.rooms)

    @classmethod
    def from_position(cls, text: str) -> Timetable:
        sections = _sections(text.strip() or cls.default_position)
        state = cls(_school(sections))
        state.read_givens(" ".join(sections.get("placed", [])))
        return state

    def position(self) -> str:
        givens = self.givens_text()
        return f"{self._school.text()}; placed {givens}" if givens else self._school.text()

    def value_label(self, variable: int, value: int) -> str:
        return self._labels[value]

    def render(self) -> str:
        """A row per slot, a column per room, the lesson there (. for none); the cost."""
        rooms = self._school.rooms
        cells = [["", *rooms]] + [[slot] + ["."] * len(rooms) for slot in self._school.slots]
        for name, value in zip(self._model.variables, self._values, strict=True):
            if value is not None:
                cells[1 + value // len(rooms)][1 + value % len(rooms)] = name
        widths = [max(len(row[column]) for row in cells) for column in range(len(cells[0]))]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in cells
        ]
        return "\n".join([*lines, f"cost {self.cost()}"])

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row per lesson, a column per slot and room, a marker where it is placed."""
        return logic_grid(self, last, "marker")


def _sections(text: str) -> dict[str, list[str]]:
    """The sections of a position: keyword -> items, each keyword once."""
    sections: dict[str, list[str]] = {}
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        keyword = words[0].lower()
        if keyword not in SECTIONS:
            raise NotationError(
                f"{quoted(words[0], 20)} is no section of a timetable: {', '.join(SECTIONS)}"
            )
        if keyword in sections:
            raise NotationError(f"the section {keyword} comes twice")
        sections[keyword] = words[1:]
    missing = [keyword for keyword in REQUIRED if keyword not in sections]
    if missing:
        raise NotationError(f"a timetable needs the sections {', '.join(missing)}")
    return sections


def _names(sections: dict[str, list[str]], keyword: str, most: int) -> tuple[str, ...]:
    """The names of a section: 1 to `most`, different, each letters and digits."""
    names = tuple(sections[keyword])
    for name in names:
        if not _NAME.fullmatch(name):
            raise NotationError(f"{keyword}: {quoted(name, 20)} is not a name (letters, digits)")
    if not 1 <= len(names) <= most or len(set(names)) != len(names):
        raise NotationError(f"{keyword}: 1 to {most} different names")
    return names


def _number(sections: dict[str, list[str]], keyword: str, low: int, high: int) -> int:
    """The one number of a section, from `low` to `high`."""
    items = sections[keyword]
    value = capped_int(items[0], high) if len(items) == 1 and items[0].isdigit() else -1
    if not low <= value <= high:
        raise NotationError(f"{keyword}: one number from {low} to {high}")
    return value


def _school(sections: dict[str, list[str]]) -> School:
    """The problem the sections describe, checked."""
    days = _names(sections, "days", MAX_DAYS)
    periods = _number(sections, "periods", 1, MAX_PERIODS)
    rooms = _names(sections, "rooms", MAX_ROOMS)
    lessons = []
    for item in sections["lessons"]:
        match = _LESSON.fullmatch(item)
        if match is None:
            raise NotationError(f"lesson {quoted(item, 30)} is not class/teacher/subject")
        lessons.append((match[1], match[2], match[3]))
    if not 1 <= len(lessons) <= MAX_LESSONS:
        raise NotationError(f"lessons: 1 to {MAX_LESSONS} of them")
    spread = _number(sections, "spread", 0, MAX_WEIGHT) if "spread" in sections else 0
    school = School(days, periods, rooms, tuple(lessons), spread=spread)
    teachers, slots = {teacher for _, teacher, _ in lessons}, school.slots
    if len(set(slots)) != len(slots):
        raise NotationError("days: two slots share a name (a day's name and its period)")
    avoid: list[tuple[str, str, int]] = []
    for item in sections.get("avoid", []):
        match = _WISH.fullmatch(item)
        if match is None:
            raise NotationError(f"wish {quoted(item, 30)} is not teacher@slot:weight")
        weight = capped_int(match[3], MAX_WEIGHT)
        if match[1] not in teachers or match[2] not in slots or not 1 <= weight <= MAX_WEIGHT:
            raise NotationError(
                f"wish {quoted(item, 30)}: a teacher of a lesson, a slot ({slots[0]}, ...), "
                f"a weight from 1 to {MAX_WEIGHT}"
            )
        if any((who, slot) == (match[1], match[2]) for who, slot, _ in avoid):
            raise NotationError(f"wish {quoted(item, 30)}: that slot is avoided twice")
        avoid.append((match[1], match[2], weight))
    return School(days, periods, rooms, tuple(lessons), tuple(avoid), spread)
