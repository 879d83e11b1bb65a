"""The `expectimax` engine: values against exhaustive expectimax on random trees with chance
nodes, Star1/Star2 and the table changing no value while saving nodes, Pig against an
independent value iteration, chance roots, multi-PV bounds, limits and reports."""

from __future__ import annotations

import pytest
from chance_toys import RandomChanceTree, expectimax

from kibitz.engines.base import SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.types import Info, Limits
from kibitz.games import CHANCE, Game
from kibitz.games.pig import HOLD, ROLL, Pig
from kibitz.vocabulary import Bound, StopReason

SWITCHES = {
    "plain": {"Star1": False, "Star2": False},
    "star1": {"Star1": True, "Star2": False},
    "star2": {"Star1": True, "Star2": True},
}


def run(state: Game, limits: Limits, **options):
    infos: list[Info] = []
    result = Expectimax(options).search(state, limits, SearchContext(report=infos.append))
    return result, infos


def player0_value(state: Game, result) -> float:
    """The result's value turned to player 0's point of view."""
    return result.score.expected if state.perspective() == 0 else -result.score.expected


# -- random trees with chance nodes ------------------------------------------------------------

TREES = [(seed, chance_root) for seed in range(8) for chance_root in (False, True)]


@pytest.mark.parametrize(("seed", "chance_root"), TREES)
def test_every_pruning_setting_finds_the_exhaustive_expectimax_value(seed, chance_root):
    tree = RandomChanceTree(seed, decisions=4, max_moves=4, chance_root=chance_root)
    for depth in (1, 2, 4):
        exact = expectimax(tree, depth)
        for name, options in SWITCHES.items():
            for hash_mb in (0, 1):
                result, _ = run(tree, Limits(depth=depth), Hash=hash_mb, **options)
                assert result.depth == depth
                assert player0_value(tree, result) == pytest.approx(exact, abs=1e-12), (
                    name,
                    hash_mb,
                    depth,
                )


def test_star1_and_star2_search_fewer_nodes_than_plain_expectimax():
    nodes = dict.fromkeys(SWITCHES, 0)
    for seed, chance_root in TREES:
        tree = RandomChanceTree(seed, decisions=4, max_moves=4, chance_root=chance_root)
        values = set()
        for name, options in SWITCHES.items():
            result, _ = run(tree, Limits(depth=4), ExactRoot=False, **options)
            nodes[name] += result.nodes
            values.add(round(player0_value(tree, result), 12))
        assert len(values) == 1
    # measured when written: plain 162,060, star1 76,811, star2 59,555 nodes
    assert nodes["star2"] < 0.85 * nodes["star1"] < 0.85 * nodes["plain"]


def test_at_a_decision_root_each_move_is_exact_or_an_upper_bound_of_its_value():
    tree = RandomChanceTree(5, decisions=3, max_moves=5)
    result, _ = run(tree, Limits(depth=3), ExactRoot=False)
    everything, _ = run(tree, Limits(depth=3))  # ExactRoot (the default): every move exact
    assert (everything.best_move, everything.score) == (result.best_move, result.score)
    assert result.nodes < everything.nodes
    exact = {root.move: root.score.expected for root in everything.root_moves}
    assert all(root.score.bound == Bound.EXACT for root in everything.root_moves)
    for move in tree.legal_moves():
        tree.play(move)
        assert exact[move] == pytest.approx(expectimax(tree, 2), abs=1e-12)
        tree.undo()
    assert result.root_moves[0].score.bound == Bound.EXACT
    assert result.root_moves[0].score.expected == pytest.approx(max(exact.values()))
    for root in result.root_moves[1:]:
        assert root.score.bound in (Bound.EXACT, Bound.UPPER)
        assert root.score.expected >= exact[root.move] - 1e-12


# -- chance roots -------------------------------------------------------------------------------


def test_a_chance_root_values_every_outcome_and_averages_them():
    tree = RandomChanceTree(3, decisions=3, max_moves=4, chance_root=True)
    assert tree.to_move() == CHANCE
    result, _ = run(tree, Limits(depth=3))
    outcomes = tree.chance_outcomes()
    assert {root.move for root in result.root_moves} == {move for move, _ in outcomes}
    probabilities = [root.probability for root in result.root_moves]
    assert probabilities == sorted(probabilities, reverse=True)
    assert result.best_move == result.root_moves[0].move == max(outcomes, key=lambda o: o[1])[0]
    for root in result.root_moves:
        assert root.score.bound == Bound.EXACT
        tree.play(root.move)
        assert root.score.expected == pytest.approx(expectimax(tree, 3), abs=1e-12)
        tree.undo()
        assert root.pv[0] == root.move
        tree.play(root.move)
        if not tree.is_terminal():  # the outcome, then the best decision there
            assert len(root.pv) >= 2 and root.pv[1] in tree.legal_moves()
        tree.undo()
    average = sum(root.probability * root.score.expected for root in result.root_moves)
    assert result.score.expected == pytest.approx(average, abs=1e-12)


def test_a_stated_outcome_is_the_only_one_searched():
    tree = RandomChanceTree(3, decisions=3, max_moves=4, chance_root=True)
    stated = tree.legal_moves()[-1]
    result, _ = run(tree, Limits(depth=2, search_moves=[stated]))
    assert [root.move for root in result.root_moves] == [stated]
    tree.play(stated)
    assert result.score.expected == pytest.approx(expectimax(tree, 2), abs=1e-12)


