"""Bridge card play: one contract played out from a deal, by two players, the sides
North-South and East-West (docs/games.md, "Bridge"). The auction is outside it.

A position is a PBN deal, the strain and the seat on lead, then the cards played so far:
``N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 NT W SA S2``. The
hands may hold fewer than 13 cards (an ending), all as many. The leader plays first, the
others follow suit if they can, the highest trump wins the trick, else the highest card of
the suit led, and the winner leads next. Declarer is the seat before the position's leader
(who is declarer's left-hand opponent), dummy declarer's partner. `returns()` are the
tricks North-South took since the position's start minus East-West's, and the negative.

A view (the `HiddenInformation` contract) is one seat's knowledge: its own hand, dummy's once
the opening lead is made (in an ending, from the start), every card played. Its text names
the seat, writes ``-`` for a hand it does not see, and in an ending lists the cards out of
play (played before the position's start, so public): ``S view N:- - 765.432.AKQJ.T98 - NT
W``; West's view of the ending ``N:AK.2.. Q.3.4. J5.4.. T.9.8. H W`` is ``W view N:AK.2.. -
- T.9.8. H W out:9876432.AKQJT8765.AKQJT976532.AKQJT98765432``. A side's view is that of
the seat that decides its next card: the seat to play where the side is to move, else the
side's next seat clockwise, and declarer's for dummy (declarer plays dummy's cards). A view
cannot play: engines search the deals it samples.
"""

from __future__ import annotations

import random
from typing import ClassVar

from kibitz.games.base import Game, IllegalMoveError, Move, NotationError
from kibitz.games.bridge import layout
from kibitz.games.bridge.cards import (
    CARD_TEXTS,
    DECK,
    SEATS,
    SIDES,
    STRAINS,
    SUIT_MASK,
    SUIT_NAMES,
    UNKNOWN,
    card_text,
    cards_of,
    deal_text,
    hand_text,
    read_card,
    read_deal,
    read_hand,
    read_seat,
    read_strain,
    suit_of,
)
from kibitz.games.bridge.unseen import UnseenDeals
from kibitz.games.capabilities import Evaluation, HashKey, HiddenInformation, Presentation
from kibitz.games.presentation import Diagram

DEFAULT_POSITION = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 NT W"
"""The default deal: each hand a run of each suit, no trumps, West on lead."""
EXAMPLE = DEFAULT_POSITION + " SA S2"
VIEW_WORD = "view"
OUT_PREFIX = "out:"
MAX_TEXT = 1000
"""The longest position text read (a whole played hand is under 300 characters)."""


