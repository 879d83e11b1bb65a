"""Board diagrams for the page: a game's position text, read into plain JSON that the page
draws (kibitz/web/static/boards.js).

The gateway is a client of the service: it knows games only by their notations (README,
docs/games.md), never by importing kibitz.games. A position it cannot read (a plugin game,
or a notation that changed) has no diagram, and the page shows the server's text board.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import chess


def diagram(game: str, position: str) -> dict[str, Any] | None:
    """The diagram of `position` (the server's own text of it, from Describe), or None."""
    reader = _READERS.get(game)
    if reader is None:
        return None
    try:
        return {"kind": game, **reader(position.strip())}
    except (ValueError, IndexError, KeyError):
        return None


def _rows(text: str, width: int, height: int, cells: str) -> list[str]:
    rows = text.split("/")
    if len(rows) != height or any(len(row) != width or set(row) - set(cells) for row in rows):
        raise ValueError(text)
    return rows


def connect4(position: str) -> dict[str, Any]:
    """Six rows top first of x (first player), o, '.'."""
    rows = _rows(position, 7, 6, "xo.")
    stones = sum(row.count("x") + row.count("o") for row in rows)
    return {"rows": rows, "toMove": stones % 2}


def tictactoe(position: str) -> dict[str, Any]:
    """Three rows top first (row 3 first), then the side to move."""
    board, _, side = position.partition(" ")
    rows = _rows(board, 3, 3, "xo.")
    if not side:
        side = "x" if sum(r.count("x") for r in rows) <= sum(r.count("o") for r in rows) else "o"
    return {"rows": rows, "toMove": "xo".index(side)}


def hex_board(position: str) -> dict[str, Any]:
    """Rows top first, runs of empty cells as numbers, the side to move, ` swap`."""
    words = position.split()
    if len(words) == 1 and words[0].isdigit():  # a size alone: the empty board
        size = int(words[0])
        return {"size": size, "rows": ["." * size] * size, "toMove": 0, "swap": False}
    board, side, *rest = words
    rows = [re.sub(r"\d+", lambda m: "." * int(m.group()), row) for row in board.split("/")]
    size = len(rows)
    if any(len(row) != size or set(row) - set("bw.") for row in rows):
        raise ValueError(position)
    return {"size": size, "rows": rows, "toMove": "bw".index(side), "swap": rest == ["swap"]}


def nim(position: str) -> dict[str, Any]:
    """Heap sizes, then optionally the player to move (1 or 2)."""
    heaps, _, player = position.partition(" ")
    return {
        "heaps": [int(heap) for heap in heaps.split(",")],
        "toMove": int(player or "1") - 1,
    }


_PIG = re.compile(
    r"(?P<a>\d+)-(?P<b>\d+) \+(?P<turn>\d+) (?P<player>[12])(?P<roll> roll)?"
    r" goal=(?P<goal>\d+) moves=(?P<made>\d+)/(?P<horizon>\d+)"
)


def pig(position: str) -> dict[str, Any]:
    """`12-7 +5 1 goal=20 moves=9/40`, ` roll` before the die is rolled."""
    match = _PIG.fullmatch(position)
    if match is None:
        raise ValueError(position)
    return {
        "scores": [int(match["a"]), int(match["b"])],
        "turnTotal": int(match["turn"]),
        "toMove": int(match["player"]) - 1,
        "rolling": bool(match["roll"]),
        "goal": int(match["goal"]),
        "moves": int(match["made"]),
        "horizon": int(match["horizon"]),
    }


def chess_board(position: str) -> dict[str, Any]:
    """FEN: the pieces by square (a8 first, rank by rank), the side to move, the checked king."""
    text = position.removeprefix("fen ").strip()
    board = chess.Board(chess.STARTING_FEN if text in ("", "startpos") else text)
    squares = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            row += piece.symbol() if piece else "."
        squares.append(row)
    king = board.king(board.turn) if board.is_check() else None
    return {
        "rows": squares,
        "toMove": 0 if board.turn == chess.WHITE else 1,
        "check": chess.square_name(king) if king is not None else None,
    }


def _bits(text: str, count: int) -> list[int]:
    data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    return [(data[index // 8] >> (index % 8)) & 1 for index in range(count)]


def _number(bits: list[int], start: int, width: int) -> int:
    return sum(bit << i for i, bit in enumerate(bits[start : start + width]))


def backgammon(position: str) -> dict[str, Any]:
    """GNU Backgammon's Position ID, then `:31` (dice) or `:MatchID`.

    `points[i]` is point i+1 as the first player counts it (its home is 1-6): positive for
    the first player's checkers, negative for the second's; `bar` and `off` per player.
    """
    position_id, _, suffix = position.partition(":")
    if len(position_id) != 14:
        raise ValueError(position)
    sides = [[0] * 25, [0] * 25]  # the player not on roll, then the one on roll
    side, point = 0, 0
    for bit in _bits(position_id, 80):
        if side == 2:
            break
        if bit:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side, point = side + 1, 0
    other, mover = sides
    on_roll, dice = 0, None
    if len(suffix) == 12:  # a Match ID: the player on roll (bit 6) and the dice (15, 18)
        bits = _bits(suffix, 66)
        on_roll = bits[6]
        die1, die2 = _number(bits, 15, 3), _number(bits, 18, 3)
        dice = [die1, die2] if die1 and die2 else None
    elif suffix:
        digits = [int(c) for c in suffix if c.isdigit()]
        if len(digits) != 2 or not all(1 <= d <= 6 for d in digits):
            raise ValueError(position)
        dice = digits
    own = {on_roll: mover, 1 - on_roll: other}  # each side counts from its own home
    points = [0] * 24
    for index in range(24):
        points[index] += own[0][index]
        points[23 - index] -= own[1][index]
    return {
        "points": points,
        "bar": [own[0][24], own[1][24]],
        "off": [15 - sum(own[0]), 15 - sum(own[1])],
        "toMove": on_roll,
        "dice": dice,
        "pips": [
            sum((i + 1) * n for i, n in enumerate(own[player][:24])) + 25 * own[player][24]
            for player in (0, 1)
        ],
    }


_READERS = {
    "connect4": connect4,
    "tictactoe": tictactoe,
    "hex": hex_board,
    "nim": nim,
    "misere-nim": nim,
    "pig": pig,
    "chess": chess_board,
    "backgammon": backgammon,
}
