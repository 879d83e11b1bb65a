"""The benchmark of hidden information (benchmarks/hidden.py): its pairing of OpenSpiel's
information states with our views, its referee (OpenSpiel's phantom_ttt and ours side by
side), the worlds it draws for OpenSpiel's ISMCTS bot, and its --quick run through a real
server."""

from __future__ import annotations

import pytest

from benchmarks import hidden
from kibitz.games import GAMES

pyspiel = pytest.importorskip("pyspiel")


def test_openspiels_information_states_are_our_views():
    kuhn = hidden.information_sets("kuhn-poker")
    assert sorted(info.view for info in kuhn.values()) == sorted(
        f"{card}:{betting}" for card in "JQK" for betting in ("", "c", "r", "cr")
    )
    assert kuhn["0"] == hidden.InfoSet(0, "J:", {0: "c", 1: "r"})  # pass is a check
    assert kuhn["2pb"] == hidden.InfoSet(0, "K:cr", {0: "f", 1: "c"})  # a fold, a call
    leduc = hidden.information_sets("leduc-poker")
    assert len(leduc) == 936
    assert sum(info.player == 0 for info in leduc.values()) == 468


def test_the_referee_plays_both_libraries_move_for_move():
    budgets = hidden.Budgets(ismcts=20, worlds=1, simulations=20)
    # seeded by the game's number; the first-named player is x in even games, o in odd ones
    randoms = [hidden.play(hidden.Task(("random", "random"), i, budgets)) for i in range(6)]
    assert randoms == [0.0, -1.0, 1.0, 1.0, 1.0, -1.0]
    # every kind of player, each state compared with OpenSpiel's at every turn
    assert hidden.play(hidden.Task(("ismcts", "openspiel"), 0, budgets)) == 1.0
    assert hidden.play(hidden.Task(("pimc", "openspiel"), 1, budgets)) == 1.0
    assert hidden.play(hidden.Task(("pimc", "random"), 1, budgets)) == 1.0


def test_the_referee_notices_a_disagreement():
    ours = GAMES[hidden.PHANTOM].from_position("b2 a1")
    spiel = hidden.replayed([4, 0])
    hidden.agree(ours, spiel)
    spiel.apply_action(hidden.openspiel_cell(8))
    ours.play(6)
    with pytest.raises(AssertionError, match="views differ at b2 a1 a3"):
        hidden.agree(ours, spiel)


def test_openspiels_bot_draws_worlds_of_its_information_state():
    ours = GAMES[hidden.PHANTOM].from_position("b2 b2* a1 c3 a3")  # o to move, refused once
    spiel = hidden.replayed(hidden.attempts_of(ours))
    hidden.agree(ours, spiel)
    side = hidden.OpenSpielSide(simulations=10, seed=3)
    key = spiel.information_state_string(1)
    worlds = {tuple(side.resample(spiel, 1).history()) for _ in range(40)}
    assert len(worlds) > 1
    for history in worlds:
        world = hidden.replayed([hidden.openspiel_cell(action) for action in history])
        assert world.information_state_string(1) == key
        assert world.current_player() == 1
    move = side.choose(ours, spiel)
    assert move in ours.legal_moves()


def test_the_quick_run_prints_both_tables(capsys):
    hidden.run(quick=True)
    lines = capsys.readouterr().out.splitlines()
    rows = {line[7:41].strip(): line[41:].split() for line in lines[2:7]}
    assert rows["uniform random"] == ["0.916667"]
    conv, _, openspiel = rows["cfr, 10 iterations"]
    assert conv == openspiel == "0.065374"  # CFR+ through the service is OpenSpiel's CFR+
    assert rows["pimc, Choice mean"][0] == "0.333333"
    value = next(line for line in lines if line.startswith("Kuhn's value"))
    assert "exact -1/18 = -0.055556" in value
    start = next(i for i, line in enumerate(lines) if line.startswith("Phantom"))
    matches = [line.split() for line in lines[start + 2 : start + 2 + len(hidden.PAIRINGS)]]
    for row in matches:
        wins, draws, losses = map(int, row[-6:-3])
        assert row[-7] == "4" and wins + draws + losses == 4
