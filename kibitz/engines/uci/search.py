"""One search's view of a UCI engine's output: its MultiPV lines as kibitz Infos with root
moves, and the Result once it names its best move.

Root moves: the MultiPV lines (best first, each with its own score), then every other
candidate root move with an UPPER bound at the last line's score: the engine searched them
and proved them no better than that line (as alpha-beta's root moves are reported).
"""

from __future__ import annotations

from collections.abc import Sequence

from kibitz.engines.types import Info, Limits, Result, RootMove, Score
from kibitz.engines.uci.protocol import UciInfo
from kibitz.games import Game, Move
from kibitz.vocabulary import Bound, ScoreKind, StopReason


class BadAnswer(Exception):
    """The engine answered something kibitz cannot use (an illegal best move)."""


class SearchLines:
    """The lines an engine has reported in one search of `root` (a position kept untouched
    but for the parsing of lines), restricted to `candidates`."""

    def __init__(self, root: Game, candidates: Sequence[Move]) -> None:
        self.root = root
        self.candidates = list(candidates)
        self._allowed = set(candidates)
        self.lines: dict[int, RootMove] = {}
        """The latest line of each MultiPV index."""
        self.depth = 0
        self.seldepth = 0
        self.nodes = 0
        self.nps = 0
        self.hashfull = 0

    def on_info(self, info: UciInfo, elapsed: float) -> Info | None:
        """Take in one `info` line; the kibitz Info to report for it, if it has a score and
        a line (the others only update the counters)."""
        self.nodes = max(self.nodes, info.nodes or 0)
        self.nps = info.nps if info.nps is not None else self.nps
        self.hashfull = info.hashfull if info.hashfull is not None else self.hashfull
        if info.score is None or not info.pv:
            return None
        pv = self.parse_line(info.pv)
        if not pv or pv[0] not in self._allowed:
            return None
        depth = info.depth if info.depth is not None else self.depth
        seldepth = info.seldepth if info.seldepth is not None else depth
        if info.multipv == 1:
            self.depth, self.seldepth = depth, max(self.seldepth, seldepth)
        self.lines[info.multipv] = RootMove(pv[0], info.score, pv)
        nps = self.nps or (round(self.nodes / elapsed) if elapsed > 0 else 0)
        return Info(
            depth,
            seldepth,
            info.score,
            self.nodes,
            nps,
            elapsed,
            pv,
            multipv=info.multipv,
            hashfull=self.hashfull,
            root_moves=self.root_moves(),
        )

    def parse_line(self, words: Sequence[str]) -> list[Move]:
        """A line of moves in the game's notation, cut at the first word that is not a legal
        move where it stands."""
        state = self.root
        moves: list[Move] = []
        try:
            for word in words:
                try:
                    move = state.parse_move(word)
                except ValueError:
                    break
                if move not in state.legal_moves():
                    break
                state.play(move)
                moves.append(move)
        finally:
            for _ in moves:
                state.undo()
        return moves

    def root_moves(self, best: Move | None = None) -> list[RootMove]:
        """The lines in MultiPV order (a move once), then the other candidates with an UPPER
        bound at the last line's score; `best` first if given."""
        ranked: list[RootMove] = []
        for index in sorted(self.lines):
            line = self.lines[index]
            if all(line.move != seen.move for seen in ranked):
                ranked.append(line)
        if best is not None and (not ranked or ranked[0].move != best):
            ranked = _best_first(ranked, best)
        if not ranked:
            return []
        floor = _upper(ranked[-1].score)
        listed = {line.move for line in ranked}
        return ranked + [RootMove(m, floor, [m]) for m in self.candidates if m not in listed]

    def best_move(self, word: str) -> Move:
        """The move of a `bestmove` answer; BadAnswer if it is not a legal candidate."""
        try:
            move = self.root.parse_move(word)
        except ValueError:
            move = None
        if move is None or move not in self._allowed:
            raise BadAnswer(f"answered a best move that is not legal here: {word!r}")
        return move

    def result(self, word: str, reason: StopReason, elapsed: float) -> Result:
        """The Result for the answer `bestmove WORD`."""
        best = self.best_move(word)
        roots = self.root_moves(best)
        stats = {"nps": float(self.nps), "hashfull": float(self.hashfull)}
        return Result(
            best,
            roots[0].score,
            list(roots[0].pv),
            roots,
            self.nodes,
            elapsed,
            self.depth,
            self.seldepth,
            stop_reason=reason,
            stats=stats,
        )


def _best_first(ranked: list[RootMove], best: Move) -> list[RootMove]:
    """`ranked` with the best move's line first; a line of its own (scored as the first
    line, unknown: 0) if the engine reported none for it."""
    mine = [line for line in ranked if line.move == best]
    if mine:
        return mine + [line for line in ranked if line.move != best]
    score = ranked[0].score if ranked else Score(ScoreKind.HEURISTIC)
    return [RootMove(best, score, [best]), *ranked]


def _upper(score: Score) -> Score:
    return Score(score.kind, value=score.value, plies=score.plies, bound=Bound.UPPER)


def natural_reason(limits: Limits, depth: int) -> StopReason:
    """Why an engine ended a search on its own (kibitz sent no `stop`)."""
    if limits.depth is not None and depth >= limits.depth:
        return StopReason.DEPTH
    if limits.nodes is not None:
        return StopReason.NODES
    if limits.movetime is not None or limits.clock is not None:
        return StopReason.TIME
    return StopReason.DEPTH
