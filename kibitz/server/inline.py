"""The fast path: tiny analyses run in the server process, without the hop to a worker.

A worker round trip (pickling, the pipe, two wake-ups) costs more than a depth-1 search of
tic-tac-toe. So an analysis that its engine can keep within its `inline_nodes` (see
`validation._small`), whose tables stay small, runs here, on the event loop, with that
node count as its limit: a fraction of a millisecond, never long enough to hold up other
calls. Everything else, and every session search, runs in a worker.

Its engine is not made for it: making one costs more than the search (a table of its Hash
allocated, then left to the garbage collector with the search's objects, which walks every
slot of it). `ReadyEngines` keeps one engine per engine, game and options, and after each
search makes it as new again (`Engine.new_game`), so that every search starts from the
same state as on a fresh engine (or in a worker). The server does that once the answer is
on its way (clearing a table can cost more than the search), and drops an engine that
raised.
"""

from __future__ import annotations

from collections import OrderedDict
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
ones used last."""


def eligible(engine: type[Engine], options: dict[str, Any], job: SearchJob) -> bool:
    return job.inline and engine.memory_mb(options) <= INLINE_MEMORY_MB


class ReadyEngines:
    """Engines for inline searches, as new (see the module docstring), the most recently
    used `size` of them; `take` lends one, `give_back` readies it for the next search."""

    def __init__(self, size: int = KEPT_ENGINES) -> None:
        self.size = size
        self._ready: OrderedDict[Hashable, Engine] = OrderedDict()

    def __len__(self) -> int:
        return len(self._ready)

    @staticmethod
    def key(engine: type[Engine], game: type[Game], options: dict[str, Any]) -> Hashable:
        """One engine per game too: its tables suit the game (alpha-beta's compiled table
        for Connect Four, a Python one for tic-tac-toe), and would be made again."""
        return engine, game, frozenset(options.items())

    def take(self, engine: type[Engine], game: type[Game], options: dict[str, Any]) -> Engine:
        """The engine kept for `options` and `game`, else a new one; either is as new."""
        kept = self._ready.pop(self.key(engine, game, options), None)
        return kept if kept is not None else engine(options)

    def give_back(self, instance: Engine, game: type[Game], options: dict[str, Any]) -> None:
        """Make `instance` (taken for `game` and `options`) as new again and keep it (the
        least recently used beyond `size` are closed)."""
        instance.new_game()
        key = self.key(type(instance), game, options)
        replaced = self._ready.pop(key, None)  # one made meanwhile for the same options
        self._ready[key] = instance
        for stale in (replaced, *self._surplus()):
            if stale is not None:
                stale.close()

    def _surplus(self) -> list[Engine]:
        surplus = []
        while len(self._ready) > self.size:
            surplus.append(self._ready.popitem(last=False)[1])
        return surplus

    def close(self) -> None:
        for instance in self._ready.values():
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
