"""The sliding-tile puzzle: notation and its errors, move counts against a plain
implementation, the heuristics against exact distances from a breadth-first search of the
whole 8-puzzle (181,440 positions), solvability against reachability, keys and undo."""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Iterator

import pytest
from perft import perft

from kibitz.games import GAMES
from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.sliding import DOWN, LEFT, RIGHT, UP, SlidingPuzzle, line_conflicts

NAMES = ("linear-conflicts", "manhattan", "misplaced")


# -- an independent plain implementation: tuples, no game code --------------------------------


def slides(tiles: tuple[int, ...], rows: int, columns: int) -> Iterator[tuple[int, ...]]:
    """The positions one move away, the blank moving up, left, right, down (in that order)."""
    blank = tiles.index(0)
    row, column = divmod(blank, columns)
    for step, allowed in (
        (-columns, row > 0),
        (-1, column > 0),
        (1, column < columns - 1),
        (columns, row < rows - 1),
    ):
        if allowed:
            after = list(tiles)
            after[blank], after[blank + step] = after[blank + step], 0
            yield tuple(after)


def neighbours(tiles: tuple[int, ...], rows: int, columns: int) -> Iterator[tuple[int, ...]]:
    """`slides`, none from the goal (where the game ends)."""
    if tiles != tuple(range(rows * columns)):
        yield from slides(tiles, rows, columns)


def distances(rows: int, columns: int) -> dict[tuple[int, ...], int]:
    """Exact distances to the goal of every position that reaches it (breadth-first from the
    goal; moves are reversible, so edges are followed backwards as forwards)."""
    goal = tuple(range(rows * columns))
    found = {goal: 0}
    queue = deque([goal])
    while queue:
        tiles = queue.popleft()
        distance = found[tiles] + 1
        for after in slides(tiles, rows, columns):
            if after not in found:
                found[after] = distance
                queue.append(after)
    return found


def plain_perft(tiles: tuple[int, ...], rows: int, columns: int, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(
        plain_perft(after, rows, columns, depth - 1) for after in neighbours(tiles, rows, columns)
    )


def reference_heuristics(tiles: tuple[int, ...], columns: int) -> tuple[int, int, int]:
    """(linear conflicts, Manhattan, misplaced) straight from the definitions, the fewest
    tiles to remove from each line found by trying every subset."""
    manhattan = misplaced = 0
    for cell, tile in enumerate(tiles):
        if tile:
            manhattan += abs(cell // columns - tile // columns) + abs(
                cell % columns - tile % columns
            )
            misplaced += tile != cell
    rows = len(tiles) // columns
    lines = [
        [
            tile % columns
            for tile in tiles[r * columns : (r + 1) * columns]
            if tile and tile // columns == r
        ]
        for r in range(rows)
    ] + [
        [tile // columns for tile in tiles[c::columns] if tile and tile % columns == c]
        for c in range(columns)
    ]
    conflicts = sum(2 * fewest_removals(line) for line in lines)
    return manhattan + conflicts, manhattan, misplaced


def fewest_removals(goals: list[int]) -> int:
    for removed in range(len(goals) + 1):
        for kept in itertools.combinations(goals, len(goals) - removed):
            if list(kept) == sorted(kept):
                return removed
    raise AssertionError


def heuristics(state: SlidingPuzzle) -> tuple[int, ...]:
    return tuple(state.heuristic(name) for name in NAMES)


@pytest.fixture(scope="module")
def eight() -> dict[tuple[int, ...], int]:
    return distances(3, 3)


# -- notation -----------------------------------------------------------------------------------


def test_positions_read_squares_and_rectangles_and_write_them_back():
    state = SlidingPuzzle.from_position(" 4, 7,13,10 ,1,2,9,6,12,8,14,5,3,0,11,15 ")
    assert state.shape() == (4, 4) and state.position() == "4,7,13,10,1,2,9,6,12,8,14,5,3,0,11,15"
    assert state.blank() == 13 and state.tiles()[:3] == (4, 7, 13)
    rectangle = SlidingPuzzle.from_position("2x3:1,2,0,3,4,5")
    assert rectangle.shape() == (2, 3) and rectangle.position() == "2x3:1,2,0,3,4,5"
    assert SlidingPuzzle.from_position("3X2: 1 0 2 3 4 5").position() == "3x2:1,0,2,3,4,5"
    assert SlidingPuzzle.from_position("3x3:1,5,3,4,0,2,7,6,8").position() == "1,5,3,4,0,2,7,6,8"
    assert SlidingPuzzle.from_position("").position() == SlidingPuzzle.default_position
    big = ",".join(map(str, range(64)))
    assert SlidingPuzzle.from_position(big).shape() == (8, 8)
    assert SlidingPuzzle.from_position("2x8:" + ",".join(map(str, range(16)))).shape() == (2, 8)
    assert GAMES["sliding-puzzle"] is SlidingPuzzle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,0,2,3,4,5,6,8,7", "this arrangement cannot reach the goal"),
        ("2x3:0,2,1,3,4,5", "this arrangement cannot reach the goal"),
        ("0,2,1,3", "this arrangement cannot reach the goal"),
        ("1,2,3,0,5,4,6,7,8", "this arrangement cannot reach the goal"),
        ("1,2,3,4,5,6,7,8", "8 tiles is no square board from 2x2 to 8x8"),
        ("0", "1 tiles is no square board"),
        (",".join(map(str, range(81))), "81 tiles: a board has at most 64"),
        ("2x3:1,2,0,3,4", "5 tiles: the board needs 6"),
        ("1x4:0,1,2,3", "1 rows: a board has 2 to 8"),
        ("3x9:" + ",".join(map(str, range(27))), "9 columns: a board has 2 to 8"),
        ("99999999999999999999x3:0,1,2", "(20 characters) rows: a board has 2 to 8"),
        ("1,2,2,3,4,5,6,7,0", "tile 2 appears twice"),
        ("1,2,9,3,4,5,6,7,0", "tile 3 (9) is not a number from 0 to 8"),
        ("1,2,x,3,4,5,6,7,0", "tile 3 ('x') is not a number"),
        ("1,2,-3,3,4,5,6,7,0", "tile 3 ('-3') is not a number"),
        (
            "1,2," + "9" * 5000 + ",3,4,5,6,7,0",
            "tile 3 ('999999999999'… (5000 characters)) is not a number from 0 to 8",
        ),
    ],
)
def test_bad_positions_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError) as caught:
        SlidingPuzzle.read_position(text)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300


