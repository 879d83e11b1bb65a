"""Backgammon positions the tests share: sides written point by point, and a bear-off
where the database and the race curves disagree."""

from __future__ import annotations

from kibitz.games.backgammon.board import BAR
from kibitz.games.backgammon.notation import encode_position_id


def side(points: dict[int, int], bar: int = 0) -> list[int]:
    """A side from {point (1-24, its own numbering): checkers}."""
    checkers = [0] * 25
    for point, count in points.items():
        checkers[point - 1] = count
    checkers[BAR] = bar
    return checkers


TAKE_ONE_OFF = f"{encode_position_id(side({6: 1, 4: 2}), side({3: 1, 2: 1, 1: 2}))}:52"
"""5-2 with checkers on the 6- and 4-points against four checkers that need two rolls
(bar doubles of 2-2 or more): 6/4/off leaves two checkers on the 4-point, off in one roll
with 11 rolls of 36; the race curves' 6/1 4/2 (fewer pips, no gaps) leaves three checkers,
off in one roll with 5 (2-2 and higher doubles)."""
