"""Checks every request before it reaches a worker; failures name the culprit."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import grpc

from kibitz.engines import (
    ENGINES,
    MAX_PLY,
    Engine,
    Limits,
    OptionError,
    OptionUnavailable,
    default_engine_for,
)
from kibitz.games import GAMES, Game, quoted
from kibitz.server import convert
from kibitz.server.errors import ServiceError, invalid
from kibitz.v1 import engine_pb2 as pb

MAX_MOVE_TIME_MS = 24 * 3600 * 1000
MAX_MULTIPV = 256
MAX_CLOCK_MS = 100 * MAX_MOVE_TIME_MS
"""The largest time left on a clock (100 days)."""


def limit_ranges(
    default_move_time_ms: int, time_cap: float, move_overhead_ms: int = 0
) -> pb.LimitRanges:
    """The ranges `_checked_limits` accepts, and the server's defaults, for clients."""
    return pb.LimitRanges(
        max_depth=MAX_PLY,
        max_move_time_ms=MAX_MOVE_TIME_MS,
        max_multipv=MAX_MULTIPV,
        max_clock_ms=MAX_CLOCK_MS,
        default_move_time_ms=default_move_time_ms,
        max_search_time_ms=convert.ms(time_cap),
        move_overhead_ms=move_overhead_ms,
    )


def known(kind: str, names: Iterable[str], asked: str = "") -> str:
    """Where to find the names of a `kind` ("game", "engine"): the ones closest to `asked`
    (a typo's likely meaning), and the command that lists them all (the whole list would
    make a message too long to read)."""
    names = sorted(names)
    close = difflib.get_close_matches(asked.lower(), names, n=3) if asked else []
    guess = f"did you mean {' or '.join(close)}? " if close else ""
    return f"{guess}(`kibitz {kind}s` lists all {len(names)})"


def game_named(name: str) -> type[Game]:
    if not name:
        raise invalid(f"no game given {known('game', GAMES)}")
    game = GAMES.get(name.lower())
    if game is None:
        raise ServiceError(
            grpc.StatusCode.NOT_FOUND, f"unknown game {quoted(name)}; {known('game', GAMES, name)}"
        )
    return game


def engine_for(name: str, game: type[Game]) -> type[Engine]:
    """The engine `name` (empty: the game's default) if it can search `game`."""
    if not name:
        engine = default_engine_for(game)
        if engine is None:
            raise invalid(f"no engine of this server can play {game.name!r}")
        return engine
    engine = ENGINES.get(name.lower())
    if engine is None:
        raise ServiceError(
            grpc.StatusCode.NOT_FOUND,
            f"unknown engine {quoted(name)}; {known('engine', ENGINES, name)}",
        )
    unmet = engine.requires.unmet(game)
    if unmet:
        needs = "; ".join(unmet)
        raise invalid(f"engine {engine.name!r} cannot play {game.name!r}: it needs {needs}")
    return engine


def typed_options(engine: type[Engine], options: Mapping[str, str]) -> dict[str, Any]:
    try:
        return engine.validate_options(options)
    except OptionError as exc:
        raise invalid(str(exc)) from None


def checked_options(
    engine: type[Engine], game: type[Game], options: dict[str, Any]
) -> dict[str, Any]:
    """`options` (every option, typed) when they suit games of `game`; INVALID_ARGUMENT
    naming the culprit otherwise."""
    try:
        engine.check_options_for(game, options)
    except OptionError as exc:
        raise invalid(str(exc)) from None
    return options


CHECKED_OPTIONS = 256
"""Option sets `fresh_options` keeps checked (the latest), for the requests that repeat them."""


def fresh_options(
    engine: type[Engine], game: type[Game], given: Mapping[str, str]
) -> dict[str, Any]:
    """Every option of a fresh `engine` for `game` (typed): its defaults, with `given` (the
    wire's texts) over them; INVALID_ARGUMENT naming the culprit where they do not suit it.
    The options checked for a repeated request are kept (a dict of its own is answered)."""
    return dict(_fresh_options(engine, game, tuple(given.items())))


