"""Engines that misbehave on purpose, to test how the server copes (never use them)."""

from __future__ import annotations

import time
from typing import ClassVar

from kibitz.engines import (
    Engine,
    Limits,
    OptionSpec,
    Result,
    RootMove,
    Score,
    ScoreKind,
    SearchContext,
)
from kibitz.engines.driver import SearchDriver
from kibitz.games import Game

HANG = 3600.0
PROVISIONAL_CENTI = 17
"""Sleeper's score for the first legal move (the others get one centi less each)."""


class Silent(Engine):
    """Ignores its limits and its stop signal without ever reporting anything."""

    name: ClassVar[str] = "silent"
    description: ClassVar[str] = "Hangs without a word (a test of the server's deadline)."
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def new_game(self) -> None:
        pass

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        time.sleep(HANG)
        raise AssertionError("unreachable: the server kills this worker")


class Sleeper(Silent):
    """Reports one Info (depth 3, 42 nodes, the legal moves ranked in order), then hangs."""

    name: ClassVar[str] = "sleeper"
    description: ClassVar[str] = "Reports once, then hangs (a test of the server's backstop)."

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        moves = state.legal_moves()
        roots = [
            RootMove(move, Score(ScoreKind.HEURISTIC, value=PROVISIONAL_CENTI - rank), [move])
            for rank, move in enumerate(moves)
        ]
        driver = SearchDriver(state, limits, context)
        driver.report(driver.info(3, 3, roots[0].score, 42, [moves[0]], 0.001, root_moves=roots))
        return super().search(state, limits, context)


class Failing(Silent):
    """Raises an exception instead of searching."""

    name: ClassVar[str] = "failing"
    description: ClassVar[str] = "Raises an error (a test of the server's error handling)."

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        raise RuntimeError("this engine always fails")