def test_hostile_positions_get_short_messages():
    for text in ("x" * 20_000, "1," * 10_000, "[" * 1000, "\x00", "1e9,2", "3x3:" + "0," * 5000):
        with pytest.raises(NotationError) as caught:
            SlidingPuzzle.read_position(text)
        assert len(str(caught.value)) < 300


def test_moves_are_where_the_blank_goes():
    state = SlidingPuzzle.from_position("1,5,3,4,0,2,7,6,8")
    assert state.legal_moves() == [UP, LEFT, RIGHT, DOWN]
    assert [state.format_move(move) for move in state.legal_moves()] == ["U", "L", "R", "D"]
    assert [state.parse_move(text) for text in ("u", " L ", "Right", "DOWN")] == [0, 1, 2, 3]
    state.play(UP)  # the blank goes up: the 5 comes down
    assert state.position() == "1,0,3,4,5,2,7,6,8"
    with pytest.raises(IllegalMoveError, match="the blank is on the top edge"):
        state.parse_move("U")
    with pytest.raises(NotationError, match="'N' is not a move: expected U, D, L or R"):
        state.parse_move("N")
    corner = SlidingPuzzle.from_position("1,2,3,4,5,6,7,8,0")
    assert corner.legal_moves() == [UP, LEFT]
    with pytest.raises(IllegalMoveError, match="the blank is on the right edge"):
        corner.parse_move("r")


def test_a_line_of_letters_is_one_move_per_letter():
    state = SlidingPuzzle.from_position("1,2,5,3,4,0,6,7,8")
    assert state.split_moves("UL, l up") == ["U", "L", "l", "up"]
    assert state.split_moves("ULL") == ["U", "L", "L"]
    state.read_moves(["ULL"])
    assert state.is_terminal() and state.legal_moves() == [] and state.returns() == (1.0,)
    assert state.terminal_reason() == "the puzzle is solved"
    assert SlidingPuzzle.outcome_label(True, 20) == "solved in 20 moves"
    with pytest.raises(IllegalMoveError, match="the puzzle is solved"):
        state.parse_move("D")


# -- move counts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "rows", "columns", "counts"),
    [
        ("1,5,3,4,0,2,7,6,8", 3, 3, [1, 4, 12, 32, 96, 256, 768, 2048, 6144]),
        ("1,2,5,3,4,0,6,7,8", 3, 3, [1, 3, 8, 24, 62, 186, 486, 1458, 3834]),
        ("4,7,13,10,1,2,9,6,12,8,14,5,3,0,11,15", 4, 4, [1, 3, 9, 29, 93, 301, 973]),
        ("2x3:1,2,0,3,4,5", 2, 3, [1, 2, 5, 10, 24, 52, 125, 280, 674, 1538]),
    ],
)
def test_move_counts_match_a_plain_implementation(position, rows, columns, counts):
    state = SlidingPuzzle.from_position(position)
    tiles = state.tiles()

    assert [perft(state, depth) for depth in range(len(counts))] == counts
    assert [plain_perft(tiles, rows, columns, depth) for depth in range(len(counts))] == counts
    assert state.tiles() == tiles


