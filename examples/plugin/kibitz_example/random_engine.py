"""The engine `random`: a uniformly random legal move, for any game (a baseline opponent)."""

from __future__ import annotations

import random
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
    StopReason,
)
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.games import CHANCE, Game
from kibitz.games.capabilities import Evaluation


class RandomMover(Engine):
    """Picks a legal move at random (chance outcomes by their probabilities)."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "A uniformly random legal move: a baseline opponent."
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("Seed", "spin", 0, "Seed of the move choice (NewGame restarts it).", 0, 2**31),
    )

    def new_game(self) -> None:
        self.rng = random.Random(self.options["Seed"])

    def set_options(self, options) -> None:
        super().set_options(options)
        self.new_game()  # a new seed takes effect at once

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        moves = root_candidates(state.legal_moves(), limits.search_moves)
        if state.to_move() == CHANCE:
            outcomes = dict(state.chance_outcomes())
            move = self.rng.choices(moves, [outcomes[move] for move in moves])[0]
        else:
            move = self.rng.choice(moves)
        roots = [RootMove(other, self._score(state, other), [other]) for other in moves]
        roots.sort(key=lambda root: root.move != move)  # the choice first
        best = roots[0]
        elapsed = driver.elapsed()
        driver.report(driver.info(1, 1, best.score, 1, [move], elapsed, root_moves=roots))
        reason = StopReason.STOPPED if context.stop.is_set() else StopReason.DEPTH
        return Result(move, best.score, [move], roots, 1, elapsed, 1, 1, stop_reason=reason)

    @staticmethod
    def _score(state: Game, move) -> Score:
        """The result or static evaluation after `move` for the mover (0 if unknown)."""
        mover = state.to_move()
        if mover == CHANCE:
            return Score(ScoreKind.HEURISTIC)
        state.play(move)
        try:
            if state.is_terminal():
                result = state.returns()[mover]
                kind = ScoreKind.WIN if result > 0 else ScoreKind.LOSS if result < 0 else None
                return Score(kind, plies=1) if kind else Score(ScoreKind.DRAW)
            value = state.evaluate(mover) if isinstance(state, Evaluation) else 0
            return Score(ScoreKind.HEURISTIC, value=value)
        finally:
            state.undo()
