"""One game between engine handles, one per seat: the runner's own board (kibitz.games), the
dice, every clock, adjudication, and forfeits with their reasons.

The engines only propose moves. Every move is checked against the runner's copy of the rules;
an illegal move, an engine error, a lost connection, a hang or an exhausted clock ends the
game with a loss for that engine (in a game of N players: last, the others level ahead of
it), recorded with the reason. At a chance node (dice) the runner rolls itself, from the
game's seeded generator; engines are asked only at decision nodes.

In a game of hidden information (`HiddenInformation`) the runner is the referee: it keeps
the full state (the deal is a chance node, dealt from the same generator) and sends each
engine only its own view, `state.view(player)`, as the position with no moves (a view
cannot be played on); the record holds the full game and, move by move, the view sent.

`play_game` returns the game's record: a JSON-able dict (docs/match.md, "The record").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kibitz.clients.values import Limits, Result, Score
from kibitz.games import CHANCE, GAMES, Game, HiddenInformation
from kibitz.match.seats import result_text
from kibitz.match.spec import DrawRule, MoveLimits, ResignRule, TimeControl
from kibitz.vocabulary import ScoreKind

PROVEN = 100_000
"""The centi-unit value adjudication gives a proven win (less its distance in plies)."""
FAILURES = ("illegal move", "no move", "engine error", "disconnect", "no answer")
"""Forfeits `--replay-failed` replays (a loss on time is not one: the clock is the rules)."""


class MoveFailure(Exception):
    """An engine could not give a move: `kind` is one of FAILURES or "time"."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class Answer:
    """An engine's reply to one search: its Result and the wall time from the request to the
    Result (`wall`, seconds)."""

    result: Result
    wall: float


class Player(Protocol):
    """An engine handle as a game sees it (kibitz/match/engines.py)."""

    name: str

    async def think(
        self, position: str, moves: Sequence[str], limits: Limits, timeout: float | None
    ) -> Answer:
        """The engine's answer for `position` after `moves`; MoveFailure when it has none
        within `timeout` seconds (a kind "no answer", the caller decides whether that is a
        loss on time) or fails otherwise."""
        ...


# ---------------------------------------------------------------------------- the task


@dataclass(frozen=True)
class Opening:
    """Where a game starts: a position in the game's notation and moves played from it."""

    position: str = ""
    moves: tuple[str, ...] = ()
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "moves": list(self.moves), "label": self.label}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Opening:
        return cls(data.get("position", ""), tuple(data.get("moves", ())), data.get("label", ""))


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: `players` are engine indices by player (0 = first player),
    `pair` the game pair it belongs to (same opening, colours reversed, same dice), or with
    N seats its rotation set (same opening and dice, each engine in each seat)."""

    id: int
    encounter: int
    round: int
    pair: int
    pair_game: int
    players: tuple[int, ...]
    opening: Opening
    dice_seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "encounter": self.encounter,
            "round": self.round,
            "pair": self.pair,
            "pair_game": self.pair_game,
            "players": list(self.players),
            "opening": self.opening.to_json(),
            "dice_seed": self.dice_seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameTask:
        return cls(
            id=data["id"],
            encounter=data["encounter"],
            round=data["round"],
            pair=data["pair"],
            pair_game=data["pair_game"],
            players=tuple(data["players"]),
            opening=Opening.from_json(data["opening"]),
            dice_seed=data["dice_seed"],
        )


@dataclass(frozen=True)
class Rules:
    """How every game of a match is played and judged."""

    game: str
    limits: Sequence[MoveLimits]
    """Each engine's effective limits, by engine index."""
    timemargin: float = 0.1
    """Seconds an engine may exceed its clock or move time before it loses on time."""
    hang_timeout: float = 300.0
    """Seconds an engine without a time limit (depth, nodes) may take before it loses."""
    maxmoves: int = 0
    """Moves per player after which the game is a draw (0: no limit)."""
    draw: DrawRule | None = None
    resign: ResignRule | None = None
    proven: bool = False
    """End a game once both engines report the same proven result (WIN/LOSS/DRAW, exact).
    `draw`, `resign` and `proven` judge two-player games only."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "limits": [limits.to_json() for limits in self.limits],
            "timemargin": self.timemargin,
            "hang_timeout": self.hang_timeout,
            "maxmoves": self.maxmoves,
            "draw": vars(self.draw) if self.draw else None,
            "resign": vars(self.resign) if self.resign else None,
            "proven": self.proven,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        def limits(item: dict[str, Any]) -> MoveLimits:
            return MoveLimits(
                tc=TimeControl.parse(item["tc"]) if item.get("tc") else None,
                movetime=item.get("movetime"),
                depth=item.get("depth"),
                nodes=item.get("nodes"),
            )

        return cls(
            game=data["game"],
            limits=[limits(item) for item in data["limits"]],
            timemargin=data["timemargin"],
            hang_timeout=data["hang_timeout"],
            maxmoves=data["maxmoves"],
            draw=DrawRule(**data["draw"]) if data.get("draw") else None,
            resign=ResignRule(**data["resign"]) if data.get("resign") else None,
            proven=data["proven"],
        )


# ---------------------------------------------------------------------------- clocks


@dataclass
class Clock:
    """A chess clock under a time control: `left` seconds, refilled every `tc.moves` moves."""

    tc: TimeControl
    left: float = 0.0
    moves: int = 0

    def __post_init__(self) -> None:
        self.left = self.tc.base

    def moves_to_go(self) -> int:
        return self.tc.moves - self.moves % self.tc.moves if self.tc.moves else 0

    def spend(self, seconds: float) -> None:
        """A move that took `seconds`: charge them, then the increment and any new period."""
        self.left -= seconds
        self.moves += 1
        self.left += self.tc.increment
        if self.tc.moves and self.moves % self.tc.moves == 0:
            self.left += self.tc.base


def centi(score: Score) -> int:
    """A score as one number from its player's point of view (proven results far out)."""
    if score.kind is ScoreKind.WIN:
        return PROVEN - score.plies
    if score.kind is ScoreKind.LOSS:
        return -PROVEN + score.plies
    if score.kind is ScoreKind.DRAW:
        return 0
    return score.centi


