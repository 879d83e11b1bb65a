"""What a search answers, for comparing two searches that should answer alike."""

from __future__ import annotations

from kibitz.engines.types import Info, Result


def answer(result: Result, infos: list[Info] | None = None) -> tuple:
    """Everything `result` says except times, rates and whether a kernel ran (the last
    field: the statistics); with `infos`, a last field more: every Info's but the times."""
    stats = {k: v for k, v in result.stats.items() if k not in ("nps", "kernel")}
    fields = (
        result.best_move,
        result.score,
        result.pv,
        [(root.move, root.score, root.pv) for root in result.root_moves],
        result.nodes,
        result.depth,
        result.seldepth,
        result.stop_reason,
        stats,
    )
    if infos is None:
        return fields
    return (
        *fields,
        [(i.depth, i.seldepth, i.score, i.nodes, i.pv, i.multipv, i.hashfull) for i in infos],
    )