@functools.lru_cache(maxsize=CHECKED_OPTIONS)
def _fresh_options(
    engine: type[Engine], game: type[Game], given: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, Any], ...]:
    """`fresh_options`' checking, kept (failures are not: they raise); `given` in the
    request's order (where two texts name one option, the later one holds)."""
    typed = typed_options(engine, dict(given))
    return tuple(checked_options(engine, game, {**engine.default_options(), **typed}).items())


def check_options_at(engine: type[Engine], state: Game, options: Mapping[str, Any]) -> None:
    """`engine.check_options_at` for the position to search: INVALID_ARGUMENT where the
    options do not suit it, FAILED_PRECONDITION where they need what the server lacks (a
    database not built), each with the engine's message."""
    try:
        engine.check_options_at(state, options)
    except OptionUnavailable as exc:
        raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, str(exc)) from None
    except OptionError as exc:
        raise invalid(str(exc)) from None


@dataclass
class SearchJob:
    """A validated search: what the worker gets, plus what the server needs to supervise it."""

    position: str
    moves: list[str]
    limits: pb.Limits
    deadline: float | None
    """Seconds after the request by which the engine ends the search (None: no search, the
    game is over)."""
    timed: bool
    """Whether the limits set a time of their own (else the server's cap is the deadline)."""
    state: Game
    """The position to search (after `moves`)."""
    engine_limits: Limits | None
    """`limits` as engines take them, read in `state`, with the server's cap as `max_time`
    (None: the game is over)."""
    inline: bool
    """Whether the search is small enough for the server to run itself (`inline.py`)."""


PARSED_POSITIONS = 256
"""Positions `parse_position` keeps read (the latest), for the requests that repeat them."""


def parse_position(game: type[Game], position: str, moves: Iterable[str]) -> tuple[Game, list[str]]:
    """The position after `moves` (a state of its own), and the moves one by one (a
    move-list entry split).

    Read through the game's `read_position` and `read_moves`, which fail only with its
    notation errors, with short messages, whatever the text (`kibitz.games.base.reading`):
    INVALID_ARGUMENT here, never UNKNOWN. A position read before is cloned, not read again
    (replaying a line of moves checks each; a clone copies the board)."""
    state, expanded = _read(game, position, tuple(moves))
    return state.clone(), list(expanded)


@functools.lru_cache(maxsize=PARSED_POSITIONS)
def _read(game: type[Game], position: str, moves: tuple[str, ...]) -> tuple[Game, tuple[str, ...]]:
    """`parse_position`'s reading, kept (failures are not: they raise)."""
    try:
        state = game.read_position(position)
    except ValueError as exc:
        raise invalid(f"position {quoted(position)}: {exc}") from None
    try:
        expanded = state.read_moves(moves)
    except ValueError as exc:
        raise invalid(f"moves: {exc}") from None
    return state, tuple(expanded)


def prepare_search(
    game: type[Game],
    engine: type[Engine],
    options: Mapping[str, Any],
    position: str,
    moves: Iterable[str],
    limits: pb.Limits,
    default_move_time_ms: int,
    time_cap: float,
    move_overhead_ms: int = 0,
) -> SearchJob:
    """A search checked and read; `move_overhead_ms` is taken off its move time and clock
    (`with_overhead`), as the engine is to see them."""
    state, expanded = parse_position(game, position, moves)
    limits = with_overhead(_checked_limits(limits, state, default_move_time_ms), move_overhead_ms)
    timed = not limits.infinite and bool(
        limits.HasField("move_time_ms") or limits.clock.time_left_ms
    )
    deadline = engine_limits = None
    if not state.is_terminal():
        try:
            engine_limits = convert.limits_from_pb(limits, state)  # reads search_moves
        except ValueError as exc:
            raise invalid(f"limits.{exc}") from None
        check_options_at(engine, state, options)
        engine_limits.max_time = time_cap
        deadline = engine.deadline(engine_limits, state.perspective())  # a roll: the roller's clock
    inline = _small(engine, limits, state)
    return SearchJob(position, expanded, limits, deadline, timed, state, engine_limits, inline)


