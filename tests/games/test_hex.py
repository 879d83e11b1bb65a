"""Hex bitboards, checked against a naive grid implementation, hand-made boards, known
results on small boards (proven by the alpha-beta engine and by a brute-force solver here)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from testdata import HEX_WINNING_FIRST_MOVES

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import SearchContext
from kibitz.engines.types import Limits
from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.hex import SWAP, Hex
from kibitz.vocabulary import ScoreKind

LETTERS = "abcdefghijklmnopqrs"
OFFSETS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
"""The six neighbours of (row, col) on the Hex grid."""


# -- an independent reference ---------------------------------------------------------------


def name(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def joined(cells: dict[tuple[int, int], str], mark: str, size: int) -> bool:
    """Breadth-first search: does `mark` join its edges (b: rows 1 and n, w: columns a and
    the last)?"""
    if mark == "b":
        todo = [(0, col) for col in range(size) if cells.get((0, col)) == mark]
    else:
        todo = [(row, 0) for row in range(size) if cells.get((row, 0)) == mark]
    seen = set(todo)
    while todo:
        row, col = todo.pop()
        if (row if mark == "b" else col) == size - 1:
            return True
        for dr, dc in OFFSETS:
            step = (row + dr, col + dc)
            if cells.get(step) == mark and step not in seen:
                seen.add(step)
                todo.append(step)
    return False


class Ref:
    """Naive Hex: a dict of (row, col) -> 'b' or 'w', a winner found by breadth-first
    search after every move, the swap as described in the notation help."""

    def __init__(self, size: int, swap_rule: bool = False) -> None:
        self.size = size
        self.swap_rule = swap_rule
        self.cells: dict[tuple[int, int], str] = {}
        self.turn = "b"
        self.history: list[str] = []

    def winner(self) -> str | None:
        return next((mark for mark in "bw" if joined(self.cells, mark, self.size)), None)

    def moves(self) -> list[str]:
        if self.winner():
            return []
        grid = [(row, col) for row in range(self.size) for col in range(self.size)]
        moves = [name(row, col) for row, col in grid if (row, col) not in self.cells]
        if self.swap_rule and self.turn == "w" and list(self.cells.values()) == ["b"]:
            moves.append("swap")
        return moves

    def play(self, move: str) -> None:
        if move == "swap":
            ((row, col),) = self.cells
            self.cells = {(col, row): "w"}
        else:
            self.cells[(int(move[1:]) - 1, LETTERS.index(move[0]))] = self.turn
        self.turn = "w" if self.turn == "b" else "b"
        self.history.append(move)

    def undo(self) -> None:
        move = self.history.pop()
        if move == "swap":
            ((row, col),) = self.cells
            self.cells = {(col, row): "b"}
        else:
            del self.cells[(int(move[1:]) - 1, LETTERS.index(move[0]))]
        self.turn = "w" if self.turn == "b" else "b"


def perft(game, depth: int) -> int:
    """Leaves `depth` plies down (positions where the game ended earlier count as none)."""
    moves = game.legal_moves() if isinstance(game, Hex) else game.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


def names(game: Hex, moves) -> list[str]:
    return sorted(game.format_move(move) for move in moves)


def board_text(cells: dict[tuple[int, int], str], size: int) -> str:
    """The rows of `cells` in the notation, with '.' for every empty cell (no runs)."""
    rows = ("".join(cells.get((row, col), ".") for col in range(size)) for row in range(size))
    return "/".join(rows)


def random_full_board(size: int, rng: random.Random) -> dict[tuple[int, int], str]:
    """A full board with ceil(n²/2) b and floor(n²/2) w, uniformly placed."""
    grid = [(row, col) for row in range(size) for col in range(size)]
    rng.shuffle(grid)
    return {spot: "b" if index % 2 == 0 else "w" for index, spot in enumerate(grid)}


# -- perft and agreement with the reference ---------------------------------------------------


@pytest.mark.parametrize(
    ("position", "depth"),
    [("1", 3), ("2", 4), ("3", 5), ("4", 3), ("5", 3), ("2 swap", 4), ("3 swap", 4)],
)
def test_perft_matches_the_reference(position: str, depth: int) -> None:
    game = Hex.from_position(position)
    size = int(position.split()[0])
    ref = Ref(size, swap_rule="swap" in position)
    expected = [perft(ref, d) for d in range(1, depth + 1)]
    assert [perft(game, d) for d in range(1, depth + 1)] == expected
    assert game.position() == Hex.from_position(position).position()


def test_perft_without_early_wins_is_a_falling_product() -> None:
    # A player needs n stones to join n rows: on 5x5 nobody can win within 8 plies.
    game = Hex.from_position("5")
    assert [perft(game, d) for d in range(1, 4)] == [25, 25 * 24, 25 * 24 * 23]
    # On 2x2 Black wins at ply 3 in the 12 of the 24 lines whose Black pair joins (a1-a2,
    # b1-a2 or b1-b2, in either order, with either White stone): 12 lines reach ply 4.
    assert [perft(Hex.from_position("2"), d) for d in (3, 4)] == [24, 12]
    # With the swap rule White has one move more at ply 2.
    assert perft(Hex.from_position("4 swap"), 2) == 16 * 16


def test_random_games_agree_with_the_reference() -> None:
    rng = random.Random(7)
    for game_number in range(120):
        size = 1 + game_number % 8
        swap_rule = game_number % 3 == 0
        game, ref = Hex.from_position(f"{size}{' swap' if swap_rule else ''}"), Ref(size, swap_rule)
        while True:
            assert names(game, game.legal_moves()) == sorted(ref.moves())
            assert game.to_move() == "bw".index(ref.turn)
            text = board_text(ref.cells, size) + " " + ref.turn
            assert Hex.from_position(text + (" swap" if swap_rule else "")).key() == game.key()
            if game.is_terminal():
                winner = ref.winner()
                assert game.returns() == ((1.0, -1.0) if winner == "b" else (-1.0, 1.0))
                break
            move = rng.choice(game.legal_moves())
            ref.play(game.format_move(move))
            game.play(move)


def test_keys_identify_positions() -> None:
    """All positions up to 4 plies on 3x3 with the swap rule: equal keys for equal
    positions (stones, side, swap allowed) only."""
    by_position: dict[str, int] = {}

    def walk(game: Hex, depth: int) -> None:
        swappable = SWAP in game.legal_moves()
        label = f"{game.position()} {swappable}"
        assert by_position.setdefault(label, game.key()) == game.key()
        if depth:
            for move in game.legal_moves():
                game.play(move)
                walk(game, depth - 1)
                game.undo()

    walk(Hex.from_position("3 swap"), 4)
    assert len(set(by_position.values())) == len(by_position)
    sizes = {Hex.from_position(str(size)).key() for size in range(1, 20)}
    assert len(sizes) == 19  # an empty board's key depends on its size


def test_undo_restores_everything() -> None:
    rng = random.Random(11)
    game = Hex.from_position("6 swap")
    before = (game.position(), game.key(), game.legal_moves(), game.render())
    for _ in range(30):
        played = 0
        while not game.is_terminal():
            game.play(rng.choice(game.legal_moves()))
            played += 1
            assert Hex.from_position(game.position()).key() == game.key()
        for _ in range(played):
            game.undo()
        assert (game.position(), game.key(), game.legal_moves(), game.render()) == before


# -- win detection ------------------------------------------------------------------------------


def cells_of(position: str) -> dict[tuple[int, int], str]:
    """The stones of a position in the notation (read here, not by the module)."""
    rows = re.sub(r"[0-9]+", lambda run: "." * int(run[0]), position.split()[0]).split("/")
    return {
        (row, col): mark
        for row, text in enumerate(rows)
        for col, mark in enumerate(text)
        if mark in "bw"
    }


def cell(move: str) -> tuple[int, int]:
    return int(move[1:]) - 1, LETTERS.index(move[0])


@pytest.mark.parametrize(
    ("before", "last", "winner"),
    [
        ("1", "a1", "b"),  # 1x1: Black's first stone joins top and bottom
        ("w1b2/w1b2/w1b2/w1b2/5 b", "c5", "b"),  # a straight column
        ("1b1ww/1bbb1/ww1b1/1bb1w/3ww b", "b5", "b"),  # a zig-zag, through d3 -> c4
        ("2b/w2/b1w b", "b2", "b"),  # c1-b2-a3: the (r-1, c+1) diagonal
        ("bb2/www1/bb2/4 w", "d2", "w"),  # a straight row for White
        ("2w/b1b/w1b w", "b2", "w"),  # a3-b2-c1 joins the columns too
    ],
)
def test_the_last_stone_wins(before: str, last: str, winner: str) -> None:
    game = Hex.from_position(before)
    size = len(before.split()[0].split("/"))
    assert not game.is_terminal()
    assert not joined(cells_of(before), winner, size)
    game.play_text(last)
    assert joined(cells_of(game.position()), winner, size)
    assert game.is_terminal() and game.legal_moves() == []
    assert game.returns() == ((1.0, -1.0) if winner == "b" else (-1.0, 1.0))
    assert game.terminal_reason() == (
        "Black (b) joins top and bottom" if winner == "b" else "White (w) joins left and right"
    )
    again = Hex.from_position(game.position())  # the finished board reads back as finished
    assert again.is_terminal() and again.returns() == game.returns()
    game.undo()
    assert not game.is_terminal() and game.position() == Hex.from_position(before).position()


@pytest.mark.parametrize(
    "position",
    [
        "b1w/1b1/w1b w",  # Black a1, b2, c3: (r-1, c-1) and (r+1, c+1) are not neighbours
        "w1b/bw1/b1w b",  # the same diagonal for White, a1 to c3
        "b1w/wb1/1bw b",  # Black b2-b3 reaches the bottom, a1 touches b2 only across a corner
    ],
)
def test_near_misses_are_not_wins(position: str) -> None:
    game = Hex.from_position(position)
    assert not game.is_terminal() and game.legal_moves()
    cells = cells_of(position)
    assert not joined(cells, "b", 3) and not joined(cells, "w", 3)


def column_path(detour_joins: bool) -> tuple[str, str]:
    """19x19: Black down column j to row 9, then i10, then column i (joined) or column j
    (j11 does not touch i10) to row 19, less the last stone; White on a1..a18."""
    size = 19
    black = [(row, 9) for row in range(9)] + [(9, 8)]
    black += [(row, 8 if detour_joins else 9) for row in range(10, size)]
    cells = {(row, 0): "w" for row in range(18)}
    cells.update({stone: "b" for stone in black[:-1]})
    rows = ("".join(cells.get((row, col), ".") for col in range(size)) for row in range(size))
    return "/".join(rows) + " b", name(*black[-1])


@pytest.mark.parametrize("detour_joins", [True, False])
def test_the_largest_board(detour_joins: bool) -> None:
    before, last = column_path(detour_joins)
    game = Hex.from_position(before)
    assert not game.is_terminal()
    game.play_text(last)
    assert game.is_terminal() == detour_joins == joined(cells_of(game.position()), "b", 19)


def test_random_full_boards_have_one_winner_the_reference_agrees_on() -> None:
    """Random full boards of every size 1..11, filled alternately in a random order: the
    game ends exactly when the reference's search first finds a chain, for that player."""
    rng = random.Random(3)
    for index in range(300):
        size = 1 + index % 11
        full = random_full_board(size, rng)
        assert joined(full, "b", size) != joined(full, "w", size)  # exactly one winner
        order = [c for c in full if full[c] == "b"], [c for c in full if full[c] == "w"]
        game = Hex.from_position(str(size))
        placed: dict[tuple[int, int], str] = {}
        for ply in range(size * size):
            mark = "bw"[ply % 2]
            stone = order[ply % 2][ply // 2]
            game.play_text(name(*stone))
            placed[stone] = mark
            if joined(placed, mark, size):
                assert game.is_terminal() and game.returns()[ply % 2] == 1.0
                assert joined(full, mark, size)
                break
            assert not game.is_terminal()
        assert game.is_terminal()


# -- playouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position", [*map(str, range(1, 12)), "bw1/1b1/3 w", "3/3/w2 b swap", "2b1/4/4/4 w swap"]
)
@pytest.mark.parametrize("patterns", [False, True], ids=["fill", "bridges"])
def test_playouts_fill_the_board_alternately_and_name_its_winner(
    position: str, patterns: bool
) -> None:
    """Against the reference's search on the board each playout filled (its `record`)."""
    game = Hex.from_position(position)
    size = len(game.position().split()[0].split("/"))
    stones = cells_of(game.position())
    before = (game.position(), game.key())
    rng = random.Random(position)
    outcomes = set()
    for _ in range(30):
        record: list = []
        returns = game.playout(rng, record, patterns=patterns)
        assert (game.position(), game.key()) == before
        empties = size * size - len(stones)
        assert [player for player, _ in record] == [
            (game.to_move() + index) % 2 for index in range(empties)
        ]
        full = dict(stones)
        for player, move in record:
            assert cell(game.format_move(move)) not in full
            full[cell(game.format_move(move))] = "bw"[player]
        assert len(full) == size * size
        assert returns == ((1.0, -1.0) if joined(full, "b", size) else (-1.0, 1.0))
        assert game.playout(rng, patterns=patterns) in ((1.0, -1.0), (-1.0, 1.0))
        outcomes.add(returns)
    assert len(outcomes) == (1 if size == 1 else 2)  # both colours win some random fills


