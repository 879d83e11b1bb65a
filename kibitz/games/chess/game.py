"""The game `chess`: FIDE rules with every draw rule, FEN positions and UCI moves.

python-chess reads positions at the edge (FEN syntax and the checks of a legal set-up) and
SAN moves typed by people; searching runs on kibitz's own board, which keeps the key, the
evaluation and the game's history incrementally: `board.py` in Python (the reference) and
`_board.pyx`, the same in C, used where it was built.

Draws: stalemate, insufficient material, the fifty-move rule (100 plies without a capture or
pawn move) and threefold repetition end the game at once (as an arbiter would on a claim).
Inside a search a position that repeats one seen since the search began, or seen twice
before it, counts as a draw (`history_draw`), so that engines see perpetual checks and
repetitions coming.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

import chess
import chess.engine
import chess.pgn

from kibitz.games.base import (
    Game,
    GameRecord,
    GameTree,
    IllegalMoveError,
    Move,
    NotationError,
    RecordNode,
    check_node_count,
    check_record_size,
    line_nodes,
    main_line,
    quoted,
    reading,
)
from kibitz.games.capabilities import (
    Checks,
    Evaluation,
    HashKey,
    HistoryDraws,
    MoveOrdering,
    NoisyMoves,
    NullMove,
    Playout,
    Presentation,
    StaticExchange,
)
from kibitz.games.chess.board import (
    BISHOP,
    BLACK,
    KNIGHT,
    QUEEN,
    ROOK,
    WHITE,
    Board,
    encode,
    to_88,
)
from kibitz.games.presentation import GRID, Diagram, Place, Target

try:
    from kibitz.games.chess._board import CompiledBoard
except ImportError:  # pragma: no cover - only without a C compiler at install time
    CompiledBoard = None

BOARD = CompiledBoard or Board
"""The board searches run on: the compiled one where it was built (`_board.pyx`), which
repeats the pure-Python reference (`board.py`) move for move."""
START_FEN = chess.STARTING_FEN
_LETTERS = ".pnbrqk"
_UCI_MOVE = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbn]?)$")
_QUOTED_FEN = re.compile(r": ['\"]")
"""Where a python-chess FEN error's message starts quoting the FEN."""
_MAX_SAN = 12
"""Characters of the longest SAN move python-chess is asked to read (``exd8=Q+!?`` has 9)."""
MAX_MOVE_COUNTER = 1_000_000
"""The largest halfmove clock and fullmove number a FEN may give: the boards keep them in C
integers (`_board.pyx`), and a million leaves room for any game played on from there."""
_STATUS_TEXT = {
    chess.STATUS_NO_WHITE_KING: "White has no king",
    chess.STATUS_NO_BLACK_KING: "Black has no king",
    chess.STATUS_TOO_MANY_KINGS: "a side has more than one king",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "White has more than 8 pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "Black has more than 8 pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "White has more than 16 pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "Black has more than 16 pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights without the king and rook at home",
    chess.STATUS_INVALID_EP_SQUARE: "the en-passant square does not follow a double pawn move",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_TOO_MANY_CHECKERS: "the king is in check by more than two pieces",
    chess.STATUS_IMPOSSIBLE_CHECK: "the king is in a check no move could have given",
}
_PROMOTION_LETTER = {KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q"}
_GLYPHS = ".♟♞♝♜♛♚"
"""The piece drawn in a diagram, by kind (pawn 1 .. king 6); its owner gives the colour."""
_PGN_RESULTS = {(1.0, -1.0): "1-0", (-1.0, 1.0): "0-1", (0.0, 0.0): "1/2-1/2"}
_PROMOTION_KIND = {letter: kind for kind, letter in _PROMOTION_LETTER.items()}


def square_name(square: int) -> str:
    """0x88 square -> "e4"."""
    return "abcdefgh"[square & 7] + str((square >> 4) + 1)


def _square(name: str) -> int:
    return (ord(name[0]) - ord("a")) | (int(name[1]) - 1) << 4


def _epd(text: str) -> chess.Board | None:
    """The position of an EPD line (a FEN's first four fields, then operations such as
    ``bm e4;``, each ending in ';'), or None where `text` is none."""
    if ";" not in text:
        return None
    try:
        board, _ = chess.Board.from_epd(text)
    except ValueError:
        return None
    return board


def _status_problem(board: chess.Board) -> str:
    status = board.status()
    return "; ".join(text for flag, text in _STATUS_TEXT.items() if status & flag)


class Chess(
    Game,
    HashKey,
    Evaluation,
    NoisyMoves,
    StaticExchange,
    MoveOrdering,
    Checks,
    NullMove,
    HistoryDraws,
    Playout,
    Presentation,
):
    """A chess position with its game history (for repetitions and `undo`)."""

    name: ClassVar[str] = "chess"
    title: ClassVar[str] = "Chess"
    default_position: ClassVar[str] = START_FEN
    default_engine: ClassVar[str | None] = "alphabeta"
    notation: ClassVar[str] = "fen"
    player_names: ClassVar[tuple[str, ...]] = ("White", "Black")
    board_shape: ClassVar[tuple[int, ...]] = (8, 8)
    record_format: ClassVar[str] = "pgn"
    noisy_first: ClassVar[bool] = True
    notation_help: ClassVar[str] = (
        "Position: FEN, e.g. 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' "
        "(the move counters may be left out; an EPD line is read too, its operations "
        "ignored); 'startpos' or empty is the start position. "
        "Moves: UCI long algebraic, from and to square plus the promotion piece: 'e2e4', "
        "'e1g1' (castling), 'e7e8q'; SAN ('Nf3', 'O-O', 'exd5') is read too. Answers use UCI. "
        "Draws by stalemate, insufficient material, the fifty-move rule and threefold "
        "repetition end the game."
    )

    def __init__(self, board: Board | CompiledBoard) -> None:
        self.board = board
        # The board's own methods over the game's where they are the same: a search calls
        # them hundreds of thousands of times a second, and a wrapper's frame costs more
        # than most of them. (The methods below remain the interface and its documentation.)
        self.play = board.play
        self.undo = board.undo
        self.is_terminal = board.is_over
        self.noisy_moves = board.noisy_moves
        self.ordered_moves = board.ordered_moves
        self.exchange = board.exchange
        self.in_check = board.in_check
        self.play_null = board.play_null
        self.null_move_allowed = board.has_pieces
        self.history_draw = board.history_draw
        self.evaluate = board.evaluate

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Chess:
        return cls.on_board(text, BOARD)

    @classmethod
    def on_board(cls, text: str, board_class: type) -> Chess:
        """`from_position` on a given board implementation (`Board`, the pure-Python
        reference, or `CompiledBoard`)."""
        fen = text.strip()
        if fen.startswith("fen "):
            fen = fen[4:].strip()
        if not fen or fen == "startpos":
            fen = START_FEN
        try:
            checked = chess.Board(fen)
        except ValueError as exc:  # python-chess's message ends quoting the whole FEN
            checked = _epd(fen)
            if checked is None:
                raise NotationError(f"not a FEN: {_QUOTED_FEN.split(str(exc), 1)[0]}") from None
        for name, value in (
            ("halfmove clock", checked.halfmove_clock),
            ("fullmove number", checked.fullmove_number),
        ):
            if value > MAX_MOVE_COUNTER:
                raise NotationError(
                    f"the {name} must be at most {MAX_MOVE_COUNTER}, not {quoted(str(value), 12)}"
                )
        problem = _status_problem(checked)
        if problem:
            raise NotationError(f"not a legal position: {problem}")
        pieces = {
            to_88(square): 8 * (piece.color == chess.BLACK) + piece.piece_type
            for square, piece in checked.piece_map().items()
        }
        castling = 0
        for bit, square in enumerate((chess.H1, chess.A1, chess.H8, chess.A8)):
            if checked.castling_rights & chess.BB_SQUARES[square]:
                castling |= 1 << bit
        ep = to_88(checked.ep_square) if checked.ep_square is not None else -1
        board = board_class.from_fields(
            pieces,
            WHITE if checked.turn == chess.WHITE else BLACK,
            castling,
            ep,
            checked.halfmove_clock,
            checked.fullmove_number,
        )
        return cls(board)

    def position(self) -> str:
        board = self.board
        squares = board.squares
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                piece = squares[16 * rank + file]
                if not piece:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                letter = _LETTERS[piece & 7]
                row += letter.upper() if piece >> 3 == WHITE else letter
            rows.append(row + (str(empty) if empty else ""))
        castling = "".join(letter for bit, letter in enumerate("KQkq") if board.castling >> bit & 1)
        ep = square_name(board.ep) if board.ep >= 0 else "-"
        turn = "w" if board.turn == WHITE else "b"
        return f"{'/'.join(rows)} {turn} {castling or '-'} {ep} {board.halfmove} {board.fullmove}"

    def parse_move(self, text: str) -> Move:
        word = text.strip()
        match = _UCI_MOVE.match(word)
        if match is None:
            match = _UCI_MOVE.match(self._san_as_uci(word))
        if match is None:  # pragma: no cover - python-chess writes every legal move as UCI
            raise NotationError(f"{quoted(word)} is not a move of standard chess")
        frm, to, letter = match.groups()
        move = encode(_square(frm), _square(to), _PROMOTION_KIND.get(letter, 0))
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{frm}{to}{letter} is not a legal move here{self._over()}")
        return move

    def _san_as_uci(self, word: str) -> str:
        """The legal move that SAN `word` names, as UCI (python-chess reads it). python-chess's
        own messages quote the whole input: they are not passed on."""
        not_a_move = (
            f"{quoted(word)} is not a move: write it as UCI (e2e4, e7e8q) or SAN (Nf3, O-O)"
        )
        if len(word) > _MAX_SAN:
            raise NotationError(not_a_move)
        try:
            parsed = self.python_chess().parse_san(word)
        except chess.IllegalMoveError:
            raise IllegalMoveError(
                f"{quoted(word)} is not a legal move here{self._over()}"
            ) from None
        except chess.AmbiguousMoveError:
            raise NotationError(
                f"{quoted(word)} is ambiguous here: name the piece's file or rank (Nbd2), or "
                "write UCI (b1d2)"
            ) from None
        except ValueError:  # chess.InvalidMoveError and the like
            raise NotationError(not_a_move) from None
        if not parsed:  # python-chess reads 0000, --, Z0 and @@@@ as the null move
            raise IllegalMoveError(
                f"{quoted(word)} is a null move (a pass), which the rules of chess do not allow"
            )
        return parsed.uci()

    def _over(self) -> str:
        return f" (the game is over: {self.terminal_reason()})" if self.is_terminal() else ""

    def format_move(self, move: Move) -> str:
        frm, to, promotion = move & 127, (move >> 7) & 127, move >> 14
        return square_name(frm) + square_name(to) + _PROMOTION_LETTER.get(promotion, "")

    def python_chess(self) -> chess.Board:
        """This position as a python-chess board (for SAN and PGN at the edges)."""
        return chess.Board(self.position())

    # -- presentation -----------------------------------------------------------------------

    def label_line(self, moves: Sequence[Move]) -> list[str]:
        """SAN, as chess players read moves (python-chess); a move that does not fit the
        line (none should) ends it in UCI."""
        board = self.python_chess()
        labels = []
        for move in moves:
            uci = self.format_move(move)
            try:
                played = chess.Move.from_uci(uci)
                labels.append(board.san(played))
                board.push(played)
            except (ValueError, AssertionError):
                labels.append(uci)
                break
        return labels

    def move_number(self) -> int:
        return self.board.fullmove

    def move_labels(self, moves: Iterable[Move]) -> list[str]:
        board = self.python_chess()
        return [board.san(chess.Move.from_uci(self.format_move(move))) for move in moves]

    @classmethod
    def outcome_label(cls, won: bool, plies: int) -> str:
        """Mates in moves, as UCI and chess programs count them: "mate in 2", "mated in 3"."""
        return f"{'mate' if won else 'mated'} in {(plies + 1) // 2}"

    def diagram(self, last: Move | None = None) -> Diagram:
        """The board, rank 8 at the top, pieces as symbols in their side's colour; a move
        is a click on its piece, then on its square (a promotion asks for the piece). The
        last move's squares and a king in check are highlighted."""
        board = self.board
        squares = board.squares
        places = []
        for top in range(8):
            for file in range(8):
                square = 16 * (7 - top) + file
                piece = squares[square]
                places.append(
                    Place(
                        square_name(square),
                        top,
                        file,
                        _GLYPHS[piece & 7] if piece else "",
                        piece >> 3 if piece else -1,
                    )
                )
        highlights = []
        if last is not None:
            highlights += [square_name(last & 127), square_name((last >> 7) & 127)]
        if board.in_check():
            highlights.append(square_name(board.kings[board.turn]))
        return Diagram(
            GRID,
            rows=8,
            columns=8,
            places=tuple(places),
            targets=tuple(
                Target(move, (square_name((move >> 7) & 127),), square_name(move & 127))
                for move in self.legal_moves()
            ),
            highlights=tuple(highlights),
            column_labels=tuple("abcdefgh"),
            row_labels=tuple("87654321"),
            colors=("#ffffff", "#111111"),
            checkered=True,
        )

    def export_record(
        self,
        moves: Sequence[str],
        players: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
        comments: Sequence[str] = (),
    ) -> GameRecord:
        """PGN (python-chess): the Seven Tag Roster with White and Black from `players`,
        the result and the termination from the final position, then `headers` over them;
        a comment after each move (comments beyond the moves go to the last one)."""
        texts = self.clone().read_moves(moves)
        extra = " ".join(comments[len(texts) :])
        return self._pgn(self.checked_tree(line_nodes(texts, comments)), players, headers, extra)

    def export_tree(
        self,
        nodes: Sequence[RecordNode],
        players: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """PGN with variations, as `export_record` writes a line; each node's evaluation
        and clock time go into its comment as lichess writes them: `[%eval 0.35]` (pawns
        from White's side, `[%eval #3]` a mate), `[%clk 0:04:59]`."""
        return self._pgn(self.checked_tree(nodes), players, headers)

    def _pgn(
        self,
        tree: Sequence[RecordNode],
        players: Sequence[str],
        headers: Mapping[str, str] | None,
        closing: str = "",
    ) -> GameRecord:
        """The one PGN writer: `tree` (checked) from this position; `closing` is a comment
        after the main line's last move."""
        board = self.python_chess()
        record = chess.pgn.Game()
        if board.fen() != chess.STARTING_FEN:
            record.setup(board)
        written: list[chess.pgn.GameNode] = []
        for node in tree:
            parent = record if node.parent < 0 else written[node.parent]
            child = parent.add_variation(chess.Move.from_uci(node.move), comment=node.comment)
            child.set_eval(_pov_score(node))
            child.set_clock(None if node.clock_ms is None else node.clock_ms / 1000)
            written.append(child)
        line = main_line(tree)
        last = written[line[-1]] if line else record
        last.comment = f"{last.comment} {closing}".strip()
        final = self.clone()
        final.play_line([tree[index].move for index in line])
        names = [*players, "?", "?"]
        record.headers.update(White=names[0] or "?", Black=names[1] or "?", Result="*")
        if final.is_terminal():
            record.headers["Result"] = _PGN_RESULTS.get(final.returns(), "*")
            record.headers["Termination"] = final.terminal_reason()
        record.headers.update(headers or {})
        return GameRecord("pgn", "application/x-chess-pgn", str(record) + "\n")

    @classmethod
    def read_record(cls, text: str) -> GameTree:
        """The first game of a PGN (python-chess reads it) with its variations; `[%clk]` and
        `[%eval]` are read out of the comments. An illegal move is named by its number and
        SAN (``move 3. Qxf7 is illegal here``)."""
        check_record_size(text)
        builder = _TreeBuilder()
        with reading(cls.name, "record", text):
            record = chess.pgn.read_game(io.StringIO(text), Visitor=lambda: builder)
        if record is None or not (record.variations or builder.tags):
            raise NotationError("the text holds no PGN game")
        start = cls.read_position(record.board().fen())
        tree = start.checked_tree(_flatten(record))
        return GameTree(start.position(), dict(record.headers), tree)

    def start_and_moves(self) -> tuple[str, list[str]]:
        """The FEN of the earliest position this game knows and the moves played since, in
        UCI: what a UCI engine needs to see repetitions (`position fen F moves M ...`).
        Each move is found again by the key of the position it led to."""
        game = self.clone()
        moves: list[str] = []
        while game.ply() > 0:
            after = game.board.key
            game.undo()
            move = next((m for m in game.board.legal_moves() if game._key_after(m) == after), None)
            if move is None:  # not a move of the game (a search's null move)
                return self.position(), []
            moves.append(game.format_move(move))
        return game.position(), moves[::-1]

    def _key_after(self, move: Move) -> int:
        self.board.play(move)
        key = self.board.key
        self.board.undo()
        return key

    # -- rules ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self.board.turn

    def legal_moves(self) -> list[Move]:
        board = self.board
        return [] if board.is_over() else board.legal_moves()

    def play(self, move: Move) -> None:
        self.board.play(move)

    def undo(self) -> None:
        self.board.undo()

    def is_terminal(self) -> bool:
        """No legal move, or a draw by rule (the board's `is_over`)."""
        return self.board.is_over()

    def returns(self) -> tuple[float, ...]:
        if self.board.has_moves() or not self.board.in_check():
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.board.turn == WHITE else (1.0, -1.0)

    def terminal_reason(self) -> str:
        board = self.board
        if not board.has_moves():
            if board.in_check():
                return "checkmate, " + ("Black" if board.turn == WHITE else "White") + " wins"
            return "draw by stalemate"
        if board.halfmove >= 100:
            return "draw by the fifty-move rule"
        if board.insufficient_material():
            return "draw by insufficient material"
        return "draw by threefold repetition"

    def clone(self) -> Chess:
        return Chess(self.board.copy())

    def render(self) -> str:
        board = self.board
        squares = board.squares
        lines = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = squares[16 * rank + file]
                letter = _LETTERS[piece & 7]
                cells.append(letter.upper() if piece and piece >> 3 == WHITE else letter)
            lines.append(f"{rank + 1}  {' '.join(cells)}")
        lines.append("   a b c d e f g h")
        lines.append(("White" if board.turn == WHITE else "Black") + " to move")
        return "\n".join(lines)

    # -- capabilities -----------------------------------------------------------------------

    def key(self) -> int:
        return self.board.key

    def evaluate(self, player: int | None = None) -> int:
        """The board's `evaluate` (PeSTO)."""
        return self.board.evaluate(player)

    def noisy_moves(self) -> list[Move]:
        """Captures and queen promotions, most valuable victim first, then least valuable
        attacker (MVV-LVA)."""
        return self.board.noisy_moves()

    def exchange(self, move: Move) -> int:
        """Static exchange evaluation in centipawns (pawn 100, knight and bishop 300, rook
        500, queen 900): the board's `exchange`."""
        return self.board.exchange(move)

    def ordered_moves(self) -> list[Move]:
        return self.board.ordered_moves()

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Random legal moves to the end of the game: each move drawn from the pseudo-legal
        ones and tested alone, instead of generating every legal move."""
        board = self.board
        played = 0
        try:
            while True:
                move = self._random_legal_move(rng)
                if move is None:
                    if board.in_check():
                        result = (-1.0, 1.0) if board.turn == WHITE else (1.0, -1.0)
                        break
                    result = (0.0, 0.0)
                    break
                if (
                    board.halfmove >= 100
                    or (board.halfmove == 0 and board.insufficient_material())
                    or board.repetitions(board.halfmove) >= 2
                ):
                    result = (0.0, 0.0)
                    break
                if record is not None:
                    record.append((board.turn, move))
                board.play(move)
                played += 1
        finally:
            for _ in range(played):
                board.undo()
        return result

    def _random_legal_move(self, rng: random.Random) -> int | None:
        moves = self.board.pseudo_moves()
        while moves:
            index = rng.randrange(len(moves))
            move = moves[index]
            if self.board.is_legal(move):
                return move
            moves[index] = moves[-1]
            moves.pop()
        return None

    def in_check(self) -> bool:
        return self.board.in_check()

    def play_null(self) -> None:
        self.board.play_null()

    def null_move_allowed(self) -> bool:
        """The side to move has a piece besides pawns and king (zugzwang is then rare)."""
        return self.board.has_pieces()

    def ply(self) -> int:
        return len(self.board.history) - 1

    def history_draw(self, root_ply: int) -> bool:
        """A repetition (see `HistoryDraws`), or the fifty-move rule where no mate ends it
        (the board's `history_draw`)."""
        return self.board.history_draw(root_ply)


class _TreeBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder that stops at the first error (an illegal move named by
    its number and SAN) instead of skipping the rest of its variation."""

    tags = 0
    """How many tags the text has (text with no tag and no move holds no game)."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, tagvalue)
        self.tags += 1

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        try:
            return super().parse_san(board, san)
        except ValueError:
            number = f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"
            raise IllegalMoveError(f"move {number} {san} is illegal here") from None

    def handle_error(self, error: Exception) -> None:
        if isinstance(error, NotationError | IllegalMoveError):
            raise error
        raise NotationError(f"cannot read the PGN: {error}")


def _flatten(record: chess.pgn.Game) -> list[RecordNode]:
    """A python-chess game's tree as RecordNodes, each after its parent, the main line
    first among each node's children (no recursion: a long game is deep)."""
    nodes: list[RecordNode] = []
    white_first = record.board().turn == chess.WHITE
    stack = [(child, -1, white_first) for child in reversed(record.variations)]  # White moved?
    while stack:
        node, parent, white_moved = stack.pop()
        check_node_count(len(nodes) + 1)
        seconds = node.clock()
        centi, plies = _white_eval(node.comment, white_to_move=not white_moved)
        nodes.append(
            RecordNode(
                parent,
                node.move.uci(),
                comment=_plain_comment(node.comment),
                clock_ms=None if seconds is None else round(seconds * 1000),
                eval_centi=centi,
                eval_plies=plies,
            )
        )
        index = len(nodes) - 1
        stack.extend((child, index, not white_moved) for child in reversed(node.variations))
    return nodes


def _white_eval(comment: str, white_to_move: bool) -> tuple[int | None, int | None]:
    """The `[%eval ...]` of a comment from White's side: centipawns, or for a mate in N
    moves the plies to it (negative: Black mates; `#0`, a mate on the board, is None)."""
    found = chess.pgn.EVAL_REGEX.search(comment)
    if not found:
        return None, None
    if not found.group("mate"):
        return round(float(found.group("cp")) * 100), None
    moves = int(found.group("mate"))
    if moves == 0:
        return None, None
    winner_moves = (moves > 0) == white_to_move  # the winner moves first: one ply fewer
    plies = 2 * abs(moves) - (1 if winner_moves else 0)
    return None, plies if moves > 0 else -plies


def _plain_comment(comment: str) -> str:
    """A comment without its `[%clk]` and `[%eval]` commands."""
    for command in (chess.pgn.CLOCK_REGEX, chess.pgn.EVAL_REGEX):
        comment = command.sub("", comment)
    return " ".join(comment.split())


def _pov_score(node: RecordNode) -> chess.engine.PovScore | None:
    """A node's evaluation for python-chess's `set_eval` (from White's side; a mate in
    moves, from its plies)."""
    if node.eval_plies:
        moves = (abs(node.eval_plies) + 1) // 2
        mate = chess.engine.Mate(moves if node.eval_plies > 0 else -moves)
        return chess.engine.PovScore(mate, chess.WHITE)
    if node.eval_centi is not None:
        return chess.engine.PovScore(chess.engine.Cp(node.eval_centi), chess.WHITE)
    return None
