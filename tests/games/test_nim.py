"""Nim and misère Nim: rules, notation, and a brute-force solver against Bouton's theory."""

from __future__ import annotations

import itertools
import random
from functools import reduce
from operator import xor

import pytest
from perft import perft

from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.nim import MisereNim, Nim, decode_move, encode_move

VARIANTS = [Nim, MisereNim]


def naive_perft(heaps: tuple[int, ...], depth: int) -> int:
    """Move sequences of length `depth` from `heaps`, counted on plain tuples."""
    if depth == 0:
        return 1
    total = 0
    for index, size in enumerate(heaps):
        for left in range(size):
            total += naive_perft((*heaps[:index], left, *heaps[index + 1 :]), depth - 1)
    return total


def first_player_wins(game: Nim, memo: dict[int, bool]) -> bool:
    """Brute force through the Game interface only: does the side to move win?"""
    key = game.key()
    if key not in memo:
        if game.is_terminal():
            memo[key] = game.returns()[game.to_move()] > 0
        else:
            memo[key] = False
            for move in game.legal_moves():
                game.play(move)
                opponent_wins = first_player_wins(game, memo)
                game.undo()
                if not opponent_wins:
                    memo[key] = True
                    break
    return memo[key]


def theory(variant: type[Nim], heaps: tuple[int, ...]) -> bool:
    nimsum = reduce(xor, heaps, 0)
    if variant is MisereNim and all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 0
    return nimsum != 0


def all_heaps(max_heaps: int = 3, max_size: int = 5) -> list[tuple[int, ...]]:
    return [
        heaps
        for count in range(1, max_heaps + 1)
        for heaps in itertools.product(range(max_size + 1), repeat=count)
    ]


# -- perft and theory ---------------------------------------------------------------------------


@pytest.mark.parametrize("heaps", [(3, 4, 5), (1, 0, 2), (7,), (2, 2, 2, 2)])
def test_perft_matches_naive_count(heaps: tuple[int, ...]) -> None:
    game = Nim.from_position(",".join(map(str, heaps)))
    for depth in range(1, 5):
        assert perft(game, depth) == naive_perft(heaps, depth)
    assert perft(Nim.from_position("3,4,5"), 1) == 12


@pytest.mark.parametrize("variant", VARIANTS)
def test_brute_force_agrees_with_theory(variant: type[Nim]) -> None:
    memo: dict[int, bool] = {}
    for heaps in all_heaps():
        game = variant.from_position(",".join(map(str, heaps)))
        assert first_player_wins(game, memo) == theory(variant, heaps), heaps
        assert (game.evaluate() > 0) == theory(variant, heaps), heaps


@pytest.mark.parametrize("variant", VARIANTS)
def test_ordered_moves_put_a_winning_move_first(variant: type[Nim]) -> None:
    memo: dict[int, bool] = {}
    for heaps in all_heaps(3, 4):
        game = variant.from_position(",".join(map(str, heaps)))
        ordered = game.ordered_moves()
        assert sorted(ordered) == sorted(game.legal_moves())
        if ordered and theory(variant, heaps):
            game.play(ordered[0])
            assert not first_player_wins(game, memo), heaps


@pytest.mark.parametrize(
    ("variant", "position", "best"),
    [
        (Nim, "3,4,5", "1:2"),
        (MisereNim, "3,4,5", "1:2"),
        (Nim, "1,1,2", "3:2"),
        (MisereNim, "1,1,2", "3:1"),  # leave an odd number of single objects
    ],
)
def test_known_best_move(variant: type[Nim], position: str, best: str) -> None:
    game = variant.from_position(position)
    winners = []
    for move in game.legal_moves():
        game.play(move)
        if not first_player_wins(game, {}):
            winners.append(move)
        game.undo()
    assert [game.format_move(m) for m in winners] == [best]
    assert game.format_move(game.ordered_moves()[0]) == best


# -- terminal rule ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "position", "returns", "reason"),
    [
        (Nim, "0,0,0", (-1.0, 1.0), "player 2 took the last object and wins"),
        (Nim, "0 2", (1.0, -1.0), "player 1 took the last object and wins"),
        (MisereNim, "0,0,0", (1.0, -1.0), "player 2 took the last object and loses"),
        (MisereNim, "0 2", (-1.0, 1.0), "player 1 took the last object and loses"),
    ],
)
def test_terminal_returns(variant: type[Nim], position: str, returns: tuple, reason: str) -> None:
    game = variant.from_position(position)
    assert game.is_terminal()
    assert game.legal_moves() == []
    assert game.returns() == returns
    assert game.terminal_reason() == reason


@pytest.mark.parametrize(("variant", "winner"), [(Nim, 0), (MisereNim, 1)])
def test_taking_the_last_object(variant: type[Nim], winner: int) -> None:
    game = variant.from_position("0,2,0")
    assert not game.is_terminal()
    game.play_text("2:2")
    assert game.is_terminal()
    assert game.to_move() == 1
    assert game.returns()[winner] == 1.0
    assert game.returns()[1 - winner] == -1.0


