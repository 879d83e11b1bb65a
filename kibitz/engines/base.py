"""The Engine interface, its requirements on games and its UCI-like options model.

See docs/architecture.md, "The Engine interface".
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from kibitz.engines.timeman import allocate
from kibitz.engines.types import Info, Limits, Result
from kibitz.games import Capability, Game, quoted
from kibitz.games.capabilities import HiddenInformation


class OptionError(ValueError):
    """An unknown option or a value outside its range."""


class OptionUnavailable(OptionError):
    """An option's value suits the game but needs something this machine lacks (the sliding
    puzzle's pattern databases not built): the server answers FAILED_PRECONDITION, the
    message saying how to provide it."""


class EngineFailure(RuntimeError):
    """Something outside Python that an engine drives failed during a search: an external
    engine process crashed, hung or broke its protocol. The message names the engine; the
    search is lost, the engine itself stays usable (the next search starts afresh)."""


@dataclass(frozen=True)
class OptionSpec:
    """One engine option, as UCI's `option name ... type ...`.

    `type` is one of ``"spin"`` (integer in [min, max]), ``"check"`` (boolean),
    ``"combo"`` (one of `choices`), ``"string"``.
    """

    name: str
    type: str
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def coerce(self, value: Any) -> Any:
        """Validate a value given as text or as a native value; returns the typed value."""
        shown = f"option {self.name}: {quoted(str(value))}"
        if self.type == "spin":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise OptionError(f"{shown} is not an integer") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise OptionError(f"{shown} is outside [{self.min}, {self.max}]")
            return number
        if self.type == "check":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "1", "yes", "on"):
                return True
            if text in ("false", "0", "no", "off"):
                return False
            raise OptionError(f"{shown} is not true/false")
        if self.type == "combo":
            if str(value) not in self.choices:
                raise OptionError(f"{shown} is not one of {', '.join(self.choices)}")
            return str(value)
        return str(value)


class StopSignal(Protocol):
    """Anything with `is_set()`: a threading.Event, the server's StopFlag, ..."""

    def is_set(self) -> bool: ...


class NeverStop:
    """A stop signal that is never raised (for direct, in-process use)."""

    def is_set(self) -> bool:
        return False


Reporter = Callable[[Info], None]


@dataclass(frozen=True)
class Requirements:
    """What an engine needs of a game: traits and capabilities. The others it may use where
    a game has them."""

    players: tuple[int, int | None] = (1, None)
    """Smallest and largest number of players (None: no upper bound)."""
    chance: bool = True
    """Whether the engine can search chance nodes."""
    zero_sum_only: bool = False
    capabilities: tuple[type[Capability], ...] = ()
    hidden: bool = False
    """Whether the engine can answer for games of hidden information (`HiddenInformation`:
    it searches sampled worlds or the whole game, never a view as if it were the truth)."""

    def unmet(self, game: type[Game]) -> list[str]:
        """What `game` lacks, one phrase each (empty: the engine can search it)."""
        missing = []
        low, high = self.players
        if game.players < low or (high is not None and game.players > high):
            wanted = f"{low}" if low == high else f"{low} to {high}" if high else f"{low}+"
            missing.append(f"{wanted} players (it has {game.players})")
        if game.has_chance and not self.chance:
            missing.append("a game without chance events")
        if self.zero_sum_only and not game.zero_sum:
            missing.append("a zero-sum game")
        if issubclass(game, HiddenInformation) and not self.hidden:
            missing.append("a game of perfect information")
        missing += [cap.capability_name for cap in self.capabilities if not issubclass(game, cap)]
        return missing


def _unheard(info: Info) -> None:
    """The reporter of a context given none: nobody receives the Infos."""


@dataclass
class SearchContext:
    """What a search gets besides the position and the limits."""

    report: Reporter = _unheard
    stop: StopSignal = field(default_factory=NeverStop)
    clock: Callable[[], float] = time.monotonic
    """Time source in seconds; tests pass a fake one."""
    info_interval: float = 1.0
    """Seconds between periodic Info reports (besides one per completed depth)."""
    started: float | None = None
    """The `clock` reading the search's time counts from (the server passes the arrival of
    the request, so that waiting and set-up count against the limits); None: now."""

    @property
    def listening(self) -> bool:
        """Whether anyone receives the Infos (a reporter was given): an engine need not
        build them otherwise."""
        return self.report is not _unheard


