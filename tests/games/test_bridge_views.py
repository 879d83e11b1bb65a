"""Bridge views (the hidden-information contract): what each side's deciding seat sees at
every point of played hands and never more, views read back, declarer deciding for dummy,
endings with the cards out of play, every view error, the deals a view samples (consistent
with it and with the voids shown, uniform among them, counted as a brute force counts them),
and `pimc` answering a declarer's view."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from test_bridge import pbn, random_deal

from kibitz.engines import Limits, SearchContext
from kibitz.engines.hidden.pimc import PIMC
from kibitz.games import IllegalMoveError, NotationError
from kibitz.games.bridge import Bridge
from kibitz.games.bridge.cards import (
    DECK,
    SUIT_MASK,
    card_text,
    cards_of,
    hand_text,
    read_card,
    read_hand,
)
from kibitz.games.bridge.unseen import UnseenDeals

DEFAULT = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 NT W"


def deciding_seat(state: Bridge, side: int) -> int:
    """The seat whose view is `side`'s, as the docs say: the seat to play where the side is
    to play, else its next seat clockwise; declarer (before the leader) for dummy."""
    seat = state.seat_to_play()
    if seat % 2 != side:
        seat = (seat + 1) % 4
    declarer = (state.leader() + 3) % 4
    return declarer if seat == (declarer + 2) % 4 else seat


def voids_shown(played: list[tuple[int, int]]) -> dict[int, set[int]]:
    """Each seat's suits it did not follow to, from the cards played in order."""
    voids: dict[int, set[int]] = {seat: set() for seat in range(4)}
    for at in range(0, len(played), 4):
        trick = played[at : at + 4]
        led = trick[0][1] // 13
        for seat, card in trick:
            if card // 13 != led:
                voids[seat].add(led)
    return voids


