"""Typed values of the client: what a search is asked (`Limits`) and what it answers (`Info`,
`Result`, `Score`, ...), as small frozen dataclasses, like python-chess's chess.engine.

The client converts the protocol's messages into these; times are in seconds (the wire uses
milliseconds), absent moves are None (the wire uses ""). The enums `ScoreKind`, `Bound` and
`StopReason` are kibitz.vocabulary's, the ones the engines use too (`StrEnum`s, so
``score.kind == "win"`` holds); the wire's enums become them by name. The raw message stays
available: `Info.proto` and `Result.proto` (left out of repr and comparisons).

This module depends on the protocol (kibitz.v1) and kibitz.vocabulary only, never on the
server or the engines.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import Bound, ScoreKind, StopReason, is_proven, score_text

# ---------------------------------------------------------------------------- limits

_UINT32 = 2**32
_UINT64 = 2**64


@dataclass(frozen=True)
class Limits:
    """When a search stops; unset limits do not limit (with none at all the server applies
    its default move time). Times are in seconds, per player where they are lists (index 0 =
    first player).

    Raises ValueError for values the wire cannot carry (negative, not finite, too large); the
    server checks the rest (e.g. depth 0). `Limits.from_keywords` builds one from keyword
    arguments and names an unknown keyword.
    """

    depth: int | None = None
    """Maximum depth in plies."""
    nodes: int | None = None
    """Maximum number of nodes."""
    movetime: float | None = None
    """Seconds for this move."""
    time_left: tuple[float, ...] = ()
    """A chess-style clock: seconds left per player (the engine budgets its own time)."""
    increment: tuple[float, ...] = ()
    """Seconds added after each move, per player (only with `time_left`)."""
    moves_to_go: int = 0
    """Moves until the next time control, 0 = the rest of the game (only with `time_left`)."""
    infinite: bool = False
    """Search until stopped (other limits are ignored)."""
    search_moves: tuple[str, ...] = ()
    """Only consider these root moves (game notation); empty = all legal moves."""
    multipv: int = 1
    """Number of best root moves with exact scores (and their own Info lines)."""
    solve: bool = False
    """Prove the exact value: search to the end of the game (depth is ignored)."""
    root_moves: bool = False
    """Every Info carries every root move's current score (`Info.root_moves`)."""

    def __post_init__(self) -> None:
        for name in ("time_left", "increment", "search_moves"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise ValueError(f"{name} must be a list, not the string {value!r}")
            object.__setattr__(self, name, tuple(value))
        for name, bound in (
            ("depth", _UINT32),
            ("nodes", _UINT64),
            ("multipv", _UINT32),
            ("moves_to_go", _UINT32),
        ):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < bound:
                raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
        for value in (self.movetime, *self.time_left, *self.increment):
            if value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (math.isfinite(value) and 0 <= value * 1000 < _UINT64)
            ):
                raise ValueError(f"times must be finite and non-negative, not {value!r}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of the limits, in order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_keywords(cls, **keywords: Any) -> Limits:
        """Limits from keyword arguments, e.g. ``Limits.from_keywords(depth=8)``; an unknown
        keyword is a ValueError that names it and lists the known ones."""
        known = cls.names()
        for name in keywords:
            if name not in known:
                raise ValueError(f"unknown limit {name!r}; known limits: {', '.join(known)}")
        return cls(**keywords)

    def to_pb(self) -> pb.Limits:
        """The wire message (times in milliseconds)."""
        message = pb.Limits(
            infinite=self.infinite,
            search_moves=self.search_moves,
            multipv=self.multipv,
            solve=self.solve,
            report_root_moves=self.root_moves,
        )
        if self.depth is not None:
            message.depth = self.depth
        if self.nodes is not None:
            message.nodes = self.nodes
        if self.movetime is not None:
            message.move_time_ms = _ms(self.movetime)
        if self.time_left:
            message.clock.time_left_ms.extend(_ms(t) for t in self.time_left)
            message.clock.increment_ms.extend(_ms(t) for t in self.increment)
            message.clock.moves_to_go = self.moves_to_go
        return message


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


# ---------------------------------------------------------------------------- scores


_KINDS = {pb.Score.Kind.Value(kind.name): kind for kind in ScoreKind}
_BOUNDS = {pb.Score.Bound.Value(bound.name): bound for bound in Bound}
_OTHER_KIND = {ScoreKind.WIN: ScoreKind.LOSS, ScoreKind.LOSS: ScoreKind.WIN}
_OTHER_BOUND = {Bound.LOWER: Bound.UPPER, Bound.UPPER: Bound.LOWER}


@dataclass(frozen=True)
class Score:
    """A score from the point of view of `player` (0 = first player), the side to move in
    the searched position (at a chance event: the player it belongs to, e.g. who rolls).

    ``str(score)`` is the text the CLI shows: ``+0.35``, ``win in 7``, ``<=-1.20``,
    ``>=draw``; a format spec pads that text (``f"{score:>12}"``). `proven` tells a proven
    result (``win in 7``) from a bound or an estimate.
    """

    kind: ScoreKind = ScoreKind.HEURISTIC
    centi: int = 0
    """Heuristic value in centi-units (1/100 of a stone, a pawn, ...); HEURISTIC only."""
    plies: int = 0
    """Plies until the game ends; WIN and LOSS only."""
    bound: Bound = Bound.EXACT
    player: int = 0
    """Whose point of view the score takes."""
    win_probability: float | None = None
    """Estimated probability that `player` wins (engines that estimate it, e.g. MCTS)."""
    draw_probability: float | None = None
    loss_probability: float | None = None
    visits: int | None = None
    """Number of visits behind the estimate (MCTS)."""
    expected_value: float | None = None
    """The expected final return, unrounded (expectimax; backgammon: cubeless equity)."""
    win_gammon_probability: float | None = None
    """The chance that `player` wins a gammon or better (backgammon; cumulative as GNU
    Backgammon writes it: it includes the backgammons)."""
    win_backgammon_probability: float | None = None
    loss_gammon_probability: float | None = None
    loss_backgammon_probability: float | None = None
    player_values: tuple[float, ...] = ()
    """Every player's value by player index, in the game's units of returns (games of three
    or more players); empty for two-player games."""
    proven: bool | None = None
    """Whether this is a proven result: a WIN, LOSS or DRAW with bound EXACT (the wire's
    `Score.proven`). Never None once made: a score made without it (here, or from a
    server older than the field) gets it from its kind and bound."""
    label: str = field(default="", compare=False)
    """The score as people read it in its game (the wire's `Score.label`: "mate in 2" for
    chess), which ``str()`` shows; "" (a score made here, or from an older server): the
    generic text."""

    def __post_init__(self) -> None:
        if self.proven is None:
            object.__setattr__(self, "proven", is_proven(self.kind, self.bound))

    @classmethod
    def from_pb(cls, message: pb.Score) -> Score:
        """The score of `message`; one object for equal messages (scores are values, and a
        Result holds one per root move, most of them alike)."""
        return _score_from_wire(message.SerializeToString())

    @classmethod
    def _from_message(cls, message: pb.Score) -> Score:
        def optional(name: str) -> Any:
            return getattr(message, name) if message.HasField(name) else None

        return cls(
            kind=_KINDS.get(message.kind, ScoreKind.HEURISTIC),
            centi=message.centi,
            plies=message.plies,
            bound=_BOUNDS.get(message.bound, Bound.EXACT),
            player=message.player,
            win_probability=optional("win_probability"),
            draw_probability=optional("draw_probability"),
            loss_probability=optional("loss_probability"),
            visits=optional("visits"),
            expected_value=optional("expected_value"),
            win_gammon_probability=optional("win_gammon_probability"),
            win_backgammon_probability=optional("win_backgammon_probability"),
            loss_gammon_probability=optional("loss_gammon_probability"),
            loss_backgammon_probability=optional("loss_backgammon_probability"),
            player_values=tuple(message.player_values),
            proven=message.proven or None,
            label=message.label,
        )

    def for_player(self, player: int) -> Score:
        """The same score from `player`'s point of view (0 or 1).

        Only meaningful in a two-player zero-sum game (`GameInfo.zero_sum`), where one
        player's win is the other's loss: WIN and LOSS swap (same plies), a heuristic value
        and the bounds change sign (LOWER and UPPER swap), the win and loss probabilities
        swap (gammons and backgammons too). ValueError unless both this score's player and
        `player` are 0 or 1.
        """
        if player == self.player:
            return self
        if {player, self.player} != {0, 1}:
            raise ValueError(
                f"a score of player {self.player} can be seen only by the other of two "
                f"players (0 or 1), not by player {player}"
            )
        return dataclasses.replace(
            self,
            kind=_OTHER_KIND.get(self.kind, self.kind),
            centi=-self.centi,
            expected_value=None if self.expected_value is None else -self.expected_value,
            bound=_OTHER_BOUND.get(self.bound, self.bound),
            player=player,
            win_probability=self.loss_probability,
            loss_probability=self.win_probability,
            win_gammon_probability=self.loss_gammon_probability,
            win_backgammon_probability=self.loss_backgammon_probability,
            loss_gammon_probability=self.win_gammon_probability,
            loss_backgammon_probability=self.win_backgammon_probability,
            label="",  # the game's words were the other player's
        )

    def __str__(self) -> str:
        return self.label or score_text(
            self.kind,
            self.bound,
            self.centi,
            expected=self.expected_value,
            plies=self.plies,
        )

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


@functools.lru_cache(maxsize=4096)
def _score_from_wire(data: bytes) -> Score:
    """`Score.from_pb` of a serialized pb.Score."""
    return Score._from_message(pb.Score.FromString(data))


# ---------------------------------------------------------------------------- answers


_STOP_REASONS = {pb.Result.StopReason.Value(reason.name): reason for reason in StopReason}


def _stop_reason(message: pb.Result) -> StopReason | None:
    """`stopped_by`, else the text field (servers older than the enum), else None."""
    if message.stopped_by in _STOP_REASONS:
        return _STOP_REASONS[message.stopped_by]
    try:
        return StopReason(message.stop_reason)
    except ValueError:
        return None


@dataclass(frozen=True)
class RootMove:
    """A score for one legal root move."""

    move: str
    score: Score
    pv: tuple[str, ...] = ()
    """The line starting with this move, when known."""
    prior: float | None = None
    """The move's prior probability (engines that use priors)."""
    probability: float | None = None
    """At a chance node (dice not yet rolled), where the root moves are the outcomes: the
    probability of this one."""
    move_label: str = field(default="", compare=False)
    """The move as people read it (SAN for chess); "" from a server older than labels."""
    pv_labels: tuple[str, ...] = field(default=(), compare=False)
    """The line as people read it."""

    @classmethod
    def from_pb(cls, message: pb.RootMove) -> RootMove:
        """The root move of `message`; one object for equal messages (the Infos of a search
        repeat its root moves)."""
        return _root_move_from_wire(message.SerializeToString())

    @classmethod
    def _from_message(cls, message: pb.RootMove) -> RootMove:
        return cls(
            move=message.move,
            score=Score.from_pb(message.score),
            pv=tuple(message.pv),
            prior=message.prior if message.HasField("prior") else None,
            probability=message.probability if message.HasField("probability") else None,
            move_label=message.move_label,
            pv_labels=tuple(message.pv_labels),
        )


@functools.lru_cache(maxsize=4096)
def _root_move_from_wire(data: bytes) -> RootMove:
    """`RootMove.from_pb` of a serialized pb.RootMove."""
    return RootMove._from_message(pb.RootMove.FromString(data))


def _root_moves(messages: Iterable[pb.RootMove]) -> tuple[RootMove, ...]:
    return tuple(RootMove.from_pb(message) for message in messages)


@dataclass(frozen=True)
class Info:
    """Search progress, like UCI's ``info``."""

    depth: int = 0
    """Depth of the iteration in plies."""
    seldepth: int = 0
    """Deepest ply reached."""
    score: Score = Score()
    """Score of this line."""
    nodes: int = 0
    """Nodes searched so far."""
    nps: int = 0
    """Nodes per second so far."""
    time: float = 0.0
    """Seconds since the search started."""
    pv: tuple[str, ...] = ()
    """This line, in the game's move notation."""
    multipv: int = 1
    """Which line this is (1 = best)."""
    hashfull: int = 0
    """Transposition table fill in permille."""
    root_moves: tuple[RootMove, ...] = ()
    """Every root move's current score and line, best first, when the search asked for them
    (`Limits.root_moves`)."""
    queued: float = 0.0
    """Seconds the search waited for a free search slot. A search that waited starts its
    stream with an Info that has only this set (depth 0)."""
    pv_labels: tuple[str, ...] = field(default=(), compare=False)
    """The line as people read it (SAN for chess); empty from a server older than labels."""
    proto: pb.Info | None = field(default=None, repr=False, compare=False)
    """The message this came from."""

    @classmethod
    def from_pb(cls, message: pb.Info) -> Info:
        return cls(
            depth=message.depth,
            seldepth=message.selective_depth,
            score=Score.from_pb(message.score),
            nodes=message.nodes,
            nps=message.nodes_per_second,
            time=message.time_ms / 1000,
            pv=tuple(message.pv),
            multipv=message.multipv or 1,
            hashfull=message.hash_full,
            root_moves=_root_moves(message.root_moves),
            queued=message.queued_ms / 1000,
            pv_labels=tuple(message.pv_labels),
            proto=message,
        )


@dataclass(frozen=True)
class GameOver:
    """The end of a game."""

    returns: tuple[float, ...]
    """Final result per player (1 win, 0 draw, -1 loss), index 0 = first player."""
    reason: str
    """A sentence such as "x wins" or "draw"."""

    @classmethod
    def from_pb(cls, message: pb.GameOver) -> GameOver:
        return cls(returns=tuple(message.returns), reason=message.reason)


@dataclass(frozen=True)
class Result:
    """The answer of a search, like UCI's ``bestmove`` plus a score for every root move."""

    best_move: str | None = None
    """The move to play; None when the game is over."""
    ponder_move: str | None = None
    """The expected reply (the second move of the PV), if known."""
    score: Score = Score()
    """Score of the best move."""
    pv: tuple[str, ...] = ()
    """The principal variation, starting with best_move."""
    root_moves: tuple[RootMove, ...] = ()
    """A score for every legal root move searched, best first."""
    nodes: int = 0
    time: float = 0.0
    """Seconds spent."""
    depth: int = 0
    """Deepest completed iteration."""
    seldepth: int = 0
    stop_reason: StopReason | None = None
    """Why the search ended (None only from a server that gave no reason)."""
    game_over: GameOver | None = None
    """Set when the searched position is already over."""
    stats: Mapping[str, float] = field(default_factory=dict, hash=False)
    """Engine statistics by name (e.g. "first_move_cutoff_rate")."""
    best_move_label: str = field(default="", compare=False)
    """best_move as people read it (SAN for chess); "" without a move or labels."""
    pv_labels: tuple[str, ...] = field(default=(), compare=False)
    """The principal variation as people read it."""
    proto: pb.Result | None = field(default=None, repr=False, compare=False)
    """The message this came from."""

    @classmethod
    def from_pb(cls, message: pb.Result) -> Result:
        return cls(
            best_move=message.best_move or None,
            ponder_move=message.ponder_move or None,
            score=Score.from_pb(message.score),
            pv=tuple(message.pv),
            root_moves=_root_moves(message.root_moves),
            nodes=message.nodes,
            time=message.time_ms / 1000,
            depth=message.depth,
            seldepth=message.selective_depth,
            stop_reason=_stop_reason(message),
            game_over=GameOver.from_pb(message.game_over)
            if message.HasField("game_over")
            else None,
            stats=dict(message.stats),
            best_move_label=message.best_move_label,
            pv_labels=tuple(message.pv_labels),
            proto=message,
        )
