"""Connect Four bitboards, checked against a naive 2D-grid reference and published perft."""

from __future__ import annotations

import random

import pytest

from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.connect4 import ConnectFour

# Nodes at each ply from the empty board (published, e.g. chessprogramming.org "Perft").
KNOWN_PERFT = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]
CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6]
DRAWN_GAME = "442761225377252342545563474175371666631311"
DRAWN_BOARD = "oooxoxo/xxoxoox/xxxoxxo/xooxxoo/oxoooxx/oxoxxxo"
EMPTY_BOARD = "/".join(["......."] * 6)


class Ref:
    """Naive Connect Four on a list of rows (row 0 at the bottom) of 'x', 'o', '.'."""

    def __init__(self) -> None:
        self.grid = [["."] * 7 for _ in range(6)]
        self.heights = [0] * 7
        self.history: list[int] = []
        self.winner: str | None = None

    @property
    def turn(self) -> str:
        return "xo"[len(self.history) % 2]

    def moves(self) -> list[int]:
        if self.winner or len(self.history) == 42:
            return []
        return [col for col in range(7) if self.heights[col] < 6]

    def play(self, col: int) -> None:
        row, mark = self.heights[col], self.turn
        self.grid[row][col] = mark
        self.heights[col] += 1
        self.history.append(col)
        if self.four_through(row, col, mark):
            self.winner = mark

    def undo(self) -> None:
        col = self.history.pop()
        self.heights[col] -= 1
        self.grid[self.heights[col]][col] = "."
        self.winner = None

    def four_through(self, row: int, col: int, mark: str) -> bool:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < 6 and 0 <= c < 7 and self.grid[r][c] == mark:
                    run += 1
                    r, c = r + sign * dr, c + sign * dc
            if run >= 4:
                return True
        return False

    def board(self) -> str:
        return "/".join("".join(row) for row in reversed(self.grid))

    def wins_at_once(self) -> set[int]:
        """Columns where the side to move completes four now."""
        found = set()
        for col in self.moves():
            self.play(col)
            if self.winner:
                found.add(col)
            self.undo()
        return found


def perft(game, depth: int) -> int:
    """Bulk-counted perft on either implementation (`legal_moves` or `moves`)."""
    moves = game.legal_moves() if isinstance(game, ConnectFour) else game.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


def random_games(count: int, seed: int):
    """Yield (game, ref) pairs at every position of `count` random games."""
    rng = random.Random(seed)
    for _ in range(count):
        game, ref = ConnectFour(), Ref()
        yield game, ref
        while not game.is_terminal():
            col = rng.choice(game.legal_moves())
            game.play(col)
            ref.play(col)
            yield game, ref


def sequence(moves: str) -> ConnectFour:
    return ConnectFour.from_position(moves)


# -- perft and reference agreement ---------------------------------------------------------------


def test_perft_matches_published_numbers() -> None:
    game = ConnectFour()
    assert [perft(game, d) for d in range(1, 9)] == KNOWN_PERFT
    assert game.position() == EMPTY_BOARD


def test_reference_perft_matches_published_numbers() -> None:
    assert [perft(Ref(), d) for d in range(1, 8)] == KNOWN_PERFT[:7]


def test_random_games_agree_with_reference() -> None:
    for game, ref in random_games(300, seed=7):
        assert game.legal_moves() == ref.moves()
        assert game.is_terminal() == (not ref.moves())
        assert game.position() == ref.board()
        assert game.moves_played() == len(ref.history)
        assert game.to_move() == len(ref.history) % 2
        if game.is_terminal():
            expected = {"x": (1.0, -1.0), "o": (-1.0, 1.0), None: (0.0, 0.0)}[ref.winner]
            assert game.returns() == expected


def test_keys_identify_positions() -> None:
    """Over all positions up to 5 plies: equal keys exactly for equal boards."""
    by_board: dict[str, int] = {}

    def walk(game: ConnectFour, ref: Ref, depth: int) -> None:
        by_board.setdefault(ref.board(), game.key())
        assert by_board[ref.board()] == game.key()
        if depth:
            for col in game.legal_moves():
                game.play(col)
                ref.play(col)
                walk(game, ref, depth - 1)
                ref.undo()
                game.undo()

    walk(ConnectFour(), Ref(), 5)
    assert len(set(by_board.values())) == len(by_board)