def test_a_playout_fills_each_half_uniformly() -> None:
    """On the empty 2x2 board Black gets 2 of the 4 cells, each of the 6 pairs about equally
    often (1000 expected of 6000)."""
    game = Hex.from_position("2")
    rng = random.Random(9)
    pairs = Counter()
    for _ in range(6000):
        record: list = []
        game.playout(rng, record)
        pairs[tuple(sorted(move for player, move in record if player == 0))] += 1
    assert len(pairs) == 6
    assert all(900 < count < 1100 for count in pairs.values())


def test_the_bridges_a_stone_intrudes_on() -> None:
    """On 3x3 (bit r * 4 + c, 12 bits): the centre's six bridges (carrier, ends) for either
    player; at a corner only the bridge to the player's own edge (bit 12 + player)."""
    geometry = Hex.from_position("3")._geometry
    bit = {name(row, col): row * 4 + col for row in range(3) for col in range(3)}
    centre = [
        (bit[y], bit[a], bit[b])
        for y, a, b in (
            ("b1", "a2", "c1"),
            ("c1", "b1", "c2"),
            ("c2", "c1", "b3"),
            ("b3", "c2", "a3"),
            ("a3", "b3", "a2"),
            ("a2", "a3", "b1"),
        )
    ]
    assert list(geometry.bridges[0][bit["b2"]]) == list(geometry.bridges[1][bit["b2"]]) == centre
    # a1 and b1 on Black's edge, their other common neighbour a2; a1 and a2 on White's
    assert geometry.bridges[0][bit["a1"]] == ((bit["b1"], 12, bit["a2"]),)
    assert geometry.bridges[1][bit["a1"]] == ((bit["a2"], bit["b1"], 13),)