def proven(score: Score) -> str | None:
    """ "win", "loss" or "draw" when the score proves it, else None."""
    return str(score.kind) if score.proven else None


# ---------------------------------------------------------------------------- one game


@dataclass
class _Game:
    task: GameTask
    rules: Rules
    players: Sequence[Player]
    names: Sequence[str]
    state: Game = field(init=False)
    moves: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    scores: list[list[int]] = field(init=False)
    """Each player's scores, move by move (centi-units, their own point of view)."""
    verdicts: list[str | None] = field(init=False)
    failure: str | None = None

    def __post_init__(self) -> None:
        opening = self.task.opening
        self.state = GAMES[self.rules.game].from_position(opening.position)
        self.state.play_line(opening.moves)
        seats = len(self.task.players)
        if self.state.players != seats:
            raise ValueError(
                f"game {self.task.id} seats {seats} engines in a game of {self.state.players} "
                "players"
            )
        self.scores = [[] for _ in range(seats)]
        self.verdicts = [None] * seats


async def play_game(
    task: GameTask,
    rules: Rules,
    players: Sequence[Player],
    names: Sequence[str],
    on_move: Callable[[list[str]], None] | None = None,
) -> dict[str, Any]:
    """Play `task` with `players[i]` as player i (their names `names[i]`); the game record.
    `on_move` hears the moves played so far (after the opening) after every move."""
    game = _Game(task, rules, players, names)
    state = game.state
    seats = len(task.players)
    dice = random.Random(task.dice_seed)
    limits = [rules.limits[engine] for engine in task.players]
    clocks = [Clock(limit.tc) if limit.tc else None for limit in limits]
    started = time.time()
    decisions = 0
    end: tuple[tuple[float, ...], str, str, int | None] | None = None
    while end is None:
        if state.is_terminal():
            returns = tuple(state.returns())
            end = (returns, state.terminal_reason(), "normal", None)
            break
        mover = state.to_move()
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            move = dice.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            text = state.format_move(move)
            state.play(move)
            game.moves.append(text)
            game.records.append({"ply": len(game.moves), "move": text, "chance": True})
            if on_move is not None:
                on_move(game.moves)
            continue
        if rules.maxmoves and decisions >= seats * rules.maxmoves:
            draw = (0.0,) * seats
            end = (draw, f"adjudication: {rules.maxmoves} moves each", "adjudication", None)
            break
        try:
            record = await _decide(game, mover, limits[mover], clocks)
        except MoveFailure as failure:
            reason = f"{names[mover]} loses: {failure}"
            returns = tuple(1.0 - seats * (p == mover) for p in range(seats))
            kind = "time forfeit" if failure.kind == "time" else "forfeit"
            end = (returns, reason, kind, mover)
            game.failure = failure.kind
            break
        decisions += 1
        game.records.append(record)
        if on_move is not None:
            on_move(game.moves)
        end = _adjudicate(game, mover, decisions)
    returns, reason, termination, loser = end
    result = result_text(returns)
    return {
        "type": "game",
        **task.to_json(),
        "engines": list(names),
        "game": rules.game,
        "moves": game.records,
        "returns": list(returns),
        "result": result,
        "reason": reason,
        "termination": termination,
        "forfeit": names[loser] if loser is not None else None,
        "forfeit_engine": task.players[loser] if loser is not None else None,
        "failure": game.failure,
        "plies": len(game.moves),
        "started": started,
        "duration": round(time.time() - started, 3),
    }


