"""The core Game interface every engine searches (docs/architecture.md, "The Game interface").

A game object is a mutable position: engines call `play()` and `undo()` on one object
instead of copying it. Everything a person types (positions, moves) goes through the
game's own notation; errors are `NotationError` (malformed text) or `IllegalMoveError`
(well-formed but not legal here), both `ValueError`s with a message naming the culprit.
Text from outside is read through `read_position`, `read_move` and `read_moves`, which
promise those two errors and nothing else, with short messages (`reading`).

The core is what every engine family needs; everything else (hash keys, evaluation, noisy
moves, ordering hints, solver hooks, symmetry, playouts, priors) is an optional capability
a game declares by inheriting it from `kibitz.games.capabilities`.

Chance: a game with `has_chance` has chance nodes, where `to_move()` is `CHANCE`. There,
`chance_outcomes()` lists the outcomes with their probabilities (summing to 1),
`legal_moves()` lists the same outcomes, and `play(outcome)` makes one happen. Nobody's
clock runs at a chance node, and a chance node is never terminal: `returns()` is asked only
after `is_terminal()`, and then holds the result for every player.
"""

from __future__ import annotations

import copy
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import ClassVar

Move = Hashable
"""A move as the game represents it internally (usually a small int)."""

CHANCE = -1
"""`to_move()` at a chance node (games with dice)."""


QUOTE_LIMIT = 40
"""Characters of bad input an error message quotes at most."""
MESSAGE_LIMIT = 200
"""Characters a notation error's message has at most (`reading` cuts longer ones), so that
with the culprit named before it (``move 3 ('...'): ``) no message passes 300."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` quoted for an error message, cut after `limit` characters ("…") and never
    more than `limit` + 2 long as quoted (escapes count), so that a megabyte of bad input
    never becomes a megabyte of error."""
    shown = repr(text[:limit])
    if len(text) <= limit and len(shown) <= limit + 2:
        return shown
    cut = limit
    while len(shown) > limit + 2:  # escapes (control characters) quote long
        cut = cut * (limit + 2) // len(shown)
        shown = repr(text[:cut])
    return shown + f"… ({len(text)} characters)"


def capped_int(digits: str, cap: int) -> int:
    """The value of `digits` (ASCII digits, as a regular expression matched them), or
    `cap + 1` where it is larger than `cap`: range checks then fail as they should, and
    thousands of digits are never converted (Python refuses more than 4300)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(cap)):
        return cap + 1
    return min(int(significant), cap + 1)


class NotationError(ValueError):
    """A position or move string that cannot be read."""


class IllegalMoveError(ValueError):
    """A readable move that is not legal in the current position."""


log = logging.getLogger("kibitz.games")
_REPORTED: set[tuple[str, str, type]] = set()
"""(game, what, exception type) of each failure `reading` has logged as a warning."""


@contextmanager
def reading(game: str, what: str, text: str) -> Iterator[None]:
    """Read `text`, a `what` ("position", "move") of `game`, in the block: the game's
    notation code may fail there only with NotationError or IllegalMoveError, whose messages
    are cut to `MESSAGE_LIMIT`. Any other exception (RecursionError, OverflowError, the
    ValueError of an `int()`, an IndexError, ...: a bug of the game's reader) becomes a
    NotationError with a short reason, never Python's own text (which may quote the whole
    input), and is logged in one line: a warning once per game and kind of failure, then at
    debug level. Messages do not repeat `text`: the caller names it (``move 3 ('e2e4'): ``).
    """
    try:
        yield
    except (NotationError, IllegalMoveError) as exc:
        message = str(exc)
        if len(message) <= MESSAGE_LIMIT:
            raise
        kind = IllegalMoveError if isinstance(exc, IllegalMoveError) else NotationError
        raise kind(message[: MESSAGE_LIMIT - 1] + "…") from None
    except Exception as exc:
        _report(game, what, text, exc)
        raise NotationError(f"cannot read it as a {game} {what}: {_reason(exc)}") from None


def _reason(exc: Exception) -> str:
    """A failure of a game's reader in a few words."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply"
    if isinstance(exc, OverflowError) or "integer string conversion" in str(exc):
        return "a number in it is too large"  # C integers, or int() of over 4300 digits
    if isinstance(exc, MemoryError):
        return "it is too large"
    return f"the reader failed ({type(exc).__name__})"