def test_children_come_in_the_order_up_left_right_down():
    """The order a compiled search must repeat: the blank up, left, right, down."""
    state = SlidingPuzzle.from_position("4,7,13,10,1,2,9,6,12,8,14,5,3,0,11,15")
    for _ in range(50):
        children = []
        for move in state.legal_moves():
            state.play(move)
            children.append(state.tiles())
            state.undo()
        assert children == list(neighbours(state.tiles(), 4, 4))
        state.play(random.Random(len(children)).choice(state.legal_moves()))


# -- solvability: exactly the positions that reach the goal are read --------------------------


@pytest.mark.parametrize(("rows", "columns"), [(2, 2), (2, 3), (3, 2)])
def test_exactly_the_arrangements_that_reach_the_goal_are_read(rows, columns):
    reachable = distances(rows, columns)
    cells = rows * columns
    assert len(reachable) * 2 == len(list(itertools.permutations(range(cells))))
    for tiles in itertools.permutations(range(cells)):
        text = f"{rows}x{columns}:" + ",".join(map(str, tiles))
        if tiles in reachable:
            assert SlidingPuzzle.from_position(text).tiles() == tiles
        else:
            with pytest.raises(NotationError, match="cannot reach the goal"):
                SlidingPuzzle.from_position(text)


# -- the heuristics against exact distances ------------------------------------------------------


def test_arrangements_of_the_8_puzzle_are_read_where_they_reach_the_goal(eight):
    """A seeded sample of the 362,880 arrangements: read exactly where the search reached."""
    rng = random.Random(8)
    for _ in range(4000):
        tiles = tuple(rng.sample(range(9), 9))
        if tiles in eight:
            assert SlidingPuzzle.from_position(",".join(map(str, tiles))).tiles() == tiles
        else:
            with pytest.raises(NotationError, match="cannot reach the goal"):
                SlidingPuzzle.from_position(",".join(map(str, tiles)))


def test_the_whole_8_puzzle_space_and_its_two_hardest_positions(eight):
    assert len(eight) == 181_440
    # Korf's convention (blank first) of the two positions at 31 moves, 8,6,7,2,5,4,3,0,1 and
    # 6,4,7,8,5,0,3,2,1 with the goal 1..8 and the blank last: the board turned half round,
    # tile t relabelled 9 - t
    hardest = sorted(tiles for tiles, distance in eight.items() if distance == 31)
    assert hardest == [(8, 0, 6, 5, 4, 7, 2, 3, 1), (8, 7, 6, 0, 4, 1, 2, 5, 3)]
    for text in ("8,6,7,2,5,4,3,0,1", "6,4,7,8,5,0,3,2,1"):
        blank_last = [int(tile) for tile in text.split(",")]
        converted = tuple(9 - tile if tile else 0 for tile in reversed(blank_last))
        assert eight[converted] == 31
    assert eight[SlidingPuzzle.from_position("").tiles()] == 20


def test_every_heuristic_is_admissible_and_consistent_on_the_8_puzzle(eight):
    """A seeded quarter of the 181,440 positions (and every one 28 or more moves from the goal),
    each built from scratch: every heuristic at most the exact distance and 0 only at the
    goal, and along every move from it (played and taken back, so the values kept up to date
    are checked too) dropping by at most one, the move's cost."""
    rng = random.Random(31)
    sample = [tiles for tiles, distance in eight.items() if distance >= 28 or rng.random() < 0.25]
    assert len(sample) > 45_000
    totals = [0, 0, 0]
    for tiles in sample:
        state = SlidingPuzzle(tiles, 3, 3)
        found = heuristics(state)
        distance = eight[tiles]
        assert all(value <= distance for value in found), (tiles, found, distance)
        assert (found[0] == 0) == (distance == 0)
        for move in state.legal_moves():
            state.play(move)
            after = heuristics(state)
            assert all(h <= 1 + h_after for h, h_after in zip(found, after, strict=True))
            assert all(value <= eight[state.tiles()] for value in after)
            state.undo()
        totals = [total + value for total, value in zip(totals, found, strict=True)]
    assert totals[0] > totals[1] > totals[2]  # strongest first
    conflict = SlidingPuzzle((0, 1, 2, 5, 3, 4, 6, 7, 8), 3, 3)  # the 5 must leave row 2
    assert heuristics(conflict) == (6, 4, 3) and eight[conflict.tiles()] >= 6


