"""Where `pimc` errs (docs/engines.md, "Where PIMC errs"): in Kuhn poker, player 2 holding K
after a check (`K:c`). In each of its two worlds the opponent sees the K and folds to a bet,
so `pimc` values the bet no more than the check and checks; the equilibrium bets, worth
7/3 / (2 - alpha) > 1 against player 1's equilibrium strategy (alpha: how often player 1
bets J). The cost is measured with OpenSpiel's NashConv of `cfr`'s profile with that one
answer replaced by `pimc`'s. Engine objects, seeded; the policy mapping is
benchmarks/hidden.py's."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability

from benchmarks import hidden
from kibitz.engines import ENGINES, Limits, Result, SearchContext
from kibitz.games import GAMES

GAME = "kuhn-poker"


def search(engine: str, view: str, limits: Limits, **options: object) -> Result:
    return ENGINES[engine](options).search(GAMES[GAME].from_position(view), limits, SearchContext())


def moves(view: str, result: Result) -> dict[str, tuple[float | None, float | None]]:
    """Each root move's text: its expected value and probability."""
    state = GAMES[GAME].from_position(view)
    return {state.format_move(m.move): (m.score.expected, m.probability) for m in result.root_moves}


@pytest.fixture(scope="module")
def profiles() -> dict[str, dict[str, dict[str, float]]]:
    """`cfr`'s strategy (1000 iterations, one engine for every set) and `pimc`'s pure one
    (its best move), by view."""
    cfr = ENGINES["cfr"]({"NashConv": False})
    found: dict[str, dict[str, dict[str, float]]] = {"cfr": {}, "pimc": {}}
    for info in hidden.information_sets(GAME).values():
        state = GAMES[GAME].from_position(info.view)
        answer = cfr.search(state, Limits(depth=1000), SearchContext())
        found["cfr"][info.view] = {
            state.format_move(m.move): m.probability for m in answer.root_moves
        }
        best = search("pimc", info.view, Limits(), Seed=1).best_move
        found["pimc"][info.view] = {state.format_move(best): 1.0}
    return found


def nash_conv(strategies: dict[str, dict[str, float]]) -> float:
    sets = hidden.information_sets(GAME)
    game = pyspiel.load_game("kuhn_poker")
    return exploitability.nash_conv(game, hidden.policy_of(GAME, sets, strategies))


def test_pimc_checks_a_king_behind_because_every_world_folds_to_the_bet():
    for choice in ("mean", "votes"):
        answer = search("pimc", "K:c", Limits(), Seed=1, Choice=choice)
        assert answer.best_move == answer.root_moves[0].move
        assert list(moves("K:c", answer).items()) == [("c", (1.0, None)), ("r", (1.0, None))]
        assert answer.stats == {"worlds": 2.0, "votes c": 1.0, "votes r": 0.0}


def test_cfr_bets_it_worth_what_the_equilibrium_family_says():
    bet = search("cfr", "K:c", Limits(depth=1000))
    alpha = moves("J:", search("cfr", "J:", Limits(depth=1000)))["r"][1]
    assert 0 < alpha < 1 / 3
    values = moves("K:c", bet)
    assert values["r"][1] > 0.9999
    assert values["r"][0] == pytest.approx(7 / 3 / (2 - alpha), abs=1e-3)
    assert values["c"][0] == pytest.approx(1.0)
    assert values["r"][0] - values["c"][0] == pytest.approx(0.3087, abs=1e-3)


def test_pimcs_answer_costs_the_most_nash_conv_of_kuhns_twelve_sets(profiles):
    cfr, pimc = profiles["cfr"], profiles["pimc"]
    assert nash_conv(cfr) == pytest.approx(0.00017473, abs=1e-8)
    assert nash_conv(pimc) == pytest.approx(1 / 3)
    costs = {view: nash_conv(cfr | {view: pimc[view]}) for view in cfr}
    assert max(costs, key=costs.__getitem__) == "K:c"
    assert costs["K:c"] == pytest.approx(0.166792, abs=1e-6)
    assert costs["Q:r"] == pytest.approx(0.111270, abs=1e-6)
    assert costs["J:c"] == pytest.approx(0.111253, abs=1e-6)
    # where pimc plays the move cfr's strategy plays, nothing is lost at that set alone
    same = [view for view in cfr if cfr[view][next(iter(pimc[view]))] > 0.9999]
    assert sorted(same) == ["J:cr", "J:r", "K:cr", "K:r", "Q:", "Q:c"]
    assert all(costs[view] == pytest.approx(nash_conv(cfr), abs=1e-5) for view in same)


def test_strategy_fusion_shows_in_pimcs_value_of_checking_a_queen():
    # pimc: J's world +1 at the showdown, K's world -1 folding to the bet; as if it knew
    fused = moves("Q:", search("pimc", "Q:", Limits(), Seed=1))
    honest = moves("Q:", search("cfr", "Q:", Limits(depth=1000)))
    assert fused == {"c": (0.0, None), "r": (-0.5, None)}
    assert honest["c"][0] == pytest.approx(-1 / 3, abs=1e-3) and honest["c"][1] > 0.9999
