"""Plain data shared by every engine: limits, scores, progress and results (no gRPC here).

What a score means, its bound and why a search ended are the words of kibitz.vocabulary,
shared with the server and the clients.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kibitz.games.base import Move
from kibitz.games.capabilities import Chances
from kibitz.vocabulary import Bound, ScoreKind, StopReason

WIN = 1_000_000
"""Internal score of a win on the spot; a win in n plies scores ``WIN - n``."""
MAX_PLY = 1_000
"""The deepest search (in plies) and the longest win/loss distance a score can express."""
WIN_THRESHOLD = WIN - MAX_PLY
"""Internal scores at or beyond +/- this are proven wins/losses; heuristics stay inside it."""


@dataclass(frozen=True, slots=True)
class Score:
    """A value from the side to move's point of view (the one score model for all engines).

    HEURISTIC: `value` is in centi-units. WIN/LOSS: `plies` is the distance to the end of
    the game. DRAW: proven draw. `bound` says whether the true value is exactly this, at
    least this (LOWER) or at most this (UPPER).
    """

    kind: ScoreKind
    value: int = 0
    plies: int = 0
    bound: Bound = Bound.EXACT
    win: float | None = None
    draw: float | None = None
    loss: float | None = None
    visits: int | None = None
    expected: float | None = None
    """The expected final return, unrounded (engines that compute expected values);
    `value` then holds it in centi-units."""
    chances: Chances | None = None
    """Win, gammon and backgammon chances (games with `OutcomeChances`, expectimax)."""
    values: tuple[float, ...] | None = None
    """Every player's value by player index, in the game's units of returns (games of
    three or more players: maxn, paranoid, brs, mcts); `value` is then the side to move's
    entry in centi-units."""

    @classmethod
    def from_expected(
        cls, expected: float, bound: Bound = Bound.EXACT, chances: Chances | None = None
    ) -> Score:
        """An expected return in the game's units (HEURISTIC, `value` rounded to centi)."""
        return cls(
            ScoreKind.HEURISTIC,
            value=round(expected * 100),
            bound=bound,
            expected=expected,
            chances=chances,
        )

    @classmethod
    def from_internal(cls, score: int, bound: Bound = Bound.EXACT, proven: bool = False) -> Score:
        """Convert a negamax integer score; `proven` marks a non-mate score as exact truth."""
        if score >= WIN_THRESHOLD:
            return cls(ScoreKind.WIN, plies=WIN - score, bound=bound)
        if score <= -WIN_THRESHOLD:
            return cls(ScoreKind.LOSS, plies=WIN + score, bound=bound)
        if proven and score == 0:
            return cls(ScoreKind.DRAW, bound=bound)
        return cls(ScoreKind.HEURISTIC, value=score, bound=bound)

    def __str__(self) -> str:
        prefix = {Bound.EXACT: "", Bound.LOWER: ">=", Bound.UPPER: "<="}[self.bound]
        if self.kind == ScoreKind.WIN:
            return f"{prefix}win in {self.plies}"
        if self.kind == ScoreKind.LOSS:
            return f"{prefix}loss in {self.plies}"
        if self.kind == ScoreKind.DRAW:
            return f"{prefix}draw"
        if self.expected is not None:
            return f"{prefix}{self.expected:+.3f}"
        return f"{prefix}{self.value / 100:+.2f}"


@dataclass(slots=True)
class Clock:
    """A chess-style clock; lists are indexed by player."""

    time_left: list[float]
    """Seconds left per player."""
    increment: list[float] = field(default_factory=list)
    """Seconds added per move, per player."""
    moves_to_go: int = 0
    """Moves until the next time control; 0 = sudden death."""


@dataclass(slots=True)
class Limits:
    """When to stop searching; any limit that is reached ends the search."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    """Seconds for this move."""
    clock: Clock | None = None
    infinite: bool = False
    """Search until stopped (the other limits are ignored)."""
    search_moves: list[Move] = field(default_factory=list)
    """Restrict the root to these moves (empty = all legal moves)."""
    multipv: int = 1
    solve: bool = False
    """Prove the exact value: search to the end of the game with null-window probes."""
    max_time: float | None = None
    """A hard cap in seconds that holds whatever the other limits say, infinite included
    (the server's cap on searches without a time limit)."""


@dataclass(slots=True)
class RootMove:
    """One root move's current score and line."""

    move: Move
    score: Score
    pv: list[Move] = field(default_factory=list)
    prior: float | None = None
    """The move's prior probability, for engines that use one (MCTS with priors)."""
    probability: float | None = None
    """At a chance root, where the root moves are the outcomes: this one's probability;
    from `cfr`, the move's probability in the average strategy."""


@dataclass(slots=True)
class Info:
    """Progress report of a running search."""

    depth: int
    seldepth: int
    score: Score
    nodes: int
    nps: int
    time: float
    """Seconds since the search started."""
    pv: list[Move]
    multipv: int = 1
    hashfull: int = 0
    """Transposition table fill in permille."""
    root_moves: list[RootMove] = field(default_factory=list)
    """Every root move, best first, as the engine would answer if stopped now: its
    provisional result (the server answers with it if it must cut the search itself)."""


@dataclass(slots=True)
class Result:
    """The answer of a search: best move, a score for every root move, statistics."""

    best_move: Move | None
    score: Score
    pv: list[Move]
    root_moves: list[RootMove]
    nodes: int
    time: float
    depth: int
    seldepth: int = 0
    stop_reason: StopReason = StopReason.DEPTH
    """Why the search ended."""
    stats: dict[str, float] = field(default_factory=dict)
    """Engine-specific statistics (e.g. first-move cutoff rate), name -> value."""
