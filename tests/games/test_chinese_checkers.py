"""Chinese checkers against OpenSpiel's `chinese_checkers` (pyspiel, where installed: the
`bench` extra): move counts, random and greedy games replayed action for action, the board
drawn as OpenSpiel draws it; and, without pyspiel, the counts and results it gave, the
notation and its errors, the cap, evaluation and keys."""

from __future__ import annotations

import random
import re

import pytest
from perft import perft

from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.chinese_checkers import (
    CELLS,
    HOP,
    MAX_MOVES,
    NAMES,
    NEIGHBOUR,
    PASS_ACTION,
    TRIANGLES,
    ChineseCheckers,
)
from kibitz.games.presentation import problems

PERFT = {
    2: (14, 196, 4928, 123904),
    3: (14, 196, 2744, 68992),
    4: (14, 199, 2786, 39601),
    6: (14, 199, 2828, 40189),
}
"""Turns `depth` deep from each start, depth 1-4: pyspiel's (`spiel_perft` below)."""

GREEDY = {2: (121, 0), 3: (181, 0), 4: (180, 3), 6: (218, 1)}
"""Per number of players: the turns and the winner of `greedy_game` with seed 0, which
pyspiel plays to the same end (`test_greedy_games_end_as_openspiels_do`)."""


TURNS = 240
"""The random games' turns (a few more where 1000 - 240 is no multiple of the players)."""


def after_turns(players: int, turns: int) -> ChineseCheckers:
    """The start position of `players` players with `turns` turns counted as played."""
    rows = ChineseCheckers.start(players).position().split()[0]
    return ChineseCheckers.from_position(f"{rows} {turns % players + 1} {turns}")


def spiel_game(players: int, max_moves: int = MAX_MOVES):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("chinese_checkers", {"players": players, "max_moves": max_moves})


def spiel_turns(state) -> list[tuple[int, ...]]:
    """Every turn of pyspiel's player to move: the actions up to the turn's end (the player
    changes, or the game ends); `state` is left as it was."""
    mover, turns = state.current_player(), []

    def follow(actions: list[int]) -> None:
        for action in state.legal_actions():
            state.apply_action(action)
            if state.is_terminal() or state.current_player() != mover:
                turns.append((*actions, action))
            else:
                follow([*actions, action])
            state.undo_action(mover, action)

    follow([])
    return turns


def spiel_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for turn in spiel_turns(state):
        child = state.clone()
        for action in turn:
            child.apply_action(action)
        total += spiel_perft(child, depth - 1)
    return total


def spiel_board(game: ChineseCheckers) -> str:
    """Our position drawn as OpenSpiel's ToString draws it."""
    rows = game.position().split()[0].split("/")
    lines = []
    for row, marks in enumerate(rows):
        line = [" "] * 25
        cells = [cell for cell, (r, _) in enumerate(CELLS) if r == row]
        for cell, mark in zip(cells, marks, strict=True):
            line[CELLS[cell][1]] = mark
        lines.append("".join(line).rstrip())
    return "\n".join(lines) + f"\nPlayer: {game.to_move()}"


def replay(game: ChineseCheckers, spiel, choose) -> None:
    """Play `choose(game)`'s moves in both to the end, checking at every turn that the
    moves are the same (as OpenSpiel's actions), the board, and at the end the returns."""
    while True:
        assert spiel.observation_string(0) == spiel_board(game)
        assert spiel.is_terminal() == game.is_terminal()
        if game.is_terminal():
            assert tuple(spiel.returns()) == game.returns()
            return
        ours = sorted(tuple(game.actions(move)) for move in game.legal_moves())
        assert ours == sorted(spiel_turns(spiel))
        move = choose(game)
        for action in game.actions(move):
            spiel.apply_action(action)
        game.play(move)


def greedy_game(players: int, seed: int):
    """A chooser that moves the mover's pieces nearest its target (ties at random)."""
    rng = random.Random(seed)

    def choose(game: ChineseCheckers):
        mover = game.to_move()

        def distance_after(move) -> tuple[int, float]:
            game.play(move)
            distance = game.distance_left(mover)
            game.undo()
            return distance, rng.random()

        return min(game.legal_moves(), key=distance_after)

    return choose


