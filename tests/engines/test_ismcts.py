"""The `ismcts` engine: legal answers for views of phantom tic-tac-toe and for every
information set of Kuhn poker, one-move lines, visits that add up to the iterations, the
same answer for the same seed, and the winning move where every world agrees it wins."""

from __future__ import annotations

import random

import pytest

from kibitz.clients import Client, InvalidArgument
from kibitz.clients.values import Limits as ClientLimits
from kibitz.engines import ENGINES, Limits, OptionError, SearchContext
from kibitz.engines.hidden import ISMCTS
from kibitz.games import CHANCE, GAMES, Game
from kibitz.games.phantom_tictactoe import PhantomTicTacToe

ITERATIONS = 300


def search(state: Game, iterations: int = ITERATIONS, **options):
    return ISMCTS(options).search(state, Limits(nodes=iterations), SearchContext())


def answer(result, state: Game) -> list[tuple[str, int, int]]:
    return [
        (state.format_move(root.move), root.score.visits, root.score.value)
        for root in result.root_moves
    ]


def assert_a_legal_answer_of_one_move_lines(result, state: Game, iterations: int) -> None:
    moves = [root.move for root in result.root_moves]
    assert sorted(moves, key=repr) == sorted(state.legal_moves(), key=repr)
    assert result.best_move == moves[0] and result.pv == [result.best_move]
    assert all(list(root.pv) == [root.move] for root in result.root_moves)
    visits = [root.score.visits for root in result.root_moves]
    assert visits == sorted(visits, reverse=True) and sum(visits) == iterations
    assert result.nodes == iterations


def phantom_views(count: int) -> list[PhantomTicTacToe]:
    """The mover's views along seeded random games of phantom tic-tac-toe."""
    rng = random.Random(21)
    views = []
    while len(views) < count:
        state = PhantomTicTacToe.from_position("")
        while not state.is_terminal() and len(views) < count:
            views.append(PhantomTicTacToe.from_position(state.view(state.to_move())))
            state.play(rng.choice(state.legal_moves()))
    return views


def test_it_answers_legal_moves_for_views_of_phantom_tictactoe():
    for view in phantom_views(25):
        result = search(view, 100)
        assert_a_legal_answer_of_one_move_lines(result, view, 100)


def test_the_same_seed_gives_the_same_answer():
    view = PhantomTicTacToe.from_position("o:b2* a1")
    first, again = search(view), search(view)
    assert answer(first, view) == answer(again, view)
    assert answer(search(view, Seed=2), view) != answer(first, view)


@pytest.mark.parametrize("text", ["x:a1 b2* b1 c3*", "x:a1 b1 b2* c3*"])
def test_it_takes_the_win_that_every_world_agrees_on(text):
    """x holds a1 and b1, and o's two marks are b2 and c3 in every world: c1 wins."""
    view = PhantomTicTacToe.from_position(text)
    assert all(world.legal_moves().count(2) for world, _ in view.worlds())
    result = search(view, 500)
    assert view.format_move(result.best_move) == "c1"
    best = result.root_moves[0].score
    assert best.value == 100 and best.win == 1.0
    assert best.visits > 500 // 2


def test_a_full_state_is_searched_in_its_one_world():
    state = PhantomTicTacToe.from_position("b2 a1 a1* c3")  # o to move, knowing a1 only
    result = search(state)
    assert_a_legal_answer_of_one_move_lines(result, state, ITERATIONS)
    assert 0 not in [root.move for root in result.root_moves]
    assert state.position() == "b2 a1 a1* c3"


def test_a_view_whose_observer_is_not_to_move_is_refused():
    kuhn = GAMES["kuhn-poker"]
    state = kuhn.from_position("")
    while state.to_move() == CHANCE:
        state.play(state.legal_moves()[0])
    with pytest.raises(ValueError, match="is to move"):
        search(kuhn.from_position(state.view(1 - state.to_move())))


def kuhn_information_sets() -> list[str]:
    """Every information set of Kuhn poker where its player acts, as view texts."""
    views: set[str] = set()

    def walk(state: Game) -> None:
        if state.is_terminal():
            return
        if state.to_move() != CHANCE:
            views.add(state.view(state.to_move()))
        for move in state.legal_moves():
            state.play(move)
            walk(state)
            state.undo()

    walk(GAMES["kuhn-poker"].from_position(""))
    return sorted(views)


def test_it_answers_every_information_set_of_kuhn_poker():
    views = kuhn_information_sets()
    assert len(views) == 12
    kuhn = GAMES["kuhn-poker"]
    for text in views:
        view = kuhn.from_position(text)
        result = search(view, 200)
        assert_a_legal_answer_of_one_move_lines(result, view, 200)


def test_with_the_king_facing_a_bet_it_calls():
    """Calling a bet with the best card wins 2 in every world; folding loses 1."""
    view = GAMES["kuhn-poker"].from_position("K:cr")
    result = search(view, 400)
    assert view.format_move(result.best_move) == "c"
    assert result.root_moves[0].score.value == 200
    assert result.root_moves[1].score.value == -100


def test_options_are_checked_and_it_is_registered():
    assert ENGINES["ismcts"] is ISMCTS
    assert ISMCTS.supports(PhantomTicTacToe) and not ISMCTS.supports(GAMES["tictactoe"])
    with pytest.raises(OptionError, match="Exploration"):
        ISMCTS({"Exploration": -1})


async def test_through_the_server_a_view_is_answered_with_one_move_lines(server):
    """A real server and client: the default engine of phantom tic-tac-toe is ismcts; it
    answers a view with the win every world agrees on, each line one move long and no
    ponder move; a move after a view is refused (whether it is refused is hidden); every
    Kuhn information set is answered with every legal move."""
    async with Client(server.address) as client:
        limits = ClientLimits(nodes=400, root_moves=True)
        stream = client.analyze("phantom-tictactoe", "x:a1 b1 b2* c3*", limits=limits)
        result = await stream
        assert stream.infos and result.best_move == "c1" and list(result.pv) == ["c1"]
        assert sorted(root.move for root in result.root_moves) == ["a2", "a3", "b3", "c1", "c2"]
        assert all(list(root.pv) == [root.move] for root in result.root_moves)
        assert result.ponder_move is None
        with pytest.raises(InvalidArgument, match="a view cannot play moves"):
            await client.describe("phantom-tictactoe", "x:a1", ["b2"])
        for view in kuhn_information_sets():
            answer = await client.analyze("kuhn-poker", view, engine="ismcts", nodes=100)
            described = await client.describe("kuhn-poker", view)
            assert sorted(root.move for root in answer.root_moves) == sorted(described.legal_moves)
            assert all(len(root.pv) == 1 for root in answer.root_moves)
