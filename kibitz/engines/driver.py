"""The bookkeeping every search shares, whatever its algorithm: limits, the clock, stop
polling, the Info cadence, the root move list, and the answers for positions where there
is nothing to search. Alpha-beta uses it now; MCTS and expectiminimax use it next
(docs/architecture.md, "The search driver").

An engine polls `SearchDriver.stop_reason()` every few milliseconds (at `next_check()`),
asks `step_allowed()` before each new iteration (or batch of playouts), and sends its
progress through `report()`, which keeps the cadence of periodic Info messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from kibitz.engines.base import SearchContext
from kibitz.engines.timeman import TimeManager
from kibitz.engines.types import Info, Limits, Result, RootMove, Score
from kibitz.games import Game, Move
from kibitz.vocabulary import ScoreKind, StopReason

POLL_SECONDS = 0.005
"""How often a search polls its limits, at least (as far as its node rate tells)."""


class SearchDriver:
    """Limits, clock and progress reporting of one search."""

    __slots__ = ("_last_poll", "began", "context", "last_info", "node_limit", "time")

    def __init__(self, state: Game, limits: Limits, context: SearchContext) -> None:
        self.context = context
        # the clock of the player to move, or before a roll of the player about to roll
        self.time = TimeManager(limits, state.perspective(), context.clock, context.started)
        self.node_limit = None if limits.infinite or limits.nodes is None else max(0, limits.nodes)
        """Nodes after which the search stops (None: no limit; ignored when infinite)."""
        self.last_info = 0.0
        """Seconds into the search of the latest Info."""
        self._last_poll = (0.0, 0)
        self.began = self.time.elapsed()
        """When the engine itself began, in `elapsed()` seconds (later than 0 when the
        request waited in a queue): rates count from here."""
        """(elapsed, nodes) at the latest `next_check`."""

    def elapsed(self) -> float:
        return self.time.elapsed()

    def stop_reason(
        self, nodes: int, elapsed: float, *, first_step: bool = False
    ) -> StopReason | None:
        """Why the search must end now, `elapsed` seconds in, if it must: the node limit
        (except during the first step, so that there is a move to answer), a stop request,
        the hard deadline. At the first step a passed deadline comes before a stop: that
        stop is the server's backstop for the same deadline, which reaches a worker that got
        the search late (a loaded machine) first."""
        limit = self.node_limit
        if not first_step and limit is not None and nodes >= limit:
            return StopReason.NODES
        if first_step and self.time.hard_passed(elapsed):
            return StopReason.TIME
        if self.context.stop.is_set():
            return StopReason.STOPPED
        if self.time.hard_passed(elapsed):
            return StopReason.TIME
        return None

    def unstarted(self) -> StopReason | None:
        """Why the search must not begin at all, if it must not: a stop request, or its hard
        deadline passed already (the request spent its time waiting in the server's queue).
        The engine then answers at once without searching: 0 nodes, a legal move. (Judged
        at `began`, the clock reading of the driver's construction: no reading of its own.)"""
        return self.stop_reason(0, self.began, first_step=True)

    def target_passed(self, elapsed: float) -> bool:
        """Whether the time the search should take (the soft deadline) has passed: where
        an engine has no iterations to finish (MCTS), that is when it stops."""
        soft = self.time.soft
        return soft is not None and elapsed >= soft

    def next_check(self, nodes: int, elapsed: float, most: int) -> int:
        """The node count of the next poll, at `nodes` and `elapsed` seconds: at most `most`
        nodes on, fewer where nodes have been slow (a node of a 16000-move Nim position
        costs milliseconds) so that polls come about every POLL_SECONDS; never past the node
        limit. The first poll comes at the first node."""
        last_elapsed, last_nodes = self._last_poll
        self._last_poll = (elapsed, nodes)
        every = 1
        if nodes > last_nodes and elapsed > last_elapsed:
            rate = (nodes - last_nodes) / (elapsed - last_elapsed)
            every = max(1, min(most, int(rate * POLL_SECONDS)))
        elif nodes > 0:
            every = most
        following = nodes + every
        limit = self.node_limit
        if limit is not None and nodes < limit < following:
            return limit
        return following

    def step_allowed(self, nodes: int, growth: float = 2.0) -> StopReason | None:
        """Why not to start another step (iteration), if not: a stop request, the node
        limit, or time (past the soft deadline, or the step, predicted to cost `growth`
        times everything so far, would not finish by the hard one)."""
        if self.context.stop.is_set():
            return StopReason.STOPPED
        if self.node_limit is not None and nodes >= self.node_limit:
            return StopReason.NODES
        tm = self.time
        if tm.soft is None and tm.hard is None:
            return None
        allowed = tm.can_start_iteration(tm.elapsed(), growth, self.began)
        return None if allowed else StopReason.TIME

    def info_due(self, elapsed: float) -> bool:
        """Whether a periodic Info is due `elapsed` seconds into the search."""
        interval = self.context.info_interval
        return interval > 0 and elapsed - self.last_info >= interval

    def report(self, info: Info) -> None:
        """Send an Info (its `time` restarts the periodic cadence)."""
        self.last_info = info.time
        self.context.report(info)

    def info(
        self,
        depth: int,
        seldepth: int,
        score: Score,
        nodes: int,
        pv: Sequence[Move],
        elapsed: float,
        **extra: object,
    ) -> Info:
        """An Info with its rate computed; `extra` fills the optional fields."""
        running = elapsed - self.began
        nps = int(nodes / running) if running > 0 else 0
        return Info(depth, seldepth, score, nodes, nps, elapsed, list(pv), **extra)


def root_candidates(moves: Sequence[Move], search_moves: Sequence[Move]) -> list[Move]:
    """`moves` (in the engine's order) restricted to `search_moves` when given."""
    if not search_moves:
        return list(moves)
    wanted = set(search_moves)
    chosen = [move for move in moves if move in wanted]
    if not chosen:
        raise ValueError("none of the search_moves is legal in this position")
    return chosen


def terminal_score(state: Game) -> Score:
    """The proven score of a finished game for the player `to_move()` names."""
    return Score(ScoreKind.of_return(state.returns()[state.to_move()]))


def terminal_result(state: Game, elapsed: float) -> Result:
    """The answer for a position that is already over: no move, its proven score."""
    score = terminal_score(state)
    return Result(None, score, [], [], 0, elapsed, 0, stop_reason=StopReason.GAME_OVER)


def unsearched_result(
    move: Move, score: Score, elapsed: float, reason: StopReason = StopReason.STOPPED
) -> Result:
    """The answer of a search cut before it began (`SearchDriver.unstarted`: a stop, or no
    time left): `move`, scored by whatever the engine knows without searching, and 0
    nodes."""
    root = RootMove(move, score, [move])
    return Result(move, score, [move], [root], 0, elapsed, 0, stop_reason=reason)