@pytest.mark.parametrize(
    ("moves", "answer"),
    [
        (["b3", "a5", "d2", "c3"], "c2"),  # a bridge between b3 and d2
        (["b3", "a5", "d2", "c2"], "c3"),
        (["c2", "c1"], "d1"),  # c2's bridge to the top edge
        (["c2", "d1"], "c1"),
        (["e1", "b3", "a3"], "a4"),  # White's b3 to the left edge
    ],
)
def test_a_bridge_playout_answers_the_intrusion(moves: list[str], answer: str) -> None:
    """Whatever the random numbers, the side to move answers first; a plain fill gives the
    answer's cell to the side to move only some of the time."""
    game = Hex.from_position("5")
    game.play_line(moves)
    answers = Counter()
    for seed in range(20):
        record: list = []
        game.playout(random.Random(seed), record, patterns=True)
        answers[game.format_move(record[0][1])] += 1
        assert record[0][0] == game.to_move()
    assert answers == {answer: 20}
    answered = 0
    for seed in range(20):
        record = []
        game.playout(random.Random(seed), record)
        answered += (game.to_move(), game.parse_move(answer)) in record
    assert 0 < answered < 20


def test_a_bridge_playout_shuffles_the_empty_cells_uniformly() -> None:
    """Without a last move to answer, the first cell is each of the 9 about equally often."""
    game = Hex.from_position("3")
    rng = random.Random(4)
    first = Counter()
    for _ in range(9000):
        record: list = []
        game.playout(rng, record, patterns=True)
        first[record[0][1]] += 1
    assert len(first) == 9 and all(880 < count < 1120 for count in first.values())


