"""The fast path: tiny analyses run in the server process, without the hop to a worker.

A worker round trip (pickling, the pipe, two wake-ups) costs more than a depth-1 search of
tic-tac-toe. So an analysis that its engine can keep within its `inline_nodes` (see
`validation._small`), whose tables stay small, runs here, on the event loop, with that
node count as its limit: a fraction of a millisecond, never long enough to hold up other
calls. Everything else, and every session search, runs in a worker.
"""

from __future__ import annotations

from typing import Any

from kibitz.engines import Engine, Info, SearchContext
from kibitz.server import convert
from kibitz.server.validation import SearchJob
from kibitz.v1 import engine_pb2 as pb

INLINE_MEMORY_MB = 16
"""Tables an inline search may allocate in the server process (alpha-beta's default Hash)."""


def eligible(engine: type[Engine], options: dict[str, Any], job: SearchJob) -> bool:
    return job.inline and engine.memory_mb(options) <= INLINE_MEMORY_MB


def search(
    engine: type[Engine],
    options: dict[str, Any],
    job: SearchJob,
    started: float,
    time_cap: float,
    progress: bool,
) -> list[pb.SearchResponse]:
    """The responses of the whole search: its Infos (when `progress`), then its Result."""
    state = job.state
    root = state.clone()
    limits = convert.limits_from_pb(job.limits, root)
    limits.nodes = min(limits.nodes or engine.inline_nodes, engine.inline_nodes)
    limits.max_time = time_cap
    infos: list[Info] = []
    context = SearchContext(report=infos.append if progress else lambda info: None, started=started)
    result = engine(options).search(state, limits, context)
    with_roots = job.limits.report_root_moves
    return [pb.SearchResponse(info=convert.wire_info(info, root, with_roots)) for info in infos] + [
        pb.SearchResponse(result=convert.result_to_pb(result, root))
    ]
