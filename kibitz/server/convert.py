"""Conversions between engine dataclasses and kibitz.v1 protobuf messages."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from kibitz.engines import (
    Clock,
    Engine,
    Info,
    Limits,
    OptionSpec,
    Result,
    RootMove,
    Score,
    default_engine_for,
)
from kibitz.games import Chances, Game, HiddenInformation, Move, capabilities_of, quoted
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import Bound, ScoreKind, StopReason, is_proven, score_text

# The wire's value of each member of kibitz.vocabulary's enums: the proto's have the same names.
_KINDS = {kind: pb.Score.Kind.Value(kind.name) for kind in ScoreKind}
_BOUNDS = {bound: pb.Score.Bound.Value(bound.name) for bound in Bound}
_STOP_REASONS = {reason: pb.Result.StopReason.Value(reason.name) for reason in StopReason}


@functools.lru_cache(maxsize=4096)
def score_to_pb(score: Score, player: int, game: type[Game] = Game) -> pb.Score:
    """`score` (from the point of view of `player`, the searched position's `perspective()`)
    on the wire, labelled in `game`'s words; shared between calls (a message assigned to a
    field is copied), since a Result holds one per root move."""
    message = pb.Score(
        kind=_KINDS[score.kind],
        centi=score.value,
        plies=score.plies,
        bound=_BOUNDS[score.bound],
        player=player,
        proven=is_proven(score.kind, score.bound),
        label=score_label(score, game),
    )
    for name in ("win", "draw", "loss"):
        value = getattr(score, name)
        if value is not None:
            setattr(message, f"{name}_probability", value)
    if score.visits is not None:
        message.visits = score.visits
    if score.expected is not None:
        message.expected_value = score.expected
    if score.chances is not None:
        _set_chances(message, score.chances)
    if score.values is not None:
        message.player_values.extend(score.values)
    return message


def _set_chances(message: pb.Score, chances: Chances) -> None:
    """The outcome chances on the wire: win and loss, then the cumulative gammons and
    backgammons of each side."""
    message.win_probability = chances.win
    message.loss_probability = chances.loss
    message.win_gammon_probability = chances.win_gammon
    message.win_backgammon_probability = chances.win_backgammon
    message.loss_gammon_probability = chances.loss_gammon
    message.loss_backgammon_probability = chances.loss_backgammon


def score_label(score: Score, game: type[Game]) -> str:
    """A score as people read it (Score.label), a win or loss in `game`'s words
    (`Game.outcome_label`)."""
    outcome = ""
    if score.kind is ScoreKind.WIN or score.kind is ScoreKind.LOSS:
        outcome = game.outcome_label(score.kind is ScoreKind.WIN, score.plies)
    return score_text(
        score.kind, score.bound, score.value, expected=score.expected, outcome=outcome
    )


def ms(seconds: float) -> int:
    """Seconds as the wire's whole milliseconds (never negative)."""
    return max(0, round(seconds * 1000))


def labels(
    state: Game, move: Move, line: Sequence[Move], texts: Sequence[str] | None = None
) -> tuple[str, list[str]]:
    """`move` and `line` (a line of `state`) as people read them; the line's first label is
    the move's where the line starts with it (labels may cost: chess writes SAN). `texts`:
    the line already in notation (`format_line`), the labels of a game that labels moves
    by its notation."""
    if texts is not None and _labels_are_notation(type(state)):
        line_labels = list(texts)
    else:
        line_labels = state.label_line(line)
    if line and line[0] == move:
        return line_labels[0], line_labels
    return state.move_labels([move])[0], line_labels


@functools.cache
def _labels_are_notation(game: type[Game]) -> bool:
    """Whether `game` labels moves by their notation (`Game.label_line` not overridden)."""
    return game.label_line is Game.label_line


@functools.cache
def _has_views(game: type[Game]) -> bool:
    """Whether states of `game` may be one player's view (`HiddenInformation`)."""
    return issubclass(game, HiddenInformation)


def shown_line(state: Game, line: Sequence[Move]) -> list[Move]:
    """The part of an engine's `line` the server may answer for `state`: all of it, except
    for one player's view of a game of hidden information (`HiddenInformation.is_view`),
    where no more than the observer's own next move (the moves after it would come from
    worlds the view does not know)."""
    if _has_views(type(state)) and state.is_view():
        return list(line[:1])
    return list(line)


def root_move_to_pb(root: RootMove, state: Game, labelled: bool = True) -> pb.RootMove:
    """A root move of a search of `state`; `labelled`: with its labels (which may cost)."""
    pv = shown_line(state, root.pv)
    texts = state.format_line(pv)
    move = texts[0] if pv and pv[0] == root.move else state.format_move(root.move)
    move_label, pv_labels = labels(state, root.move, pv, texts) if labelled else ("", [])
    message = pb.RootMove(
        move=move,
        score=score_to_pb(root.score, state.perspective(), type(state)),
        pv=texts,
        move_label=move_label,
        pv_labels=pv_labels,
    )
    if root.prior is not None:
        message.prior = root.prior
    if root.probability is not None:
        message.probability = root.probability
    return message


def info_to_pb(info: Info, state: Game, root_moves: Iterable[pb.RootMove] = ()) -> pb.Info:
    """An Info of a search of `state` (the root position) with `root_moves` (formatted by
    `root_move_to_pb`) if the client asked for them."""
    pv = shown_line(state, info.pv)
    texts = state.format_line(pv)
    return pb.Info(
        depth=info.depth,
        selective_depth=info.seldepth,
        score=score_to_pb(info.score, state.perspective(), type(state)),
        nodes=info.nodes,
        nodes_per_second=info.nps,
        time_ms=ms(info.time),
        pv=texts,
        pv_labels=texts if _labels_are_notation(type(state)) else state.label_line(pv),
        multipv=info.multipv,
        hash_full=info.hashfull,
        root_moves=root_moves,
    )