# -- against pyspiel --------------------------------------------------------------------------


@pytest.mark.parametrize("players", sorted(PERFT))
def test_move_counts(players):
    game = ChineseCheckers.from_position(str(players))
    assert tuple(perft(game, depth) for depth in range(1, 5)) == PERFT[players]


@pytest.mark.parametrize("players", sorted(PERFT))
def test_move_counts_are_openspiels(players):
    start = spiel_game(players).new_initial_state()
    assert tuple(spiel_perft(start, depth) for depth in range(1, 5)) == PERFT[players]


@pytest.mark.parametrize("players", sorted(PERFT))
def test_random_games_to_the_cap_are_openspiels_move_for_move(players):
    """Random turns from the start to the cap: ours with all but `turns` of its 1000 turns
    played (a multiple of the players: player 1 to move), OpenSpiel's with max_moves
    `turns`; a draw, 0 for everyone."""
    rng = random.Random(players)
    turns = TURNS + (MAX_MOVES - TURNS) % players
    game = after_turns(players, MAX_MOVES - turns)
    assert game.to_move() == 0
    spiel = spiel_game(players, turns).new_initial_state()
    replay(game, spiel, lambda state: rng.choice(state.legal_moves()))
    assert game.returns() == (0.0,) * players
    assert game.terminal_reason() == "draw: 1000 turns played without a winner"


@pytest.mark.parametrize("players", sorted(GREEDY))
def test_greedy_games_end_as_openspiels_do(players):
    """Greedy games are won (checked without pyspiel too): by the player and after the
    turns OpenSpiel's end too."""
    game = ChineseCheckers.from_position(str(players))
    choose, line = greedy_game(players, 0), []
    while not game.is_terminal():
        line.append(choose(game))
        game.play(line[-1])
    turns, winner = GREEDY[players]
    assert (game.move_number() - 1, game.returns().index(players - 1)) == (turns, winner)
    assert game.terminal_reason() == f"player {winner + 1} fills the opposite triangle and wins"
    moves = iter(line)
    start = ChineseCheckers.from_position(str(players))
    replay(start, spiel_game(players).new_initial_state(), lambda state: next(moves))


# -- the rules, without pyspiel ------------------------------------------------------------


def position(pieces: dict[int, str], turns: int) -> str:
    """A position text: each player's (1-based) pieces as cell names, the turns played."""
    board = ["."] * len(CELLS)
    for player, names in pieces.items():
        for name in names.split():
            board[NAMES.index(name)] = str(player)
    rows = ["".join(board[c] for c, (r, _) in enumerate(CELLS) if r == row) for row in range(17)]
    return f"{'/'.join(rows)} {turns % len(pieces) + 1} {turns}"


NORTH = "a1 b1 b2 c1 c2 c3 d1 d2 d3 d4"
SOUTH = "n1 n2 n3 n4 o1 o2 o3 p1 p2 q1"
MIDDLE = "e1 e2 e3 e4 e5 e6 e7 e8 e9 e10"
BLOCKED = position(
    {1: NORTH, 2: "e5 e6 e7 e8 e9 f4 f5 f6 f7 f8", 3: "f9 i1 i2 i3 i4 i5 i6 i7 i8 i9"}, 0
)
"""Player 1's pieces shut in at home (3 players): no step, no hop."""
ONE_FROM_HOME = position({1: "m5 n2 n3 n4 o1 o2 o3 p1 p2 q1", 2: MIDDLE}, 100)
"""Player 1 (2 players) a step from filling the south triangle: m5-n1."""
FIVE = position(
    {
        1: NORTH,
        2: SOUTH,
        3: MIDDLE,
        4: "h1 h2 h3 h4 h5 h6 h7 h8 h9 h10",
        5: "i1 i2 i3 i4 i5 i6 i7 i8 i9 f1",
    },
    0,
)
"""Five players' pieces: no start has five."""
CHAINS = ["d2-e7", "n3-m7", "d3-d2", "p1-n3-l6", "e7-e8"]
"""A line from the 2-player start after which player 2 can hop n1-n3 and on to p1."""


