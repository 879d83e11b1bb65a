"""Every engine keeps the search contract on every game it supports (plugins included).

Driven by the registries: for each engine x game pair whose `supports()` is true, on the
start position and on a seeded random middle position: a legal best move and a legal line,
the state unchanged, Stop honoured, node and time limits honoured, and NewGame forgetting
everything (the same answer as a fresh engine). The contract is `Engine.search`'s docstring.
"""

from __future__ import annotations

import random
import threading

import pytest
from fakes import FakeClock
from test_games import random_move, snapshot

from kibitz.engines import ENGINES, Info, Limits, SearchContext, StopReason
from kibitz.games import GAMES, Game

PAIRS = [
    pytest.param(engine, game, id=f"{engine.name}-{game.name}")
    for engine in (ENGINES[name] for name in sorted(ENGINES))
    for game in (GAMES[name] for name in sorted(GAMES))
    if engine.supports(game)
]
pairs = pytest.mark.parametrize(("engine_class", "game"), PAIRS)
NODE_LIMIT = 600


def positions(game: type[Game]) -> list[Game]:
    """The start position and one reached by seeded random moves (not over)."""
    rng = random.Random(game.name)
    middle = game.from_position("")
    for _ in range(rng.randint(2, 6)):
        move = random_move(middle, rng)
        middle.play(move)
        if middle.is_terminal():
            middle.undo()
            break
    return [game.from_position(""), game.from_position(middle.position())]


def legal_line(state: Game, line) -> bool:
    played = 0
    try:
        for move in line:
            if move not in state.legal_moves():
                return False
            state.play(move)
            played += 1
        return True
    finally:
        for _ in range(played):
            state.undo()


def search(engine, state: Game, limits: Limits, **context) -> tuple:
    infos: list[Info] = []
    before = snapshot(state)
    result = engine.search(state, limits, SearchContext(report=infos.append, **context))
    assert snapshot(state) == before, "the search changed the position"
    return result, infos


@pairs
def test_a_legal_best_move_and_legal_lines(engine_class, game):
    for state in positions(game):
        result, infos = search(engine_class(), state, Limits(nodes=NODE_LIMIT))
        assert result.best_move in state.legal_moves()
        assert result.pv[:1] == [result.best_move] and legal_line(state, result.pv)
        moves = [root.move for root in result.root_moves]
        assert moves[0] == result.best_move and len(set(map(repr, moves))) == len(moves)
        assert all(
            legal_line(state, root.pv) and root.pv[:1] == [root.move] for root in result.root_moves
        )
        assert infos, "no progress reported"
        for info in infos:
            assert legal_line(state, info.pv)
            assert all(legal_line(state, root.pv) for root in info.root_moves)


@pairs
def test_a_stop_before_the_search_answers_at_once(engine_class, game):
    stop = threading.Event()
    stop.set()
    for state in positions(game):
        result, _ = search(engine_class(), state, Limits(infinite=True), stop=stop)
        assert result.stop_reason == StopReason.STOPPED
        assert result.best_move in state.legal_moves()


@pairs
def test_a_stop_during_an_infinite_search_ends_it(engine_class, game):
    for state in positions(game):
        stop = threading.Event()  # set by the first Info, asked for soon (not after 1 s)
        context = SearchContext(
            report=lambda info, stop=stop: stop.set(), stop=stop, info_interval=0.02
        )
        result = engine_class().search(state, Limits(infinite=True), context)
        assert result.stop_reason in (StopReason.STOPPED, StopReason.SOLVED)
        assert result.best_move in state.legal_moves()


@pairs
def test_the_node_limit_is_honoured(engine_class, game):
    for state in positions(game):
        result, _ = search(engine_class(), state, Limits(nodes=NODE_LIMIT))
        assert result.nodes <= NODE_LIMIT or result.depth <= 1, "past the limit after step 1"
        if result.nodes >= NODE_LIMIT:
            assert result.stop_reason == StopReason.NODES


@pairs
def test_the_time_limit_is_honoured(engine_class, game):
    limits = Limits(movetime=0.2)
    step = 0.01  # fake seconds a clock reading takes: 20 readings reach the deadline
    for state in positions(game):
        deadline = engine_class.deadline(limits, state.to_move())
        result, _ = search(engine_class(), state, limits, clock=FakeClock(step))
        # it must read a time past the deadline to stop, and reads once more for Result.time
        assert result.time <= deadline + 2 * step + 1e-9
        assert result.best_move in state.legal_moves()


@pairs
def test_new_game_forgets_everything(engine_class, game):
    limits = Limits(nodes=NODE_LIMIT // 2)
    for state in positions(game):
        fresh, _ = search(engine_class(), state, limits)
        engine = engine_class()
        search(engine, state, limits)  # its tables, history and tree now hold this search
        engine.new_game()
        again, _ = search(engine, state, limits)
        assert (again.best_move, again.score, again.nodes, again.pv) == (
            fresh.best_move,
            fresh.score,
            fresh.nodes,
            fresh.pv,
        )
