"""The fast path: tiny analyses run in the server process, without the hop to a worker.

A worker round trip (pickling, the pipe, two wake-ups) costs more than a depth-1 search of
tic-tac-toe. So an analysis that its engine can keep within its `inline_nodes` (see
`validation._small`), whose tables stay small, runs here, on the event loop, with that
node count as its limit: a fraction of a millisecond, never long enough to hold up other
calls. Everything else, and every session search, runs in a worker; but for one case: a
search (a session's too) whose time ran out while it waited in the queue, which the engine
answers without searching, is answered here where its engine `runs_here` (see
service.py), rather than by a worker that must first get a CPU on a busy machine.

Its engine is not made for it: making one costs more than the search (a table of its Hash
allocated, then left to the garbage collector with the search's objects, which walks every
slot of it). `ReadyEngines` keeps the engines of the latest searches, by engine, game and
options (several alike where searches overlapped: the engine of a search is given back only
once its answer is on its way, and the next search may come first), and after each search
makes its engine as new again (`Engine.new_game`), so that every search starts from the
same state as on a fresh engine (or in a worker). The server does that once the answer is
on its way (clearing a table can cost more than the search), and drops an engine that
raised.

Nor are its answers converted anew each time: an engine made as new answers a repeated
analysis with the same Infos and Result but for their time, rate and table fill, and
converting them (moves formatted and labelled, a message per root move) costs about half
what the search of a small game does. `Conversions` keeps the wire form of the latest
answers, by position and answer.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from google.protobuf.message import Message

from kibitz.engines import Engine, Info, Result, RootMove, SearchContext
from kibitz.games import Game
from kibitz.server import convert
from kibitz.server.validation import SearchJob
from kibitz.v1 import engine_pb2 as pb

INLINE_MEMORY_MB = 16
"""Tables an inline search may allocate in the server process (alpha-beta's default Hash)."""

KEPT_ENGINES = 8
"""Engines `ReadyEngines` keeps at most (each holds up to INLINE_MEMORY_MB of tables): the
ones given back last."""

CONVERSIONS = 256
"""Answers `Conversions` keeps converted at most (the ones used last)."""


def runs_here(engine: type[Engine], options: dict[str, Any]) -> bool:
    """Whether `engine` with `options` may search in the server process at all: it allows
    inline searches and its tables stay small."""
    return engine.inline_nodes > 0 and engine.memory_mb(options) <= INLINE_MEMORY_MB


def eligible(engine: type[Engine], options: dict[str, Any], job: SearchJob) -> bool:
    """Whether the search of `job` runs here: it is tiny, and so are its engine's tables."""
    return job.inline and runs_here(engine, options)


class ReadyEngines:
    """Engines for inline searches, as new (see the module docstring), the `size` given
    back last; `take` lends one, `give_back` readies it for the next search."""

    def __init__(self, size: int = KEPT_ENGINES) -> None:
        self.size = size
        self._ready: list[tuple[Hashable, Engine]] = []
        """(key, engine), the least recently given back first."""

    def __len__(self) -> int:
        return len(self._ready)

    @staticmethod
    def key(engine: type[Engine], game: type[Game], options: dict[str, Any]) -> Hashable:
        """One engine per game too: its tables suit the game (alpha-beta's compiled table
        for Connect Four, a Python one for tic-tac-toe), and would be made again."""
        return engine, game, frozenset(options.items())

    def take(self, engine: type[Engine], game: type[Game], options: dict[str, Any]) -> Engine:
        """An engine kept for `options` and `game` (the latest), else a new one; either is
        as new."""
        key = self.key(engine, game, options)
        for index in range(len(self._ready) - 1, -1, -1):
            if self._ready[index][0] == key:
                return self._ready.pop(index)[1]
        return engine(options)

    def give_back(self, instance: Engine, game: type[Game], options: dict[str, Any]) -> None:
        """Make `instance` (taken for `game` and `options`) as new again and keep it (those
        given back least recently beyond `size` are closed)."""
        instance.new_game()
        self._ready.append((self.key(type(instance), game, options), instance))
        while len(self._ready) > self.size:
            self._ready.pop(0)[1].close()

    def close(self) -> None:
        for _, instance in self._ready:
            instance.close()
        self._ready.clear()


Wire = TypeVar("Wire", bound=Message)


class Conversions:
    """The wire messages of the latest inline answers (see the module docstring), kept
    serialized (each call gets a message of its own to change), by the position searched
    and every field of the answer that its conversion reads but those that vary between
    alike searches (time, rate, table fill, statistics), which are set on each message."""

    def __init__(self, size: int = CONVERSIONS) -> None:
        self.size = size
        self._made: OrderedDict[Hashable, bytes] = OrderedDict()
        """Serialized messages by key, the least recently used first."""

    def __len__(self) -> int:
        return len(self._made)

    def info(self, info: Info, root: Game, position: Hashable, with_roots: bool) -> pb.Info:
        """`convert.wire_info(info, root, with_roots)`; `position`: what `root` was read
        from (its game, text and moves)."""
        roots = _roots_key(info.root_moves) if with_roots else None
        key = (position, pb.Info, info.depth, info.seldepth, info.score, info.nodes)
        key += (tuple(info.pv), info.multipv, roots)
        message = self._converted(key, pb.Info, lambda: convert.wire_info(info, root, with_roots))
        message.nodes_per_second = info.nps
        message.time_ms = convert.ms(info.time)
        message.hash_full = info.hashfull
        return message

    def result(self, result: Result, root: Game, position: Hashable) -> pb.Result:
        """`convert.result_to_pb(result, root)`; `position` as for `info`."""
        key = (position, pb.Result, result.best_move, result.score, tuple(result.pv))
        key += (_roots_key(result.root_moves), result.nodes, result.depth, result.seldepth)
        key += (result.stop_reason,)
        message = self._converted(key, pb.Result, lambda: _statless(result, root))
        message.time_ms = convert.ms(result.time)
        message.stats.update(result.stats)
        return message

    def _converted(self, key: Hashable, kind: type[Wire], convert_it: Callable[[], Wire]) -> Wire:
        """A copy of the message converted for `key` before, else `convert_it()`'s (kept)."""
        made = self._made.get(key)
        if made is not None:
            self._made.move_to_end(key)
            return kind.FromString(made)
        message = convert_it()
        self._made[key] = message.SerializeToString()
        if len(self._made) > self.size:
            self._made.popitem(last=False)
        return message


def _statless(result: Result, root: Game) -> pb.Result:
    """`result` on the wire without its statistics (kept so, added to each message)."""
    return convert.result_to_pb(dataclasses.replace(result, stats={}), root)


def _roots_key(roots: Sequence[RootMove]) -> tuple:
    """The root moves' fields that their conversion reads, hashable."""
    return tuple((r.move, r.score, tuple(r.pv), r.prior, r.probability) for r in roots)


def search(
    instance: Engine, job: SearchJob, started: float, progress: bool, conversions: Conversions
) -> list[pb.SearchResponse]:
    """The responses of the whole search by `instance` (an engine `ReadyEngines` lent): its
    Infos (when `progress`), then its Result, converted through `conversions`."""
    state = job.state
    root = state.clone()
    budget = instance.inline_nodes
    asked = job.engine_limits  # a game not over: a search (with the server's cap)
    limits = dataclasses.replace(asked, nodes=min(asked.nodes or budget, budget))
    infos: list[Info] = []
    # without progress, no reporter at all: an engine then builds no Infos
    context = (
        SearchContext(infos.append, started=started) if progress else SearchContext(started=started)
    )
    result = instance.search(state, limits, context)
    position = (type(root), job.position, tuple(job.moves))
    with_roots = job.limits.report_root_moves
    responses = [
        pb.SearchResponse(info=conversions.info(info, root, position, with_roots)) for info in infos
    ]
    responses.append(pb.SearchResponse(result=conversions.result(result, root, position)))
    return responses