# -- notation ---------------------------------------------------------------------------------


def test_default_position_and_render() -> None:
    assert Hex.from_position("").position() == Hex.default_position
    assert Hex.default_position == "/".join(["11"] * 11) + " b"
    game = Hex.from_position("4")
    game.play_line(["b1", "c2", "a4"])
    assert game.position() == "1b2/2w1/4/b3 w"
    assert game.render() == "\n".join(
        [
            "    a b c d",
            "   ---------",
            "1 \\ . B . . \\ 1",
            " 2 \\ . . W . \\ 2",
            "  3 \\ . . . . \\ 3",
            "   4 \\ B . . . \\ 4",
            "      ---------",
            "       a b c d",
            "B joins the - edges (top, bottom), W the \\ edges (left, right)",
        ]
    )


def test_render_aligns_two_digit_rows() -> None:
    lines = Hex.from_position("11").render().splitlines()
    assert lines[2].startswith(" 1 \\ .") and lines[11].startswith("         10 \\ .")
    assert lines[11].index(".") == lines[10].index(".") + 1  # half a cell further right


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("7", "7/7/7/7/7/7/7 b"),
        ("  3  ", "3/3/3 b"),
        ("3 swap", "3/3/3 b swap"),
        ("3 SWAP", "3/3/3 b swap"),
        ("b2/1w1/3 b", None),
        ("B../.W./... B", "b2/1w1/3 b"),
        ("b.1/3/3 w", "b2/3/3 w"),
        ("b2/3/3 w swap", None),
        ("3/3/w2 b swap", None),  # after a swap: w has one stone more, b to move
        ("b w", None),  # 1x1, finished
        ("19", "/".join(["19"] * 19) + " b"),
        ("10w8/19/" + "/".join(["19"] * 16) + "/b18 b", None),
    ],
)
def test_positions_round_trip(text: str, position: str | None) -> None:
    game = Hex.from_position(text)
    assert game.position() == (position or text)
    again = Hex.from_position(game.position())
    assert (again.position(), again.key(), again.legal_moves()) == (
        game.position(),
        game.key(),
        game.legal_moves(),
    )