# -- notation -----------------------------------------------------------------------------------


def test_default_position() -> None:
    game = Nim.from_position("")
    assert game.position() == Nim.default_position == "3,4,5"
    assert game.to_move() == 0
    assert MisereNim.from_position("").position() == "3,4,5"
    assert Nim.name == "nim" and MisereNim.name == "misere-nim"


@pytest.mark.parametrize(
    ("text", "expected", "side"),
    [
        ("3,4,5", "3,4,5", 0),
        ("3,4,5 1", "3,4,5", 0),
        ("3,4,5 2", "3,4,5 2", 1),
        (" 3, 4 ,5  2 ", "3,4,5 2", 1),
        ("0", "0", 0),
        ("1000," * 15 + "1000", "1000," * 15 + "1000", 0),
        ("007,0", "7,0", 0),
    ],
)
def test_position_round_trip(text: str, expected: str, side: int) -> None:
    game = Nim.from_position(text)
    assert game.position() == expected
    assert game.to_move() == side
    assert Nim.from_position(expected).key() == game.key()


@pytest.mark.parametrize(
    ("text", "culprit"),
    [
        ("3,x,5", "heap 2: 'x'"),
        ("3,,5", "heap 2: ''"),
        ("3,-1", "heap 2: '-1'"),
        ("3,4.5", "heap 2: '4.5'"),
        ("3,1001", "heap 2: 1001 is more than 1000"),
        ("1," * 16 + "1", "17 heaps: at most 16"),
        ("3,4,5 3", "player to move '3'"),
        ("3,4,5 1 2", "unexpected text after the player: '2'"),
    ],
)
def test_position_errors(text: str, culprit: str) -> None:
    with pytest.raises(NotationError) as info:
        Nim.from_position(text)
    assert culprit in str(info.value)


@pytest.mark.parametrize(
    ("position", "move", "error", "culprit"),
    [
        ("3,4,5", "2-3", NotationError, "'2-3'"),
        ("3,4,5", "2", NotationError, "'2'"),
        ("3,4,5", "a:1", NotationError, "'a:1'"),
        ("3,4,5", "4:1", IllegalMoveError, "there is no heap 4 (heaps are 1 to 3)"),
        ("3,4,5", "0:1", IllegalMoveError, "there is no heap 0"),
        ("3,4,5", "1:0", IllegalMoveError, "at least one object"),
        ("3,4,5", "1:4", IllegalMoveError, "heap 1 has only 3 objects, cannot take 4"),
        ("3,0,5", "2:1", IllegalMoveError, "heap 2 is empty"),
        ("0,0", "1:1", IllegalMoveError, "the game is over"),
    ],
)
def test_move_errors(position: str, move: str, error: type, culprit: str) -> None:
    with pytest.raises(error) as info:
        Nim.from_position(position).parse_move(move)
    assert culprit in str(info.value)


def test_moves_round_trip() -> None:
    game = Nim.from_position("3,4,5")
    assert game.parse_move(" 2 : 3 ") == encode_move(1, 3)
    assert decode_move(encode_move(15, 1000)) == (15, 1000)
    assert [game.format_move(m) for m in game.legal_moves()[:4]] == ["1:1", "1:2", "1:3", "2:1"]
    game.play_line(game.split_moves("2:3, 3:5"))
    assert game.position() == "3,1,0"


# -- state and hashing --------------------------------------------------------------------------


def test_undo_restores_key_and_position() -> None:
    rng = random.Random(3)
    game = Nim.from_position("7,0,12,3 2")
    before = (game.position(), game.key(), game.to_move())
    for _ in range(50):
        played = 0
        while not game.is_terminal():
            game.play(rng.choice(game.legal_moves()))
            played += 1
            assert Nim.from_position(game.position()).key() == game.key()
        for _ in range(played):
            game.undo()
        assert (game.position(), game.key(), game.to_move()) == before


def test_key_sees_transpositions_and_side_to_move() -> None:
    a = Nim.from_position("3,4,5")
    b = Nim.from_position("3,4,5")
    a.play_line(["1:1", "2:1"])
    b.play_line(["2:1", "1:1"])
    assert a.key() == b.key()
    assert Nim.from_position("2,3,5").key() != Nim.from_position("2,3,5 2").key()
    assert Nim.from_position("2,3,5").key() != Nim.from_position("3,2,5").key()


def test_render() -> None:
    assert Nim.from_position("3,0,1").render() == "1: 3 |||\n2: 0\n3: 1 |"
    wide = Nim.from_position("1000,2").render()
    assert wide == "1: 1000 " + "|" * 40 + "...\n2:    2 ||"
