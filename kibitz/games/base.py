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
from dataclasses import dataclass
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
