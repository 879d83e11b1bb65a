"""Leaf evaluation for `mcts`: what a simulation backs up from the tree's edge, and the
move priors a new node gets (docs/engines.md, "mcts"; the shape of OpenSpiel's
`Evaluator`).

`EVALUATORS` maps the option `Evaluation` to a factory; a learned value is one more
`Evaluator`, handed to `MCTS(evaluator=...)` or returned by a subclass's `make_evaluator`.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable
from typing import Protocol

from kibitz.engines.mcts import kernels
from kibitz.engines.mcts.settings import Settings
from kibitz.games import CHANCE, Game, Move
from kibitz.games.capabilities import Evaluation, ExpectedReturn, MovePriors, Playout

Record = list[tuple[int, Move]]
"""RAVE's record of a simulation's moves: (player, move) in order."""


class Evaluator(Protocol):
    """Evaluates the leaves of one search's tree."""

    gives_priors: bool
    """Whether `priors` gives move priors (the policy `auto` then selects by PUCT)."""

    def evaluate(self, state: Game, rng: random.Random, record: Record | None) -> tuple[float, ...]:
        """Every player's estimated return from `state` (not terminal), in the units of
        `returns()`; `state` is left as it was. With `record` (RAVE), append each
        (player, move) played to reach the estimate, if any."""
        ...

    def priors(self, state: Game) -> dict[Move, float] | None:
        """Every legal move of `state` with its prior probability, or None (the policy
        `puct` then spreads them evenly)."""
        ...


EvaluatorFactory = Callable[[Game, Settings], Evaluator]
"""Makes the evaluator of a search of `state` (a position of the game searched)."""


class GamePriors:
    """Priors from the game's `MovePriors`, where it has them and the option `Priors` is on;
    the built-in evaluators' base."""

    def __init__(self, state: Game, settings: Settings) -> None:
        self.gives_priors = settings.priors and isinstance(state, MovePriors)

    def priors(self, state: Game) -> dict[Move, float] | None:
        return dict(state.move_priors()) if self.gives_priors else None


class KernelPlayout(GamePriors):
    """A compiled playout (`kernels.playout_for`: Connect Four)."""

    def __init__(self, state: Game, settings: Settings, kernel: Callable) -> None:
        super().__init__(state, settings)
        self.kernel = kernel

    def evaluate(self, state: Game, rng: random.Random, record: Record | None) -> tuple[float, ...]:
        return self.kernel(state, rng, record)


class GamePlayout(GamePriors):
    """The game's own `playout(rng, record)` (capability `Playout`), with `patterns=True`
    where the option `Patterns` is on and the game's `playout` takes it."""

    def __init__(self, state: Game, settings: Settings) -> None:
        super().__init__(state, settings)
        self.patterns = settings.patterns and _takes(state, "patterns")

    def evaluate(self, state: Game, rng: random.Random, record: Record | None) -> tuple[float, ...]:
        if self.patterns:
            return state.playout(rng, record, patterns=True)
        if record is None:
            return state.playout(rng)
        return state.playout(rng, record)


class RandomPlayout(GamePriors):
    """Uniformly random moves with `play`/`undo` (`random_playout`)."""

    def evaluate(self, state: Game, rng: random.Random, record: Record | None) -> tuple[float, ...]:
        return random_playout(state, rng, record)


def playout(state: Game, settings: Settings) -> Evaluator:
    """Random playouts, the fastest there are: compiled (option `Kernel`), the game's own,
    else move by move (also for RAVE where the game's `playout` takes no `record`)."""
    kernel = kernels.playout_for(type(state)) if settings.kernel else None
    if kernel is not None:
        return KernelPlayout(state, settings, kernel)
    if isinstance(state, Playout) and (not settings.rave or _records_playouts(state)):
        return GamePlayout(state, settings)
    return RandomPlayout(state, settings)


class Heuristic(GamePriors):
    """The game's own estimate, no playout: `expected_return(player)` where the game has
    `ExpectedReturn`, else `tanh(evaluate(player) / scale)` (`Evaluation`; centi-units)."""

    def __init__(self, state: Game, settings: Settings) -> None:
        super().__init__(state, settings)
        self.scale = settings.heuristic_scale
        self.players = range(state.players)
        self.two_zero_sum = state.players == 2 and state.zero_sum
        self.expected = isinstance(state, ExpectedReturn)

    def evaluate(self, state: Game, rng: random.Random, record: Record | None) -> tuple[float, ...]:
        if self.expected:
            if self.two_zero_sum:
                value = state.expected_return(0)
                return (value, -value)
            return tuple(state.expected_return(player) for player in self.players)
        if self.two_zero_sum:
            value = math.tanh(state.evaluate(0) / self.scale)
            return (value, -value)
        return tuple(math.tanh(state.evaluate(player) / self.scale) for player in self.players)


def heuristic(state: Game, settings: Settings) -> Evaluator:
    """The game's heuristic (`Heuristic`) where it has one, else random playouts; at a
    chance node only `ExpectedReturn` answers (`Evaluation` is not asked there)."""
    if isinstance(state, ExpectedReturn) or (
        isinstance(state, Evaluation) and not state.has_chance
    ):
        return Heuristic(state, settings)
    return playout(state, settings)


EVALUATORS: dict[str, EvaluatorFactory] = {"playout": playout, "heuristic": heuristic}
"""The option `Evaluation`'s choices."""


def uniform_priors(state: Game) -> dict[Move, float]:
    """Every legal move of `state` alike (PUCT where the evaluator gives no priors)."""
    moves = state.legal_moves()
    prior = 1.0 / len(moves)
    return dict.fromkeys(moves, prior)


def _records_playouts(state: Playout) -> bool:
    """Whether the game's `playout` takes a `record` (games written before it existed
    do not: RAVE then plays out move by move)."""
    return _takes(state, "record")


def _takes(state: Playout, parameter: str) -> bool:
    """Whether the game's `playout` has the keyword `parameter`."""
    return parameter in inspect.signature(state.playout).parameters


def random_playout(
    state: Game, rng: random.Random, record: Record | None = None
) -> tuple[float, ...]:
    """Uniformly random moves (chance outcomes by their probabilities) to the end of the
    game; returns `returns()` there and leaves `state` as it was. `record` (when given)
    gets every (player, move)."""
    played = 0
    choice = rng.choice
    while not state.is_terminal():
        player = state.to_move()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            weights = [probability for _, probability in outcomes]
            move = rng.choices([outcome for outcome, _ in outcomes], weights)[0]
        else:
            move = choice(state.legal_moves())
        if record is not None:
            record.append((player, move))
        state.play(move)
        played += 1
    result = state.returns()
    for _ in range(played):
        state.undo()
    return result