def test_moves_read_and_write_cell_names() -> None:
    game = Hex.from_position("19")
    assert game.format_move(game.parse_move("a1")) == "a1"
    assert game.format_move(game.parse_move(" S19 ")) == "s19"
    assert game.parse_move("d4") == game.parse_move("D4")
    assert names(game, game.legal_moves()) == sorted(
        f"{LETTERS[col]}{row}" for col in range(19) for row in range(1, 20)
    )


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("0", "board size '0' is out of range: Hex boards here are 1x1 to 19x19"),
        ("20", "board size '20' is out of range"),
        ("123456789", "board size '123456789' is out of range"),
        ("/".join(["20"] * 20) + " b", "the board has 20 rows: Hex boards here are 1x1 to 19x19"),
        ("b2/1w/3 b", "row 2 ('1w') has 2 cells, but the board has 3 rows and must be square"),
        ("4/4/4 b", "row 1 ('4') has 4 cells, but the board has 3 rows"),
        ("7 b", "row 1 ('7') has 7 cells, but the board has 1 row and must be square (the "),
        ("7 b", "the empty 7x7 board is just '7'"),
        ("b2/1x1/3 b", "row 2 ('1x1'): 'x' is not b, w, '.' or a number"),
        ("0b2/3/3 b", "row 1 ('0b2'): '0' is not a number of empty cells"),
        ("3/3/3 x", "side to move 'x' is not b or w"),
        ("3/3/3", "neither a board size like '7' nor a board and the side to move"),
        ("3/3/3 b extra", "neither a board size"),
        ("swap", "'swap' needs a board before it"),
        ("3/3/3 w", "b has 0 stones and w has 0, which cannot be with w to move"),
        ("b2/3/3 b", "with b to move both have as many stones"),
        ("b2/3/3 b swap", "(or, after a swap, w has one more)"),
        ("w2/3/3 b", "b has 0 stones and w has 1, which cannot be with b to move"),
        ("bbb/w2/3 w swap", "b has one stone more than w (or, after a swap, both have as many"),
        ("w b swap", "on a 1x1 board Black's first stone wins at once"),
        ("bw1/bw1/bw1 b", "Black (b) has already joined top and bottom, so the game ended"),
        ("bwbw/bwbw/bwbw/bwb1 w", "with no single stone that completed the chain"),
        ("x" * 200 + " b", "row 1 ('xxxxxxxxxx"),
    ],
)
def test_bad_positions_are_named(text: str, complaint: str) -> None:
    with pytest.raises(NotationError) as error:
        Hex.from_position(text)
    assert complaint in str(error.value)
    assert len(str(error.value)) < 300  # long input is quoted only in part


