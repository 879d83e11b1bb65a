"""Three-player Nim: its exact max^n values against a brute force on plain tuples here, and
the rules, notation and errors."""

from __future__ import annotations

import functools
import itertools
import re

import pytest
from perft import perft
from test_nim import naive_perft

from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.nim3 import Nim3

KNOWN = {
    "1": (1.0, -1.0, 0.0),
    "1,1": (0.0, 1.0, -1.0),
    "1,1,1": (-1.0, 0.0, 1.0),
    "2,2": (0.0, 1.0, -1.0),
    "1,2 2": (-1.0, 0.0, 1.0),
    "2,2,2 2": (1.0, -1.0, 0.0),
    "1,1,1,1 3": (-1.0, 0.0, 1.0),
    "3,4,5": (0.0, 1.0, -1.0),
}
"""Exact max^n values, each player's return (checked by `brute_force` below)."""


@functools.cache
def brute_force(heaps: tuple[int, ...], mover: int) -> tuple[float, float, float]:
    """Max^n on plain tuples with absolute players: the mover takes a move best for itself;
    every move that is best for it leads to the same values (asserted: no ties to break)."""
    if not any(heaps):
        values = [0.0, 0.0, 0.0]
        values[(mover - 1) % 3], values[mover] = 1.0, -1.0
        return tuple(values)
    children = [
        brute_force((*heaps[:index], left, *heaps[index + 1 :]), (mover + 1) % 3)
        for index, size in enumerate(heaps)
        for left in range(size)
    ]
    best = max(child[mover] for child in children)
    assert len({child for child in children if child[mover] == best}) == 1
    return next(child for child in children if child[mover] == best)


def through_the_interface(game: Nim3, memo: dict[int, tuple[float, ...]]) -> tuple[float, ...]:
    """Max^n through play, undo, returns and key only."""
    if game.is_terminal():
        return game.returns()
    key = game.key()
    if key not in memo:
        mover, best = game.to_move(), None
        for move in game.legal_moves():
            game.play(move)
            values = through_the_interface(game, memo)
            game.undo()
            if best is None or values[mover] > best[mover]:
                best = values
        memo[key] = best
    return memo[key]


def test_the_known_values():
    for text, values in KNOWN.items():
        game = Nim3.from_position(text)
        assert game.values() == values == through_the_interface(game, {})
        heaps, _, player = text.partition(" ")
        mover = int(player or 1) - 1
        assert brute_force(tuple(map(int, heaps.split(","))), mover) == values


def test_exact_values_equal_the_brute_force_everywhere_small():
    for count in (1, 2, 3):
        for heaps in itertools.product(range(5), repeat=count):
            for mover in range(3):
                game = Nim3(heaps, mover)
                expected = brute_force(heaps, mover)
                assert game.values() == expected, (heaps, mover)
                if not game.is_terminal():
                    assert [game.evaluate(p) for p in range(3)] == [100 * v for v in expected]
                    assert game.evaluate() == 100 * expected[mover]


def test_ordered_moves_put_a_best_move_first():
    game = Nim3.from_position("1,2 2")  # player 2 holds 0 at best (KNOWN), -1 at worst
    ordered = game.ordered_moves()
    assert sorted(ordered) == sorted(game.legal_moves())
    after = []
    for move in ordered:
        game.play(move)
        after.append(game.values()[1])
        game.undo()
    assert after == sorted(after, reverse=True) and after[0] == 0.0 and after[-1] == -1.0


def test_players_take_turns_and_the_last_taker_scores():
    game = Nim3.from_position("1,2")
    game.play_line(["2:1", "2:1", "1:1"])  # players 1, 2, 3
    assert game.is_terminal() and game.to_move() == 0
    assert game.returns() == (-1.0, 0.0, 1.0)
    assert game.terminal_reason() == "player 3 took the last object and wins"
    for _ in range(3):
        game.undo()
    assert game.position() == "1,2" and game.to_move() == 0


def test_moves_are_nims_and_perft_counts_them():
    game = Nim3.from_position("2,3")
    assert [game.format_move(move) for move in game.legal_moves()] == [
        "1:1",
        "1:2",
        "2:1",
        "2:2",
        "2:3",
    ]
    counts = [perft(game, depth) for depth in (1, 2, 3, 4, 5, 6)]
    assert counts == [naive_perft((2, 3), depth) for depth in (1, 2, 3, 4, 5, 6)]
    assert counts == [5, 16, 28, 26, 10, 0]


def test_positions_round_trip_and_keys_tell_the_player_to_move():
    keys = set()
    for text in ("3,4,5", "3,4,5 2", "3,4,5 3", "0,3,4,5", "3,4,5,0", "7,7,7,7,7 3"):
        game = Nim3.from_position(text)
        assert game.position() == text
        keys.add(game.key())
    assert len(keys) == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8", "three-player Nim has at most 5 heaps of at most 7 objects"),
        ("1,1,1,1,1,1", "three-player Nim has at most 5 heaps"),
        ("1,2 4", "player to move '4' must be 1, 2 or 3"),
        ("1,x", "heap 2: 'x' is not a non-negative integer"),
        ("1 2 3", "unexpected text after the player: '3'"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        Nim3.read_position(text)


def test_bad_moves_say_what_is_wrong():
    game = Nim3.from_position("1,2")
    with pytest.raises(IllegalMoveError, match="heap 1 has only 1 objects, cannot take 2"):
        game.read_move("1:2")
    game.play_line(["1:1", "2:2"])
    with pytest.raises(IllegalMoveError, match="the game is over: player 2 took the last"):
        game.read_move("1:1")
