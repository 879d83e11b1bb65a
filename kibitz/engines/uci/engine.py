"""Engine classes for the external UCI engines of a server's config, and the start-up probe
that asks each engine for its options.

One engine object drives one engine process: started at its first search, restarted at the
next search after a failure, ended by `close()` (its worker closes it when the session ends
or the worker exits; on Linux the process also dies with the worker, see `protocol.py`).
A crash, a hang or an answer kibitz cannot use fails the search with `EngineFailure`
naming the engine; the process is killed and the next search starts a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from kibitz.engines.base import (
    Engine,
    EngineFailure,
    OptionError,
    OptionSpec,
    Requirements,
    SearchContext,
)
from kibitz.engines.driver import root_candidates, terminal_result
from kibitz.engines.timeman import allocate
from kibitz.engines.types import Limits, Result
from kibitz.engines.uci.config import ConfigError, EngineEntry, UciDefinition
from kibitz.engines.uci.protocol import (
    NoAnswer,
    ProcessExited,
    UciProcess,
    go_command,
    parse_bestmove,
    parse_info,
    parse_option,
    setoption_command,
)
from kibitz.engines.uci.search import BadAnswer, SearchLines, natural_reason
from kibitz.games import Game, Move, quoted
from kibitz.games.capabilities import HistoryDraws
from kibitz.vocabulary import StopReason

STARTUP_TIMEOUT = 5.0
"""Seconds a started engine has to answer `uci` with `uciok`."""
READY_TIMEOUT = 10.0
"""Seconds it has to answer `isready` (after options, which may allocate a large Hash)."""
STOP_GRACE = 1.0
"""Seconds it has to answer `stop` with `bestmove` before it counts as hung and is killed:
less than the server's kill grace past the deadline (`ServerConfig.kill_grace`, 2 s), so
that the failure is the engine's, reported by name, not a killed worker's."""
POLL = 0.01
"""Seconds between checks of the stop signal and the deadline while the engine searches."""


@dataclass(frozen=True)
class OneGame(Requirements):
    """Requirements of an engine configured for one game: that game, nothing else."""

    game: str = ""

    def unmet(self, game: type[Game]) -> list[str]:
        missing = super().unmet(game)
        if game.name != self.game:
            missing.append(f"the game {self.game!r} (the only one the server's config gives it)")
        return missing


class UciEngine(Engine):
    """An external UCI engine; `engine_class` makes one subclass per configured engine."""

    definition: ClassVar[UciDefinition]
    inline_nodes: ClassVar[int] = 0

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self._process: UciProcess | None = None
        self._engine_values: dict[str, Any] = {}
        """What the running process has of each option (what we have set, or its default)."""
        self._new_game = False
        super().__init__(options)

    # -- options and memory ---------------------------------------------------------------

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        typed = super().validate_options(options)
        defaults = cls.default_options()
        for name, value in typed.items():
            if name in cls.definition.fixed and value != defaults[name]:
                raise OptionError(
                    f"option {name} of engine {cls.name} is fixed by the server's config"
                    + (" (string options may name files)" if _is_string(cls, name) else "")
                )
        return typed

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        """The engine's `Hash` (MB), where it has one."""
        hash_mb = options.get("Hash")
        return hash_mb if isinstance(hash_mb, int) and not isinstance(hash_mb, bool) else 0

    def new_game(self) -> None:
        self._new_game = True

    def close(self) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None

    # -- searching ------------------------------------------------------------------------

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        clock = context.clock
        started = clock() if context.started is None else context.started
        if state.is_terminal():
            return terminal_result(state, clock() - started)
        candidates = root_candidates(state.legal_moves(), limits.search_moves)
        running = self._process is not None and self._process.running
        phase = "the search" if running else "start-up"
        try:
            process = self._ready(limits.multipv)
            phase = "the search"
            return self._run(process, state, limits, context, candidates, started)
        except (ProcessExited, NoAnswer, BadAnswer, OSError) as exc:
            self._discard()
            raise EngineFailure(_failure(self.name, exc, phase)) from None

    def _ready(self, multipv: int) -> UciProcess:
        """The running process with this search's options set, after `readyok`."""
        if self._process is None or not self._process.running:
            self._discard()
            self._process, _ = start(self.definition.argv)
            self._engine_values = dict(self.definition.engine_defaults)
            self._new_game = False
        process = self._process
        for name, value in self._wanted_options(multipv).items():
            if self._engine_values.get(name) != value:
                process.send(setoption_command(name, value))
                self._engine_values[name] = value
        if self._new_game:
            process.send("ucinewgame")
            self._new_game = False
        process.send("isready")
        process.expect("readyok", READY_TIMEOUT)
        return process

    def _wanted_options(self, multipv: int) -> dict[str, Any]:
        """The options for a search: the session's, with MultiPV from the limits when they
        ask for more than one line."""
        wanted = dict(self.options)
        spec = next((s for s in self.option_specs if s.name == "MultiPV"), None)
        if spec is not None and multipv > 1:
            wanted["MultiPV"] = min(multipv, spec.max) if spec.max is not None else multipv
        return wanted

    def _run(
        self,
        process: UciProcess,
        state: Game,
        limits: Limits,
        context: SearchContext,
        candidates: list[Move],
        started: float,
    ) -> Result:
        """Send the position and `go`, report the engine's lines, stop it at a stop request
        or the hard deadline, and answer its `bestmove`."""
        clock = context.clock

        def elapsed() -> float:
            return clock() - started

        side = state.to_move()
        lines = SearchLines(state.clone(), candidates)
        wanted = [state.format_move(move) for move in candidates] if limits.search_moves else []
        process.send(position_command(state))
        process.send(go_command(limits, side, elapsed(), wanted))
        hard = allocate(limits, side).hard
        reason: StopReason | None = None
        stop_sent = 0.0
        while True:
            now = elapsed()
            if reason is None:
                reason = _stop_due(context, hard, now)
                if reason is not None:
                    process.send("stop")
                    stop_sent = now
            elif now - stop_sent > STOP_GRACE:
                raise NoAnswer(f"did not answer `stop` within {STOP_GRACE:g} s")
            line = process.read(POLL)
            if line is None:
                continue
            if line.startswith("info "):
                info = lines.on_info(parse_info(line), elapsed())
                if info is not None:
                    context.report(info)
            elif line.startswith("bestmove"):
                best, _ = parse_bestmove(line)
                why = reason or natural_reason(limits, lines.depth)
                return lines.result(best, why, elapsed())

    def _discard(self) -> None:
        """Kill the process (after a failure: its state is unknown)."""
        if self._process is not None:
            self._process.kill()
            self._process.close(grace=0)
            self._process = None


