"""Human-readable text for protocol messages (scores, progress lines, result tables)."""

from __future__ import annotations

from kibitz.v1 import engine_pb2 as pb

_BOUND_PREFIX = {pb.Score.LOWER: ">=", pb.Score.UPPER: "<="}


def score_text(score: pb.Score) -> str:
    """E.g. ``+0.35``, ``win in 7``, ``<= -1.20``, ``draw``."""
    prefix = _BOUND_PREFIX.get(score.bound, "")
    if score.kind == pb.Score.WIN:
        text = f"win in {score.plies}"
    elif score.kind == pb.Score.LOSS:
        text = f"loss in {score.plies}"
    elif score.kind == pb.Score.DRAW:
        text = "draw"
    else:
        text = f"{score.centi / 100:+.2f}"
    return f"{prefix}{text}"


def _count(n: int) -> str:
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def info_line(info: pb.Info) -> str:
    """One progress line, like UCI's `info depth ... score ... pv ...`."""
    line = f"depth {info.depth:>2}"
    if info.multipv > 1:
        line += f"  line {info.multipv}"
    line += (
        f"  score {score_text(info.score):>12}  nodes {_count(info.nodes):>6}"
        f"  nps {_count(info.nodes_per_second):>6}  time {info.time_ms / 1000:6.2f}s"
    )
    if info.hash_full:
        line += f"  hash {info.hash_full / 10:.1f}%"
    return f"{line}  pv {' '.join(info.pv)}"


def result_text(result: pb.Result, pv_moves: int = 12) -> str:
    """The final answer: a summary line and a table of root-move scores."""
    if result.HasField("game_over"):
        return f"game over: {result.game_over.reason}"
    lines = [
        f"best move {result.best_move}   score {score_text(result.score)}"
        f"   depth {result.depth}   nodes {result.nodes:,}   time {result.time_ms / 1000:.2f}s"
        f"   ({result.stop_reason})",
    ]
    if result.root_moves:
        width = max(4, *(len(root.move) for root in result.root_moves))
        lines.append("")
        lines.append(f"  {'move':<{width}}  {'score':>12}  line")
        for root in result.root_moves:
            line = " ".join(root.pv[:pv_moves]) + (" ..." if len(root.pv) > pv_moves else "")
            lines.append(f"  {root.move:<{width}}  {score_text(root.score):>12}  {line}")
    return "\n".join(lines)
