"""Kuhn poker against OpenSpiel's kuhn_poker (pyspiel): the whole tree node for node (who
is to move, the legal moves, the chance probabilities, the payoffs, the counts), the 12
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
    kuhn_view,
    spiel_count,
    walk,
)

from kibitz.games import CHANCE, GAMES, IllegalMoveError, NotationError
from kibitz.games.poker import KuhnPoker
from kibitz.games.poker.limit import CALL, FOLD, RAISE

CARDS = "JQK"


def test_the_game_is_registered():
    assert GAMES["kuhn-poker"] is KuhnPoker


def test_every_node_matches_openspiel():
    found = walk("kuhn_poker", KuhnPoker.from_position(""), kuhn_view)
    assert (found.nodes, found.terminals, found.chance_nodes) == (58, 30, 4)
    assert found.views == 2 * (58 - 4)  # both players at every node after the deal
    # the 12 information sets of the player to move: one view each, and back
    assert len(found.decisions) == 12
    assert len({(player, info) for player, info, _ in found.decisions}) == 12
    assert len({(player, view) for player, _, view in found.decisions}) == 12
    assert sorted(view for _, _, view in found.decisions) == sorted(
        f"{card}:{betting}" for card in CARDS for betting in ("", "c", "r", "cr")
    )


def test_the_tree_has_openspiels_node_counts():
    assert count(KuhnPoker.from_position("")) == spiel_count("kuhn_poker") == (58, 30)


@pytest.mark.parametrize(
    ("position", "returns"),
    [
        ("KQ:cc", (1.0, -1.0)),
        ("JQ:cc", (-1.0, 1.0)),
        ("KQ:crc", (2.0, -2.0)),
        ("QK:rc", (-2.0, 2.0)),
        ("JQ:rf", (1.0, -1.0)),
        ("KJ:crf", (-1.0, 1.0)),
        ("K?:rc", (2.0, -2.0)),  # a view's showdown: what its observer expects
        ("Q?:cc", (0.0, 0.0)),
        ("?J:cc", (1.0, -1.0)),
        ("?Q:crf", (-1.0, 1.0)),
    ],
)
def test_the_payoffs_are_the_chips_won(position, returns):
    state = KuhnPoker.from_position(position)
    assert state.is_terminal() and not state.legal_moves()
    assert state.returns() == returns


def test_a_hand_is_dealt_and_bet_move_by_move():
    state = KuhnPoker.from_position("")
    assert state.position() == "--:" and state.to_move() == CHANCE and not state.is_view()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.play_line(["K"])
    assert state.position() == "K-:" and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert (state.view(0), state.view(1)) == ("K-:", "?-:")  # nothing hidden from player 1 yet
    state.play_line(["Q", "c", "r"])
    assert state.position() == "KQ:cr" and state.to_move() == 0
    assert state.legal_moves() == [FOLD, CALL]
    assert state.move_labels(state.legal_moves()) == ["fold", "call"]
    assert (state.view(0), state.view(1)) == ("K:cr", "?Q:cr")
    state.undo()
    assert state.legal_moves() == [CALL, RAISE]
    assert state.move_labels(state.legal_moves()) == ["check", "bet"]
    assert state.label_line([CALL, RAISE]) == ["check", "bet"]
    assert state.position() == "KQ:c"


def test_every_view_reads_back_as_itself_with_its_worlds():
    views = every_view(KuhnPoker.from_position(""))
    # 2 players x 3 cards x 9 bettings ("", c, r, cc, cr, rc, rf, crc, crf), and at the
    # deal: "--:" (both), "J-:", "Q-:", "K-:" (player 1), "?-:" (player 2)
    assert len(views) == 2 * 3 * 9 + 6
    for player, text in views:
        view = KuhnPoker.from_position(text)
        assert view.position() == text and view.view(player) == text
        if not view.is_view():  # before player 2's card: nothing is hidden from either
            assert text in ("--:", "K-:", "Q-:", "J-:")
            continue
        assert view.observer() == player
        worlds = view.worlds()
        unseen = 3 if text.startswith("?-") else 2
        assert [p for _, p in worlds] == [1 / unseen] * unseen
        assert len({world.position() for world, _ in worlds}) == unseen
        for world, _ in worlds:
            assert not world.is_view() and world.view(player) == text


def test_sampling_draws_each_world_equally_often():
    rng = random.Random(2024)
    for text in ("K:", "Q:cr", "J:r", "Q?:cc"):
        view = KuhnPoker.from_position(text)
        player = view.observer()
        drawn = Counter()
        for _ in range(2000):
            world = view.sample(rng)
            assert not world.is_view() and world.view(player) == text
            drawn[world.position()] += 1
        assert set(drawn) == {world.position() for world, _ in view.worlds()}
        assert all(abs(n / 2000 - 0.5) < 0.05 for n in drawn.values())  # seeded: exact
    world = KuhnPoker.from_position("K:cr").sample(rng)
    for _ in range(4):  # the deal and the betting were played: they undo back to the start
        world.undo()
    assert world.position() == "--:"
    full = KuhnPoker.from_position("KQ:c")
    assert full.sample(rng).position() == "KQ:c" and full.worlds()[0][1] == 1.0


def test_a_view_shows_no_hidden_card():
    assert_views_hide_the_other_card(KuhnPoker.from_position(""), r"[JQK]")


def test_a_view_plays_public_betting_and_deals_from_what_its_observer_has_not_seen():
    view = KuhnPoker.from_position("?-:")  # player 2's view before their card
    assert view.observer() == 1 and view.to_move() == CHANCE
    assert view.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    view.play_line(["K", "r"])
    assert view.position() == "K:r" and view.legal_moves() == [FOLD, CALL]
    with pytest.raises(ValueError, match="does not know"):
        view.view(0)


@pytest.mark.parametrize(
    ("text", "position", "to_move"),
    [
        ("", "--:", CHANCE),
        ("--:", "--:", CHANCE),
        (" k q : c r ", "KQ:cr", 0),
        ("K:", "K:", 0),
        ("K:c", "K:c", 1),
        ("?K:c", "K:c", 1),  # the long form of the mover's view is written short
        ("K?:c", "K?:c", 1),
        ("?-:", "?-:", CHANCE),
    ],
)
def test_positions_are_read(text, position, to_move):
    state = KuhnPoker.from_position(text)
    assert (state.position(), state.to_move()) == (position, to_move)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("KQ", "the cards, a colon, then the betting"),
        ("KQ:c:r", "the cards, a colon, then the betting"),
        ("A:", "'A' is no card: the cards are J, Q, K"),
        ("KK:", "K twice: the deck has one K"),
        ("KQJ:", "write both players' cards"),
        (":", "write both players' cards"),
        ("-K:", "player 1's card is dealt first"),
        ("??:", "one '?'"),
        ("?:c", "the player to move's own card"),
        ("K-:c", "the betting starts once both players have a card"),
        ("K:rr", "the betting 'rr' is impossible: the round has had its 1 raise"),
        ("K:f", "the betting 'f' is impossible: there is no bet to fold to"),
        ("K:x", "'x' is no betting move"),
        ("KQ:ccc", "the betting 'ccc' goes on after its round ended"),
        ("KQ:cc/", "after 'cc' the hand is over: no round 2"),
        ("KQ/J:", "Kuhn poker deals 0 public cards, not 1"),
        ("K:cc", "nobody is to move here (the hand is over)"),
        ("x" * 101 + ":", "at most 100 characters"),
    ],
)
def test_impossible_positions_say_why(text, message):
    with pytest.raises(NotationError, match=re.escape(message)):
        KuhnPoker.read_position(text)


@pytest.mark.parametrize(
    ("position", "move", "error", "message"),
    [
        ("KQ:", "x", NotationError, "c \\(check or call\\), r \\(bet or raise\\) or f"),
        ("KQ:", "f", IllegalMoveError, "no bet to fold to"),
        ("KQ:r", "r", IllegalMoveError, "the round has had its 1 raise"),
        ("KQ:cc", "c", IllegalMoveError, "the hand is over"),
        ("--:", "c", NotationError, "'c' is no card"),
        ("K-:", "K", IllegalMoveError, "K is already out of the deck"),
    ],
)
def test_illegal_moves_say_why(position, move, error, message):
    with pytest.raises(error, match=message):
        KuhnPoker.from_position(position).read_move(move)


def test_the_diagram_is_a_panel_of_the_chips_in():
    diagram = KuhnPoker.from_position("K:cr").diagram()
    assert [(g.label, g.value, g.maximum) for g in diagram.gauges] == [
        ("player 1: K", 1, 2),
        ("player 2: ?", 2, 2),
        ("pot", 3, 4),
    ]