@pytest.mark.parametrize(
    ("position", "move", "error", "complaint"),
    [
        ("4", "zz", NotationError, "'zz' is not a cell: expected a column letter and a row"),
        ("4", "", NotationError, "'' is not a cell"),
        ("4", "d", NotationError, "like 'd4' (a1..d4), or 'swap'"),
        ("4", "a123", NotationError, "'a123' is not a cell"),
        ("4", "e1", IllegalMoveError, "e1 is off the 4x4 board (a1..d4)"),
        ("4", "a5", IllegalMoveError, "a5 is off the 4x4 board"),
        ("4", "a0", IllegalMoveError, "a0 is off the 4x4 board"),
        ("b3/4/4/4 w", "A1", IllegalMoveError, "a1 is already taken by b"),
        ("4", "swap", IllegalMoveError, "this game has no swap rule"),
        ("4 swap", "swap", IllegalMoveError, "only as White's first move"),
        ("b3/w3/4/4 b swap", "swap", IllegalMoveError, "only as White's first move"),
        ("bw1/bw1/b2 w", "c3", IllegalMoveError, "the game is over (Black (b) joins top"),
        ("bw1/bw1/b2 w swap", "swap", IllegalMoveError, "the game is over"),
    ],
)
def test_bad_moves_are_named(position: str, move: str, error: type, complaint: str) -> None:
    game = Hex.from_position(position)
    with pytest.raises(error) as raised:
        game.parse_move(move)
    assert complaint in str(raised.value)


def test_play_line_names_the_bad_move() -> None:
    game = Hex.from_position("3")
    with pytest.raises(IllegalMoveError, match=r"move 3 \('b2'\): b2 is already taken by b"):
        game.play_line(["b2", "a1", "b2"])
    assert game.position() == "3/3/3 b"


# -- the swap rule ------------------------------------------------------------------------------


def test_swap_turns_blacks_first_stone_into_a_white_one_on_the_mirrored_cell() -> None:
    game = Hex.from_position("4 swap")
    assert SWAP not in game.legal_moves()
    game.play_text("c1")  # column c, row 1
    assert game.legal_moves()[-1] == SWAP and game.ordered_moves()[0] == SWAP
    before = (game.position(), game.key(), game.legal_moves(), game.render())
    assert game.format_move(game.play_text("SWAP")) == "swap"
    assert game.position() == "4/4/w3/4 b swap"  # column a, row 3
    assert game.to_move() == 0 and SWAP not in game.legal_moves()
    assert game.key() not in (before[1], Hex.from_position("4 swap").key())
    assert Hex.from_position(game.position()).key() == game.key()
    game.play_text("b2")
    with pytest.raises(IllegalMoveError, match="only as White's first move"):
        game.parse_move("swap")
    game.undo()
    game.undo()
    assert (game.position(), game.key(), game.legal_moves(), game.render()) == before