def _report(game: str, what: str, text: str, exc: Exception) -> None:
    """Log a reader's failure in one line (no traceback: only where it was raised)."""
    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    where = f"{frame.tb_frame.f_globals.get('__name__')}:{frame.tb_lineno}" if frame else "?"
    failure = (game, what, type(exc))
    level = logging.DEBUG if failure in _REPORTED else logging.WARNING
    _REPORTED.add(failure)
    log.log(
        level,
        "%s: reading the %s %s raised %s at %s (a bug: readers raise NotationError)",
        game,
        what,
        quoted(text),
        type(exc).__name__,
        where,
    )


@dataclass(frozen=True)
class GameRecord:
    """A game written down for people and their programs (`Game.export_record`)."""

    format: str
    """The file format, as a file name extension: "json", "pgn"."""
    media_type: str
    """Its media type, e.g. "application/json", "application/x-chess-pgn"."""
    text: str


MAX_RECORD_CHARACTERS = 1_000_000
"""The longest game record `Game.read_record` reads."""
MAX_RECORD_NODES = 10_000
"""The most moves (main line and variations together) a game's tree may have."""


@dataclass(frozen=True)
class RecordNode:
    """A move of a game's tree (`Game.read_record`, `Game.export_tree`): the tree is a list
    of nodes, each after its `parent`, the main line first among a node's children."""

    parent: int
    """The index of the node the move is played from; -1: the start position."""
    move: str
    """The move in the game's notation."""
    label: str = ""
    """The move as people read it (chess: SAN)."""
    comment: str = ""
    """The comment after the move, without its clock and evaluation."""
    clock_ms: int | None = None
    """The mover's time left after the move."""
    eval_centi: int | None = None
    """The evaluation after the move in centi-units from the first player's side."""
    eval_plies: int | None = None
    """A proven result after the move: plies to the end, positive when the first player
    wins, negative when the second does."""


@dataclass(frozen=True)
class GameTree:
    """A game read from its record: the start position, the headers and the moves."""

    start: str
    headers: dict[str, str] = field(default_factory=dict)
    nodes: tuple[RecordNode, ...] = ()


def main_line(nodes: Sequence[RecordNode]) -> list[int]:
    """The indices of a tree's main line: from the start, each node's first child."""
    first_child: dict[int, int] = {}
    for index, node in enumerate(nodes):
        first_child.setdefault(node.parent, index)
    line, at = [], first_child.get(-1)
    while at is not None:
        line.append(at)
        at = first_child.get(at)
    return line


def line_nodes(moves: Sequence[str], comments: Sequence[str] = ()) -> list[RecordNode]:
    """A tree of one line: `moves` in order, each with its comment (comments beyond the
    moves are left out)."""
    return [
        RecordNode(index - 1, move, comment=comments[index] if index < len(comments) else "")
        for index, move in enumerate(moves)
    ]


def check_record_size(text: str) -> None:
    """NotationError for a record longer than `MAX_RECORD_CHARACTERS`."""
    if len(text) > MAX_RECORD_CHARACTERS:
        raise NotationError(
            f"the record has {len(text)} characters, more than {MAX_RECORD_CHARACTERS}"
        )


def check_node_count(count: int) -> None:
    """NotationError for a tree of more than `MAX_RECORD_NODES` moves."""
    if count > MAX_RECORD_NODES:
        raise NotationError(f"the record has more than {MAX_RECORD_NODES} moves")