def test_undo_restores_key_and_position() -> None:
    rng = random.Random(11)
    game = sequence("4453")
    before = (game.position(), game.key(), game.to_move(), game.moves_played())
    for _ in range(50):
        played = 0
        while not game.is_terminal():
            game.play(rng.choice(game.legal_moves()))
            played += 1
            assert ConnectFour.from_position(game.position()).key() == game.key()
        for _ in range(played):
            game.undo()
        assert (game.position(), game.key(), game.to_move(), game.moves_played()) == before


def test_mirror_key() -> None:
    rng = random.Random(5)
    for _ in range(100):
        moves = "".join(str(rng.randint(1, 7)) for _ in range(rng.randint(0, 9)))
        try:
            game = sequence(moves)
        except ValueError:
            continue
        mirrored = sequence("".join(str(8 - int(d)) for d in moves))
        assert game.mirror_key() == mirrored.key()
        assert mirrored.mirror_key() == game.key()
    assert sequence("4444").mirror_key() == sequence("4444").key()
    assert sequence("12").mirror_key() != sequence("12").key()


# -- terminal positions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("1122334", "x"),  # horizontal
        ("7244635", "x"),  # horizontal
        ("17261465", "o"),  # horizontal
        ("1212121", "x"),  # vertical
        ("22327242", "o"),  # vertical
        ("55312534544", "x"),  # diagonal /
        ("3243445555", "o"),  # diagonal /
        ("53234632422", "x"),  # diagonal \
        ("674675441455", "o"),  # diagonal \
    ],
)
def test_four_in_a_row(moves: str, winner: str) -> None:
    assert not sequence(moves[:-1]).is_terminal()
    game = sequence(moves)
    assert game.is_terminal()
    assert game.legal_moves() == []
    assert game.returns() == ((1.0, -1.0) if winner == "x" else (-1.0, 1.0))
    assert game.terminal_reason() == f"{winner} has four in a row"
    board = ConnectFour.from_position(game.position())
    assert board.is_terminal() and board.returns() == game.returns()


def test_draw_on_full_board() -> None:
    game = sequence(DRAWN_GAME)
    assert game.position() == DRAWN_BOARD
    for parsed in (game, ConnectFour.from_position(DRAWN_BOARD)):
        assert parsed.is_terminal()
        assert parsed.legal_moves() == []
        assert parsed.returns() == (0.0, 0.0)
        assert parsed.terminal_reason() == "draw: the board is full"
    game.undo()
    assert not game.is_terminal()
    assert game.legal_moves() == [0]


# -- notation ------------------------------------------------------------------------------------


def test_default_position_and_render() -> None:
    game = ConnectFour.from_position("")
    assert game.position() == ConnectFour.default_position == EMPTY_BOARD
    game.play_line(game.split_moves("4453"))
    assert game.render() == "\n".join(
        [". . . . . . ."] * 4 + [". . . o . . .", ". . o x x . .", "1 2 3 4 5 6 7"]
    )


@pytest.mark.parametrize(
    ("text", "board"),
    [
        ("4453", "......./......./......./......./...o.../..oxx.."),
        ("4 4,5 3", "......./......./......./......./...o.../..oxx.."),
        ("......./......./......./......./...o.../..oxx..", None),
        ("......./......./......./......./......./...x...", None),
        (DRAWN_BOARD, None),
    ],
)
def test_position_round_trip(text: str, board: str | None) -> None:
    game = ConnectFour.from_position(text)
    assert game.position() == (board or text)
    again = ConnectFour.from_position(game.position())
    assert (again.position(), again.key(), again.to_move()) == (
        game.position(),
        game.key(),
        game.to_move(),
    )


def test_board_and_sequence_give_the_same_position() -> None:
    game = sequence("4453")
    board = ConnectFour.from_position(game.position())
    assert board.key() == game.key()
    assert board.to_move() == game.to_move() == 0
    assert board.moves_played() == 4
    assert board.legal_moves() == game.legal_moves()