def test_the_board_is_openspiels():
    """Rows of OpenSpiel's tables (chinese_checkers.cc: kNeighbor, kHopDest, kTriangleCells)."""
    assert len(CELLS) == 121 and CELLS[0] == (0, 12) and CELLS[120] == (16, 12)
    assert NEIGHBOUR[0] == (-1, -1, -1, -1, 1, 2)
    assert NEIGHBOUR[60] == (50, 51, 59, 61, 69, 70)
    assert NEIGHBOUR[98] == (-1, 86, -1, 99, -1, -1)
    assert HOP[3] == (-1, 0, -1, 5, 14, 16)
    assert HOP[65] == (-1, 47, -1, 67, 86, 88)
    assert HOP[120] == (115, 117, -1, -1, -1, -1)
    assert TRIANGLES[1] == (19, 20, 21, 22, 32, 33, 34, 44, 45, 55)
    assert TRIANGLES[2] == (74, 84, 85, 95, 96, 97, 107, 108, 109, 110)
    assert TRIANGLES[4] == (65, 75, 76, 86, 87, 88, 98, 99, 100, 101)
    assert TRIANGLES[5] == (10, 11, 12, 13, 23, 24, 25, 35, 36, 46)
    assert (NAMES[0], NAMES[10], NAMES[22], NAMES[120]) == ("a1", "e1", "e13", "q1")


@pytest.mark.parametrize("players", sorted(PERFT))
def test_the_starts_are_openspiels_home_triangles(players):
    game = ChineseCheckers.from_position(str(players))
    homes = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}[players]
    cells = game.position().split()[0].replace("/", "")
    for player, triangle in enumerate(homes):
        assert [c for c, mark in enumerate(cells) if mark == str(player + 1)] == list(
            TRIANGLES[triangle]
        )
        assert game.pieces_home(player) == 0 and game.distance_left(player) == 120
    assert game.players == players and game.to_move() == 0 and game.move_number() == 1
    assert game.shape() == (17, 17) and game.evaluate() == 0
    assert game.diagram().colors == game.diagram().colors[:players]


def test_the_first_moves_are_written_as_the_cells_they_pass():
    game = ChineseCheckers.from_position("")
    assert game.players == 3
    assert [game.format_move(move) for move in game.legal_moves()] == [
        "c1-e5", "c1-e7", "c2-e6", "c2-e8", "c3-e7", "c3-e9", "d1-e5", "d1-e6",
        "d2-e6", "d2-e7", "d3-e7", "d3-e8", "d4-e8", "d4-e9",
    ]  # fmt: skip
    actions = [game.actions(move) for move in game.legal_moves()]
    assert actions == [[a] for a in (22, 23, 28, 29, 34, 35, 40, 41, 46, 47, 52, 53, 58, 59)]
    lines = game.render().splitlines()
    assert lines[0] == "a              1" and lines[9] == "j     3 . . . . . . . . 2"
    assert lines[-1] == "player 1 to move, 0 turns played"


def test_a_hop_chain_is_one_move_that_may_stop_after_any_hop():
    game = ChineseCheckers.from_position("2")
    game.play_line(CHAINS)
    moves = {game.format_move(move) for move in game.legal_moves()}
    assert {"n1-n3", "n1-n3-p1", "n1-p1", "n1-p1-n3", "l6-n3", "l6-n3-p1"} <= moves
    assert game.actions(game.parse_move("n1-n3")) == [669, PASS_ACTION]  # it could go on
    assert game.actions(game.parse_move("n1-n3-p1")) == [669, 682]  # it cannot: it ends
    game.play_text("n1-n3-p1")
    rows = ["n           . 2 . 2", "o            2 2 2", "p             2 2"]
    assert game.render().splitlines()[13:16] == rows
    game.undo()
    assert game.position() == replayed("2", CHAINS).position()


def replayed(start: str, line: list[str]) -> ChineseCheckers:
    game = ChineseCheckers.from_position(start)
    game.play_line(line)
    return game


def test_a_player_without_a_move_passes():
    game = ChineseCheckers.from_position(BLOCKED)
    assert game.legal_moves() == [()] and game.actions(()) == [PASS_ACTION]
    assert game.format_move(()) == "pass" and game.parse_move(" PASS ") == ()
    game.play(())
    assert game.to_move() == 1 and game.move_number() == 2 and not game.is_terminal()
    with pytest.raises(IllegalMoveError, match="pass is allowed only when no piece can move"):
        game.parse_move("pass")