class Game(ABC):
    """One game position plus the rules to move through the game tree."""

    # -- identity and traits -----------------------------------------------------------------

    name: ClassVar[str]
    """Registry name, e.g. ``"connect4"``."""
    title: ClassVar[str]
    """Human title, e.g. ``"Connect Four"``."""
    players: ClassVar[int] = 2
    has_chance: ClassVar[bool] = False
    """Whether the game has chance nodes (see the module docstring)."""
    zero_sum: ClassVar[bool] = True
    """Whether the returns of every finished game sum to zero."""
    default_position: ClassVar[str]
    """The start position in this game's notation."""
    notation_help: ClassVar[str]
    """One paragraph on the position and move notation, with an example."""
    default_engine: ClassVar[str | None] = None
    """The engine a request without one gets; None: the first registered engine that
    supports the game."""
    notation: ClassVar[str] = ""
    """A machine-readable id of the position notation, e.g. ``"fen"``; "" names none."""
    player_names: ClassVar[tuple[str, ...]] = ()
    """Each player's name, index 0 = first player, e.g. ``("White", "Black")``; empty:
    "player 1", "player 2", ... (`names_of_players`)."""
    board_shape: ClassVar[tuple[int, ...]] = ()
    """The start position's board dimensions, rows first (e.g. ``(6, 7)``); empty where
    the game has no grid. `shape()` gives a position's own."""
    record_format: ClassVar[str] = "json"
    """The file format `export_record` writes: "json", or the game's own ("pgn")."""

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def from_position(cls, text: str) -> Game:
        """Parse a position; an empty string means `default_position`."""

    @abstractmethod
    def position(self) -> str:
        """Format the current position so that `from_position` reads it back."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read one move; raises NotationError or IllegalMoveError."""

    @abstractmethod
    def format_move(self, move: Move) -> str:
        """Write one move of the current position."""

    def split_moves(self, text: str) -> list[str]:
        """Split a move list as people write it (e.g. ``"e2e4 e7e5"``) into move strings."""
        return text.replace(",", " ").split()

    # -- reading text from outside (every error a NotationError or IllegalMoveError) --------

    @classmethod
    def read_position(cls, text: str) -> Game:
        """`from_position` for text from outside: it fails only with NotationError, with a
        short message that does not repeat `text` (`reading`)."""
        with reading(cls.name, "position", text):
            return cls.from_position(text)

    def read_move(self, text: str) -> Move:
        """`parse_move` for text from outside: it fails only with NotationError or
        IllegalMoveError, with a short message (`reading`)."""
        with reading(self.name, "move", text):
            return self.parse_move(text)

    def read_moves(self, entries: Iterable[str]) -> list[str]:
        """Play move-list entries from outside, each split by `split_moves` (``"e2e4 e7e5"``),
        with `play_line`; returns the moves one by one. Errors as `play_line`'s; on error
        the position is left unchanged."""
        expanded: list[str] = []
        for index, entry in enumerate(entries, start=1):
            try:
                with reading(self.name, "move list", entry):
                    expanded.extend(self.split_moves(entry))
            except NotationError as exc:
                raise NotationError(f"entry {index} ({quoted(entry)}): {exc}") from None
        self.play_line(expanded)
        return expanded

    # -- state ------------------------------------------------------------------------------

    @abstractmethod
    def to_move(self) -> int:
        """Index of the player to move (0 = first player), or CHANCE."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """All legal moves; empty exactly when the position is terminal."""

    @abstractmethod
    def play(self, move: Move) -> None:
        """Make a legal move (not validated: use `parse_move` for untrusted input)."""

    @abstractmethod
    def undo(self) -> None:
        """Take back the last move made with `play`."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Final result per player (e.g. +1 win, 0 draw, -1 loss; backgammon scores gammons
        as 2); only valid when terminal."""

    def perspective(self) -> int:
        """The player whose point of view scores of this position take: `to_move()`, or at a
        chance node the player the event belongs to (backgammon: the player about to roll;
        CHANCE, the default there, where it belongs to nobody)."""
        return self.to_move()

    def shape(self) -> tuple[int, ...]:
        """This position's board dimensions, rows first: `board_shape` unless the size
        varies between positions (Hex)."""
        return self.board_shape

    @classmethod
    def names_of_players(cls) -> tuple[str, ...]:
        """`player_names`, or "player 1", "player 2", ... for a game that names none."""
        return cls.player_names or tuple(f"player {index + 1}" for index in range(cls.players))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node: the outcomes and their probabilities, which sum to 1."""
        raise NotImplementedError(f"{self.name} has no chance events")

    def clone(self) -> Game:
        """An independent copy of this position (its move history included, so `undo()`
        works on it too). This default deep-copies; override it where a cheaper copy exists."""
        return copy.deepcopy(self)

    def terminal_reason(self) -> str:
        """A short human sentence describing how the game ended."""
        result = self.returns()
        if all(r == result[0] for r in result):
            return "draw"
        winner = max(range(self.players), key=lambda p: result[p])
        return f"player {winner + 1} wins"

    @abstractmethod
    def render(self) -> str:
        """A plain-text board for terminals."""

    # -- presentation (docs/games.md, "How a game presents itself") ------------------------
    # The drawing is the optional capability `Presentation` (capabilities.py).

    def label_line(self, moves: Sequence[Move]) -> list[str]:
        """A line of moves from this position as people read them (the position is left
        unchanged): the wire notation (`format_line`) unless the game writes moves its own
        way (chess: SAN)."""
        return self.format_line(moves)

    def move_labels(self, moves: Iterable[Move]) -> list[str]:
        """Each of `moves` (moves of this position) as people read it."""
        return [self.label_line([move])[0] for move in moves]

    def move_number(self) -> int:
        """The number people give the move to be played here (chess: the FEN's fullmove
        number), or 0 where the game numbers no moves (a page numbers a line from 1)."""
        return 0

    @classmethod
    def outcome_label(cls, won: bool, plies: int) -> str:
        """A proven win (`won`) or loss of the side to move in `plies` plies, in the game's
        words: "win in 7", "loss in 4" (chess counts moves: "mate in 4", "mated in 2")."""
        return f"{'win' if won else 'loss'} in {plies}"

    def export_record(
        self,
        moves: Sequence[str],
        players: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
        comments: Sequence[str] = (),
    ) -> GameRecord:
        """The game from this position through `moves` (move-list entries in the game's
        notation, read as `read_moves` reads them), written down in `record_format`:
        `players` (index 0 = first player), free `headers` (e.g. "Event"), a comment per
        move. This default writes JSON: the game, start, moves, players, headers, comments,
        final position and result (None while the game goes on)."""
        final = self.clone()
        played = final.read_moves(moves)
        over = final.is_terminal()
        record = {
            "game": self.name,
            "start": self.position(),
            "moves": played,
            "players": list(players),
            "headers": dict(headers or {}),
            "comments": list(comments),
            "final": final.position(),
            "result": {"returns": list(final.returns()), "reason": final.terminal_reason()}
            if over
            else None,
        }
        return GameRecord("json", "application/json", json.dumps(record, indent=2) + "\n")

    def export_tree(
        self,
        nodes: Sequence[RecordNode],
        players: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """`export_record` of a tree of moves from this position (`RecordNode`s: variations,
        clock times, evaluations). This default writes the main line as `export_record` does
        and adds every node ("nodes", camelCase fields as on the wire)."""
        tree = self.checked_tree(nodes)
        line = main_line(tree)
        record = self.export_record(
            [tree[i].move for i in line], players, headers, [tree[i].comment for i in line]
        )
        written = json.loads(record.text)
        written["nodes"] = [_node_json(node) for node in tree]
        return replace(record, text=json.dumps(written, indent=2) + "\n")

    @classmethod
    def read_record(cls, text: str) -> GameTree:
        """A game from its record as `export_tree` (or `export_record`) writes it, checked
        move by move. Fails only with NotationError or IllegalMoveError, short messages; a
        record over `MAX_RECORD_CHARACTERS` or `MAX_RECORD_NODES` is refused. This default
        reads the JSON record: "start", "headers", and "nodes" or "moves" and "comments"."""
        check_record_size(text)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise NotationError(f"a {cls.name} record is the JSON ExportGame writes") from None
        if not isinstance(data, dict):
            raise NotationError(f"a {cls.name} record is a JSON object (as ExportGame writes)")
        start = cls.read_position(_json_text(data, "start"))
        headers = data.get("headers") or {}
        if not isinstance(headers, dict):
            raise NotationError("the record's headers are not an object")
        if "nodes" in data:
            nodes = _nodes_from_json(data["nodes"])
        else:
            nodes = _line_from_json(data.get("moves"), data.get("comments"))
        tree = start.checked_tree(nodes)
        return GameTree(start.position(), {str(k): str(v) for k, v in headers.items()}, tree)

    def checked_tree(self, nodes: Sequence[RecordNode]) -> tuple[RecordNode, ...]:
        """`nodes`, a tree of moves from this position, checked (each parent an earlier
        node, each move legal where it is played, at most `MAX_RECORD_NODES`) and written
        again: each move in the game's notation, with its label. NotationError or
        IllegalMoveError naming the node."""
        check_node_count(len(nodes))
        states: list[Game] = []
        checked: list[RecordNode] = []
        for index, node in enumerate(nodes):
            if not -1 <= node.parent < index:
                raise NotationError(f"node {index + 1}: its parent is no earlier node")
            state = (self if node.parent < 0 else states[node.parent]).clone()
            try:
                move = state.read_move(node.move)
            except ValueError as exc:
                raise type(exc)(f"node {index + 1} ({quoted(node.move)}): {exc}") from None
            text, label = state.format_move(move), state.label_line([move])[0]
            state.play(move)
            states.append(state)
            checked.append(replace(node, move=text, label=label))
        return tuple(checked)

    # -- conveniences built on the interface --------------------------------------------------

    def play_text(self, text: str) -> Move:
        """Read and play one move given in notation; returns the move. Errors as
        `read_move`'s (a failure of `play` itself included: `reading`)."""
        with reading(self.name, "move", text):
            move = self.parse_move(text)
            self.play(move)
        return move

    def format_line(self, moves: Sequence[Move]) -> list[str]:
        """Format a sequence of moves starting from this position (the position is unchanged)."""
        out: list[str] = []
        last = len(moves) - 1
        for index, move in enumerate(moves):
            out.append(self.format_move(move))
            if index < last:  # the last move needs no playing: nothing follows it
                self.play(move)
        for _ in range(last):
            self.undo()
        return out

    def play_line(self, texts: Iterable[str]) -> None:
        """Play moves given in notation; on error the position is left unchanged.

        Raises IllegalMoveError/NotationError naming the move and its index (1-based).
        """
        played = 0
        try:
            for index, entry in enumerate(texts, start=1):
                try:
                    self.play_text(entry)
                except ValueError as exc:
                    raise type(exc)(f"move {index} ({quoted(entry)}): {exc}") from None
                played += 1
        except ValueError:
            for _ in range(played):
                self.undo()
            raise


_NODE_FIELDS = (
    ("parent", "parent", int),
    ("move", "move", str),
    ("label", "label", str),
    ("comment", "comment", str),
    ("clock_ms", "clockMs", int),
    ("eval_centi", "evalCenti", int),
    ("eval_plies", "evalPlies", int),
)
"""A RecordNode's attributes, their names in a JSON record and their types."""


def _node_json(node: RecordNode) -> dict[str, object]:
    """A node as a JSON record writes it (its unknown numbers left out)."""
    values = {key: getattr(node, name) for name, key, _ in _NODE_FIELDS}
    return {key: value for key, value in values.items() if value is not None}


def _nodes_from_json(items: object) -> list[RecordNode]:
    """The "nodes" of a JSON record (`_node_json`'s), their types checked."""
    if not isinstance(items, list):
        raise NotationError("the record's nodes are not a list")
    check_node_count(len(items))
    nodes = []
    for index, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise NotationError(f"node {index} is not an object")
        values = {}
        for name, key, kind in _NODE_FIELDS:
            value = item.get(key)
            if value is None:
                continue
            if type(value) is not kind:  # bool is no int here
                raise NotationError(f"node {index}: {key} is not a {kind.__name__}")
            values[name] = value
        if "parent" not in values or "move" not in values:
            raise NotationError(f"node {index} lacks its parent or its move")
        nodes.append(RecordNode(**values))
    return nodes


def _line_from_json(moves: object, comments: object) -> list[RecordNode]:
    """The "moves" and "comments" of a JSON record as a tree of one line."""
    moves, comments = moves or [], comments or []
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise NotationError("the record's moves are not a list of moves")
    if not isinstance(comments, list) or not all(isinstance(text, str) for text in comments):
        raise NotationError("the record's comments are not a list of texts")
    check_node_count(len(moves))
    return line_nodes(moves, comments)


def _json_text(data: dict, key: str) -> str:
    value = data.get(key) or ""
    if not isinstance(value, str):
        raise NotationError(f"the record's {key} is not a text")
    return value