@pytest.mark.parametrize(
    ("text", "error", "culprit"),
    [
        ("4480", NotationError, "move 3 ('8'): '8' is not a column"),
        ("4404", NotationError, "move 3 ('0')"),
        ("4444444", IllegalMoveError, "move 7 ('4'): column 4 is full"),
        ("121212134", IllegalMoveError, "move 8 ('3'): the game is over: x has four in a row"),
        ("hello", NotationError, "'hello' is neither a move sequence"),
        ("44a3", NotationError, "'44a3'"),
        ("......./......./......./......./.......", NotationError, "the board has 5 rows"),
        (
            "......./......./......./......./......../.......",
            NotationError,
            "row 5 from the top ('........') has 8 cells",
        ),
        (
            "......./......./......./......./......./..x.z..",
            NotationError,
            "row 6 from the top, column 5: 'z'",
        ),
        (
            "......./......./......./......./...x.../.x.o.x.",
            NotationError,
            "x has 3 stones and o has 1",
        ),
        (
            "......./......./......./......./...x.../......o",
            NotationError,
            "column 4: the cell in row 6 from the top is empty",
        ),
        (
            "......./......./...o.../......./...x.../...x...",
            NotationError,
            "column 4: the cell in row 4 from the top is empty",
        ),
        (
            "......./......./......./......./....o../...ooxx",
            NotationError,
            "x has 2 stones and o has 3",
        ),
        (
            "......./......./xo...../xo...../xo...../xo.....",
            NotationError,
            "both x and o have four in a row",
        ),
        (
            "......./......./o....../ox...../ox...../oxxx...",
            NotationError,
            "o has four in a row but x moved last",
        ),
        (
            "......./......./o....../xo...../xooo.../xxxxo.x",
            NotationError,
            "x has four in a row that no single last move completed",
        ),
    ],
)
def test_position_errors(text: str, error: type, culprit: str) -> None:
    with pytest.raises(error) as info:
        ConnectFour.from_position(text)
    assert culprit in str(info.value)


@pytest.mark.parametrize(
    ("position", "move", "error", "culprit"),
    [
        ("", "8", NotationError, "'8' is not a column"),
        ("", "0", NotationError, "'0'"),
        ("", "44", NotationError, "'44'"),
        ("", "d", NotationError, "'d'"),
        ("444444", "4", IllegalMoveError, "column 4 is full"),
        ("1212121", "3", IllegalMoveError, "the game is over: x has four in a row"),
    ],
)
def test_move_errors(position: str, move: str, error: type, culprit: str) -> None:
    with pytest.raises(error) as info:
        sequence(position).parse_move(move)
    assert culprit in str(info.value)


def test_split_moves() -> None:
    game = ConnectFour()
    assert game.split_moves("4453") == ["4", "4", "5", "3"]
    assert game.split_moves(" 44, 5 3 ") == ["4", "4", "5", "3"]
    assert game.split_moves("4 x 5") == ["4", "x", "5"]
    assert [game.format_move(c) for c in range(7)] == list("1234567")


# -- search helpers ------------------------------------------------------------------------------


def test_winning_moves_and_can_win_next() -> None:
    game = sequence("121212")  # x to move, x threatens column 1, o threatens column 2
    assert game.winning_moves() == [0]
    assert game.can_win_next()
    game.play(2)
    assert game.winning_moves() == [1]
    assert not sequence("4453").can_win_next()
    assert sequence("4453").winning_moves() == []
    terminal = sequence("1212121")
    assert terminal.winning_moves() == [] and not terminal.can_win_next()


def test_non_losing_moves() -> None:
    assert sequence("12121").non_losing_moves() == [0]  # o must block column 1
    assert sequence("22334").non_losing_moves() == []  # x threatens columns 1 and 5
    # o to move must not play under x's threats at columns 1 and 5 (row 2).
    game = ConnectFour.from_position("......./......./......./......./.xxx.../.oox..o")
    assert game.to_move() == 1 and not game.can_win_next()
    assert game.non_losing_moves() == [3, 2, 1, 5, 6]
    assert ConnectFour().non_losing_moves() == CENTRE_FIRST


def test_helpers_agree_with_reference_brute_force() -> None:
    for game, ref in random_games(150, seed=13):
        assert set(game.winning_moves()) == ref.wins_at_once()
        assert game.can_win_next() == bool(ref.wins_at_once())
        if game.is_terminal() or game.can_win_next():
            continue
        safe = set()
        for col in ref.moves():
            ref.play(col)
            if not ref.wins_at_once():
                safe.add(col)
            ref.undo()
        assert set(game.non_losing_moves()) == safe


def test_ordered_moves() -> None:
    assert ConnectFour().ordered_moves() == CENTRE_FIRST
    # x to move with x on 3 and 4 of the bottom row: 5 and 2 make two threats each.
    assert sequence("3344").ordered_moves()[:2] == [4, 1]
    for game, _ in random_games(30, seed=17):
        assert sorted(game.ordered_moves()) == game.legal_moves()


def test_evaluate() -> None:
    assert ConnectFour().evaluate() == 0
    assert sequence("121212").evaluate() > 1000  # x to move wins at once
    assert sequence("4").evaluate() < 0  # o to move, x holds the centre
    for game, _ in random_games(30, seed=19):
        assert abs(game.evaluate()) < 100_000