@pytest.mark.parametrize(("rows", "columns"), [(3, 3), (4, 4), (5, 5), (3, 5), (8, 8), (2, 7)])
def test_play_and_undo_keep_the_heuristics_exact(rows, columns):
    """Along seeded random walks, the heuristics kept up to date on every play and undo equal
    those of the definitions (the fewest tiles removed found by trying subsets)."""
    rng = random.Random(rows * 10 + columns)
    tiles = list(range(rows * columns))
    state = SlidingPuzzle(tiles, rows, columns)
    state.play(DOWN if rows > 1 else RIGHT)  # off the goal, where no move is legal
    played = []
    for _ in range(400):
        assert heuristics(state) == reference_heuristics(state.tiles(), columns)
        if state.is_terminal():
            break
        played.append((state.tiles(), heuristics(state), state.key()))
        state.play(rng.choice(state.legal_moves()))
    for before in reversed(played):
        state.undo()
        assert (state.tiles(), heuristics(state), state.key()) == before


def test_line_conflicts_count_the_fewest_tiles_that_must_leave():
    assert line_conflicts([]) == 0 and line_conflicts([0, 1, 2]) == 0
    assert line_conflicts([1, 0]) == 2 and line_conflicts([2, 1, 0]) == 4
    assert line_conflicts([3, 0, 1, 2]) == 2  # only the 3 must leave, not each pair in conflict
    for goals in itertools.permutations(range(6)):
        assert line_conflicts(list(goals)) == 2 * fewest_removals(list(goals))


def test_a_solution_is_as_long_as_the_distance(eight):
    """Greedy descent on exact distances from the default position: each step one closer, the
    goal after exactly 20 moves."""
    state = SlidingPuzzle.from_position("")
    moves = []
    while not state.is_terminal():
        here = eight[state.tiles()]
        for move in state.legal_moves():
            state.play(move)
            if eight[state.tiles()] == here - 1:
                moves.append(move)
                break
            state.undo()
    assert len(moves) == 20 and state.heuristic() == 0
    again = SlidingPuzzle.from_position("")
    again.read_moves(["".join(again.format_line(moves))])
    assert again.is_terminal()


# -- keys, inverse, evaluation, diagram, playout ------------------------------------------------


def test_keys_are_exact(eight):
    keys = {SlidingPuzzle(tiles, 3, 3).key() for tiles in itertools.islice(eight, 20_000)}
    assert len(keys) == 20_000
    assert SlidingPuzzle.from_position("2x3:1,2,0,3,4,5").key() == int.from_bytes(
        bytes([1, 2, 0, 3, 4, 5]), "little"
    )


def test_inverse_moves_take_moves_back():
    state = SlidingPuzzle.from_position("1,5,3,4,0,2,7,6,8")
    assert [state.inverse(move) for move in (UP, LEFT, RIGHT, DOWN)] == [DOWN, RIGHT, LEFT, UP]
    for move in state.legal_moves():
        before = (state.position(), state.key(), heuristics(state))
        state.play(move)
        state.play(state.inverse(move))
        assert (state.position(), state.key(), heuristics(state)) == before
    assert state.move_cost(UP) == 1 and state.unit_costs


def test_evaluation_is_minus_the_default_heuristic_in_centi_units():
    state = SlidingPuzzle.from_position("1,5,3,4,0,2,7,6,8")
    assert state.evaluate() == state.evaluate(0) == -100 * state.heuristic() == -1200
    with pytest.raises(ValueError, match="no heuristic 'euclid'"):
        state.heuristic("euclid")


def test_the_diagram_clicks_the_tile_that_slides_into_the_blank():
    state = SlidingPuzzle.from_position("2x3:1,2,0,3,4,5")
    diagram = state.diagram()
    assert diagram.kind == "grid" and (diagram.rows, diagram.columns) == (2, 3)
    assert [(place.id, place.piece) for place in diagram.places] == [
        ("r1c1", "1"),
        ("r1c2", "2"),
        ("r1c3", ""),
        ("r2c1", "3"),
        ("r2c2", "4"),
        ("r2c3", "5"),
    ]
    assert {target.move: target.to_places for target in diagram.targets} == {
        LEFT: ("r1c2",),
        DOWN: ("r2c3",),
    }
    state.play(LEFT)
    assert state.diagram(LEFT).highlights == ("r1c3",)  # the 2, which slid right


def test_playouts_leave_the_position_and_end_at_the_goal_or_give_up():
    rng = random.Random(5)
    near = SlidingPuzzle.from_position("1,0,2,3,4,5,6,7,8")
    before = near.position()
    results = [near.playout(rng) for _ in range(200)]
    assert set(results) == {(0.0,), (1.0,)} and near.position() == before
    record: list = []
    far = SlidingPuzzle.from_position("8,0,6,5,4,7,2,3,1")
    assert far.playout(rng, record) == (0.0,)
    assert len(record) == 36 and all(player == 0 for player, _ in record)
