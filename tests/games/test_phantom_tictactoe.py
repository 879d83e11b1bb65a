"""Phantom tic-tac-toe against OpenSpiel's `phantom_ttt` (pyspiel): random games move for
move (the mover's legal moves, both players' information states as views, the end and its
returns); views read back with the worlds they sample, each consistent with the view and
none leaking through it; the notation's errors."""

from __future__ import annotations

import random

import pytest

from benchmarks.hidden import openspiel_cell, openspiel_view
from kibitz.games import GAMES, IllegalMoveError, NotationError
from kibitz.games.phantom_tictactoe import PhantomTicTacToe
from kibitz.games.tictactoe import cell_name

GAMES_PLAYED = 150


def random_games(count: int = GAMES_PLAYED, seed: int = 5):
    """Yield (state, line) at every position of seeded random games (pyspiel actions)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = PhantomTicTacToe.from_position("")
        line: list[int] = []
        while True:
            yield state, line
            if state.is_terminal():
                break
            move = rng.choice(state.legal_moves())
            state.play(move)
            line.append(move)


def test_random_games_are_openspiels_move_for_move():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("phantom_ttt")
    rng = random.Random(11)
    positions = 0
    for _ in range(GAMES_PLAYED):
        spiel = game.new_initial_state()
        state = PhantomTicTacToe.from_position("")
        while True:
            positions += 1
            for player in (0, 1):
                expected = openspiel_view(spiel.information_state_string(player), player)
                assert state.view(player) == expected
            assert state.is_terminal() == spiel.is_terminal()
            if spiel.is_terminal():
                assert state.returns() == tuple(spiel.returns())
                break
            assert state.to_move() == spiel.current_player()
            assert state.legal_moves() == sorted(map(openspiel_cell, spiel.legal_actions()))
            action = rng.choice(spiel.legal_actions())
            spiel.apply_action(action)
            state.play(openspiel_cell(action))
    assert positions > 5 * GAMES_PLAYED


def placements(state: PhantomTicTacToe, opponent: int) -> tuple[int, ...]:
    """The cells `opponent` placed marks on, in order (from the full state's notation)."""
    replay = PhantomTicTacToe.from_position("")
    cells = []
    for token in state.position().split():
        mover = replay.to_move()
        move = replay.parse_move(token.rstrip("*"))
        replay.play(move)
        if mover == opponent and not token.endswith("*"):
            cells.append(move)
    return tuple(cells)


def test_views_read_back_and_their_worlds_are_consistent_with_them():
    rng = random.Random(3)
    views = 0
    for state, _ in random_games(60):
        if state.is_terminal():
            continue
        player = state.to_move()
        text = state.view(player)
        view = PhantomTicTacToe.from_position(text)
        assert view.is_view() and view.observer() == player and view.to_move() == player
        assert view.position() == text and view.view(player) == text
        assert view.legal_moves() == state.legal_moves()
        worlds = view.worlds()
        assert sum(p for _, p in worlds) == pytest.approx(1.0)
        assert len({world.position() for world, _ in worlds}) == len(worlds)
        for world, _ in worlds:
            assert not world.is_view() and not world.is_terminal()
            assert world.view(player) == text and world.to_move() == player
            assert world.legal_moves() == state.legal_moves()
        # the truth's placements are among the worlds' (its refused attempts aside)
        truth = placements(state, 1 - player)
        assert truth in {placements(world, 1 - player) for world, _ in worlds}
        assert view.sample(rng).position() in {world.position() for world, _ in worlds}
        views += 1
    assert views > 200


def test_views_never_leak_the_opponents_unrevealed_marks():
    """A view holds the observer's marks and the revealed cells, nothing else: its text is
    the same in every world it samples, and its board shows no other mark."""
    for state, _ in random_games(40, seed=8):
        for player in (0, 1):  # every view reads back, the mover's or not, over or not
            text = state.view(player)
            view = PhantomTicTacToe.from_position(text)
            mine = sum(1 for token in text[2:].split() if not token.endswith("*"))
            board = view.render().split("\n")[1:4]
            marks = "".join(row[2:] for row in board)
            assert marks.count("xo"[player]) == mine
            assert marks.count("xo"[1 - player]) == text.count("*")
            assert {world.view(player) for world, _ in view.worlds()} == {text}


def test_a_view_with_all_the_opponents_marks_revealed_has_one_world():
    view = PhantomTicTacToe.from_position("x:a1 b2* b1 c3*")
    ((world, probability),) = view.worlds()
    assert probability == 1.0
    assert world.position() == "a1 b2 b2* b1 c3 c3*"
    assert [cell_name(move) for move in view.legal_moves()] == ["c1", "a2", "c2", "a3", "b3"]


def test_os_first_view_has_a_world_for_each_openspiel_cell_x():
    worlds = PhantomTicTacToe.from_position("o:").worlds()
    assert sorted(world.position() for world, _ in worlds) == sorted(map(cell_name, range(9)))
    assert {probability for _, probability in worlds} == {1 / 9}


def test_a_view_that_ends_the_game_knows_its_result():
    won = PhantomTicTacToe.from_position("x:a1 a2 a3")
    assert won.is_terminal() and won.returns() == (1.0, -1.0) and won.legal_moves() == []
    for world, _ in won.worlds():  # o placed two marks, not on column a
        assert world.is_terminal() and world.returns() == (1.0, -1.0)
        assert len(placements(world, 1)) == 2
    drawn = PhantomTicTacToe.from_position("x:b2 a1 c3* c1 b1* b3 a2")
    assert drawn.is_terminal() and drawn.returns() == (0.0, 0.0)
    worlds = drawn.worlds()  # o's a3 b1 c2 c3, c3 among its first two, b1 its first three
    assert len(worlds) == 8 and all(world.returns() == (0.0, 0.0) for world, _ in worlds)


@pytest.mark.parametrize(
    ("text", "worlds", "returns"),
    [
        ("o:a1 b1 a3 c2", 120, (0.0, 0.0)),  # x's fifth fills the board, no line in it
        ("o:a1 b1 c3 a2", 72, (1.0, -1.0)),  # ... with c1 b2 a3 in it
        ("x:b1 a1 c2* b3 a3", 32, (-1.0, 1.0)),  # every o mark since completes a line
    ],
)
def test_a_view_whose_game_surely_ended_unseen_expects_its_result(text, worlds, returns):
    """Where the opponent's mark since the observer's last move ends the game in every
    world, the view is over, its result what the observer expects over the worlds."""
    view = PhantomTicTacToe.from_position(text)
    assert view.is_terminal() and view.legal_moves() == [] and view.returns() == returns
    assert "unseen" in view.terminal_reason()
    listed = view.worlds()
    assert len(listed) == worlds
    assert all(world.is_terminal() and world.returns() == returns for world, _ in listed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d1", "not a cell"),
        ("a1 b1 a1", "already holds it"),
        ("a1 b1*", "free there, not refused"),
        ("a1 a1* a1", "already knows it is taken"),
        ("a1 b1 a2 b2 a3 c3", "game is over"),
        ("z:a1", "not x or o"),
        ("x:b2*", "no placement of o's marks"),
        ("x:a1 b2* b2", "already knows it is taken"),
        ("x:a1 b1 c1 a2", "the game is over"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(NotationError, match=message):
        PhantomTicTacToe.from_position(text)


def test_moves_are_checked_against_what_the_mover_knows():
    state = PhantomTicTacToe.from_position("b2 b2*")
    assert state.to_move() == 1
    with pytest.raises(IllegalMoveError, match="already knows b2 is taken"):
        state.parse_move("b2")
    assert state.parse_move("a1") == 0
    with pytest.raises(NotationError, match="not a cell"):
        state.parse_move("b4")
    view = PhantomTicTacToe.from_position(state.view(1))
    assert view.parse_move("c3") == 8
    with pytest.raises(ValueError, match="a view cannot play"):
        view.play(8)
    with pytest.raises(ValueError, match="cannot tell what x knows"):
        view.view(0)


def test_a_refused_attempt_keeps_the_turn_and_undo_restores_it():
    state = PhantomTicTacToe.from_position("b2")
    state.play(4)  # o onto x's mark
    assert state.to_move() == 1 and state.position() == "b2 b2*"
    assert state.view(1) == "o:b2*" and state.view(0) == "x:b2"
    state.undo()
    assert state.position() == "b2" and state.legal_moves() == [0, 1, 2, 3, 4, 5, 6, 7, 8]


def test_it_is_registered():
    assert GAMES["phantom-tictactoe"] is PhantomTicTacToe