def random_hands(seed: int, size: int = 13) -> list[Bridge]:
    """Every position (before the end) of a seeded random play of a random deal."""
    rng = random.Random(seed)
    strain = rng.choice(["S", "H", "D", "C", "NT"])
    state = Bridge.from_position(f"{pbn(random_deal(rng, size))} {strain} {'NESW'[seed % 4]}")
    found = []
    while not state.is_terminal():
        found.append(state.clone())
        state.play(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_a_view_shows_its_own_hand_and_dummy_after_the_lead_and_never_more(seed):
    for state in random_hands(seed):
        start = state.start_hands()
        played = " ".join(card_text(card) for _, card in state.played())
        dummy = (state.leader() + 1) % 4
        for side in (0, 1):
            text = state.view(side)
            seat = deciding_seat(state, side)
            words = text.split()
            assert words[:2] == ["NESW"[seat], "view"] and words[2].startswith("N:")
            hands = [words[2][2:], *words[3:6]]
            shown = {seat, dummy} if state.played() else {seat}
            for index, hand in enumerate(hands):
                if index in shown:
                    assert read_hand(hand, "a hand") == start[index]
                else:
                    assert hand == "-"
            assert " ".join(words[8:]) == played
            view = Bridge.from_position(text)
            assert view.is_view() and view.observer() == side and view.position() == text
            assert view.view(side) == text
            assert view.tricks_taken() == state.tricks_taken()
            if state.to_move() == side:
                assert view.legal_moves() == state.legal_moves()
            # nothing the view writes or draws holds a card of a hand it does not see
            hidden = [index for index in range(4) if index not in shown]
            unseen = {card_text(c) for i in hidden for c in cards_of(state.hand_masks()[i])}
            places = {place.id for place in view.diagram().places}
            assert not places & unseen
            assert not {word for word in view.render().split()} & unseen
            assert "hidden" in view.render()


def test_declarer_decides_for_dummy_and_a_defender_sees_dummy_after_the_lead():
    state = Bridge.from_position("")
    assert state.view(1) == "W view N:- - - 432.AKQJ.T98.765 NT W"
    assert state.view(0) == "S view N:- - 765.432.AKQJ.T98 - NT W"  # dummy's turn comes next
    state.play_text("S4")  # North, dummy, to play: South decides
    assert state.view(0) == "S view N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 - NT W S4"
    assert state.view(1) == "E view N:AKQJ.T98.765.432 T98.765.432.AKQJ - - NT W S4"
    state.play_line(["SA", "S8"])  # South to play: South's own view
    assert state.view(0).startswith("S view") and state.view(1).startswith("W view")


def test_a_view_cannot_play_but_knows_its_deciding_seats_cards():
    view = Bridge.from_position("S view N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 - NT W S4")
    assert view.seat_to_play() == 0 and view.to_move() == 0 == view.observer()
    assert [view.format_move(move) for move in view.legal_moves()] == ["SA", "SK", "SQ", "SJ"]
    assert view.parse_move("SK") == read_card("SK")
    with pytest.raises(IllegalMoveError, match="N must follow spades"):
        view.parse_move("HT")
    with pytest.raises(IllegalMoveError, match="a view cannot play cards"):
        view.play(read_card("SK"))
    with pytest.raises(ValueError, match="S's view does not know what EW sees"):
        view.view(1)


ENDING = "N:AK.2.. Q.3.4. J5.4.. T.9.8. H W"
ENDING_OUT = hand_text(DECK & ~sum(Bridge.from_position(ENDING).start_hands()))
"""The 40 cards out of play in ENDING."""
SWAPPED_OUT = hand_text(read_hand(ENDING_OUT, "out") ^ 1 << read_card("C2") ^ 1 << read_card("SA"))
"""ENDING_OUT with North's SA in place of C2."""


def test_a_view_of_an_ending_lists_the_cards_out_of_play_and_shows_dummy_at_once():
    state = Bridge.from_position(ENDING)
    assert state.view(1) == f"W view N:AK.2.. - - T.9.8. H W out:{ENDING_OUT}"
    assert state.view(0) == f"S view N:AK.2.. - J5.4.. - H W out:{ENDING_OUT}"
    view = Bridge.from_position(state.view(1))
    rng = random.Random(2)
    worlds = {view.sample(rng).position() for _ in range(200)}
    # East and South hold 6 of SQ SJ S5 H3 H4 D4, 3 each: 20 deals, all drawn
    assert len(worlds) == 20 and ENDING in worlds


VIEW_ERRORS = [
    ("N view N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 - NT W S4", "N is dummy: the declaring side's"),
    ("Q view N:- - - 432.AKQJ.T98.765 NT W", "'Q' is not a seat for the view"),
    ("W view N:- - - - NT W", "W's view shows W's own hand"),
    ("W view N:- T98.765.432.AKQJ - 432.AKQJ.T98.765 NT W", "W does not see E's hand"),
    ("W view N:AKQJ.T98.765.432 - - 432.AKQJ.T98.765 NT W", "dummy (N) is seen once the opening"),
    ("E view N:- T98.765.432.AKQJ - - NT W S4", "dummy (N) is seen after the opening lead"),
    ("W view N:- - - 432.AKQJ.T98.765 NT W out:A...", "no 'out:'"),
    ("W view N:AK.2.. - - T.9.8. H W", "a view lists the cards out of play"),
    ("W view N:AK.2.. - - T.9.8. H W out:A...", "40 cards are out of play, not 1"),
    ("W view N:AK.2.. - - T.9.8. H W out:A..", "the cards out of play 'A..' is not four suits"),
    (f"W view N:AK.2.. - - T.9.8. H W out:{SWAPPED_OUT}", "SA is out of play and in N's hand"),
    ("S view N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 - NT W S5", "card 1 (S5): S5 is S's, not W's"),
    (
        "S view N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 - NT W S4 SA ST S7 SK H6 S6 S3 SQ S9",
        "card 10 (S9): E has shown out of spades",
    ),
    ("W view N:AKQJ.T98.765.432 - - 432.AKQJ.T98.765 NT W S4", "here EW's view is E's"),
    ("W view N:AKQJ.T98.765.432 - - 432.AKQJ.T98.765 NT W S4 SA", "here EW's view is E's"),
    (f"W view N:AK.2.. - - T.9.8. H W out:{ENDING_OUT} H9 H2 SQ SJ", "no deal of the unseen"),
]


@pytest.mark.parametrize(("text", "message"), VIEW_ERRORS)
def test_every_view_error_names_its_culprit(text, message):
    with pytest.raises(NotationError) as error:
        Bridge.read_position(text)
    assert message in str(error.value)


@pytest.mark.parametrize("seed", range(4, 8))
def test_sampled_deals_fit_the_view_and_the_voids_shown(seed):
    rng = random.Random(seed)
    for index, state in enumerate(random_hands(seed)):
        if index % 3:
            continue
        voids = voids_shown(state.played())
        for side in (0, 1):
            text = state.view(side)
            view = Bridge.from_position(text)
            visible = [hand is not None for hand in view.start_hands()]
            for _ in range(3):
                world = view.sample(rng)
                assert not world.is_view() and world.view(side) == text
                hands = world.start_hands()
                assert sum(bin(hand).count("1") for hand in hands) == 52
                assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1
                for seat in range(4):
                    if visible[seat]:
                        assert hands[seat] == view.start_hands()[seat]
                    left = world.hand_masks()[seat]
                    assert all(not left >> (13 * suit) & SUIT_MASK for suit in voids[seat])
                if state.to_move() == side:
                    assert world.legal_moves() == view.legal_moves()


def brute_force_deals(unseen: list[int], counts: list[int], voids: list[set[int]]) -> list:
    """Every deal of `unseen` giving seat i `counts[i]` cards, none of a suit in `voids[i]`."""
    found = []

    def extend(index: int, left: list[int], dealt: list[tuple[int, ...]]) -> None:
        if index == len(counts):
            if not left:
                found.append(tuple(dealt))
            return
        for chosen in combinations(left, counts[index]):
            if any(card // 13 in voids[index] for card in chosen):
                continue
            rest = [card for card in left if card not in chosen]
            extend(index + 1, rest, [*dealt, chosen])

    extend(0, unseen, [])
    return found


@pytest.mark.parametrize(
    ("cards", "counts", "voids"),
    [
        ("SAKQ HAK D2 C34", [4, 4], [set(), set()]),
        ("SAKQ HAK D2 C34", [4, 4], [{0}, set()]),
        ("SAKQ HAK D2 C34", [3, 5], [{1, 3}, set()]),
        ("SAKQJ HAK D2", [3, 3, 2], [{0}, set(), {1}]),
        ("SAKQ HAKQ D23 C4", [3, 3, 4], [set(), {2}, {0, 3}]),
        ("SAKQ HAKQ", [3, 3], [{0}, {0}]),  # nobody may hold the spades: no deal
    ],
)
def test_the_deals_of_unseen_cards_are_counted_and_drawn_as_a_brute_force_lists_them(
    cards, counts, voids
):
    unseen = [read_card(f"{group[0]}{rank}") for group in cards.split() for rank in group[1:]]
    deals = UnseenDeals(
        sum(1 << card for card in unseen),
        tuple(range(len(counts))),
        tuple(counts),
        tuple(sum(1 << suit for suit in suits) for suits in voids),
    )
    listed = brute_force_deals(unseen, counts, voids)
    assert deals.total() == len(listed)
    if not listed:
        return
    rng = random.Random(9)
    draws = 60 * len(listed)
    seen = Counter()
    for _ in range(draws):
        hands = deals.draw(rng)
        seen[tuple(tuple(sorted(cards_of(hands[seat]), reverse=True)) for seat in hands)] += 1
    expected = {tuple(tuple(sorted(hand, reverse=True)) for hand in deal) for deal in listed}
    assert set(seen) == expected  # every deal drawn, and only those
    assert max(seen.values()) < 2 * min(seen.values())  # about equally often (seeded)


def test_a_view_before_the_opening_lead_deals_39_cards_to_three_seats():
    view = Bridge.from_position("W view N:- - - 432.AKQJ.T98.765 NT W")
    world = view.sample(random.Random(3))
    hands = world.hand_masks()
    assert [bin(hand).count("1") for hand in hands] == [13] * 4 and hands[3] == view.hand_masks()[3]
    assert view.sample(random.Random(3)).position() == world.position()  # seeded


def test_pimc_answers_a_declarers_view_with_a_legal_card_and_a_value_per_card():
    # East leads against North's no-trumps: South, dummy, is to play and North decides
    state = Bridge.from_position("N:AK3.2.. Q2.3.4. J5.4.2. T.9.8.5 NT E S2")
    text = state.view(0)
    assert text.startswith("N view N:AK3.2.. - J5.4.2. - NT E out:") and text.endswith(" S2")
    view = Bridge.from_position(text)
    engine = PIMC({"Worlds": 6, "Seed": 1, "Engine": "exact"})
    result = engine.search(view, Limits(), SearchContext(info_interval=0))
    assert [view.format_move(move) for move in view.legal_moves()] == ["SJ", "S5"]
    assert result.best_move in state.legal_moves()
    assert {root.move for root in result.root_moves} == set(state.legal_moves())
    assert all(root.pv == [root.move] for root in result.root_moves)
    assert result.stats["worlds"] == 6
    # in every deal North-South take the three spade tricks (AK and dummy's jack or the
    # last spade) and East-West the heart: NS lead by 2 whichever spade dummy plays
    assert [root.score.expected for root in result.root_moves] == [2.0, 2.0]


def test_a_view_lists_what_a_hidden_seat_may_play():
    state = Bridge.from_position("")
    state.play_line(["S4", "SA", "ST", "S7", "SK", "S9", "S6", "S3", "SQ", "S8", "S5", "S2"])
    state.play_line(["SJ", "H6"])  # East shows out of spades
    view = Bridge.from_position(state.view(0))  # South's, South to play
    assert view.seat_to_play() == 2 and view.legal_moves() == state.legal_moves()
    state.play_text("H2")
    view = Bridge.from_position(state.view(0))  # West to play: any card South cannot see
    unseen = DECK
    for hand in view.start_hands():
        unseen &= ~(hand or 0)
    for _, card in view.played():
        unseen &= ~(1 << card)
    assert view.legal_moves() == list(cards_of(unseen)) and len(view.legal_moves()) == 19
    state.play_text("HA")  # North's jack wins: North to lead, East's view shows dummy
    text = state.view(1)
    assert text.startswith("E view")
    assert Bridge.from_position(text).legal_moves() == state.legal_moves()