def test_filling_the_target_triangle_wins():
    game = ChineseCheckers.from_position(ONE_FROM_HOME)
    assert game.pieces_home(0) == 9 and game.distance_left(0) == 1
    game.play_text("m5-n1")
    assert game.is_terminal() and game.legal_moves() == []
    assert game.returns() == (1.0, -1.0)
    assert game.terminal_reason() == "player 1 fills the opposite triangle and wins"
    assert game.distance_left(0) == 0 and game.pieces_home(0) == 10
    again = ChineseCheckers.from_position(game.position())
    assert again.returns() == (1.0, -1.0) and again.position().endswith(" 2 101")
    with pytest.raises(IllegalMoveError, match=r"the game is over \(player 1 fills"):
        again.parse_move("e1-f1")
    game.undo()
    assert game.position() == ONE_FROM_HOME and not game.is_terminal()


def test_wins_return_n_minus_one_to_the_winner():
    rows = ("h", "j", "k", "l")
    six = {1: SOUTH, 2: MIDDLE} | {
        player: " ".join(f"{row}{n}" for n in range(1, 11)) for player, row in enumerate(rows, 3)
    }
    game = ChineseCheckers.from_position(position(six, 13))  # player 1 moved last
    assert game.is_terminal() and game.returns() == (5.0, -1.0, -1.0, -1.0, -1.0, -1.0)


def test_the_game_ends_after_1000_turns_as_a_draw():
    game = after_turns(2, MAX_MOVES - 1)
    assert game.to_move() == 1 and not game.is_terminal()
    game.play_text("n1-m5")
    assert game.is_terminal() and game.returns() == (0.0, 0.0) and game.legal_moves() == []
    assert game.position().endswith(" 1 1000")
    game.undo()
    assert game.legal_moves()


def test_positions_round_trip():
    rng = random.Random(11)
    for players in PERFT:
        game = ChineseCheckers.from_position(str(players))
        for _ in range(40):
            game.play(rng.choice(game.legal_moves()))
            again = ChineseCheckers.from_position(game.position())
            assert again.position() == game.position() and again.key() == game.key()
            assert again.players == players and again.to_move() == game.to_move()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5", "'5' players: Chinese checkers is for 2, 3, 4 or 6"),
        ("3 1", "is neither a number of players like '3' nor the 17 rows"),
        ("1/11 1 0", "the board has 2 rows separated by '/', not 17"),
        (BLOCKED.replace("1/11/", "1/1/", 1), "row b ('1') has 1 cells, not 2"),
        (BLOCKED.replace("1/11/", "x/11/", 1), "row a: 'x' is neither '.' nor a player 1-6"),
        (BLOCKED.replace("1/11/", "./11/", 1), "player 1 has 9 pieces, not 10"),
        (FIVE, "the pieces are of players 1 to 5: Chinese checkers is for 2, 3, 4 or 6"),
        (re.sub("[0-9]", ".", BLOCKED[:-4]) + " 1 0", "the board has no pieces"),
        (BLOCKED.replace(" 1 0", " 2 0"), "after 0 turns player 1 is to move, not 2"),
        (BLOCKED.replace(" 1 0", " 7 0"), "the player to move '7' is not one of 1-3"),
        (BLOCKED.replace(" 1 0", " 1 1002"), "the turns played '1002' are not a number from"),
        (BLOCKED.replace(" 1 0", " 1 " + "9" * 5000), "the turns played '999"),
        (position({1: SOUTH, 2: MIDDLE}, 100), "player 1 fills its target triangle, so the"),
        (position({1: SOUTH, 2: NORTH}, 7), "players 1 and 2 both fill their target triangles"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        ChineseCheckers.read_position(text)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("d1", NotationError, "'d1' names one cell: a move goes from a cell to another"),
        ("d1-z9", NotationError, "'z9' is not a cell: a move is cells joined by '-'"),
        ("d1-e14", NotationError, "there is no cell e14: row e has cells e1..e13"),
        ("d1 e6", NotationError, "'d1 e6' is not a cell"),
        ("e1-e2", IllegalMoveError, "e1 is empty, not a piece of player 1 (to move)"),
        ("n1-m5", IllegalMoveError, "n1 is player 2's, not a piece of player 1"),
        ("c1-c2", IllegalMoveError, "c2 is taken: a step goes to an empty neighbour"),
        ("d1-f4", IllegalMoveError, "d1-f4 hops over e5, which is empty"),
        ("d1-e6-e7", IllegalMoveError, "d1-e6 is a step: a step is a whole move"),
        ("c1-e5-c1", IllegalMoveError, "e5-c1 lands on c1 again: a chain visits a cell once"),
        ("b1-d1", IllegalMoveError, "b1-d1 lands on d1, which is taken"),
        ("a1-e1", IllegalMoveError, "a1-e1 is neither a step to a neighbour nor a hop"),
        ("pass", IllegalMoveError, "pass is allowed only when no piece can move"),
    ],
)
def test_bad_moves_say_what_is_wrong(text, error, message):
    game = ChineseCheckers.from_position("2")
    with pytest.raises(error, match=re.escape(message)):
        game.read_move(text)


