"""The words a search's answer is told in, the same on both sides of the wire: what a score
means (`ScoreKind`), how the true value relates to it (`Bound`), why a search ended
(`StopReason`). Engines make them, the server puts them on the wire, clients read them: one
set of objects (``kibitz.clients.ScoreKind is kibitz.engines.ScoreKind``).

The protocol's enums (kibitz/v1: `Score.Kind`, `Score.Bound`, `Result.StopReason`) have the
same member names, so both conversions go by name. The members are `StrEnum`s:
``str(ScoreKind.WIN) == "win"``, ``score.kind == "win"`` holds, JSON writes the text. Search
loops never compare them (alpha-beta's table keeps int codes of its own); they meet them only
where a score or a result is made, where a `StrEnum` is as fast as an `IntEnum`.

A leaf: this module imports nothing from kibitz, so every layer may use it
(docs/architecture.md, "Layers").
"""

from __future__ import annotations

from enum import StrEnum


class ScoreKind(StrEnum):
    """What a score's value means. WIN, LOSS and DRAW are proven results only with bound
    EXACT (`is_proven`); with LOWER or UPPER they are bounds ("at least a draw")."""

    HEURISTIC = "heuristic"
    """An estimate in centi-units (1/100 of a stone, a pawn, ...); positive is good for the
    player whose point of view the score takes."""
    WIN = "win"
    """A win for that player in the score's number of plies."""
    LOSS = "loss"
    """A loss for that player in the score's number of plies."""
    DRAW = "draw"
    """A draw."""

    @classmethod
    def of_return(cls, value: float) -> ScoreKind:
        """The result of a finished game for a player whose return (`Game.returns()`) is
        `value`: WIN above 0, LOSS below, DRAW at 0."""
        return cls.WIN if value > 0 else cls.LOSS if value < 0 else cls.DRAW


class Bound(StrEnum):
    """How the true value relates to a score."""

    EXACT = "exact"
    LOWER = "lower"
    """The true value is at least this (a fail-high)."""
    UPPER = "upper"
    """The true value is at most this (a fail-low)."""


RESULTS = frozenset((ScoreKind.WIN, ScoreKind.LOSS, ScoreKind.DRAW))
"""The kinds that are results of the game rather than estimates."""


def is_proven(kind: ScoreKind, bound: Bound) -> bool:
    """Whether a score of `kind` and `bound` is a proven result: a WIN, LOSS or DRAW with
    bound EXACT (the wire's `Score.proven`)."""
    return kind in RESULTS and bound is Bound.EXACT


BOUND_PREFIXES = {Bound.LOWER: ">=", Bound.UPPER: "<="}
"""What a bound's text starts with (an exact score's has nothing)."""


def score_text(
    kind: ScoreKind,
    bound: Bound,
    centi: int,
    *,
    expected: float | None = None,
    plies: int = 0,
    outcome: str = "",
) -> str:
    """A score as people read it: "+0.35" (centi-units), "+0.120" (an expected value),
    "draw", "win in 7" (or `outcome`, the game's own words for a win or loss), with ">=" or
    "<=" before a bound. The server writes it into Score.label; clients fall back on it for
    a score without one."""
    if kind is ScoreKind.WIN or kind is ScoreKind.LOSS:
        text = outcome or f"{kind} in {plies}"
    elif kind is ScoreKind.DRAW:
        text = "draw"
    elif expected is not None:
        text = f"{expected:+.3f}"
    else:
        text = f"{centi / 100:+.2f}"
    return ("" if is_proven(kind, bound) else BOUND_PREFIXES.get(bound, "")) + text


class StopReason(StrEnum):
    """Why a search ended (the values are what the protocol's text field `stop_reason`
    carries)."""

    DEPTH = "depth"
    """The depth limit was reached (or nothing deeper could be searched)."""
    NODES = "nodes"
    """The node limit was reached."""
    TIME = "time"
    """The move time, the clock or the server's deadline ran out."""
    STOPPED = "stopped"
    """A stop, a cancelled call or the server shutting down."""
    SOLVED = "solved"
    """The value is proven; searching on would not change it."""
    GAME_OVER = "game_over"
    """The searched position is already over: there is nothing to search."""
    TIME_CAP = "time_cap"
    """The server's cap on searches without a time limit of their own (`kibitz serve
    --max-search-time`) ended it. Only the server says it: an engine stops with TIME at
    `Limits.max_time`."""