def _stop_due(context: SearchContext, hard: float | None, now: float) -> StopReason | None:
    """Why kibitz must stop the engine now, if it must. A passed hard deadline comes before
    a stop request: a worker that the machine's load kept from running until after its
    deadline finds the server's backstop stop (sent a margin after that same deadline)
    already set, and the search still ended for its time."""
    if hard is not None and now >= hard:
        return StopReason.TIME
    if context.stop.is_set():
        return StopReason.STOPPED
    return None


def _is_string(engine: type[Engine], name: str) -> bool:
    return any(spec.name == name and spec.type == "string" for spec in engine.option_specs)


def _failure(name: str, exc: Exception, phase: str) -> str:
    """The one-line message of a failed search."""
    if isinstance(exc, ProcessExited):
        what = f"exited (code {exc.code}) during {phase}"
        if exc.stderr:
            what += f" ({exc.stderr})"
    elif isinstance(exc, NoAnswer):
        what = f"{exc} during {phase} and was killed"
    elif isinstance(exc, OSError):
        what = f"could not be started: {exc.strerror or exc}"
    else:
        what = f"{exc} and was killed"
    return f"engine {name} {what}; the next search restarts it"


def position_command(state: Game) -> str:
    """`position fen F moves M...`: from the earliest position the game object knows, with
    the moves since, where the game offers `start_and_moves()` (chess: the engine then sees
    repetitions); else `position fen` of the position alone."""
    if not isinstance(state, HistoryDraws):
        return f"position fen {state.position()}"
    fen, moves = state.start_and_moves()
    return f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")


# ------------------------------------------------------------------------------ start-up


def start(argv: tuple[str, ...]) -> tuple[UciProcess, list[str]]:
    """A started engine that has answered `uci` with `uciok`, and the lines it sent until
    then (`id`, `option`); OSError, ProcessExited or NoAnswer if it does not."""
    process = UciProcess(argv)
    try:
        process.send("uci")
        lines = process.expect("uciok", STARTUP_TIMEOUT)
    except (ProcessExited, NoAnswer):
        process.close(grace=0)
        raise
    return process, lines