def test_keys_follow_the_position_not_the_path():
    first = replayed("3", ["d1-e6", "j10-i9", "j1-i1", "d4-e9"])
    second = replayed("3", ["d4-e9", "j10-i9", "j1-i1", "d1-e6"])
    assert first.position() == second.position() and first.key() == second.key()
    third = replayed("3", ["d4-e9"])
    assert len({first.key(), third.key(), ChineseCheckers.from_position("3").key()}) == 3
    starts = {ChineseCheckers.from_position(str(n)).key() for n in PERFT}
    assert len(starts) == 4


def test_evaluation_counts_the_distance_still_to_travel():
    game = replayed("2", ["d2-e7"])
    assert game.distance_left(0) == 119 and game.distance_left(1) == 120
    assert game.evaluate(0) == 10 and game.evaluate(1) == -10 and game.evaluate() == -10
    three = replayed("3", ["d2-e7", "j10-i9"])
    values = [three.evaluate(p) for p in range(3)]
    assert values == [5, 5, -10] and three.evaluate() == -10
    home = ChineseCheckers.from_position(ONE_FROM_HOME)
    assert home.evaluate(0) == 10 * (home.distance_left(1) - 1) + 10 * 9 == 390


def test_the_diagram_is_the_star_and_clicks_play_whole_chains():
    game = replayed("2", CHAINS)
    diagram = game.diagram((NAMES.index("e7"), NAMES.index("e8")))
    assert problems(diagram, 2) == [] and diagram.kind == "hex"
    assert (diagram.rows, diagram.columns, len(diagram.places)) == (17, 17, 121)
    place = {p.id: p for p in diagram.places}
    assert (place["a1"].row, place["a1"].column, place["a1"].owner) == (0, 12, 0)
    assert (place["e1"].row, place["e1"].column, place["e1"].piece) == (4, 4, "")
    assert (place["q1"].row, place["q1"].column, place["q1"].owner) == (16, 4, 1)
    assert diagram.highlights == ("e7", "e8")
    ends = {game.format_move(t.move): (t.from_place, t.to_places) for t in diagram.targets}
    assert len(ends) == len(game.legal_moves())
    assert ends["n1-n3-p1"] == ("n1", ("p1",)) and ends["n1-p1"] == ("n1", ("p1",))


@pytest.mark.parametrize("players", sorted(PERFT))
def test_a_playout_is_a_legal_game_to_its_end(players):
    """The recorded turns are legal moves of the player to move, and played out they end
    the game with the playout's returns; the position is left as it was."""
    game = replayed(str(players), [])
    rng = random.Random(players)
    for _ in range(2):
        record: list = []
        returns = game.playout(rng, record)
        assert game.position() == ChineseCheckers.start(players).position()
        end = game.clone()
        for player, move in record:
            assert end.to_move() == player and move in end.legal_moves()
            end.play(move)
        assert end.is_terminal() and end.returns() == returns
        assert sorted(returns)[-1] == players - 1  # forward moves reach a win
