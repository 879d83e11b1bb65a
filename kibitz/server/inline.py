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
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kibitz.engines import Engine, Info, SearchContext
from kibitz.games import Game
from kibitz.server import convert
from kibitz.server.validation import SearchJob
from kibitz.v1 import engine_pb2 as pb

INLINE_MEMORY_MB = 16
"""Tables an inline search may allocate in the server process (alpha-beta's default Hash)."""

KEPT_ENGINES = 8
"""Engines `ReadyEngines` keeps at most (each holds up to INLINE_MEMORY_MB of tables): the
ones given back last."""


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


def search(
    instance: Engine, job: SearchJob, started: float, time_cap: float, progress: bool
) -> list[pb.SearchResponse]:
    """The responses of the whole search by `instance` (an engine `ReadyEngines` lent): its
    Infos (when `progress`), then its Result."""
    state = job.state
    root = state.clone()
    limits = convert.limits_from_pb(job.limits, root)
    limits.nodes = min(limits.nodes or instance.inline_nodes, instance.inline_nodes)
    limits.max_time = time_cap
    infos: list[Info] = []
    context = SearchContext(report=infos.append if progress else lambda info: None, started=started)
    result = instance.search(state, limits, context)
    with_roots = job.limits.report_root_moves
    return [pb.SearchResponse(info=convert.wire_info(info, root, with_roots)) for info in infos] + [
        pb.SearchResponse(result=convert.result_to_pb(result, root))
    ]
