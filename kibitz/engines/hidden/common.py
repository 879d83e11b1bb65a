"""What `cfr` and `pimc` share: their requirements, the player a position is answered for,
and answers made of one-move lines (nothing past the observer's own move, which would come
from worlds a view does not know)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kibitz.engines.base import Engine, OptionError, Requirements
from kibitz.engines.driver import SearchDriver
from kibitz.engines.types import Info, Result, RootMove, Score
from kibitz.games import CHANCE, Game, HiddenInformation, Move
from kibitz.vocabulary import StopReason

HIDDEN = Requirements(
    players=(2, 2), zero_sum_only=True, hidden=True, capabilities=(HiddenInformation,)
)
"""Two-player zero-sum games of hidden information."""


def unsearchable(state: Game) -> str | None:
    """Why `state` cannot be searched, if it cannot: a view whose observer is not to move
    (the view does not know what the mover knows)."""
    assert isinstance(state, HiddenInformation)
    mover = state.to_move()
    if state.is_view() and not state.is_terminal() and mover != state.observer():
        return (
            f"this is player {state.observer() + 1}'s view and player {mover + 1} is to move: "
            "a view is searched when its observer is to move"
        )
    return None


class HiddenEngine(Engine):
    """What the engines for hidden information share: a position they cannot search is
    refused before the search (INVALID_ARGUMENT on the wire)."""

    requires: ClassVar[Requirements] = HIDDEN

    @classmethod
    def check_options_at(cls, state: Game, options: Mapping[str, Any]) -> None:
        problem = unsearchable(state)
        if problem is not None:
            raise OptionError(f"engine {cls.name}: {problem}")


def answered_player(state: Game) -> int:
    """The player whose values an answer for `state` gives: the player to move, at a chance
    node the next player to act (`perspective()`, else `observer()`). ValueError where
    `state` is `unsearchable`."""
    problem = unsearchable(state)
    if problem is not None:
        raise ValueError(problem)
    mover = state.to_move()
    if mover != CHANCE:
        return mover
    perspective = state.perspective()
    return perspective if perspective != CHANCE else state.observer()


@dataclass(slots=True)
class Line:
    """One root move of an answer: its value to the answered player and, where it has one,
    its probability (the strategy's, or a chance outcome's)."""

    move: Move
    value: float
    probability: float | None = None

    def root_move(self) -> RootMove:
        return RootMove(
            self.move, Score.from_expected(self.value), [self.move], probability=self.probability
        )


def info(
    driver: SearchDriver,
    lines: list[Line],
    value: float,
    depth: int,
    nodes: int,
    elapsed: float | None = None,
) -> Info:
    """The Info of an answer of `lines` (best first) worth `value`, `elapsed` seconds into
    the search (None: now)."""
    return driver.info(
        depth,
        depth,
        Score.from_expected(value),
        nodes,
        [lines[0].move],
        driver.elapsed() if elapsed is None else elapsed,
        root_moves=[line.root_move() for line in lines],
    )


def result(
    driver: SearchDriver,
    lines: list[Line],
    value: float,
    depth: int,
    nodes: int,
    reason: StopReason,
    stats: dict[str, float],
) -> Result:
    """The Result of an answer of `lines` (best first) worth `value`."""
    best = lines[0]
    return Result(
        best_move=best.move,
        score=Score.from_expected(value),
        pv=[best.move],
        root_moves=[line.root_move() for line in lines],
        nodes=nodes,
        time=driver.elapsed(),
        depth=depth,
        seldepth=depth,
        stop_reason=reason,
        stats=stats,
    )
