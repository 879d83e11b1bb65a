"""How the CLI writes a game's moves and scores for people.

Every game is shown in its wire notation, with wins and losses in plies, except chess: lines
in SAN (python-chess, at the edge, as chess players read them) and mates counted in moves
(`mate in 2`, `mated in 3`), as UCI and chess GUIs count them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import chess

from kibitz.clients.values import Score, ScoreKind


class Display:
    """The wire's notation as it is."""

    def line(self, moves: Sequence[str]) -> list[str]:
        """A line of moves from the searched position, as people read it."""
        return list(moves)

    def score(self, score: Score) -> str:
        return str(score)


class ChessDisplay(Display):
    """Chess: SAN lines from the searched position, mates in moves."""

    def __init__(self, position: str, moves: Iterable[str]) -> None:
        text = position.strip().removeprefix("fen ").strip()
        self.board = chess.Board(text if text and text != "startpos" else chess.STARTING_FEN)
        for move in moves:
            for word in move.replace(",", " ").split():
                self.board.push(_read(self.board, word))

    def line(self, moves: Sequence[str]) -> list[str]:
        board = self.board.copy(stack=False)
        written = []
        for text in moves:
            try:
                move = chess.Move.from_uci(text)
                written.append(board.san(move))
                board.push(move)
            except (ValueError, AssertionError):  # not a move here: show it as it came
                written.append(text)
                break
        return written

    def score(self, score: Score) -> str:
        """A mate (proven, or a bound such as ``>=mate in 3``) in moves; the rest as is."""
        moves = (score.plies + 1) // 2
        if score.kind is ScoreKind.WIN:
            return score.qualifier() + f"mate in {moves}"
        if score.kind is ScoreKind.LOSS:
            return score.qualifier() + f"mated in {moves}"
        return str(score)


def _read(board: chess.Board, word: str) -> chess.Move:
    try:
        return board.parse_uci(word)
    except ValueError:
        return board.parse_san(word)


def display_for(game: str, position: str = "", moves: Iterable[str] = ()) -> Display:
    """The display of `game` at the searched position (`position` after `moves`, which the
    server has checked: a chess display that cannot read them falls back to the wire's)."""
    if game != "chess":
        return Display()
    try:
        return ChessDisplay(position, moves)
    except ValueError:
        return Display()
