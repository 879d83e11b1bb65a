"""Search engines, generic over the Game interface, and their registry.

The names exported here are the engines' public interface: the server uses nothing else
(docs/architecture.md, "Layers").
"""

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import Engine, OptionError, OptionSpec, Requirements, SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.mcts import MCTS
from kibitz.engines.types import (
    MAX_PLY,
    Bound,
    Clock,
    Info,
    Limits,
    Result,
    RootMove,
    Score,
    ScoreKind,
    StopReason,
)
from kibitz.games import GAMES, Game
from kibitz.registry import Registry

ENGINES: Registry[type[Engine]] = Registry(
    "engine", Engine, "kibitz.engines", ("description", "option_specs")
)
"""Every engine by name: the built-ins, then plugins once `load_plugins()` has run."""
ENGINES.register(AlphaBeta)
ENGINES.register(MCTS)
ENGINES.register(Expectimax)


def load_plugins() -> list[str]:
    """Register the games and engines of installed plugins (once per process); returns a
    line per plugin that was skipped, saying why."""
    return GAMES.load_plugins() + ENGINES.load_plugins()


def default_engine_for(game: type[Game]) -> type[Engine] | None:
    """The engine for requests that name none: the game's `default_engine` where it is
    registered and supports the game, else the first registered engine that does."""
    named = ENGINES.get(game.default_engine or "")
    if named is not None and named.supports(game):
        return named
    return next((engine for engine in ENGINES.values() if engine.supports(game)), None)


__all__ = [
    "ENGINES",
    "MAX_PLY",
    "Bound",
    "Clock",
    "Engine",
    "Info",
    "Limits",
    "OptionError",
    "OptionSpec",
    "Requirements",
    "Result",
    "RootMove",
    "Score",
    "ScoreKind",
    "SearchContext",
    "StopReason",
    "default_engine_for",
    "load_plugins",
]
