"""Pancake sorting: notation and its errors, move counts against a plain implementation, the
gap heuristic against exact distances from a breadth-first search of every stack of 7
(5,040) and of 8 (40,320), keys and undo."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from perft import perft

from kibitz.games import GAMES
from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.pancake import Pancake

# -- an independent plain implementation: tuples, no game code --------------------------------


def flips(stack: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The stacks one flip away (k = 2..n), none from the sorted stack."""
    if list(stack) == sorted(stack):
        return []
    return [stack[:k][::-1] + stack[k:] for k in range(2, len(stack) + 1)]


def distances(n: int) -> dict[tuple[int, ...], int]:
    """Exact flips to sort every stack of n (breadth-first from the sorted stack; a flip is
    its own inverse)."""
    goal = tuple(range(1, n + 1))
    found = {goal: 0}
    queue = deque([goal])
    while queue:
        stack = queue.popleft()
        distance = found[stack] + 1
        for k in range(2, n + 1):
            after = stack[:k][::-1] + stack[k:]
            if after not in found:
                found[after] = distance
                queue.append(after)
    return found


def plain_gaps(stack: tuple[int, ...]) -> int:
    below = (*stack[1:], len(stack) + 1)
    return sum(abs(upper - lower) > 1 for upper, lower in zip(stack, below, strict=True))


def plain_perft(stack: tuple[int, ...], depth: int) -> int:
    if depth == 0:
        return 1
    return sum(plain_perft(after, depth - 1) for after in flips(stack))


@pytest.fixture(scope="module")
def seven() -> dict[tuple[int, ...], int]:
    return distances(7)


# -- notation -----------------------------------------------------------------------------------


def test_positions_read_and_write_back():
    state = Pancake.from_position(" 3, 1 ,4,2 ")
    assert state.position() == "3,1,4,2" and state.stack() == (3, 1, 4, 2)
    assert Pancake.from_position("3 1 4 2").position() == "3,1,4,2"
    assert Pancake.from_position("").position() == Pancake.default_position
    assert Pancake.from_position(",".join(map(str, range(64, 0, -1)))).stack()[0] == 64
    assert GAMES["pancake"] is Pancake


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1", "1 pancakes: a stack has 2 to 64"),
        (",".join(map(str, range(1, 66))), "65 pancakes: a stack has 2 to 64"),
        ("1,2,2", "size 2 appears twice (each of 1 to 3 once)"),
        ("1,2,4", "pancake 3 (4): sizes go from 1 to 3, the number of pancakes"),
        ("0,1,2", "pancake 1 (0): sizes go from 1 to 3"),
        ("1,x,2", "pancake 2 ('x') is not a number"),
        ("1,-2,3", "pancake 2 ('-2') is not a number"),
        ("1,2," + "9" * 5000, "pancake 3 ('999999999999'… (5000 characters)): sizes go"),
    ],
)
def test_bad_positions_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError) as caught:
        Pancake.read_position(text)
    assert message in str(caught.value) and len(str(caught.value)) < 300


def test_hostile_positions_get_short_messages():
    for text in ("x" * 20_000, "1," * 10_000, "[" * 1000, "\x00", "1e9,2", "²,1"):
        with pytest.raises(NotationError) as caught:
            Pancake.read_position(text)
        assert len(str(caught.value)) < 300


def test_moves_flip_the_top_of_the_stack():
    state = Pancake.from_position("3,1,4,2")
    assert state.legal_moves() == [2, 3, 4]
    assert [state.format_move(move) for move in state.legal_moves()] == ["F2", "F3", "F4"]
    assert [state.parse_move(text) for text in ("F2", "f 3", " 4 ", "F04")] == [2, 3, 4, 4]
    state.play(3)
    assert state.position() == "4,1,3,2"
    with pytest.raises(IllegalMoveError, match="only 4 pancakes"):
        state.parse_move("F5")
    with pytest.raises(IllegalMoveError, match="at least the top 2"):
        state.parse_move("1")
    with pytest.raises(NotationError, match="'G2' is not a flip: expected F k or k"):
        state.parse_move("G2")
    with pytest.raises(IllegalMoveError, match="only 4 pancakes"):
        state.parse_move("F" + "9" * 5000)


def test_a_line_of_flips_sorts_the_stack():
    state = Pancake.from_position("3,1,4,2")
    assert state.split_moves("F 3, F2 4 f 3") == ["F3", "F2", "4", "f3"]
    state.read_moves(["F3 F4 F2 F 3"])  # 4,1,3,2 / 2,3,1,4 / 3,2,1,4 / 1,2,3,4
    assert state.position() == "1,2,3,4" and state.is_terminal() and state.legal_moves() == []
    assert state.returns() == (1.0,) and state.terminal_reason() == "the stack is sorted"
    assert Pancake.outcome_label(True, 4) == "solved in 4 flips"
    with pytest.raises(IllegalMoveError, match="the stack is sorted"):
        state.parse_move("F2")