def with_overhead(limits: pb.Limits, overhead_ms: int) -> pb.Limits:
    """`limits` with `overhead_ms` taken off the move time and every clock's time left that
    is not 0 (to 1 ms at least: a search still answers); the same object when there is none
    to take."""
    if not overhead_ms or not (limits.HasField("move_time_ms") or limits.clock.time_left_ms):
        return limits
    kept = pb.Limits()
    kept.CopyFrom(limits)
    if kept.HasField("move_time_ms"):
        kept.move_time_ms = max(1, kept.move_time_ms - overhead_ms)
    kept.clock.time_left_ms[:] = [ms and max(1, ms - overhead_ms) for ms in kept.clock.time_left_ms]
    return kept


def _small(engine: type[Engine], limits: pb.Limits, state: Game) -> bool:
    """Whether a search is provably tiny: the engine allows inline searches, and the limits
    bound the nodes within its `inline_nodes` (a node limit, or a depth d with at most
    `inline_nodes` ** (1/d) moves at the root, taken as the branching factor)."""
    budget = engine.inline_nodes
    if budget <= 0 or state.is_terminal() or limits.infinite or limits.solve:
        return False
    width = len(state.legal_moves())
    if width > budget:
        return False
    if limits.HasField("nodes"):
        return limits.nodes <= budget
    return limits.HasField("depth") and width**limits.depth <= budget


def _checked_limits(limits: pb.Limits, state: Game, default_move_time_ms: int) -> pb.Limits:
    checked = pb.Limits()
    checked.CopyFrom(limits)
    if checked.HasField("depth") and not 1 <= checked.depth <= MAX_PLY:
        raise invalid(f"limits.depth must be between 1 and {MAX_PLY}, not {checked.depth}")
    if checked.HasField("nodes") and checked.nodes < 1:
        raise invalid("limits.nodes must be at least 1")
    if checked.HasField("move_time_ms") and not 1 <= checked.move_time_ms <= MAX_MOVE_TIME_MS:
        raise invalid(
            f"limits.move_time_ms must be between 1 and {MAX_MOVE_TIME_MS} (a day), "
            f"not {checked.move_time_ms}"
        )
    if checked.multipv > MAX_MULTIPV:
        raise invalid(f"limits.multipv must be at most {MAX_MULTIPV}, not {checked.multipv}")
    _check_clock(checked.clock, state)
    if state.is_terminal() and checked.search_moves:
        raise invalid(f"limits.search_moves: the game is over ({state.terminal_reason()})")
    unlimited = not (
        checked.HasField("depth")
        or checked.HasField("nodes")
        or checked.HasField("move_time_ms")
        or checked.clock.time_left_ms
        or checked.infinite
        or checked.solve
    )
    if unlimited:
        checked.move_time_ms = default_move_time_ms
    return checked


def _check_clock(clock: pb.Clock, state: Game) -> None:
    if not clock.time_left_ms and not clock.increment_ms:
        return
    players = state.players
    if len(clock.time_left_ms) != players:
        raise invalid(
            f"limits.clock.time_left_ms needs one entry per player ({players}), "
            f"got {len(clock.time_left_ms)}"
        )
    if len(clock.increment_ms) > players:
        raise invalid(f"limits.clock.increment_ms has more than {players} entries")
    if max(clock.time_left_ms) > MAX_CLOCK_MS:
        raise invalid("limits.clock.time_left_ms is absurdly large (more than 100 days)")
    mover = state.to_move()
    if mover >= 0 and clock.time_left_ms[mover] == 0:
        raise invalid(f"limits.clock: player {mover + 1} (to move) has no time left")
