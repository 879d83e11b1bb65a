"""Leduc poker against OpenSpiel's leduc_poker (pyspiel): the whole tree node for node (who
is to move, the legal moves, the chance probabilities, the payoffs, the counts), the 936
information sets of the player to move as our views, every view read back and sampled into
worlds consistent with it, views that never show the hidden card, and the notation's
errors."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from poker_trees import (
    assert_views_hide_the_other_card,
    count,
    every_view,
    leduc_view,
    spiel_count,
    walk,
)

from kibitz.games import CHANCE, GAMES, IllegalMoveError, NotationError
from kibitz.games.poker import LeducPoker
from kibitz.games.poker.limit import CALL, FOLD, RAISE


@pytest.fixture(scope="module")
def views() -> set[tuple[int, str]]:
    return every_view(LeducPoker.from_position(""))


def test_the_game_is_registered():
    assert GAMES["leduc-poker"] is LeducPoker


def test_every_node_matches_openspiel():
    found = walk("leduc_poker", LeducPoker.from_position(""), leduc_view)
    assert (found.nodes, found.terminals, found.chance_nodes) == (9457, 5520, 157)
    assert found.views == 2 * (9457 - 1 - 6)  # both players after the private cards' deal
    # OpenSpiel's 936 information sets of the player to move: one view each, and back
    assert len(found.decisions) == 936
    assert len({(player, info) for player, info, _ in found.decisions}) == 936
    assert len({(player, view) for player, _, view in found.decisions}) == 936


def test_the_tree_has_openspiels_node_counts():
    assert count(LeducPoker.from_position("")) == spiel_count("leduc_poker") == (9457, 5520)


@pytest.mark.parametrize(
    ("position", "returns"),
    [
        ("KsJh:rf", (1.0, -1.0)),
        ("KsJh:rrf", (-3.0, 3.0)),
        ("JsKh/Jh:cc/cc", (1.0, -1.0)),  # a pair with the public card
        ("JsKh/Qh:cc/rc", (-5.0, 5.0)),  # K high
        ("KsQh/Js:rrc/rrc", (13.0, -13.0)),  # the most a hand can win
        ("KsQh/Kh:cc/cc", (1.0, -1.0)),
        ("QsKs/Kh:rc/rf", (3.0, -3.0)),  # player 2 folds the best hand
        ("KsKh/Js:rc/cc", (0.0, 0.0)),  # equal hands split the pot
        ("QsJh/Ks:cc/cc", (1.0, -1.0)),  # K Q beats K J
        # a view's showdown, what its observer expects: Ks with Qh beats Js and Jh, loses
        # to Qs (a pair), splits with Kh
        ("Ks?/Qh:cc/cc", (0.25, -0.25)),
        ("Qs?/Qh:cc/cc", (1.0, -1.0)),
        ("?Js/Ks:cc/rc", (3.75, -3.75)),  # player 1's Qs, Qh, Kh win 5, Jh splits
    ],
)
def test_the_payoffs_are_the_chips_won(position, returns):
    state = LeducPoker.from_position(position)
    assert state.is_terminal() and not state.legal_moves()
    assert state.returns() == pytest.approx(returns)


def test_a_hand_is_dealt_and_bet_round_by_round():
    state = LeducPoker.from_position("")
    assert state.position() == "--:" and state.to_move() == CHANCE
    assert state.chance_outcomes() == [(card, 1 / 6) for card in range(6)]
    state.play_line(["Ks", "Jh", "r", "r"])
    assert state.position() == "KsJh:rr" and state.legal_moves() == [FOLD, CALL]
    assert state.move_labels(state.legal_moves()) == ["fold", "call"]
    assert state.paid == [3, 5]
    state.play_line(["c"])
    assert state.position() == "KsJh:rrc/" and state.to_move() == CHANCE
    assert state.chance_outcomes() == [(0, 0.25), (2, 0.25), (3, 0.25), (5, 0.25)]
    assert (state.view(0), state.view(1)) == ("Ks?:rrc/", "?Jh:rrc/")
    state.play_line(["Qh"])
    assert state.position() == "KsJh/Qh:rrc/" and state.legal_moves() == [CALL, RAISE]
    assert state.move_labels(state.legal_moves()) == ["check", "bet"]
    state.play_line(["r", "r"])
    assert state.move_labels(state.legal_moves()) == ["fold", "call"]
    assert state.paid == [9, 13] and state.position() == "KsJh/Qh:rrc/rr"
    assert (state.view(0), state.view(1)) == ("Ks/Qh:rrc/rr", "?Jh/Qh:rrc/rr")


def test_every_view_reads_back_as_itself_with_its_worlds(views):
    for player, text in views:
        view = LeducPoker.from_position(text)
        assert view.position() == text and view.view(player) == text
        if not view.is_view():  # before player 2's card: nothing is hidden from either
            assert re.fullmatch(r"(--|[JQK][sh]-):", text)
            continue
        assert view.observer() == player
        worlds = view.worlds()
        unseen = 6 if text.startswith("?-") else 4 if "/" in text.split(":")[0] else 5
        assert [p for _, p in worlds] == [1 / unseen] * unseen
        assert len({world.position() for world, _ in worlds}) == unseen
        for world, _ in worlds:
            assert not world.is_view() and world.view(player) == text


def test_sampling_draws_each_world_equally_often():
    rng = random.Random(34)
    for text in ("Ks:", "Qh:r", "Jh/Js:rc/r", "?Qs/Ks:cc/"):
        view = LeducPoker.from_position(text)
        player = view.observer()
        worlds = {world.position() for world, _ in view.worlds()}
        drawn = Counter()
        for _ in range(3000):
            world = view.sample(rng)
            assert not world.is_view() and world.view(player) == text
            drawn[world.position()] += 1
        assert set(drawn) == worlds
        assert all(abs(n / 3000 - 1 / len(worlds)) < 0.04 for n in drawn.values())  # seeded


def test_a_view_shows_no_hidden_card():
    assert_views_hide_the_other_card(LeducPoker.from_position(""), r"[JQK][sh]")


def test_a_view_deals_the_public_card_from_what_its_observer_has_not_seen():
    view = LeducPoker.from_position("Ks?:cc/")
    assert view.to_move() == CHANCE and view.observer() == 0
    assert view.chance_outcomes() == [(card, 0.2) for card in (0, 1, 2, 3, 5)]
    view.play_line(["Kh", "c"])
    assert view.position() == "Ks?/Kh:cc/c" and view.legal_moves() == [CALL, RAISE]


@pytest.mark.parametrize(
    ("text", "position", "to_move"),
    [
        ("", "--:", CHANCE),
        ("ks jh:R", "KsJh:r", 1),
        ("KsJh:rc", "KsJh:rc/", CHANCE),  # the round is over: '/' may be left out
        ("KsJh/Qh:rc/", "KsJh/Qh:rc/", 0),
        ("Ks/Qh:rc/r", "Ks/Qh:rc/r", 1),  # player 2's view, to move
        ("?Ks/Qh:rc/r", "Ks/Qh:rc/r", 1),
        ("Ks?/Qh:rc/r", "Ks?/Qh:rc/r", 1),
        ("Ks-:", "Ks-:", CHANCE),
    ],
)
def test_positions_are_read(text, position, to_move):
    state = LeducPoker.from_position(text)
    assert (state.position(), state.to_move()) == (position, to_move)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Kd:", "'Kd' is no card: the cards are Js, Jh, Qs, Qh, Ks, Kh"),
        ("KsKs:", "Ks twice: the deck has one Ks"),
        ("Ks?/Ks:cc/", "Ks twice: the deck has one Ks"),
        ("KsQh/Js/Jh:cc/", "Leduc poker deals 1 public card, not 2"),
        ("KsQh:rrr", "the betting 'rrr' is impossible: the round has had its 2 raises"),
        ("KsQh:cc/r", "round 2's betting comes after a public card"),
        ("KsQh/Js:c", "the public card Js comes once round 1's betting is over"),
        ("KsQh/Js:cc/cc/", "after 'cc/cc' the hand is over: no round 3"),
        ("KsQh/Js:rf/", "after 'rf' the hand is over: no round 2"),
        ("KsQh/Js:c/c", "after 'c' the hand goes on: no round 2"),
        ("Ks:rc/", "nobody is to move here (a card is dealt next)"),
        ("K:", "'K' is no card"),
        ("?Ks-:", "write both players' cards"),
    ],
)
def test_impossible_positions_say_why(text, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        LeducPoker.read_position(text)


@pytest.mark.parametrize(
    ("position", "move", "error", "message"),
    [
        ("KsJh:rr", "r", IllegalMoveError, "r is not legal here: the round has had its 2 raises"),
        ("KsJh:c", "f", IllegalMoveError, "f is not legal here: there is no bet to fold to"),
        ("KsJh:rc/", "Ks", IllegalMoveError, "Ks is already out of the deck"),
        ("KsJh:rc/", "K", NotationError, "'K' is no card"),
        ("KsJh:rf", "c", IllegalMoveError, "the hand is over"),
    ],
)
def test_illegal_moves_say_why(position, move, error, message):
    with pytest.raises(error, match=message):
        LeducPoker.from_position(position).read_move(move)


def test_the_diagram_shows_the_public_card_with_the_pot():
    diagram = LeducPoker.from_position("Ks/Qh:rc/r").diagram()
    assert [(g.label, g.value, g.maximum) for g in diagram.gauges] == [
        ("player 1: ?", 7, 13),
        ("player 2: Ks", 3, 13),
        ("pot (public Qh)", 10, 26),
    ]
