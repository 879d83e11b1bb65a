"""The Monte Carlo benchmark's pairings of `mcts` with Hex's move priors
(benchmarks/montecarlo.py, `priors_pairings`): what each pits against what, and a game of
one played out with a kibitz `mcts` opponent at equal simulations."""

from __future__ import annotations

from benchmarks.montecarlo import PAIRING_SETS, PRIORS, Pairing, play_game, priors_pairings


def test_the_priors_pairings_give_mcts_the_priors_and_each_opponent_its_limit():
    pairings = priors_pairings(10)
    assert PAIRING_SETS["priors"] is priors_pairings
    assert len({pairing.title for pairing in pairings}) == len(pairings) == 6
    assert all(dict(pairing.options)["Policy"] == "puct" for pairing in pairings)
    assert [pairing.opponent for pairing in pairings] == ["alphabeta"] * 2 + ["mcts"] * 4
    timed, counted = pairings[:4], pairings[4:]
    assert all(p.movetime > 0 and not p.playouts for p in timed)
    assert all(
        p.playouts == 1000 and dict(p.opponent_options) == {"Kernel": False} for p in counted
    )


def test_a_game_against_mcts_at_equal_simulations_is_reproducible():
    python = (("Kernel", False),)
    pairing = Pairing("t", "hex", "4", "mcts", 2, playouts=100, options=PRIORS + python,
                      opponent_options=python)  # fmt: skip
    results = [play_game(pairing, index) for index in range(2)]
    assert all(result in (1.0, -1.0) for result in results)
    assert [play_game(pairing, index) for index in range(2)] == results
