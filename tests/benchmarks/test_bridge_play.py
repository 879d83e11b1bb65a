"""The GIB-style play benchmark (benchmarks/bridge_play.py): the rule-based player's choices
on hand-made deals (each rule), the views its referee gives the players, and a short run's
tables."""

from __future__ import annotations

import random

import pytest

from benchmarks import bridge_play
from kibitz.games.base import IllegalMoveError
from kibitz.games.bridge.game import Bridge

DEAL = "N:A84.K53.AK8.AK97 QJ3.QJT9.JT9.QT8 T6.A762.7542.653 K9752.84.Q63.J42"
"""West holds K9752 of spades, East QJ3, dummy (North) A84, South T6."""
VOID = "N:A84.K53.AK8.AK97 QJT63.QJ.JT9.QT8 .AT9762.7542.653 K9752.84.Q63.J42"
"""As DEAL, but East holds QJT63 of spades and South none."""


def rules_card(deal: str, strain: str, cards: str = "") -> str:
    """The rule-based player's card for the side to move, given that side's view (as the
    referee does) of `deal` in `strain`, West on lead, after `cards`."""
    state = Bridge.from_position(f"{deal} {strain} W {cards}")
    view = Bridge.from_position(state.view(state.to_move()))
    return state.format_move(bridge_play.RulesPlayer().choose(view))


@pytest.mark.parametrize(
    ("deal", "strain", "cards", "expected"),
    [
        (DEAL, "NT", "", "S5"),  # fourth best from the longest suit, K9752
        (DEAL, "NT", "S5 S4 SJ S6", "HQ"),  # top of a sequence, East's QJT9
        (DEAL, "S", "", "D3"),  # trumps last: the stronger side suit of three, Q63
        (DEAL, "NT", "S5", "S4"),  # second hand (dummy, played by declarer) low
        (DEAL, "NT", "S5 S4 SJ S6 HQ", "HA"),  # cover an honour with an honour
        (DEAL, "NT", "S5 S4", "SJ"),  # third hand high: the lower of QJ
        (VOID, "NT", "S5 S4", "ST"),  # third hand high: the lowest of QJT
        (DEAL, "NT", "S5 S4 SJ S6 HQ H2", "H4"),  # partner's honour wins: third hand low
        (DEAL, "NT", "S5 S4 SJ S6 HQ H2 H4", "HK"),  # fourth hand wins cheaply
        (DEAL, "NT", "S5 S4 SJ", "S6"),  # fourth hand cannot win: low
        (DEAL, "NT", "S5 S4 SJ S6 HQ HA H4", "H3"),  # fourth hand, partner wins: low
        (VOID, "D", "S5 S4 ST", "D2"),  # void, the opponents' trick: ruff cheaply
        (VOID, "NT", "S5 S4 ST", "H2"),  # void, no trumps: the longest suit's lowest
        (VOID, "D", "S5 SA S3", "H2"),  # void, partner's trick: no ruff, a discard
    ],
)
def test_the_rule_based_player(deal, strain, cards, expected):
    assert rules_card(deal, strain, cards) == expected


def test_touching_cards_count_the_cards_of_earlier_tricks():
    # East's SQ and SA touch once West's SK went in trick 1 (not in the current trick)
    deal = "N:J84.K53.AK8.AK97 AQ3.QJT9.JT9.QT8 T6.A762.7542.653 K9752.84.Q63.J42"
    assert rules_card(deal, "NT", "SK S4 S3 S6 S2 S8") == "SQ"
    assert rules_card(deal, "NT", "S2 SJ") == "SA"  # the king still out: they do not touch


class Recording:
    """A player that keeps what it is given."""

    def __init__(self, player: bridge_play.Player) -> None:
        self.player = player
        self.sees_all = player.sees_all
        self.given: list[Bridge] = []

    def choose(self, state: Bridge) -> int:
        self.given.append(state)
        return self.player.choose(state)


def test_each_player_sees_only_its_view():
    state = bridge_play.random_deal(random.Random(5), 0)
    full = state.start_hands()
    rules = bridge_play.RulesPlayer()
    while state.tricks_left() > 3:  # the first tricks by the rules, from views
        state.play(rules.choose(Bridge.from_position(state.view(state.to_move()))))
    players = [
        (Recording(bridge_play.pimc(4, 1)), Recording(bridge_play.RulesPlayer())),
        (Recording(bridge_play.double_dummy()), Recording(bridge_play.pimc(4, 2))),
    ]
    for sides in players:
        bridge_play.referee(state.clone(), sides)
        for side, player in enumerate(sides):
            assert len(player.given) == 6  # its three cards and its partner's
            for given in player.given:
                assert given.to_move() == side
                if player.sees_all:
                    assert not given.is_view()
                    assert given.start_hands() == full
                    continue
                viewer = given.viewer()
                assert viewer is not None and viewer % 2 == side
                assert viewer != given.dummy()  # declarer plays dummy's cards
                shown = {viewer, given.dummy()}
                assert given.start_hands() == [
                    hand if seat in shown else None for seat, hand in enumerate(full)
                ]


def test_an_illegal_card_is_refused_naming_the_player():
    class Revoker:
        sees_all = True

        def choose(self, state: Bridge) -> int:
            return max(set(range(52)) - set(state.legal_moves()))  # North's CA: a revoke

    state = Bridge.from_position(f"{DEAL} NT W S5")
    with pytest.raises(IllegalMoveError, match=r"^Revoker played CA for North: not a legal card$"):
        bridge_play.referee(state, (Revoker(), bridge_play.RulesPlayer()))


def test_a_short_run_prints_the_three_tables(capsys):
    lines = bridge_play.run(quick=True, deals=1)
    assert capsys.readouterr().out.startswith("\n".join(lines) + "\n(")
    assert lines[0] == (
        "GIB-style play: 1 random deal (seed 1) in NT by South, West leads; the first 10 "
        "tricks double dummy, the last 3 played; pimc 4 worlds a card (each solved by dds), "
        "seeded per deal"
    )
    assert lines[1:] == [
        "double-dummy result: 2.00 of the last 3 tricks on average",
        "(1) declarer against a double-dummy defence: tricks short of double dummy",
        "               mean      95% interval   exact",
        "pimc           0.00      [0.00, 0.00]    100%",
        "rules          0.00      [0.00, 0.00]    100%",
        "(2) defence against a double-dummy declarer: tricks given beyond double dummy",
        "               mean      95% interval   exact",
        "pimc           0.00      [0.00, 0.00]    100%",
        "rules          1.00      [1.00, 1.00]      0%",  # the rules give a trick away
        "(3) declarer against the rules defence: tricks of the last 3",
        "               mean      95% interval",
        "pimc           3.00      [3.00, 3.00]",
        "rules          3.00      [3.00, 3.00]",
        "pimc - rules  +0.00    [+0.00, +0.00]",
    ]
