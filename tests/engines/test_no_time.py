"""A search that gets no time at all (its deadline passed before it began: the request
waited in the server's queue for all of it) answers at once with a legal move and 0 nodes,
on every game each shipped engine supports, chance roots (dice not yet rolled) included:
there the answer is the most likely outcome, the first listed among equally likely ones.

Time is a fake clock whose search started long before it was asked (`started`), so the
deadline has passed at the first reading, whatever the machine.
"""

from __future__ import annotations

import random
import threading

import pytest
from fakes import FakeClock

from kibitz.engines import ENGINES, Limits, SearchContext, StopReason
from kibitz.engines.types import Clock
from kibitz.games import CHANCE, GAMES, Game

SHIPPED = [ENGINES[name] for name in sorted(ENGINES) if name in ("alphabeta", "expectimax", "mcts")]
PAIRS = [
    pytest.param(engine, game, id=f"{engine.name}-{game.name}")
    for engine in SHIPPED
    for game in (GAMES[name] for name in sorted(GAMES))
    if engine.supports(game)
]
NO_TIME = {
    "movetime": Limits(depth=3, movetime=0.005),  # the reported Analyze: depth 3, 5 ms
    "clock": None,  # a second on every player's clock: `no_time_limits`
}


def no_time_limits(name: str, state: Game) -> Limits:
    """`NO_TIME[name]`, the clock with an entry for each of `state`'s players."""
    return NO_TIME[name] or Limits(clock=Clock(time_left=[1.0] * state.players))


def positions(game: type[Game]) -> list[Game]:
    """The start position, a seeded random middle position and, in a game with chance, a
    position before a roll (a chance root) and one after it."""
    rng = random.Random(game.name)
    found = [game.from_position("")]
    state = game.from_position("")
    chance_root = None
    for ply in range(400):
        if state.is_terminal():
            break
        if ply == 5:
            found.append(game.from_position(state.position()))
        if state.to_move() == CHANCE and chance_root is None and ply > 0:
            chance_root = game.from_position(state.position())
            outcome = rng.choice(state.legal_moves())
            state.play(outcome)
            found += [chance_root, game.from_position(state.position())]
            continue
        state.play(rng.choice(state.legal_moves()))
    assert not game.has_chance or chance_root is not None, "no chance root reached"
    return [position for position in found if not position.is_terminal()]


def search_without_time(engine, state: Game, limits: Limits):
    before = state.position(), state.to_move(), state.legal_moves()
    context = SearchContext(clock=FakeClock(0.001), started=0.0)  # 100 s ago
    result = engine.search(state, limits, context)
    assert (state.position(), state.to_move(), state.legal_moves()) == before
    return result


@pytest.mark.parametrize("limits", NO_TIME)
@pytest.mark.parametrize(("engine_class", "game"), PAIRS)
def test_a_search_without_time_answers_a_legal_move_and_no_nodes(engine_class, game, limits):
    for state in positions(game):
        result = search_without_time(engine_class(), state, no_time_limits(limits, state))
        assert result.nodes == 0, state.position()
        assert result.stop_reason == StopReason.TIME
        assert result.best_move in state.legal_moves()
        assert result.pv[:1] == [result.best_move]
        assert result.root_moves and result.root_moves[0].move == result.best_move
        if state.to_move() == CHANCE:  # before the roll: the most likely outcome
            odds = state.chance_outcomes()
            likeliest = max(odds, key=lambda outcome: outcome[1])[0]
            assert result.best_move == likeliest, state.position()
            probabilities = dict(odds)
            assert all(
                root.probability == pytest.approx(probabilities[root.move])
                for root in result.root_moves
            )


def test_mcts_without_time_answers_from_the_tree_it_kept():
    state = GAMES["connect4"].from_position("4453")
    engine = ENGINES["mcts"]()
    searched = engine.search(state, Limits(nodes=400), SearchContext())
    result = search_without_time(engine, state, NO_TIME["movetime"])
    assert result.nodes == 0 and result.stats["reused_visits"] == 400
    assert result.best_move == searched.best_move


def test_mcts_samples_only_the_stated_outcomes_at_a_chance_root():
    state = GAMES["backgammon"].from_position("")
    stated = state.legal_moves()[3:5]
    result = ENGINES["mcts"]().search(state, Limits(nodes=60, search_moves=stated), SearchContext())
    assert {root.move for root in result.root_moves} == set(stated)
    assert result.best_move in stated and result.nodes == 60


@pytest.mark.parametrize(
    ("engine_class", "game"),
    [pair for pair in PAIRS if pair.values[1].name in ("connect4", "backgammon")],
)
def test_a_stop_that_came_with_a_passed_deadline_still_answers_time(engine_class, game):
    """The server's backstop stops a search shortly after its deadline; a search that got
    its worker later still than that (a loaded machine) sees both: its reason is the time."""
    stopped = threading.Event()
    stopped.set()
    context = SearchContext(stop=stopped, clock=FakeClock(0.001), started=0.0)
    result = engine_class().search(game.from_position(""), NO_TIME["movetime"], context)
    assert result.nodes == 0 and result.stop_reason == StopReason.TIME