def trick_winner(trick: list[tuple[int, int]], strain: int) -> int:
    """The seat that wins a trick of (seat, card) in order of play."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        suit = card // 13
        if suit == best // 13:
            if card > best:
                best_seat, best = seat, card
        elif suit == strain:
            best_seat, best = seat, card
    return best_seat


class Bridge(Game, HiddenInformation, HashKey, Evaluation, Presentation):
    """The card play of one bridge contract; see the module docstring. Player 0 is
    North-South, player 1 East-West; a move is a card (``suit * 13 + rank``)."""

    name: ClassVar[str] = "bridge"
    title: ClassVar[str] = "Bridge (card play)"
    default_position: ClassVar[str] = DEFAULT_POSITION
    default_engine: ClassVar[str | None] = "pimc"
    notation: ClassVar[str] = "bridge-pbn"
    player_names: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    notation_help: ClassVar[str] = (
        "The card play of one contract (no auction). A position: a PBN deal (the first "
        "seat, a colon, the four hands clockwise from it, each spades.hearts.diamonds.clubs), "
        "the strain (S, H, D, C, NT), the seat on lead (N, E, S, W), then the cards played, "
        f"e.g. {EXAMPLE!r}; hands of fewer than 13 cards are an ending. Declarer is the seat "
        "before the leader. A view (one seat's knowledge): the seat, 'view', the deal with "
        "'-' for each hand it does not see (it sees its own and, after the opening lead, "
        "dummy's), in an ending 'out:' and the cards out of play, then the rest as above, "
        "e.g. 'S view N:- - 765.432.AKQJ.T98 - NT W SA'. Moves are cards: SA, H7, DT, C2."
    )

    def __init__(
        self,
        start: list[int | None],
        strain: int,
        leader: int,
        out: int = 0,
        viewer: int | None = None,
    ) -> None:
        self._start = start
        """Each seat's hand at the position's start (None: a view does not see it)."""
        self._strain = strain
        self._leader = leader
        self._out = out
        """The cards in no hand at the start (played before it)."""
        self._viewer = viewer
        """None for a full state; the seat whose view this is."""
        self._size = max(hand.bit_count() for hand in start if hand is not None)
        """Cards per hand at the start: the tricks of the position."""
        self._hands = [hand or 0 for hand in start]
        """Each seat's cards left (a hidden seat's: none known)."""
        self._played: list[tuple[int, int]] = []
        """(seat, card) of every card played since the start, in order."""
        self._gone = 0
        """The cards played since the start (a hand)."""
        self._trick: list[tuple[int, int]] = []
        self._seat = leader
        self._taken = [0, 0]
        self._heads: dict[tuple[int | None, tuple[int, ...]], str] = {}
        """The texts of the deal, strain and leader by (viewer, seats shown), written once
        (clones share them)."""
        self._deals: UnseenDeals | None = None
        """A view's deals of its unseen cards (counted once, when it is read)."""

    # -- the accessors solvers read (issue 35's shared representation) ----------------------

    def seat_to_play(self) -> int:
        """The seat to play the next card (N=0, E=1, S=2, W=3)."""
        return self._seat

    def hand_masks(self) -> tuple[int, int, int, int]:
        """Each seat's cards left, as bitmasks of ``suit * 13 + rank``."""
        return (self._hands[0], self._hands[1], self._hands[2], self._hands[3])

    def strain(self) -> int:
        """The trump suit 0..3 (S, H, D, C), or 4 for no trumps."""
        return self._strain

    def current_trick(self) -> list[tuple[int, int]]:
        """(seat, card) played to the unfinished trick, in order."""
        return list(self._trick)

    def tricks_taken(self) -> tuple[int, int]:
        """Tricks won by North-South and by East-West since the position's start."""
        return (self._taken[0], self._taken[1])

    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return self._size - len(self._played) // 4

    def leader(self) -> int:
        """The seat that led the position's first trick."""
        return self._leader

    def declarer(self) -> int:
        """The seat before the leader."""
        return (self._leader + 3) % 4

    def dummy(self) -> int:
        """Declarer's partner."""
        return (self._leader + 1) % 4

    def start_hands(self) -> list[int | None]:
        """Each seat's hand at the position's start (None: a view does not see it)."""
        return list(self._start)

    def played(self) -> list[tuple[int, int]]:
        """(seat, card) of every card played since the start, in order."""
        return list(self._played)

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Bridge:
        if len(text) > MAX_TEXT:
            raise NotationError(f"a bridge position has at most {MAX_TEXT} characters")
        tokens = (text.strip() or DEFAULT_POSITION).split()
        viewer = None
        if len(tokens) > 1 and tokens[1].lower() == VIEW_WORD:
            viewer = read_seat(tokens[0], "the view")
            tokens = tokens[2:]
        hands = 1  # the deal's words: the first, then each with a '.' or a '-'
        while hands < len(tokens) and ("." in tokens[hands] or tokens[hands] == UNKNOWN):
            hands += 1
        if not tokens or ":" not in tokens[0] or len(tokens) < hands + 2:
            raise NotationError(
                "a bridge position is a PBN deal, the strain and the seat on lead, then the "
                f"cards played (e.g. {EXAMPLE!r})"
            )
        deal = read_deal(" ".join(tokens[:hands]))
        strain = read_strain(tokens[hands])
        leader = read_seat(tokens[hands + 1], "the lead")
        rest = tokens[hands + 2 :]
        out_text = None
        if rest and rest[0].lower().startswith(OUT_PREFIX):
            out_text, rest = rest[0][len(OUT_PREFIX) :], rest[1:]
        cards = [(index, token, read_card(token)) for index, token in enumerate(rest, start=1)]
        if viewer is None:
            return cls._read_full(deal, strain, leader, out_text, cards)
        return cls._read_view(viewer, deal, strain, leader, out_text, cards)

    @classmethod
    def _read_full(
        cls,
        deal: list[int | None],
        strain: int,
        leader: int,
        out_text: str | None,
        cards: list[tuple[int, str, int]],
    ) -> Bridge:
        if None in deal:
            raise NotationError(
                f"{SEATS[deal.index(None)]}'s hand is '-': a full state shows every hand "
                "(a view starts with its seat, e.g. 'S view N:- ...')"
            )
        if out_text is not None:
            raise NotationError("only a view lists the cards out of play ('out:')")
        hands = [hand or 0 for hand in deal]
        _check_lengths(hands, range(4))
        state = cls(list(hands), strain, leader, DECK & ~sum(hands))
        for index, token, card in cards:
            state._replay(index, token, card)
        return state

    @classmethod
    def _read_view(
        cls,
        viewer: int,
        deal: list[int | None],
        strain: int,
        leader: int,
        out_text: str | None,
        cards: list[tuple[int, str, int]],
    ) -> Bridge:
        declarer, dummy = (leader + 3) % 4, (leader + 1) % 4
        if viewer == dummy:
            raise NotationError(
                f"{SEATS[viewer]} is dummy: the declaring side's view is declarer's "
                f"({SEATS[declarer]})"
            )
        if deal[viewer] is None:
            raise NotationError(f"{SEATS[viewer]}'s view shows {SEATS[viewer]}'s own hand")
        size = (deal[viewer] or 0).bit_count()
        shown = size < 13 or bool(cards)
        for seat in range(4):
            if seat == viewer or deal[seat] is None:
                continue
            if seat != dummy:
                raise NotationError(
                    f"{SEATS[viewer]} does not see {SEATS[seat]}'s hand: write '-' for it"
                )
            if not shown:
                raise NotationError(
                    f"dummy ({SEATS[dummy]}) is seen once the opening lead is made: write "
                    "'-' for its hand before it"
                )
        if shown and deal[dummy] is None:
            raise NotationError(
                f"dummy ({SEATS[dummy]}) is seen after the opening lead (and in an ending): "
                "write its hand"
            )
        known = [seat for seat in range(4) if deal[seat] is not None]
        _check_lengths([hand or 0 for hand in deal], known)
        out = 0
        if size < 13:
            if out_text is None:
                raise NotationError(
                    f"in an ending (hands of {size} cards) a view lists the cards out of play "
                    "after the seat on lead: 'out:' and a hand, e.g. 'out:AK.QJ..T'"
                )
            out = read_hand(out_text, "the cards out of play") if out_text else 0
            _check_out(out, size, deal)
        elif out_text is not None:
            raise NotationError("with 13 cards a hand no card is out of play: no 'out:'")
        view = cls(deal, strain, leader, out, viewer)
        for index, token, card in cards:
            view._replay(index, token, card)
        deciding = view._deciding_seat(viewer % 2)
        if deciding != viewer:
            raise NotationError(
                f"here {SIDES[viewer % 2]}'s view is {SEATS[deciding]}'s (the seat that decides "
                f"its next card), not {SEATS[viewer]}'s"
            )
        view._deals = view._unseen_deals()
        if not view._deals.total():
            raise NotationError(
                "no deal of the unseen cards fits this view (the hidden seats' voids shown)"
            )
        return view

    def _replay(self, index: int, token: str, card: int) -> None:
        """Play card `index` of a text being read (`token`); NotationError where illegal."""
        if self.is_terminal():
            raise NotationError(f"card {index} ({token}): the hand is over")
        problem = self._illegal(card)
        if problem:
            raise NotationError(f"card {index} ({token}): {problem}")
        self._advance(card)

    def _illegal(self, card: int) -> str:
        """Why `card` cannot be played here ("" where it can)."""
        seat, name = self._seat, card_text(card)
        if self._gone >> card & 1:
            trick = next(i for i, (_, c) in enumerate(self._played) if c == card) // 4 + 1
            return f"{name} was played in trick {trick}"
        if self._sees(seat):
            hand = self._hands[seat]
            if not hand >> card & 1:
                return f"{SEATS[seat]} does not hold {name}"
            if self._trick:
                led = self._trick[0][1] // 13
                following = suit_of(hand, led)
                if card // 13 != led and following:
                    held = " ".join(card_text(c) for c in cards_of(following))
                    return f"{SEATS[seat]} must follow {SUIT_NAMES[led]}: holds {held}"
            return ""
        if self._out >> card & 1:
            return f"{name} is out of play (played before the position's start)"
        holder = next((s for s in range(4) if (self._start[s] or 0) >> card & 1), None)
        if holder is not None:
            return f"{name} is {SEATS[holder]}'s, not {SEATS[seat]}'s"
        if self._voids(seat) >> (card // 13) & 1:
            return f"{SEATS[seat]} has shown out of {SUIT_NAMES[card // 13]}"
        return ""

    def position(self) -> str:
        shown = tuple(seat for seat in range(4) if self._sees(seat))
        return self._text(self._viewer, shown)

    def _text(self, viewer: int | None, shown: tuple[int, ...]) -> str:
        """The text of `viewer`'s view (None: the full state) that shows the hands of the
        seats `shown`, then the cards played."""
        head = self._heads.get((viewer, shown))
        if head is None:
            hands = [hand if seat in shown else None for seat, hand in enumerate(self._start)]
            words = [deal_text(hands), STRAINS[self._strain], SEATS[self._leader]]
            if viewer is not None:
                words.insert(0, f"{SEATS[viewer]} {VIEW_WORD}")
                if self._size < 13:
                    words.append(OUT_PREFIX + hand_text(self._out))
            head = self._heads[viewer, shown] = " ".join(words)
        if not self._played:
            return head
        return head + " " + " ".join([CARD_TEXTS[card] for _, card in self._played])

    def parse_move(self, text: str) -> Move:
        card = read_card(text)
        if self.is_terminal():
            raise IllegalMoveError(f"the hand is over ({self.terminal_reason()})")
        problem = self._illegal(card)
        if problem:
            raise IllegalMoveError(problem)
        return card

    def format_move(self, move: Move) -> str:
        return card_text(move)  # type: ignore[arg-type]

    # -- rules ------------------------------------------------------------------------------

    def to_move(self) -> int:
        return self._seat % 2

    def legal_moves(self) -> list[Move]:
        if len(self._played) == 4 * self._size:
            return []
        seat = self._seat
        if not self._sees(seat):  # a view: the unseen cards the hidden seat may hold
            hand = self._unseen()
            for suit in range(4):
                if self._voids(seat) >> suit & 1:
                    hand &= ~suit_of(DECK, suit)
            return list(cards_of(hand))
        hand = self._hands[seat]
        if self._trick:
            following = suit_of(hand, self._trick[0][1] // 13)
            if following:
                hand = following
        return list(cards_of(hand))

    def play(self, move: Move) -> None:
        self._full_state_only("play")
        self._advance(move)  # type: ignore[arg-type]

    def _advance(self, card: int) -> None:
        seat = self._seat
        self._hands[seat] &= ~(1 << card)
        self._gone |= 1 << card
        self._played.append((seat, card))
        self._trick.append((seat, card))
        if len(self._trick) == 4:
            winner = trick_winner(self._trick, self._strain)
            self._taken[winner % 2] += 1
            self._trick = []
            self._seat = winner
        else:
            self._seat = (seat + 1) % 4

    def undo(self) -> None:
        self._full_state_only("undo")
        seat, card = self._played.pop()
        self._hands[seat] |= 1 << card
        self._gone ^= 1 << card
        if self._trick:
            self._trick.pop()
        else:  # the card finished a trick, won by the seat now on lead
            self._taken[self._seat % 2] -= 1
            self._trick = self._played[-3:]
        self._seat = seat

    def is_terminal(self) -> bool:
        return len(self._played) == 4 * self._size

    def returns(self) -> tuple[float, ...]:
        ns, ew = self._taken
        return (float(ns - ew), float(ew - ns))

    def terminal_reason(self) -> str:
        return f"NS took {self._taken[0]} tricks, EW {self._taken[1]}"

    def clone(self) -> Bridge:
        other = Bridge(self._start, self._strain, self._leader, self._out, self._viewer)
        other._hands = list(self._hands)
        other._played = list(self._played)
        other._gone = self._gone
        other._trick = list(self._trick)
        other._seat = self._seat
        other._taken = list(self._taken)
        other._heads = self._heads
        return other

    def render(self) -> str:
        return layout.render(self)

    def _full_state_only(self, what: str) -> None:
        if self._viewer is not None:
            raise IllegalMoveError(
                f"a view cannot {what} cards: the hidden hands are not known (search a "
                "sampled deal)"
            )

    # -- capabilities -----------------------------------------------------------------------

    def key(self) -> int:
        return hash(
            (
                tuple(self._hands),
                self._gone,
                tuple(self._trick),
                self._seat,
                self._taken[0],
                self._strain,
                self._viewer,
            )
        )

    def evaluate(self, player: int | None = None) -> int:
        """The tricks the side to move leads by so far plus its quick tricks (below), in
        centi-tricks: the side to move takes its quick tricks, the other tricks split
        evenly. A rough estimate that ignores trumps and the current trick."""
        mover = self._seat % 2
        value = 100 * (self._taken[mover] - self._taken[1 - mover] + self.quick_tricks(mover))
        return value if player is None or player == mover else -value

    def quick_tricks(self, side: int) -> int:
        """Top winners of `side`: in each suit, the run of highest cards left that the
        side's hands hold, at most as many as the longer of its two holdings; in all at most
        the tricks left."""
        mine = self._hands[side] | self._hands[side + 2]
        left = self._hands[0] | self._hands[1] | self._hands[2] | self._hands[3]
        total = 0
        for suit in range(4):
            cards = left >> (13 * suit) & SUIT_MASK
            ours = mine >> (13 * suit) & SUIT_MASK
            longest = max(
                (self._hands[seat] >> (13 * suit) & SUIT_MASK).bit_count()
                for seat in (side, side + 2)
            )
            run = 0
            while cards and run < longest:
                top = 1 << (cards.bit_length() - 1)
                if not ours & top:
                    break
                run += 1
                cards ^= top
            total += run
        return min(total, self.tricks_left())

    def diagram(self, last: Move | None = None) -> Diagram:
        return layout.diagram(self, last)

    # -- hidden information -----------------------------------------------------------------

    def is_view(self) -> bool:
        return self._viewer is not None

    def viewer(self) -> int | None:
        """The seat whose view this is (None: a full state)."""
        return self._viewer

    def observer(self) -> int:
        return self._seat % 2 if self._viewer is None else self._viewer % 2

    def dummy_shown(self) -> bool:
        """Whether dummy's hand is face up: after the opening lead, and in an ending."""
        return self._size < 13 or bool(self._played)

    def _sees(self, seat: int) -> bool:
        """Whether this object knows `seat`'s cards (a full state: every seat's)."""
        return self._start[seat] is not None

    def _deciding_seat(self, side: int) -> int:
        """The seat whose view is `side`'s: the seat of the side that plays its next card
        (the seat to play, else the next clockwise), declarer for dummy."""
        seat = self._seat if self._seat % 2 == side else (self._seat + 1) % 4
        return self.declarer() if seat == self.dummy() else seat

    def view(self, player: int) -> str:
        if self._viewer is not None:
            if player != self._viewer % 2:
                raise ValueError(
                    f"{SEATS[self._viewer]}'s view does not know what {SIDES[player]} sees"
                )
            return self.position()
        seat = self._deciding_seat(player)
        shown = tuple(sorted({seat, self.dummy()})) if self.dummy_shown() else (seat,)
        return self._text(seat, shown)

    def _unseen(self) -> int:
        """The cards a view does not see: in no hand it sees, not out of play, not played."""
        seen = self._out | self._gone
        for hand in self._start:
            seen |= hand or 0
        return DECK & ~seen

    def _voids(self, seat: int) -> int:
        """The suits (bit `suit`) `seat` has shown out of: it did not follow to them."""
        voids = 0
        for at in range(0, len(self._played), 4):
            trick = self._played[at : at + 4]
            led = trick[0][1] // 13
            for who, card in trick[1:]:
                if who == seat and card // 13 != led:
                    voids |= 1 << led
        return voids

    def _unseen_deals(self) -> UnseenDeals:
        hidden = tuple(seat for seat in range(4) if not self._sees(seat))
        played = [0] * 4
        for seat, _ in self._played:
            played[seat] += 1
        return UnseenDeals(
            self._unseen(),
            hidden,
            tuple(self._size - played[seat] for seat in hidden),
            tuple(self._voids(seat) for seat in hidden),
        )

    def sample(self, rng: random.Random) -> Bridge:
        """A full state: the unseen cards dealt to the hidden seats uniformly among the deals
        that give each as many as it has left and none of a suit it showed out of; the
        cards played replayed."""
        if self._viewer is None:
            return self.clone()
        if self._deals is None:
            self._deals = self._unseen_deals()
        drawn = self._deals.draw(rng)
        start = [hand if hand is not None else drawn[seat] for seat, hand in enumerate(self._start)]
        for seat, card in self._played:
            if self._start[seat] is None:
                start[seat] = (start[seat] or 0) | 1 << card
        world = Bridge(start, self._strain, self._leader, self._out)
        for _, card in self._played:
            world._advance(card)
        return world


def _check_lengths(hands: list[int], seats: range | list[int]) -> None:
    """NotationError unless `seats`' hands hold equally many cards, 1 to 13."""
    counts = [hands[seat].bit_count() for seat in seats]
    if len(set(counts)) > 1:
        listed = ", ".join(f"{SEATS[seat]} {hands[seat].bit_count()}" for seat in seats)
        raise NotationError(f"the hands hold different numbers of cards ({listed})")
    if counts and not counts[0]:
        raise NotationError("the hands hold no cards")


def _check_out(out: int, size: int, deal: list[int | None]) -> None:
    """NotationError unless `out` is the cards a view of an ending lists as out of play."""
    if out.bit_count() != 52 - 4 * size:
        raise NotationError(
            f"with {size} cards a hand, {52 - 4 * size} cards are out of play, not "
            f"{out.bit_count()}"
        )
    for seat, hand in enumerate(deal):
        both = out & (hand or 0)
        if both:
            raise NotationError(
                f"{card_text(next(cards_of(both)))} is out of play and in {SEATS[seat]}'s hand"
            )