def wire_info(info: Info, state: Game, with_root_moves: bool) -> pb.Info:
    """`info_to_pb` with the root moves formatted when the client asked for them."""
    roots = [root_move_to_pb(move, state) for move in info.root_moves] if with_root_moves else []
    return info_to_pb(info, state, roots)


def result_to_pb(result: Result, state: Game) -> pb.Result:
    line = shown_line(state, result.pv)
    pv = state.format_line(line)
    best = result.best_move
    if best is None:
        best_label, pv_labels = "", state.label_line(line)
    else:
        best_label, pv_labels = labels(state, best, line, pv)
    return pb.Result(
        best_move=state.format_move(best) if best is not None else "",
        best_move_label=best_label,
        ponder_move=pv[1] if len(pv) > 1 else "",
        score=score_to_pb(result.score, state.perspective(), type(state)),
        pv=pv,
        pv_labels=pv_labels,
        root_moves=[root_move_to_pb(root, state) for root in result.root_moves],
        nodes=result.nodes,
        time_ms=ms(result.time),
        depth=result.depth,
        selective_depth=result.seldepth,
        stats=result.stats,
        **stop_fields(StopReason(result.stop_reason)),
    )


def stop_fields(reason: StopReason) -> dict:
    """Result's two stop fields: the text (for older clients) and the enum."""
    return {"stop_reason": reason.value, "stopped_by": _STOP_REASONS[reason]}


def provisional_result(info: Info, root_moves: list[pb.RootMove]) -> pb.Result:
    """The Result a search would answer if stopped when it sent `info`: its root moves
    (formatted, best first), without a stop reason (the server sets one if it uses it)."""
    best = root_moves[0]
    return pb.Result(
        best_move=best.move,
        best_move_label=best.move_label,
        ponder_move=best.pv[1] if len(best.pv) > 1 else "",
        score=best.score,
        pv=best.pv,
        pv_labels=best.pv_labels,
        root_moves=root_moves,
        nodes=info.nodes,
        time_ms=ms(info.time),
        depth=info.depth,
        selective_depth=info.seldepth,
    )


def game_over_result(state: Game) -> pb.Result:
    """The Result for a search asked on a terminal position."""
    returns = state.returns()
    mine = returns[state.to_move()] if state.to_move() >= 0 else 0
    return pb.Result(
        score=score_to_pb(Score(ScoreKind.of_return(mine)), state.to_move(), type(state)),
        game_over=pb.GameOver(returns=list(returns), reason=state.terminal_reason()),
        **stop_fields(StopReason.GAME_OVER),
    )


def limits_from_pb(limits: pb.Limits, state: Game) -> Limits:
    """Engine limits from the wire; search_moves are read in `state` (`Game.read_move`: may
    raise NotationError or IllegalMoveError)."""
    clock = None
    if limits.HasField("clock") and limits.clock.time_left_ms:
        clock = Clock(
            time_left=[ms / 1000 for ms in limits.clock.time_left_ms],
            increment=[ms / 1000 for ms in limits.clock.increment_ms],
            moves_to_go=limits.clock.moves_to_go,
        )
    search_moves = []
    for text in limits.search_moves:
        try:
            search_moves.append(state.read_move(text))
        except ValueError as exc:
            raise type(exc)(f"search_moves: {quoted(text)}: {exc}") from None
    return Limits(
        depth=limits.depth if limits.HasField("depth") else None,
        nodes=limits.nodes if limits.HasField("nodes") else None,
        movetime=limits.move_time_ms / 1000 if limits.HasField("move_time_ms") else None,
        clock=clock,
        infinite=limits.infinite,
        search_moves=search_moves,
        multipv=limits.multipv or 1,
        solve=limits.solve,
    )


def option_to_pb(spec: OptionSpec) -> pb.OptionInfo:
    message = pb.OptionInfo(
        name=spec.name,
        type=spec.type,
        default=option_text(spec.default),
        choices=list(spec.choices),
        description=spec.description,
    )
    if spec.min is not None:
        message.min = spec.min
    if spec.max is not None:
        message.max = spec.max
    return message


def option_text(value: object) -> str:
    """An option value as text on the wire (booleans as true/false, like UCI)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def engine_info(engine_cls: type[Engine], games: list[type[Game]]) -> pb.EngineInfo:
    return pb.EngineInfo(
        name=engine_cls.name,
        description=engine_cls.description,
        games=sorted(g.name for g in games if engine_cls.supports(g)),
        options=[option_to_pb(spec) for spec in engine_cls.option_specs],
    )


def game_info(game_cls: type[Game]) -> pb.GameInfo:
    default_engine = default_engine_for(game_cls)
    return pb.GameInfo(
        name=game_cls.name,
        title=game_cls.title,
        players=game_cls.players,
        has_chance=game_cls.has_chance,
        default_position=game_cls.default_position,
        notation_help=game_cls.notation_help,
        default_engine=default_engine.name if default_engine is not None else "",
        zero_sum=game_cls.zero_sum,
        capabilities=[capability.capability_name for capability in capabilities_of(game_cls)],
        notation=game_cls.notation,
        player_names=game_cls.names_of_players(),
        board_shape=game_cls.board_shape,
        hidden_information=issubclass(game_cls, HiddenInformation),
    )
