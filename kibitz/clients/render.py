"""Human-readable text for search answers (progress lines, result tables); a score's text
is `str(score)` (values.Score)."""

from __future__ import annotations

from kibitz.clients.values import Info, Result, RootMove


def _count(n: int) -> str:
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def info_line(info: Info) -> str:
    """One progress line, like UCI's `info depth ... score ... pv ...`."""
    line = f"depth {info.depth:>2}"
    if info.multipv > 1:
        line += f"  line {info.multipv}"
    line += (
        f"  score {info.score:>12}  nodes {_count(info.nodes):>6}"
        f"  nps {_count(info.nps):>6}  time {info.time:6.2f}s"
    )
    if info.hashfull:
        line += f"  hash {info.hashfull / 10:.1f}%"
    return f"{line}  pv {' '.join(info.pv)}"


def root_moves_line(root_moves: tuple[RootMove, ...]) -> str:
    """Every root move with its score on one indented line, best first: `4 -0.08  6 <=-0.08`."""
    return "         " + "   ".join(f"{root.move} {root.score}" for root in root_moves)


def result_text(result: Result, pv_moves: int = 12) -> str:
    """The final answer: a summary line and a table of root-move scores."""
    if result.game_over is not None:
        return f"game over: {result.game_over.reason}"
    lines = [
        f"best move {result.best_move}   score {result.score}"
        f"   depth {result.depth}   nodes {result.nodes:,}   time {result.time:.2f}s"
        f"   ({result.stop_reason})",
    ]
    if result.root_moves:
        width = max(4, *(len(root.move) for root in result.root_moves))
        lines.append("")
        lines.append(f"  {'move':<{width}}  {'score':>12}  line")
        for root in result.root_moves:
            line = " ".join(root.pv[:pv_moves]) + (" ..." if len(root.pv) > pv_moves else "")
            lines.append(f"  {root.move:<{width}}  {root.score:>12}  {line}")
    return "\n".join(lines)