def test_a_set_up_position_may_allow_the_swap() -> None:
    game = Hex.from_position("2b1/4/4/4 w swap")
    assert SWAP in game.legal_moves()
    without = Hex.from_position("2b1/4/4/4 w")
    assert SWAP not in without.legal_moves()
    assert game.key() != without.key()  # whether White may swap is part of the key
    game.play(SWAP)
    assert game.position() == "4/4/w3/4 b swap"


def test_the_swap_in_the_solver_hooks() -> None:
    # 2x2: Black's b1 threatens both a2 and b2, so no White stone saves the game...
    game = Hex.from_position("2 swap")
    game.play_text("b1")
    assert names(game, game.legal_moves()) == ["a1", "a2", "b2", "swap"]
    assert game.non_losing_moves() == [SWAP]
    # ...but the swap does: White's stone on a2 now threatens b1 and b2, and Black has none.
    game.play(SWAP)
    assert game.position() == "2/w1 b swap"
    assert game.winning_moves() == [] and game.non_losing_moves() == []
    game.play_text("b1")
    assert names(game, game.winning_moves()) == ["b2"]


# -- search support -----------------------------------------------------------------------------


def test_stones_needed_and_the_evaluation() -> None:
    empty = Hex.from_position("5")
    assert [empty.stones_needed(p) for p in (0, 1)] == [5, 5] and empty.evaluate() == 0
    game = Hex.from_position("5")
    game.play_line(["c3", "a1"])  # the centre against a corner
    assert [game.stones_needed(p) for p in (0, 1)] == [4, 4]
    game.play_line(["c4", "b1", "c2"])  # Black c2-c4: c1 and c5 to go; White c1-e1
    assert game.stones_needed(0) == 2 and game.stones_needed(1) == 3
    assert game.evaluate() == -100 and game.evaluate(0) == 100  # White to move
    finished = Hex.from_position("bw1/bw1/b2 w")
    assert finished.stones_needed(0) == 0 and finished.stones_needed(1) is None


def test_winning_and_non_losing_moves() -> None:
    game = Hex.from_position("1b1ww/1bbb1/ww1b1/1bb1w/3ww b")
    assert names(game, game.winning_moves()) == ["a5", "b5", "c5"]
    game.play_text("e3")  # not a win: White, to move, faces the same three threats
    assert game.winning_moves() == [] and game.non_losing_moves() == []
    game = Hex.from_position("bb2/www1/bb2/4 w")
    assert names(game, game.winning_moves()) == ["d1", "d2"]  # c2-d1 is a (r-1, c+1) step
    game = Hex.from_position("2b/ww1/b2 b")  # Black's c1 leaves White one threat: c2
    assert game.winning_moves() == [] and names(game, game.non_losing_moves()) == ["c2"]


# -- known results ------------------------------------------------------------------------------
#
# HEX_WINNING_FIRST_MOVES (tests/testdata.py, with its sources): the first moves that win on
# 1x1 to 4x4, proven below by alpha-beta and by a brute-force solver of this file's own.


