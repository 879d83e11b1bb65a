"""Search engines, generic over the Game interface, and their registry.

The names exported here are the engines' public interface: the server uses nothing else
(docs/architecture.md, "Layers"). `ScoreKind`, `Bound` and `StopReason` are
kibitz.vocabulary's, re-exported for plugins.
"""

from collections.abc import Iterable
from typing import Protocol

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import (
    Engine,
    EngineFailure,
    OptionError,
    OptionSpec,
    OptionUnavailable,
    Requirements,
    SearchContext,
)
from kibitz.engines.csp import CSP
from kibitz.engines.dds.engine import DoubleDummy
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.hidden import CFR, ISMCTS, PIMC
from kibitz.engines.mcts import MCTS
from kibitz.engines.multi import BestReply, MaxN, Paranoid
from kibitz.engines.single import AStar, IDAStar
from kibitz.engines.types import MAX_PLY, Clock, Info, Limits, Result, RootMove, Score
from kibitz.engines.uci import ConfigError, UciDefinition, UciEngine, probe
from kibitz.engines.uci import read_config as _read_config
from kibitz.games import GAMES, Game
from kibitz.registry import Registry
from kibitz.vocabulary import Bound, ScoreKind, StopReason


class EngineDefinition(Protocol):
    """Plain (picklable) data an engine class is made from at run time, such as a
    configured UCI engine (`UciDefinition`): the server passes it to its worker processes,
    which register the same classes."""

    name: str

    def engine_class(self) -> type[Engine]: ...


ENGINES: Registry[type[Engine]] = Registry(
    "engine", Engine, "kibitz.engines", ("description", "option_specs")
)
"""Every engine by name: the built-ins, then plugins once `load_plugins()` has run."""
ENGINES.register(AlphaBeta)
ENGINES.register(MCTS)
ENGINES.register(Expectimax)
ENGINES.register(IDAStar)
ENGINES.register(AStar)
ENGINES.register(CSP)
ENGINES.register(MaxN)
ENGINES.register(Paranoid)
ENGINES.register(BestReply)
ENGINES.register(CFR)
ENGINES.register(PIMC)
ENGINES.register(ISMCTS)
ENGINES.register(DoubleDummy)


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


def load_engine_config(path: str) -> tuple[UciDefinition, ...]:
    """The external engines of an engine config file (`kibitz serve --config`), each started
    once to learn its options. Raises ValueError (one line) for an unreadable or malformed
    file, an unknown game, a name another engine has, or an engine that does not start or
    answer. Load plugins first: their names count as taken."""
    entries = _read_config(path)
    for entry in entries:
        taken = ENGINES.get(entry.name)
        if taken is not None and not issubclass(taken, UciEngine):
            owner = "a built-in engine" if taken.__module__.startswith("kibitz.") else "a plugin"
            raise ConfigError(
                f"{entry.where}: the name {entry.name!r} is taken by {owner} "
                f"({taken.__module__}); call it something else"
            )
    return tuple(probe(entry) for entry in entries)


def register_engines(definitions: Iterable[EngineDefinition]) -> list[type[Engine]]:
    """Register the engine classes of `definitions` (from `load_engine_config`): in the
    server and, from the same definitions, in each worker process. Registering the same
    definitions again is a no-op; ValueError for a name taken otherwise."""
    classes: list[type[Engine]] = []
    for definition in definitions:
        known = ENGINES.get(definition.name)
        if known is not None and getattr(known, "definition", None) == definition:
            classes.append(known)
            continue
        if known is not None:
            raise ValueError(f"the engine name {definition.name!r} is already taken")
        classes.append(ENGINES.register(definition.engine_class()))
    return classes


__all__ = [
    "ENGINES",
    "MAX_PLY",
    "Bound",
    "Clock",
    "Engine",
    "EngineDefinition",
    "EngineFailure",
    "Info",
    "Limits",
    "OptionError",
    "OptionSpec",
    "OptionUnavailable",
    "Requirements",
    "Result",
    "RootMove",
    "Score",
    "ScoreKind",
    "SearchContext",
    "StopReason",
    "default_engine_for",
    "load_engine_config",
    "load_plugins",
    "register_engines",
]