class Engine(ABC):
    """A search algorithm with typed options and state kept between searches."""

    name: ClassVar[str]
    description: ClassVar[str]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    requires: ClassVar[Requirements] = Requirements()
    inline_nodes: ClassVar[int] = 0
    """A search this engine is asked to keep within this many nodes (by its node or depth
    limit) may run inside the server process instead of a worker: the fast path for tiny
    analyses. The server adds this as a node limit. 0 (the default): never."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = self.default_options()
        self.set_options(options or {})

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        """Every option with its default value."""
        return {spec.name: spec.default for spec in cls.option_specs}

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        """Megabytes the engine's tables and trees may take with `options` (every option,
        typed; defaults included). The server's memory budget counts it. 0 by default."""
        return 0

    @classmethod
    def supports(cls, game_cls: type[Game]) -> bool:
        """Whether this engine can search games of this class."""
        return not cls.requires.unmet(game_cls)

    @classmethod
    def deadline(cls, limits: Limits, side: int) -> float | None:
        """Seconds after its start by which a search under `limits` for player `side` ends
        on its own (None: no time limit). The server stops it shortly after as a backstop.
        The default is the shared time manager's hard deadline (`timeman.allocate`)."""
        return allocate(limits, side).hard

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Typed values for `options`; raises OptionError naming the culprit."""
        specs = {spec.name.lower(): spec for spec in cls.option_specs}
        typed: dict[str, Any] = {}
        for name, value in options.items():
            spec = specs.get(name.lower())
            if spec is None:
                known = ", ".join(s.name for s in cls.option_specs) or "none"
                raise OptionError(
                    f"engine {cls.name} has no option {quoted(name)} (options: {known})"
                )
            typed[spec.name] = spec.coerce(value)
        return typed

    @classmethod  # noqa: B027 - optional: most engines' options suit every game
    def check_options_for(cls, game_cls: type[Game], options: Mapping[str, Any]) -> None:
        """Raise OptionError where `options` (typed, every option) do not suit games of
        `game_cls`, e.g. a heuristic the game does not have. The server asks before a
        session or an analysis starts and when a session's options change. Nothing by
        default."""

    @classmethod  # noqa: B027 - optional: most engines' options suit every position
    def check_options_at(cls, state: Game, options: Mapping[str, Any]) -> None:
        """`check_options_for` for one position, before a search of it (not at the end of
        the game): raise OptionError where `options` do not suit `state` (a heuristic for
        another board size), OptionUnavailable where they need what this machine lacks. The
        server asks before every search, so neither reaches a worker. Nothing by default."""

    def set_options(self, options: Mapping[str, Any]) -> None:
        self.options.update(self.validate_options(options))

    @abstractmethod
    def new_game(self) -> None:
        """Forget everything learnt in earlier searches (tables, trees)."""

    def close(self) -> None:  # noqa: B027 - optional: most engines hold nothing outside
        """Release what the engine holds outside Python (processes) or in bulk (large
        tables, freed in steps so that the worker's heartbeat thread keeps running) once it
        is no longer used. Nothing by default."""

    @abstractmethod
    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        """Search `state` and return the result; the contract every engine keeps:

        - `state` is unchanged on return (also after a stop or an error);
        - the best move is legal (None only at a terminal position) and within
          `limits.search_moves` when given (ValueError if none of them is legal);
        - `context.stop` is polled often (every few thousand nodes at most) and ends the
          search with its best move so far, `StopReason.STOPPED`;
        - the node limit ends the search once reached (a search may finish its first
          step, e.g. depth 1, to have a move at all), and the search ends by
          `deadline(limits, side)` on `context.clock`;
        - `context.report` gets an `Info` after each step and at `context.info_interval`
          seconds, each carrying `root_moves`: what the engine would answer if stopped
          then. `SearchDriver` (kibitz/engines/driver.py) does the bookkeeping.
        """