class BruteForce:
    """Who wins a Hex position with perfect play: a memoised negamax over boards written as
    strings (row by row, 'b', 'w' or '.'), with its own neighbours and searches. Exact
    shortcuts keep 4x4 quick: a player who can join at once wins; one facing two cells where
    the opponent would join loses, facing one must fill it. A position and its 180° turn
    (the reversed string; it keeps each player's edges) share an entry."""

    def __init__(self, size: int) -> None:
        self.size = size
        grid = [(row, col) for row in range(size) for col in range(size)]
        self.neighbours = [
            [
                r * size + c
                for r, c in ((row + dr, col + dc) for dr, dc in OFFSETS)
                if 0 <= r < size and 0 <= c < size
            ]
            for row, col in grid
        ]
        last = size - 1
        self.edges = {
            "b": (
                {i for i, (r, _) in enumerate(grid) if r == 0},
                {i for i, (r, _) in enumerate(grid) if r == last},
            ),
            "w": (
                {i for i, (_, c) in enumerate(grid) if c == 0},
                {i for i, (_, c) in enumerate(grid) if c == last},
            ),
        }
        # try the cells near the centre first (hex distance, in half cells)
        self.order = sorted(
            range(size * size),
            key=lambda i: (
                abs(2 * grid[i][0] - last)
                + abs(2 * grid[i][1] - last)
                + abs(2 * grid[i][0] + 2 * grid[i][1] - 2 * last)
            ),
        )
        self.memo: dict[str, bool] = {}

    def touching(self, board: str, mark: str, edge: set[int]) -> set[int]:
        """The cells next to `edge` or to a stone of `mark` joined to it, and the edge."""
        todo = [i for i in edge if board[i] == mark]
        seen = set(todo)
        while todo:
            for j in self.neighbours[todo.pop()]:
                if board[j] == mark and j not in seen:
                    seen.add(j)
                    todo.append(j)
        near = set(edge)
        for i in seen:
            near.update(self.neighbours[i])
        return near

    def joining_cells(self, board: str, mark: str, empty: list[int]) -> list[int]:
        first, last = self.edges[mark]
        start, goal = self.touching(board, mark, first), self.touching(board, mark, last)
        return [i for i in empty if i in start and i in goal]

    def wins(self, board: str, mark: str) -> bool:
        """Does `mark`, to move on `board` (nobody has joined yet), win?"""
        key = min(board, board[::-1]) + mark
        if key not in self.memo:
            other = "w" if mark == "b" else "b"
            empty = [i for i in self.order if board[i] == "."]
            if self.joining_cells(board, mark, empty):
                result = True
            else:
                threats = self.joining_cells(board, other, empty)
                candidates = threats if len(threats) == 1 else [] if threats else empty
                result = any(
                    not self.wins(board[:i] + mark + board[i + 1 :], other) for i in candidates
                )
            self.memo[key] = result
        return self.memo[key]

    def winning_first_moves(self) -> set[str]:
        size = self.size
        empty = "." * (size * size)
        return {
            name(*divmod(i, size))
            for i in range(size * size)
            if size == 1 or not self.wins(empty[:i] + "b" + empty[i + 1 :], "w")
        }


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_which_first_moves_win_by_brute_force(size: int) -> None:
    assert BruteForce(size).winning_first_moves() == HEX_WINNING_FIRST_MOVES[size]


@pytest.mark.parametrize("size", [1, 2, 3])
def test_alpha_beta_solves_the_first_player_win(size: int) -> None:
    game = Hex.from_position(str(size))
    result = AlphaBeta().search(game, Limits(solve=True), SearchContext())
    assert result.score.kind == ScoreKind.WIN
    assert game.format_move(result.best_move) in HEX_WINNING_FIRST_MOVES[size]


@pytest.mark.parametrize("size", [2, 3, 4])
def test_which_first_moves_win_by_alpha_beta(size: int) -> None:
    """Solve the position after each first move (White to move loses after a winning one).
    On 4x4 the first two rows: the other cells are their 180° turns, which keep each
    player's edges (the brute force above covers all sixteen)."""
    game = Hex.from_position(str(size))
    engine = AlphaBeta()
    outcomes = {}
    for move in game.legal_moves():
        cell_name = game.format_move(move)
        if size == 4 and int(cell_name[1:]) > 2:
            continue
        game.play(move)
        result = engine.search(game, Limits(solve=True), SearchContext())
        game.undo()
        assert result.score.kind in (ScoreKind.WIN, ScoreKind.LOSS)
        outcomes[cell_name] = result.score.kind == ScoreKind.LOSS
    winning = {cell_name for cell_name, wins in outcomes.items() if wins}
    assert winning == {m for m in HEX_WINNING_FIRST_MOVES[size] if m in outcomes}
    assert len(outcomes) == (8 if size == 4 else size * size)


def test_alpha_beta_finds_the_win_and_the_block() -> None:
    engine = AlphaBeta()
    win = Hex.from_position("1b1ww/1bbb1/ww1b1/1bb1w/3ww b")
    result = engine.search(win, Limits(depth=2), SearchContext())
    assert result.score.kind == ScoreKind.WIN and result.score.plies == 1
    assert win.format_move(result.best_move) in {"a5", "b5", "c5"}
    block = Hex.from_position("2b/ww1/b2 b")
    result = engine.search(block, Limits(depth=3), SearchContext())
    assert block.format_move(result.best_move) == "c2"
