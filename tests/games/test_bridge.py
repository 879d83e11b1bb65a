"""Bridge card play (full states): the PBN deal read as endplay reads it, the canonical
text, every notation error, following suit, trick winners with and without trumps, counts
of play sequences in endings against a brute force written here, a whole hand played, and
the exact value of every card in small endings by minimax over our rules against DDS's
(endplay)."""

from __future__ import annotations

import random
from itertools import product

import pytest
from endplay import dds
from endplay.types import Deal, Denom, Player
from perft import perft

from kibitz.games import GAMES, IllegalMoveError, NotationError
from kibitz.games.bridge import Bridge
from kibitz.games.bridge.cards import card_text, cards_of, hand_text, read_card
from kibitz.games.bridge.game import DEFAULT_POSITION, trick_winner

SUITS, RANKS = "SHDC", "23456789TJQKA"
ENDPLAY_SEATS = (Player.north, Player.east, Player.south, Player.west)
ENDPLAY_STRAINS = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt)
STRAINS = ("S", "H", "D", "C", "NT")


def random_deal(rng: random.Random, size: int = 13) -> list[list[str]]:
    """Four hands of `size` cards each (card texts), N first, from a shuffled deck."""
    deck = [suit + rank for suit in SUITS for rank in RANKS]
    rng.shuffle(deck)
    return [deck[size * seat : size * (seat + 1)] for seat in range(4)]


def pbn_hand(cards: list[str]) -> str:
    """A hand in PBN, written independently of the game's writer."""
    return ".".join(
        "".join(sorted((c[1] for c in cards if c[0] == suit), key=RANKS.index, reverse=True))
        for suit in SUITS
    )


def pbn(hands: list[list[str]], first: int = 0) -> str:
    return "NESW"[first] + ":" + " ".join(pbn_hand(hands[(first + i) % 4]) for i in range(4))


def test_the_game_is_registered_with_pimc_by_default():
    assert GAMES["bridge"] is Bridge and Bridge.default_engine == "pimc"
    assert Bridge.from_position("").position() == DEFAULT_POSITION


def test_cards_are_read_and_written():
    assert [card_text(card) for card in (0, 12, 13, 8, 51)] == ["S2", "SA", "H2", "ST", "CA"]
    assert read_card("sa") == 12 and read_card("H10") == 13 + 8 and read_card("dT") == 26 + 8
    assert all(read_card(card_text(card)) == card for card in range(52))


@pytest.mark.parametrize("seed", range(20))
def test_deals_are_read_as_endplay_reads_them(seed):
    rng = random.Random(seed)
    hands = random_deal(rng)
    first = rng.randrange(4)
    text = pbn(hands, first)
    ours = Bridge.from_position(f"{text} NT {'NESW'[first]}")
    theirs = Deal(text)
    for seat in range(4):
        assert hand_text(ours.hand_masks()[seat]) == str(theirs[ENDPLAY_SEATS[seat]])
    # the canonical text starts with North, whoever was written first
    assert ours.position() == f"{pbn(hands)} NT {'NESW'[first]}"


def test_the_position_is_written_canonically():
    rotated = "W:432.AKQJ.T98.765 akqj.t98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 nt w"
    assert Bridge.from_position(rotated).position() == DEFAULT_POSITION
    state = Bridge.from_position("n:a.10.. q.9.. j.8.. 2.7.. s n sa sq sj s2 h10")
    assert state.position() == "N:A.T.. Q.9.. J.8.. 2.7.. S N SA SQ SJ S2 HT"
    assert state.current_trick() == [(0, 13 + 8)] and state.tricks_taken() == (1, 0)


