"""Hex's move priors (`Hex.move_priors`): a distribution over exactly the legal moves, the
known preferences (the centre, the answer to a bridge intrusion), and what they do for
`mcts` under the policy puct (and that its default search does without them)."""

from __future__ import annotations

import math
import random

import pytest

from kibitz.engines.base import SearchContext
from kibitz.engines.mcts import MCTS
from kibitz.engines.mcts.policies import RAVE, UCT
from kibitz.engines.types import Limits
from kibitz.games.hex import PRIOR_CENTRE, PRIOR_LOGITS, SWAP, Hex
from kibitz.vocabulary import ScoreKind

PRIORS = {"Policy": "puct", "FPU": 0}


def after(moves: str, position: str = "5") -> Hex:
    """The position after `moves` (played, so that the last move is known)."""
    state = Hex.from_position(position)
    for move in moves.split():
        state.play(state.parse_move(move))
    return state


def named(state: Hex) -> dict[str, float]:
    return {state.format_move(move): prior for move, prior in state.move_priors()}


def test_priors_sum_to_one_over_exactly_the_legal_moves():
    rng = random.Random(37)
    for position in ("1", "2", "5 swap", "7", "11 swap"):
        state = Hex.from_position(position)
        while not state.is_terminal():
            priors = state.move_priors()
            assert [move for move, _ in priors] == state.legal_moves()
            assert all(prior > 0 for _, prior in priors)
            assert sum(prior for _, prior in priors) == pytest.approx(1.0)
            state.play(rng.choice(state.legal_moves()))
        assert state.move_priors() == []


def test_the_empty_boards_centre_is_likeliest_and_the_corners_least():
    for size, centre, corners in ((7, "d4", ("a1", "g7")), (11, "f6", ("a1", "k11"))):
        priors = named(Hex.from_position(str(size)))
        assert max(priors, key=priors.get) == centre
        assert min(priors.values()) == priors[corners[0]] == priors[corners[1]]
    priors = named(Hex.from_position("7"))
    assert priors["d4"] == pytest.approx(0.04318, abs=1e-5)
    # a1 is 6 steps from d4 on the 7x7 board: PRIOR_CENTRE * 6 / 7 less in logit
    assert priors["a1"] / priors["d4"] == pytest.approx(math.exp(-PRIOR_CENTRE * 6 / 7))


def test_the_answer_to_a_bridge_intrusion_gets_the_top_prior():
    # Black's c2 and b4 make a bridge (carriers c3, b3); White intrudes at c3
    priors = named(after("c2 e5 b4 c3"))
    assert max(priors, key=priors.get) == "b3"
    assert priors["b3"] == pytest.approx(0.9767, abs=1e-4)
    # the same bridge without the intrusion: nothing to answer
    assert max(named(after("c2 e5 b4 e4")).values()) < 0.2


def test_an_edge_templates_intrusion_is_answered_too():
    # Black's d2 is joined to the top by d1 or e1 (a bridge to the edge); White takes d1
    priors = named(after("d2 d1", "7"))
    assert max(priors, key=priors.get) == "e1"
    assert priors["e1"] > 0.9


def test_a_move_next_to_the_last_weighs_more_by_its_logit():
    played = after("a1 d4", "7")  # White's d4 was the last move ...
    unknown = Hex.from_position(played.position())  # ... which a position read from text lacks
    gained = {}
    for cell in ("c4", "e3", "d5", "b2"):  # three next to d4, then one away from it
        ratio = named(played)[cell] / named(played)["a7"]
        gained[cell] = ratio / (named(unknown)[cell] / named(unknown)["a7"])
    assert gained["c4"] == gained["e3"] == pytest.approx(math.exp(PRIOR_LOGITS[2]))
    assert gained["d5"] == pytest.approx(math.exp(PRIOR_LOGITS[2]))
    assert gained["b2"] == pytest.approx(1.0)


def test_a_move_that_makes_a_bridge_weighs_more_by_its_logit():
    # Black's lone d4: c3 and b5 are bridge partners, b4 (as far from the centre, on no
    # shortest connection either) is not
    priors = named(Hex.from_position("7/7/7/3b3/7/7/w6 b"))
    assert priors["c3"] == pytest.approx(priors["b5"])
    assert priors["c3"] / priors["b4"] == pytest.approx(math.exp(PRIOR_LOGITS[3]))


def test_the_swap_weighs_as_much_as_a_central_move_on_the_swapped_cell():
    central, corner = named(after("d4", "7 swap")), named(after("a1", "7 swap"))
    assert central["swap"] > corner["swap"]
    ranked = sorted(central, key=central.__getitem__, reverse=True)
    # after the four cells next to Black's (last) stone on both players' shortest connections
    assert ranked[:5] == ["d3", "e3", "c5", "d5", "swap"]
    assert corner["swap"] < corner["d4"]
    assert after("d4", "7 swap").move_priors()[-1][0] == SWAP


def test_the_default_search_keeps_the_compiled_uct_walk():
    state = Hex.from_position("5")
    engine = MCTS()
    settings = engine.settings(state)
    assert not settings.priors
    policy = engine.make_policy(settings, engine.make_evaluator(state, settings))
    assert isinstance(policy, RAVE) and type(policy.base) is UCT
    result = engine.search(state, Limits(nodes=300), SearchContext())
    assert all(root.prior is None for root in result.root_moves)
    assert MCTS({"Policy": "puct"}).settings(state).priors


def test_puct_with_the_priors_proves_the_bridge_answer_wins():
    state = after("c2 e5 b4 c3")
    result = MCTS(PRIORS).search(state, Limits(nodes=5000), SearchContext())
    assert state.format_move(result.best_move) == "b3"
    assert result.score.kind == ScoreKind.WIN and result.nodes == 964
    assert result.root_moves[0].prior == pytest.approx(0.9767, abs=1e-4)
    plain = MCTS({"Kernel": False}).search(state, Limits(nodes=1000), SearchContext())
    assert state.format_move(plain.best_move) == "b3"
    assert plain.score.kind == ScoreKind.HEURISTIC  # UCT has not proven it yet


def test_puct_with_the_priors_is_deterministic_by_its_seed():
    state = after("d4 c5", "7")

    def visits(seed: int) -> dict[int, int]:
        engine = MCTS({**PRIORS, "Seed": seed})
        result = engine.search(state, Limits(nodes=400), SearchContext())
        return {root.move: root.score.visits for root in result.root_moves}

    assert visits(5) == visits(5)
    assert visits(5) != visits(6)