def probe(entry: EngineEntry) -> UciDefinition:
    """Start a configured engine once: its options (with the config's values as defaults,
    checked), its name; ConfigError if it does not start, does not answer, or the config
    names an option it lacks or a value it does not take."""
    command = " ".join(entry.argv)
    try:
        process, lines = start(entry.argv)
    except OSError as exc:
        raise ConfigError(f"{entry.where}: cannot start {command}: {exc.strerror or exc}") from None
    except ProcessExited as exc:
        raise ConfigError(f"{entry.where}: {command} {exc} before answering `uciok`") from None
    except NoAnswer as exc:
        raise ConfigError(f"{entry.where}: {command} {exc}") from None
    title = _engine_title(lines, entry.name)
    try:
        declared = _declared_options(lines)
        specs, fixed = _configured_options(entry, declared, title)
        for spec, engine_spec in zip(specs, declared, strict=True):
            if spec.default != engine_spec.default:
                process.send(setoption_command(spec.name, spec.default))
        process.send("isready")
        process.expect("readyok", READY_TIMEOUT)
    except (ProcessExited, NoAnswer) as exc:
        raise ConfigError(f"{entry.where}: {command} {exc} (after its options were set)") from None
    finally:
        process.close()
    return UciDefinition(
        name=entry.name,
        argv=entry.argv,
        game=entry.game,
        description=entry.description or f"{title}, an external UCI engine",
        option_specs=tuple(specs),
        engine_defaults=tuple((spec.name, spec.default) for spec in declared),
        fixed=fixed,
    )


def _engine_title(lines: list[str], fallback: str) -> str:
    """The engine's `id name`."""
    named = [line[len("id name ") :].strip() for line in lines if line.startswith("id name ")]
    return named[0] if named and named[0] else fallback


def _declared_options(lines: list[str]) -> list[OptionSpec]:
    """The options of the `option` lines, the first of each name (buttons left out)."""
    specs: dict[str, OptionSpec] = {}
    for line in lines:
        if line.startswith("option "):
            spec = parse_option(line)
            if spec is not None and spec.name.lower() not in specs:
                specs[spec.name.lower()] = spec
    return list(specs.values())


def _configured_options(
    entry: EngineEntry, declared: list[OptionSpec], title: str
) -> tuple[list[OptionSpec], frozenset[str]]:
    """The declared options with the config's values as defaults and descriptions saying
    so, and the names of the fixed ones; ConfigError for an unknown name or a bad value."""
    by_name = {spec.name.lower(): spec for spec in declared}
    known = ", ".join(spec.name for spec in declared) or "none"
    values: dict[str, Any] = {}
    for name, value in entry.options.items():
        spec = _declared(by_name, name, entry, known)
        try:
            values[spec.name] = spec.coerce(value)
        except OptionError as exc:
            raise ConfigError(f"{entry.where}: {exc}") from None
    fixed = {_declared(by_name, name, entry, known).name for name in entry.fixed}
    fixed |= {spec.name for spec in declared if spec.type == "string"}
    specs = []
    for spec in declared:
        default = values.get(spec.name, spec.default)
        notes = [f"UCI option of {title}"]
        if default != spec.default:
            notes.append(f"set by the server's config (the engine's default: {spec.default})")
        if spec.name in fixed:
            notes.append("fixed by the server's config")
        specs.append(replace(spec, default=default, description="; ".join(notes)))
    return specs, frozenset(fixed)


def _declared(by_name: dict[str, OptionSpec], name: str, entry: EngineEntry, known: str):
    spec = by_name.get(name.lower())
    if spec is None:
        raise ConfigError(
            f"{entry.where}: the engine has no option {quoted(name)} that kibitz can set "
            f"(its options: {known})"
        )
    return spec


# ------------------------------------------------------------------------------ classes


def engine_class(definition: UciDefinition) -> type[UciEngine]:
    """The Engine class of one configured engine (not registered: see
    `kibitz.engines.register_engines`)."""
    attributes = {
        "name": definition.name,
        "description": definition.description,
        "option_specs": definition.option_specs,
        "requires": OneGame(game=definition.game),
        "definition": definition,
        "__module__": __name__,
        "__doc__": f"The configured UCI engine {definition.name!r}.",
    }
    class_name = "Uci_" + "".join(c if c.isalnum() else "_" for c in definition.name)
    return type(class_name, (UciEngine,), attributes)