ERRORS = [
    ("N:AKQJ.T98.765.432 T98.765.432.AKQJ", "PBN deal, the strain and the seat on lead"),
    ("AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 NT W", "PBN deal"),
    ("X:A... K... Q... J... NT W", "the deal 'X:A... K... Q... J...' is PBN: a seat"),
    ("N:A... K... Q... NT W", "the deal has 3 hands, not 4"),
    ("N:A... K... Q... J... T... NT W", "the deal has 5 hands, not 4"),
    ("N:A.. K... Q... J... NT W", "North's hand 'A..' is not four suits"),
    ("N:A... K... Q... J1... NT W", "West's hand 'J1...': '1' is not a rank"),
    ("N:AA... K... Q... J... NT W", "North's hand holds SA twice"),
    ("N:A... A... Q... J... NT W", "SA is dealt twice (to N and E)"),
    ("N:AK... K... Q... J... NT W", "SK is dealt twice (to N and E)"),
    ("N:AK... Q... J... T... NT W", "different numbers of cards (N 2, E 1, S 1, W 1)"),
    (
        "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76 NT W",
        "different numbers of cards (N 13, E 13, S 13, W 12)",
    ),
    ("N:... ... ... ... NT W", "the hands hold no cards"),
    ("N:A... K... Q... J... X W", "'X' is not a strain: S, H, D, C or NT"),
    ("N:A... K... Q... J... NT", "PBN deal, the strain and the seat on lead"),
    ("N:A... K... Q... J... NT Z", "'Z' is not a seat for the lead"),
    ("N:A... K... Q... - NT W", "W's hand is '-': a full state shows every hand"),
    ("N:A... K... Q... J... NT W out:K...", "only a view lists the cards out of play"),
    ("N:A... K... Q... J... NT W SZ", "'SZ' is not a card"),
    ("N:A... K... Q... J... NT W SA", "card 1 (SA): W does not hold SA"),
    ("N:A... K... Q... J... NT W SJ SA SK SQ SJ", "card 5 (SJ): the hand is over"),
    ("N:A2... K3... Q4... J5... NT W SJ SA SK SQ SJ", "card 5 (SJ): SJ was played in trick 1"),
    ("N:A.2.. K3... Q4... J5... NT W SJ H2", "card 2 (H2): N must follow spades: holds SA"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_every_notation_error_names_its_culprit(text, message):
    with pytest.raises(NotationError, match=None) as error:
        Bridge.read_position(text)
    assert message in str(error.value)


def test_moves_are_cards_and_illegal_ones_say_why():
    state = Bridge.from_position("N:AK.2.. Q.3.4. J5.4.. T.9.8. H W")
    assert [state.format_move(move) for move in state.legal_moves()] == ["ST", "H9", "D8"]
    state.play_text("h9")
    with pytest.raises(IllegalMoveError, match="N must follow hearts: holds H2"):
        state.parse_move("SA")
    with pytest.raises(IllegalMoveError, match="N does not hold SJ"):
        state.parse_move("SJ")
    with pytest.raises(IllegalMoveError, match="H9 was played in trick 1"):
        state.parse_move("H9")
    with pytest.raises(NotationError, match="'H1' is not a card"):
        state.parse_move("H1")
    assert state.legal_moves() == [read_card("H2")]
    state.play_line(["H2", "H3", "H4"])  # West's nine of trumps wins
    assert state.seat_to_play() == 3 and state.tricks_taken() == (0, 1)
    state.play_text("D8")
    # North has no diamond: any card, ordered by suit, then rank high to low
    assert [state.format_move(move) for move in state.legal_moves()] == ["SA", "SK"]


@pytest.mark.parametrize(
    ("trick", "strain", "winner"),
    [
        (["SA", "S2", "S3", "S4"], 4, 0),  # the ace of the suit led
        (["S2", "SA", "S3", "S4"], 4, 1),
        (["S2", "HA", "S3", "S4"], 4, 3),  # a discard never wins in no trumps
        (["S2", "H3", "S3", "S4"], 1, 1),  # a trump beats the suit led
        (["S2", "H3", "H4", "SA"], 1, 2),  # the higher trump wins
        (["H2", "SA", "HK", "H3"], 0, 1),  # the trump wins against the king led
        (["S2", "D3", "C4", "SK"], 1, 3),  # discards in two suits, no trump played
        (["S2", "D3", "C4", "S3"], 3, 2),  # the only trump
    ],
)
def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led(trick, strain, winner):
    seats = [(seat, read_card(card)) for seat, card in enumerate(trick)]
    assert trick_winner(seats, strain) == winner


def test_the_winner_of_a_trick_leads_the_next_and_tricks_are_counted():
    state = Bridge.from_position("N:A2... K3... Q4... 5.2.. S E")
    assert state.seat_to_play() == 1 and state.to_move() == 1
    state.play_line(["SK", "SQ", "S5", "SA"])  # North's ace wins
    assert state.seat_to_play() == 0 and state.to_move() == 0
    assert state.tricks_taken() == (1, 0) and state.tricks_left() == 1
    state.play_line(["S2", "S3", "S4"])
    assert state.current_trick() == [(0, 0), (1, 1), (2, 2)]
    state.play_text("H2")  # West's heart is no trump: South's S4 wins
    assert state.is_terminal() and state.legal_moves() == []
    assert state.tricks_taken() == (2, 0) and state.returns() == (2.0, -2.0)
    assert state.terminal_reason() == "NS took 2 tricks, EW 0"
    state.undo()
    assert state.current_trick() == [(0, 0), (1, 1), (2, 2)] and state.seat_to_play() == 3
    for _ in range(3):
        state.undo()
    assert state.tricks_taken() == (1, 0) and state.seat_to_play() == 0
    for _ in range(4):
        state.undo()
    assert state.position() == "N:A2... K3... Q4... 5.2.. S E"


def brute_force_count(hands: list[list[str]], leader: int, strain: str, tricks: int) -> int:
    """Play sequences of `tricks` tricks, counted on card texts with the rules written out
    again here (follow suit; highest trump, else highest of the suit led)."""
    if tricks == 0:
        return 1

    def key(card: str, led: str) -> int:
        return (2 if card[0] == strain else 1 if card[0] == led else 0) * 20 + RANKS.index(card[1])

    total = 0

    def play(seat: int, trick: list[tuple[int, str]]) -> None:
        nonlocal total
        if len(trick) == 4:
            led = trick[0][1][0]
            winner = max(trick, key=lambda played: key(played[1], led))[0]
            rest = [[c for c in hand if c not in {c for _, c in trick}] for hand in hands]
            total += brute_force_count(rest, winner, strain, tricks - 1)
            return
        hand = hands[seat]
        if trick and any(c[0] == trick[0][1][0] for c in hand):
            hand = [c for c in hand if c[0] == trick[0][1][0]]
        for card in hand:
            play((seat + 1) % 4, [*trick, (seat, card)])

    play(leader, [])
    return total


COUNTS = {1: 42, 2: 158, 3: 1560}
"""The counts (both ways) of the endings below, for the record."""


@pytest.mark.parametrize(("seed", "size", "strain"), [(1, 3, "NT"), (2, 3, "S"), (3, 4, "H")])
def test_play_sequences_of_endings_are_counted_as_a_brute_force_counts_them(seed, size, strain):
    rng = random.Random(seed)
    hands = random_deal(rng, size)
    leader = rng.randrange(4)
    state = Bridge.from_position(f"{pbn(hands)} {strain} {'NESW'[leader]}")
    expected = brute_force_count(hands, leader, strain[0] if strain != "NT" else "-", size)
    assert perft(state, 4 * size) == expected == COUNTS[seed]


def test_the_default_deal_counts_its_first_trick():
    state = Bridge.from_position("")
    # West leads any of its 13 cards; the others follow with their 3 or 4 cards of the suit
    counts = {"S": 4 * 3 * 3, "H": 3 * 3 * 3, "D": 3 * 3 * 4, "C": 3 * 4 * 3}
    expected = sum(counts[card_text(card)[0]] for card in cards_of(state.hand_masks()[3]))
    assert perft(state, 4) == expected == 432


def test_a_whole_hand_is_played_and_scored():
    state = Bridge.from_position("")
    rng = random.Random(11)
    while not state.is_terminal():
        state.play(rng.choice(state.legal_moves()))
    ns, ew = state.tricks_taken()
    assert ns + ew == 13 and state.returns() == (ns - ew, ew - ns)
    assert state.hand_masks() == (0, 0, 0, 0) and state.tricks_left() == 0
    assert state.terminal_reason() == f"NS took {ns} tricks, EW {ew}"
    assert len(state.position().split()) == 6 + 52
    # three rounds of spades won by North's honours, then North's last spade, on which
    # everyone discards a heart
    play = Bridge.from_position("")
    play.play_line(["S4", "SA", "ST", "S7", "SK", "S9", "S6", "S3", "SQ", "S8", "S5", "S2"])
    assert play.tricks_taken() == (3, 0) and play.seat_to_play() == 0
    play.play_line(["SJ", "H5", "H2", "HJ"])
    assert play.tricks_taken() == (4, 0) and play.seat_to_play() == 0
    assert hand_text(play.hand_masks()[3]) == ".AKQ.T98.765"


def final_ns_tricks(state: Bridge) -> int:
    """North-South's tricks at the end with best play: NS maximise them, EW minimise."""
    if state.is_terminal():
        return state.tricks_taken()[0]
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(final_ns_tricks(state))
        state.undo()
    return max(values) if state.to_move() == 0 else min(values)


def card_values(state: Bridge) -> dict[str, int]:
    """Each legal card's tricks from here (the current trick included) for the side of the
    seat to play, with best play after it."""
    side, left, ns_before = state.to_move(), state.tricks_left(), state.tricks_taken()[0]
    values = {}
    for move in state.legal_moves():
        state.play(move)
        ns = final_ns_tricks(state) - ns_before
        state.undo()
        values[card_text(move)] = ns if side == 0 else left - ns
    return values


def dds_values(deal: Deal) -> dict[str, int]:
    """DDS's tricks for each card it lists (endplay writes suits as symbols)."""
    return {
        "SHDC"["♠♥♦♣".index(str(card)[0])] + str(card)[1:]: tricks
        for card, tricks in dds.solve_board(deal)
    }


@pytest.mark.parametrize("seed", range(6))
def test_small_endings_have_the_values_dds_finds_card_by_card(seed):
    """3-card endings, a third of the 20 contracts each: every card DDS values has its value
    by minimax over our rules, at the trick's start and after one or two cards of it."""
    rng = random.Random(100 + seed)
    hands = random_deal(rng, 3)
    text = pbn(hands)
    for strain, leader in product(range(5), range(4)):
        if (strain + leader + seed) % 3:
            continue
        state = Bridge.from_position(f"{text} {STRAINS[strain]} {'NESW'[leader]}")
        deal = Deal(text)
        deal.first, deal.trump = ENDPLAY_SEATS[leader], ENDPLAY_STRAINS[strain]
        for _ in range(1 + rng.randrange(3)):
            ours, theirs = card_values(state), dds_values(deal)
            assert theirs and set(theirs) <= set(ours), (state.position(), theirs)
            assert {card: ours[card] for card in theirs} == theirs, state.position()
            assert max(ours.values()) == max(theirs.values())
            card = rng.choice(sorted(theirs))
            state.play_text(card)
            deal.play(card)