def test_a_line_through_a_chance_node_follows_the_most_likely_outcome():
    tree = RandomChanceTree(8, decisions=3, max_moves=4)
    result, _ = run(tree, Limits(depth=3))
    first, outcome = result.pv[:2]
    assert first == result.best_move
    tree.play(first)
    assert outcome == max(tree.chance_outcomes(), key=lambda o: o[1])[0]


# -- Pig against value iteration ----------------------------------------------------------------


class PigValueIteration:
    """Player 0's exact value of every Pig decision state (score 0, score 1, turn total,
    player, decisions made), by value iteration: sweep the Bellman equations (the player
    to move maximises their return, a roll averages the six faces) until nothing changes.
    Written from the rules alone (OpenSpiel's pig), sharing no code with the game."""

    def __init__(self, goal: int, horizon: int) -> None:
        self.goal, self.horizon = goal, horizon
        states = [
            (first, second, turn, player, made)
            for first in range(goal)
            for second in range(goal)
            for turn in range(goal)
            for player in (0, 1)
            for made in range(horizon)
        ]
        self.values = dict.fromkeys(states, 0.0)
        changed = True
        while changed:
            changed = False
            for state in states:
                options = [self.hold(*state)]
                if (state[0], state[1])[state[3]] + state[2] < goal:
                    options.append(self.roll(*state))
                best = max(options) if state[3] == 0 else min(options)
                if best != self.values[state]:
                    self.values[state] = best
                    changed = True

    def value(self, first, second, turn, player, made) -> float:
        if made >= self.horizon:
            return 0.0  # the horizon: a draw
        return self.values[(first, second, turn, player, made)]

    def hold(self, first, second, turn, player, made) -> float:
        scores = [first, second]
        if scores[player] + turn >= self.goal:
            return 1.0 if player == 0 else -1.0
        scores[player] += turn
        return self.value(scores[0], scores[1], 0, 1 - player, made + 1)

    def roll(self, first, second, turn, player, made) -> float:
        total = self.value(first, second, 0, 1 - player, made + 1)  # a one
        for face in range(2, 7):
            if (first, second)[player] + turn + face >= self.goal:  # holds next, and wins
                if made + 1 < self.horizon:  # unless the game is out of moves: a draw
                    total += 1.0 if player == 0 else -1.0
            else:
                total += self.value(first, second, turn + face, player, made + 1)
        return total / 6


@pytest.mark.parametrize(
    "position",
    [
        "0-0 +0 1 goal=8 moves=0/10",
        "3-5 +0 2 goal=8 moves=2/10",
        "2-6 +4 1 goal=8 moves=3/10",
        "7-7 +0 1 goal=8 moves=6/10",
    ],
)
def test_pig_values_match_value_iteration(position):
    exact = PigValueIteration(goal=8, horizon=10)
    state = Pig.from_position(position)
    result, _ = run(state, Limits(solve=True, multipv=2))
    assert result.stop_reason == StopReason.SOLVED
    sign = 1.0 if state.to_move() == 0 else -1.0
    key = (*state.scores, state.turn_total, state.player, state.moves_made)
    assert result.score.expected == pytest.approx(sign * exact.value(*key), abs=1e-9)
    by_move = {HOLD: exact.hold(*key), ROLL: exact.roll(*key)}
    for root in result.root_moves:  # both moves exactly (multipv 2)
        assert root.score.bound == Bound.EXACT
        assert root.score.expected == pytest.approx(sign * by_move[root.move], abs=1e-9)


def test_pig_roll_or_hold_known_decisions():
    # 7-7 to 8 with 6 moves left: holding on +0 gives the opponent the first roll; rolling
    # wins at once on 2-6 (must hold then) and passes on a 1
    state = Pig.from_position("7-7 +0 1 goal=8 moves=0/10")
    result, _ = run(state, Limits(solve=True))
    assert result.best_move == ROLL
    # 0-7 to 8 with 1 move left: nothing can win any more; hold and roll both draw
    state = Pig.from_position("0-7 +6 1 goal=8 moves=9/10")
    result, _ = run(state, Limits(solve=True, multipv=2))
    assert {root.score.expected for root in result.root_moves} == {0.0}


# -- limits and reports -------------------------------------------------------------------------


def test_each_iteration_reports_its_root_moves():
    tree = RandomChanceTree(2, decisions=4, max_moves=4)
    result, infos = run(tree, Limits(depth=4))
    assert [info.depth for info in infos] == [1, 2, 3, 4]
    assert all(info.root_moves and info.pv for info in infos)
    assert infos[-1].root_moves[0].move == result.best_move
    assert infos[-1].score.expected == pytest.approx(result.score.expected)


def test_a_node_limit_ends_the_search_after_the_first_iteration():
    tree = RandomChanceTree(2, decisions=4, max_moves=5)
    result, _ = run(tree, Limits(depth=4, nodes=20))
    assert result.stop_reason == StopReason.NODES
    assert result.depth >= 1 and result.best_move in tree.legal_moves()


def test_a_search_stopped_before_it_began_answers_from_the_estimates():
    class Stopped:
        def is_set(self) -> bool:
            return True

    tree = RandomChanceTree(2, decisions=4, max_moves=5)
    result = Expectimax().search(tree, Limits(depth=3), SearchContext(stop=Stopped()))
    assert result.stop_reason == StopReason.STOPPED and result.nodes == 0
    assert result.best_move in tree.legal_moves()
    assert len(result.root_moves) == len(tree.legal_moves())


def test_solved_when_every_leaf_is_the_end_of_the_game():
    state = Pig.from_position("6-6 +0 1 goal=8 moves=0/4")
    result, _ = run(state, Limits(depth=30))
    assert result.stop_reason == StopReason.SOLVED and result.stats["solved"] == 1.0
    assert result.depth <= 5
