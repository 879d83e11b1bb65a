"""How the server presents a game to people, through the game alone: a checked position
(Describe's PositionInfo) with its labels and its diagram, and a game written down
(ExportGame) and read back (ImportGame). The server names no game: each game draws itself
(`Presentation`), labels its moves (`Game.label_line`), writes its records
(`Game.export_record`, `Game.export_tree`) and reads them (`Game.read_record`)."""

from __future__ import annotations

from collections.abc import Sequence

from kibitz.games import (
    CHANCE,
    Diagram,
    Game,
    HiddenInformation,
    Move,
    Presentation,
    RecordNode,
    quoted,
)
from kibitz.server import convert
from kibitz.server.validation import invalid, parse_position
from kibitz.v1 import engine_pb2 as pb


def position_info(
    game: type[Game], position: str, entries: Sequence[str], view_of: int | None = None
) -> pb.PositionInfo:
    """The position `position` after the move-list `entries`, described (INVALID_ARGUMENT
    for a bad position or move); with `view_of`, as that player of a game with hidden
    information sees it (DescribeRequest.view_of)."""
    state, expanded = parse_position(game, position, entries)
    start = game.read_position(position)
    played = _moves(start, expanded)
    sizes = [len(start.split_moves(entry)) for entry in entries]
    if view_of is None:
        shown, labels, last = state, start.label_line(played), played[-1] if played else None
        legal = state.legal_moves()
    else:
        shown = _view(game, state, view_of)
        labels = seen_labels(start, played, view_of)
        last = played[-1] if played and labels[-1] != UNSEEN else None
        legal = shown.legal_moves() if state.to_move() == view_of else []
    message = pb.PositionInfo(
        game=game.name,
        position=shown.position(),
        board=shown.render(),
        to_move=state.to_move(),
        legal_moves=[shown.format_move(move) for move in legal],
        legal_move_labels=shown.move_labels(legal),
        perspective=state.perspective(),
        board_shape=shown.shape(),
        played_labels=_grouped(labels, sizes),
        played_chance=_chance_entries(start, played, sizes),
        move_number=state.move_number(),
    )
    if isinstance(shown, Presentation):
        message.diagram.CopyFrom(diagram_to_pb(shown.diagram(last), shown))
    if state.to_move() == CHANCE and view_of is None:
        odds = dict(state.chance_outcomes())
        message.probabilities.extend(odds[move] for move in legal)
    if state.is_terminal():
        message.game_over.CopyFrom(convert.game_over_result(state).game_over)
    return message


UNSEEN = "?"
"""The label of a move that the player a position is described for did not see."""


def _view(game: type[Game], state: Game, player: int) -> Game:
    """`player`'s view of the full state `state`, read as a position of `game`."""
    if not isinstance(state, HiddenInformation):
        raise invalid(f"view_of: {game.name} hides nothing from its players")
    if state.is_view():
        raise invalid(
            f"view_of needs a full state; {quoted(state.position())} is already "
            f"{game.names_of_players()[state.observer()]}'s view"
        )
    if not 0 <= player < game.players:
        raise invalid(f"view_of {player}: {game.name} has players 0 to {game.players - 1}")
    return game.read_position(state.view(player))


def seen_labels(start: Game, played: Sequence[Move], player: int) -> list[str]:
    """The labels of the moves `played` from the full state `start` as `player` saw them:
    a move's own label where `player` made it or where it changed what `player` knows
    (their view after it differs from their view after another legal move or outcome in
    its place), else UNSEEN (the opponent's hidden card, a blind mark)."""
    labels = start.label_line(played)
    walker = start.clone()
    seen = []
    for move, label in zip(played, labels, strict=True):
        mover = walker.to_move()
        if mover == CHANCE:
            others = [outcome for outcome, _ in walker.chance_outcomes()]
        else:
            others = walker.legal_moves()
        shown = mover == player or len({_view_after(walker, m, player) for m in others}) > 1
        seen.append(label if shown else UNSEEN)
        walker.play(move)
    return seen


def _view_after(state: Game, move: Move, player: int) -> str:
    """`player`'s view of `state` after `move` (`state` itself unchanged)."""
    after = state.clone()
    after.play(move)
    return after.view(player)  # type: ignore[attr-defined]  # HiddenInformation