@pytest.mark.parametrize(
    ("position", "counts"),
    [
        ("3,1,4,2", [1, 3, 9, 27, 81, 237]),
        ("3,6,1,8,4,7,2,5", [1, 7, 49, 343, 2401]),
        ("2,1,3,4,5", [1, 4, 12, 48, 180, 720]),
    ],
)
def test_move_counts_match_a_plain_implementation(position, counts):
    state = Pancake.from_position(position)

    stack = state.stack()
    assert [perft(state, depth) for depth in range(len(counts))] == counts
    assert [plain_perft(stack, depth) for depth in range(len(counts))] == counts
    assert state.stack() == stack


# -- the gap heuristic against exact distances --------------------------------------------------


def test_every_heuristic_is_admissible_and_consistent_on_every_stack_of_7(seven):
    assert len(seven) == 5040 and max(seven.values()) == 8  # the pancake number P(7)
    for stack, distance in seven.items():
        state = Pancake(stack)
        values = [state.heuristic(name) for name in Pancake.heuristic_names]
        assert values == [plain_gaps(stack), 0] and state.heuristic() == values[0]
        assert all(value <= distance for value in values)
        assert (values[0] == 0) == (distance == 0)
        for move in state.legal_moves():
            state.play(move)
            assert values[0] <= 1 + state.heuristic("gap") == 1 + plain_gaps(state.stack())
            state.undo()
        assert state.stack() == stack


def test_the_default_stack_and_the_pancake_numbers():
    """Exact distances from a search of every stack of 8: the default is one of the hardest,
    9 flips (the pancake numbers P(2..8) are 1, 3, 4, 5, 7, 8, 9)."""
    assert [max(distances(n).values()) for n in range(2, 7)] == [1, 3, 4, 5, 7]
    eight = distances(8)
    assert max(eight.values()) == 9
    state = Pancake.from_position("")
    assert eight[state.stack()] == 9 and state.heuristic() == 8
    moves = []
    while not state.is_terminal():  # descend the exact distances: one flip closer each time
        here = eight[state.stack()]
        move = next(k for k in state.legal_moves() if eight[flips_by(state.stack(), k)] < here)
        state.play(move)
        moves.append(move)
    assert len(moves) == 9


def flips_by(stack: tuple[int, ...], k: int) -> tuple[int, ...]:
    return stack[:k][::-1] + stack[k:]


@pytest.mark.parametrize("n", [2, 9, 16, 17, 64])
def test_play_and_undo_keep_the_gaps_exact(n):
    rng = random.Random(n)
    state = Pancake(rng.sample(range(1, n + 1), n))
    played = []
    for _ in range(300):
        assert state.heuristic() == plain_gaps(state.stack())
        if state.is_terminal():
            break
        played.append((state.stack(), state.key(), state.heuristic()))
        state.play(rng.choice(state.legal_moves()))
    for before in reversed(played):
        state.undo()
        assert (state.stack(), state.key(), state.heuristic()) == before


# -- keys, inverse, evaluation, diagram, playout ------------------------------------------------


def test_keys_are_exact(seven):
    assert len({Pancake(stack).key() for stack in seven}) == 5040
    assert Pancake.from_position("2,1").key() == 2 + 256


def test_a_flip_is_its_own_inverse():
    state = Pancake.from_position("3,6,1,8,4,7,2,5")
    for move in state.legal_moves():
        before = (state.position(), state.key(), state.heuristic())
        assert state.inverse(move) == move and state.move_cost(move) == 1
        state.play(move)
        state.play(state.inverse(move))
        assert (state.position(), state.key(), state.heuristic()) == before


def test_evaluation_is_minus_the_gaps_in_centi_units():
    state = Pancake.from_position("3,1,4,2")
    assert state.heuristic() == 4 and state.evaluate() == state.evaluate(0) == -400
    with pytest.raises(ValueError, match="no heuristic 'misplaced'"):
        state.heuristic("misplaced")


def test_the_diagram_clicks_the_pancake_at_the_depth_of_the_flip():
    state = Pancake.from_position("3,1,4,2")
    diagram = state.diagram()
    assert diagram.kind == "heaps" and (diagram.rows, diagram.columns) == (4, 4)
    assert diagram.row_labels == ("1", "2", "3", "4")
    assert [place.id for place in diagram.places if place.row == 0] == ["1.1", "1.2", "1.3"]
    assert {target.move: target.to_places for target in diagram.targets} == {
        2: ("2.1",),
        3: ("3.1", "3.2", "3.3", "3.4"),
        4: ("4.1", "4.2"),
    }
    state.play(2)
    assert state.diagram(2).highlights == ("1.1", "2.1", "2.2", "2.3")
    tall = Pancake(list(range(20, 0, -1)))
    diagram = tall.diagram()
    assert diagram.columns == 1 and len(diagram.places) == 20
    assert (diagram.places[0].count, diagram.places[-1].count) == (20, 1)


def test_playouts_leave_the_stack_and_end_sorted_or_give_up():
    rng = random.Random(2)
    near = Pancake.from_position("2,1,3,4,5")
    results = {near.playout(rng) for _ in range(100)}
    assert results == {(0.0,), (1.0,)} and near.position() == "2,1,3,4,5"
    record: list = []
    assert Pancake(list(range(64, 0, -1))).playout(rng, record) == (0.0,)
    assert len(record) == 4 * 64 and all(player == 0 for player, _ in record)
    assert all(prev != move for (_, prev), (_, move) in itertools.pairwise(record))
