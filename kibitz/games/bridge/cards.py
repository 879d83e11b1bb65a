"""Bridge's cards, seats and strains as ints, and their notation (docs/games.md, "Bridge").

Seats: N=0, E=1, S=2, W=3, clockwise; a seat's side is ``seat % 2`` (0 = North-South,
1 = East-West). Suits: S=0, H=1, D=2, C=3; a strain (trumps) is a suit, or 4 for no
trumps. Ranks: 0 = '2' ... 8 = 'T', 9 = 'J', 10 = 'Q', 11 = 'K', 12 = 'A'. A card is the
int ``suit * 13 + rank`` (0..51); a hand is an int bitmask with bit `card` set. A card is
written suit letter then rank letter, ``SA``, ``H7``, ``DT`` (``10`` is read for ``T``, and
either case); a hand in PBN, ``spades.hearts.diamonds.clubs`` with ranks high to low
(``AKQJ.T98.765.432``), ``-`` for a hand not known.
"""

from __future__ import annotations

from collections.abc import Iterator

from kibitz.games.base import NotationError, quoted

SEATS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "23456789TJQKA"
STRAINS = ("S", "H", "D", "C", "NT")
NO_TRUMP = 4
SIDES = ("NS", "EW")
DECK = (1 << 52) - 1
"""Every card."""
SUIT_MASK = (1 << 13) - 1
"""A hand's cards of suit 0 (shift by ``13 * suit`` for the others)."""
UNKNOWN = "-"
"""A hand not known (a view's hidden seat)."""
CARD_TEXTS = tuple(suit + rank for suit in SUITS for rank in RANKS)
"""Each card's text, by card."""
SUIT_TEXTS = tuple(
    "".join(RANKS[rank] for rank in range(12, -1, -1) if held >> rank & 1)
    for held in range(1 << 13)
)
"""The ranks of each holding of one suit (a 13-bit mask), high to low."""


def card_text(card: int) -> str:
    """``SA``, ``H7``: the suit letter, then the rank letter."""
    return CARD_TEXTS[card]


def read_card(text: str) -> int:
    """A card from its text (either case, ``10`` for ``T``); NotationError naming it."""
    word = text.strip().upper()
    suit, rank = word[:1], word[1:].replace("10", "T")
    if len(word) < 2 or suit not in SUITS or len(rank) != 1 or rank not in RANKS:
        raise NotationError(
            f"{quoted(text)} is not a card: a suit letter (S, H, D, C) then a rank "
            "(A, K, Q, J, T, 9 ... 2), e.g. SA, H7, DT"
        )
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def cards_of(hand: int) -> Iterator[int]:
    """A hand's cards by suit (spades first), each suit high to low: the order legal moves
    are listed in."""
    for suit in range(4):
        held = hand >> (13 * suit) & SUIT_MASK
        while held:
            rank = held.bit_length() - 1
            held ^= 1 << rank
            yield suit * 13 + rank


def suit_of(hand: int, suit: int) -> int:
    """The cards of `suit` in `hand` (a hand)."""
    return hand & SUIT_MASK << (13 * suit)


def hand_text(hand: int) -> str:
    """A hand in PBN: ``AKQJ.T98.765.432``."""
    return ".".join(SUIT_TEXTS[hand >> (13 * suit) & SUIT_MASK] for suit in range(4))


def read_hand(text: str, whose: str) -> int:
    """A hand in PBN; NotationError naming the culprit and `whose` ("North's hand")."""
    suits = text.split(".")
    if len(suits) != 4:
        raise NotationError(
            f"{whose} {quoted(text)} is not four suits spades.hearts.diamonds.clubs "
            "(e.g. AKQJ.T98.765.432)"
        )
    hand = 0
    for suit, ranks in enumerate(suits):
        for letter in ranks.upper().replace("10", "T"):
            if letter not in RANKS:
                raise NotationError(f"{whose} {quoted(text)}: {quoted(letter)} is not a rank")
            card = suit * 13 + RANKS.index(letter)
            if hand >> card & 1:
                raise NotationError(f"{whose} holds {card_text(card)} twice")
            hand |= 1 << card
    return hand


def read_deal(text: str) -> list[int | None]:
    """A PBN deal, ``N:hand hand hand hand`` (the first seat, then the hands clockwise from
    it), as each seat's hand by seat (None: ``-``, not known). NotationError for a card
    dealt twice; the hands' lengths are checked by the caller."""
    first, colon, rest = text.partition(":")
    if not colon or first.upper() not in SEATS or len(first) != 1:
        raise NotationError(
            f"the deal {quoted(text)} is PBN: a seat (N, E, S, W), a colon, four hands "
            "clockwise from it"
        )
    texts = rest.split()
    if len(texts) != 4:
        raise NotationError(f"the deal has {len(texts)} hands, not 4")
    start = SEATS.index(first.upper())
    hands: list[int | None] = [None] * 4
    for offset, hand_text_ in enumerate(texts):
        seat = (start + offset) % 4
        whose = f"{SEAT_NAMES[seat]}'s hand"
        hands[seat] = None if hand_text_ == UNKNOWN else read_hand(hand_text_, whose)
    seen = 0
    for hand in hands:
        if hand is None:
            continue
        twice = seen & hand
        if twice:
            card = next(cards_of(twice))
            holders = [SEATS[s] for s in range(4) if (hands[s] or 0) >> card & 1]
            raise NotationError(f"{card_text(card)} is dealt twice (to {' and '.join(holders)})")
        seen |= hand
    return hands


def deal_text(hands: list[int | None]) -> str:
    """A deal in PBN from North (None: ``-``)."""
    return "N:" + " ".join(UNKNOWN if hand is None else hand_text(hand) for hand in hands)


def read_seat(text: str, what: str) -> int:
    """A seat letter (either case); NotationError naming `what` it was for."""
    if text.upper() not in SEATS or len(text) != 1:
        raise NotationError(f"{quoted(text)} is not a seat for {what}: N, E, S or W")
    return SEATS.index(text.upper())


def read_strain(text: str) -> int:
    """A strain, ``S``, ``H``, ``D``, ``C`` or ``NT`` (either case)."""
    if text.upper() not in STRAINS:
        raise NotationError(f"{quoted(text)} is not a strain: S, H, D, C or NT")
    return STRAINS.index(text.upper())