def _moves(start: Game, texts: Sequence[str]) -> list[Move]:
    """The moves `texts` (checked already) from `start`, as the game represents them."""
    walker = start.clone()
    moves = []
    for text in texts:
        move = walker.parse_move(text)
        walker.play(move)
        moves.append(move)
    return moves


def _chance_entries(start: Game, played: list[Move], sizes: list[int]) -> list[bool]:
    """For each move-list entry (`sizes[i]` moves of `played`, from `start`): whether it
    was played at a chance event (its first move is an outcome)."""
    walker = start.clone()
    chance, index = [], 0
    for size in sizes:
        chance.append(walker.to_move() == CHANCE)
        for move in played[index : index + size]:
            walker.play(move)
        index += size
    return chance


def _grouped(labels: list[str], sizes: list[int]) -> list[str]:
    """`labels` joined by spaces in runs of `sizes` (a move-list entry's moves)."""
    grouped, index = [], 0
    for size in sizes:
        grouped.append(" ".join(labels[index : index + size]))
        index += size
    return grouped


def diagram_to_pb(diagram: Diagram, state: Game) -> pb.Diagram:
    """A game's diagram on the wire, its targets' moves in `state`'s notation."""
    return pb.Diagram(
        kind=pb.Diagram.Kind.Value(diagram.kind.upper()),
        rows=diagram.rows,
        columns=diagram.columns,
        places=[
            pb.Place(
                id=place.id,
                row=place.row,
                column=place.column,
                piece=place.piece,
                owner=place.owner,
                count=place.count,
                label=place.label,
            )
            for place in diagram.places
        ],
        targets=[
            pb.Target(
                move=state.format_move(target.move),
                from_place=target.from_place,
                to_places=target.to_places,
            )
            for target in diagram.targets
        ],
        highlights=diagram.highlights,
        dice=diagram.dice,
        gauges=[
            pb.Gauge(label=gauge.label, value=gauge.value, maximum=gauge.maximum, owner=gauge.owner)
            for gauge in diagram.gauges
        ],
        column_labels=diagram.column_labels,
        row_labels=diagram.row_labels,
        colors=diagram.colors,
        edges=diagram.edges,
        checkered=diagram.checkered,
        block_rows=diagram.block_rows,
        block_columns=diagram.block_columns,
    )


def game_record(game: type[Game], request: pb.ExportRequest) -> pb.GameRecord:
    """The game of an ExportRequest in its game's record format."""
    start, _ = parse_position(game, request.position, [])
    players, headers = list(request.players), dict(request.headers)
    try:
        if request.nodes:
            nodes = [node_from_pb(node) for node in request.nodes]
            record = start.export_tree(nodes, players, headers)
        else:
            record = start.export_record(list(request.moves), players, headers, request.comments)
    except ValueError as exc:
        raise invalid(f"{'nodes' if request.nodes else 'moves'}: {exc}") from None
    return pb.GameRecord(format=record.format, media_type=record.media_type, text=record.text)


def game_tree(game: type[Game], request: pb.ImportRequest) -> pb.GameTree:
    """The game of an ImportRequest's record, read by its game (INVALID_ARGUMENT, saying
    why, for a record it cannot read)."""
    try:
        tree = game.read_record(request.text)
    except ValueError as exc:
        raise invalid(f"record: {exc}") from None
    return pb.GameTree(
        game=game.name,
        position=tree.start,
        headers=tree.headers,
        nodes=[node_to_pb(node) for node in tree.nodes],
    )


def node_from_pb(node: pb.RecordNode) -> RecordNode:
    """A RecordNode from the wire (its optional numbers None where unset)."""
    return RecordNode(
        parent=node.parent,
        move=node.move,
        label=node.label,
        comment=node.comment,
        clock_ms=node.clock_ms if node.HasField("clock_ms") else None,
        eval_centi=node.eval_centi if node.HasField("eval_centi") else None,
        eval_plies=node.eval_plies if node.HasField("eval_plies") else None,
    )


def node_to_pb(node: RecordNode) -> pb.RecordNode:
    """A RecordNode on the wire."""
    numbers = {
        "clock_ms": node.clock_ms,
        "eval_centi": node.eval_centi,
        "eval_plies": node.eval_plies,
    }
    return pb.RecordNode(
        parent=node.parent,
        move=node.move,
        label=node.label,
        comment=node.comment,
        **{name: value for name, value in numbers.items() if value is not None},
    )
