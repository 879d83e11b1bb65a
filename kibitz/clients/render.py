"""Human-readable text for search answers (progress lines, result tables) and sessions.
Moves and scores are shown as the server labels them for people (SAN and mates in moves for
chess), the wire's notation where a server sends no labels."""

from __future__ import annotations

from collections.abc import Sequence

from kibitz.clients.values import Info, Result, RootMove, Score
from kibitz.v1 import engine_pb2 as pb


def _shown(moves: Sequence[str], labels: Sequence[str]) -> list[str]:
    """A line as people read it: its labels, or the moves themselves without them."""
    return list(labels) if labels else list(moves)


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
    return f"{line}  pv {' '.join(_shown(info.pv, info.pv_labels))}"


def root_moves_line(root_moves: tuple[RootMove, ...]) -> str:
    """Every root move with its score on one indented line, best first: `4 -0.08  6 <=-0.08`."""
    return "         " + "   ".join(
        f"{root.move_label or root.move} {root.score}" for root in root_moves
    )


def result_text(result: Result, chance: bool = False, pv_moves: int = 12) -> str:
    """The final answer: a summary line and a table of root-move scores; `chance`: the
    position searched was a chance event (its root moves are the outcomes)."""
    if result.game_over is not None:
        return f"game over: {result.game_over.reason}"
    roots = result.root_moves
    # a probability per root move: an outcome's chance, or how often a mixed strategy
    # (cfr's) plays the move
    probabilities = any(root.probability is not None for root in roots)
    # before the roll there is no move to choose: the answer is the expected value
    best = result.best_move_label or result.best_move
    headline = "before the roll" if chance else f"best move {best}"
    lines = [
        f"{headline}   score {result.score}"
        f"   depth {result.depth}   nodes {result.nodes:,}   time {result.time:.2f}s"
        f"   ({result.stop_reason})",
    ]
    if roots:
        names = {root.move: root.move_label or root.move for root in roots}
        width = max(4, *(len(name) for name in names.values()))
        estimates = any(root.score.visits is not None for root in roots)
        priors = any(root.prior is not None for root in roots)
        gammons = any(root.score.win_gammon_probability is not None for root in roots)
        vectors = any(root.score.player_values for root in roots)
        first = "outcome" if chance else "move"
        width = max(width, len(first))
        lines.append("")
        lines.append(
            f"  {first:<{width}}  {'score':>12}{_estimate_header(estimates, priors)}"
            + (f"  {'chance' if chance else 'plays':>6}" if probabilities else "")
            + (f"  {'win  gammon bg - loss gammon bg':<37}" if gammons else "")
            + ("  values (player 1, 2, ...)" if vectors else "")
            + "  line"
        )
        for root in roots:
            pv = _shown(root.pv, root.pv_labels)[:pv_moves]
            line = " ".join(pv) + (" ..." if len(root.pv) > pv_moves else "")
            cells = _estimate_cells(root, priors) if estimates else ""
            if probabilities:
                cells += f"  {root.probability or 0.0:>6.1%}"
            if gammons:
                cells += f"  {chances_text(root.score) or '-':<37}"
            if vectors:
                cells += f"  {values_text(root.score) or '-':<26}"
            score = str(root.score)
            lines.append(f"  {names[root.move]:<{width}}  {score:>12}{cells}  {line}")
    return "\n".join(lines)


def values_text(score: Score) -> str:
    """Every player's value, ``0.50 0.25 0.25`` (games of three or more players), or ""."""
    return " ".join(f"{value:.2f}" for value in score.player_values)


def chances_text(score: Score) -> str:
    """The win, gammon and backgammon chances as GNU Backgammon writes them,
    ``0.523 0.143 0.006 - 0.477 0.121 0.004`` (cumulative; the loss side after the dash), or
    "" for a score without them."""
    sides = (
        (score.win_probability, score.win_gammon_probability, score.win_backgammon_probability),
        (score.loss_probability, score.loss_gammon_probability, score.loss_backgammon_probability),
    )
    if any(value is None for side in sides for value in side):
        return ""
    return " - ".join(" ".join(f"{value:.3f}" for value in side) for side in sides)


def _estimate_header(estimates: bool, priors: bool) -> str:
    """The columns of Monte Carlo estimates (visits, win/draw/loss rates, prior), if any."""
    if not estimates:
        return ""
    return f"  {'visits':>8}  {'win':>6}  {'draw':>6}  {'loss':>6}" + (
        f"  {'prior':>6}" if priors else ""
    )


def _estimate_cells(root: RootMove, priors: bool) -> str:
    score = root.score
    cells = f"  {score.visits or 0:>8,}"
    for rate in (score.win_probability, score.draw_probability, score.loss_probability):
        cells += f"  {rate:>6.1%}" if rate is not None else f"  {'-':>6}"
    if priors:
        cells += f"  {root.prior:>6.1%}" if root.prior is not None else f"  {'-':>6}"
    return cells


def queued_line(info: Info) -> str:
    """The line for the Info that opens the stream of a search that waited for a slot."""
    return f"queued for {info.queued:.2f}s (every search slot was busy)"


def _idle_seconds(session: pb.Session) -> float:
    """How long a session has been unused: `idle_ms`, or the deprecated `idle_seconds` of
    a server older than it."""
    return session.idle_ms / 1000 or session.idle_seconds


def sessions_table(sessions: list[pb.Session]) -> str:
    """Sessions as a table: id, game, engine, whether searching, searches, idle time, owner."""
    header = ("id", "game", "engine", "searching", "searches", "idle", "owner")
    rows = [
        (
            session.id,
            session.game,
            session.engine,
            "yes" if session.searching else "no",
            str(session.searches),
            f"{_idle_seconds(session):.0f}s",
            session.owner,
        )
        for session in sessions
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    right = {4, 5}  # numbers
    return "\n".join(
        "  ".join(
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in (header, *rows)
    )