def _search_limits(limit: MoveLimits, mover: int, clocks: list[Clock | None]) -> Limits:
    time_left: tuple[float, ...] = ()
    increment: tuple[float, ...] = ()
    moves_to_go = 0
    own = clocks[mover]
    if own is not None:
        by_player = [clock or own for clock in clocks]  # an untimed player: as the mover
        time_left = tuple(max(0.0, clock.left) for clock in by_player)
        increment = tuple(clock.tc.increment for clock in by_player)
        moves_to_go = own.moves_to_go()
    return Limits(
        depth=limit.depth,
        nodes=limit.nodes,
        movetime=limit.movetime,
        time_left=time_left,
        increment=increment,
        moves_to_go=moves_to_go,
    )


async def _decide(
    game: _Game, mover: int, limit: MoveLimits, clocks: list[Clock | None]
) -> dict[str, Any]:
    """Ask the mover for a move, check it, play it; the move's record."""
    rules = game.rules
    clock = clocks[mover]
    budgets = []
    if clock is not None:
        budgets.append(max(0.0, clock.left) + rules.timemargin)
    if limit.movetime is not None:
        budgets.append(limit.movetime + rules.timemargin)
    timed = bool(budgets)
    timeout = min(budgets) if budgets else rules.hang_timeout
    search_limits = _search_limits(limit, mover, clocks)
    view = _view(game.state, mover)
    if view is not None:
        position, moves = view, []
    else:
        position, moves = game.task.opening.position, [*game.task.opening.moves, *game.moves]
    try:
        answer = await game.players[mover].think(position, moves, search_limits, timeout)
    except MoveFailure as failure:
        if failure.kind == "no answer" and timed:
            raise MoveFailure("time", f"no move within {timeout:.3f} s") from None
        raise
    wall = answer.wall
    if clock is not None:
        if wall > clock.left + rules.timemargin:
            raise MoveFailure("time", f"took {wall:.3f} s with {clock.left:.3f} s left")
        clock.spend(wall)
    if limit.movetime is not None and wall > limit.movetime + rules.timemargin:
        raise MoveFailure("time", f"took {wall:.3f} s of a {limit.movetime:g} s move time")
    result = answer.result
    if result.best_move is None:
        raise MoveFailure("no move", "the engine answered without a move")
    state = game.state
    try:
        move = state.parse_move(result.best_move)
    except ValueError as exc:
        raise MoveFailure("illegal move", f"{result.best_move!r}: {exc}") from None
    text = state.format_move(move)
    label = state.move_labels([move])[0]
    state.play(move)
    game.moves.append(text)
    score = result.score
    value = centi(score)
    game.scores[mover].append(value)
    game.verdicts[mover] = proven(score)
    record = {
        "ply": len(game.moves),
        "player": mover,
        "move": text,
        "label": label,
        "score": str(score),
        "centi": value,
        "depth": result.depth,
        "nodes": result.nodes,
        "time": round(result.time, 4),
        "wall": round(wall, 4),
        "latency": round(max(0.0, wall - result.time), 4),
        "clock": round(clock.left, 3) if clock is not None else None,
        "stop": str(result.stop_reason) if result.stop_reason else None,
    }
    if view is not None:
        record["view"] = view
    return record


def _view(state: Game, mover: int) -> str | None:
    """In a game of hidden information, the mover's own view: all it is sent (the referee
    keeps the full state); None in a game of perfect information."""
    return state.view(mover) if isinstance(state, HiddenInformation) else None


def _adjudicate(
    game: _Game, mover: int, decisions: int
) -> tuple[tuple[float, ...], str, str, int | None] | None:
    """The end of the game by adjudication after `mover`'s move, if a rule says so (the
    rules judge two-player games: a match of N seats has none of them)."""
    rules = game.rules
    names = game.names
    other = 1 - mover
    if rules.proven and game.verdicts[mover] and game.verdicts[other]:
        mine, theirs = game.verdicts[mover], game.verdicts[other]
        if (mine, theirs) == ("draw", "draw"):
            return (0.0, 0.0), "adjudication: both engines prove a draw", "adjudication", None
        if (mine, theirs) in (("win", "loss"), ("loss", "win")):
            winner = mover if mine == "win" else other
            returns = tuple(1.0 if p == winner else -1.0 for p in range(2))
            text = f"adjudication: both engines prove a win for {names[winner]}"
            return returns, text, "adjudication", None
    resign = rules.resign
    if resign is not None:
        mine = game.scores[mover][-resign.movecount :]
        theirs = game.scores[other][-resign.movecount :]
        losing = len(mine) == resign.movecount and all(s <= -resign.score for s in mine)
        agreed = not resign.twosided or (
            len(theirs) == resign.movecount and all(s >= resign.score for s in theirs)
        )
        if losing and agreed:
            returns = tuple(1.0 if p == other else -1.0 for p in range(2))
            return returns, f"adjudication: {names[mover]} resigns", "adjudication", None
    draw = rules.draw
    if draw is not None and decisions // 2 >= draw.movenumber:
        recent = [scores[-draw.movecount :] for scores in game.scores]
        if all(
            len(scores) == draw.movecount and all(abs(s) <= draw.score for s in scores)
            for scores in recent
        ):
            return (0.0, 0.0), "adjudication: draw by score", "adjudication", None
    return None
